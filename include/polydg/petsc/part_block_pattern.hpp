#pragma once
/// part_block_pattern: the RankBlockPattern of a rank's part read from its file
/// (rank_part_file.hpp), where no rank holds the whole mesh to number the unknowns
/// (partition_dof_offsets). The ranks compute the same numbering together: a rank's owned
/// unknowns follow those of the lower ranks (MPI_Exscan of the owned counts), and each ghost's
/// first unknown comes from its owner (one ElementHalo exchange).
///
///   RankPart<2> part;
///   petsc::on_every_rank([&] { part = read_rank_part<2>("parts", rank, ranks); });
///   const hyperbolic::ElementHalo halo(part.halo);
///   const PolytopicMesh<2> piece(part.submesh.mesh, part.submesh.element_of_cell, degrees);
///   Assembler<2> assembler(QuadratureMesh<2>(piece, conditions, QuadraturePieces::simplices,
///                                            part.submesh.owned_count, part.cut_tag));
///   petsc::AijMatrix aij(petsc::part_block_pattern(assembler.pattern(), halo));
#include <memory>

#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/rank_block_pattern.hpp"

namespace polydg::petsc {

/// Collective on PETSC_COMM_WORLD. `local`: an Assembler's pattern on the rank's part (its
/// owned elements' block rows, then its ghosts'), `halo` the part's. Throws polydg::Error, on
/// every rank, when a rank's pattern has another block row count than its halo's elements, or
/// a ghost's block size differs from its owner's (another degree or space there).
RankBlockPattern part_block_pattern(std::shared_ptr<const BlockPattern> local,
                                    const hyperbolic::ElementHalo& halo);

}  // namespace polydg::petsc
