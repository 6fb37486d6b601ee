#pragma once
/// The global numbering of a partitioned mesh's unknowns (RankBlockPattern's): elements in the
/// partition's new order (part r's elements contiguous), each with
/// N_e = space_basis_size(space, Dim, p_e) unknowns, so rank r owns one contiguous range.
/// Every rank computes it from the mesh and partition alone, with no communication.
///
///   const MeshPartition partition = partition_mesh(mesh, ranks);
///   Assembler<2> assembler(QuadratureMesh<2>(mesh, conditions, options.pieces, partition, rank),
///                          options);
///   const RankBlockPattern rows = make_rank_block_pattern(
///       assembler.pattern(), partition, rank, partition_dof_offsets(mesh, partition,
///       options.space));
///   petsc::AijMatrix aij(rows);   // MATMPIAIJ over the ranks
#include <memory>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/sparse/rank_block_pattern.hpp"

namespace polydg {

/// The first global unknown of every element by its new index, and the total at the end
/// (size element_count + 1). Throws polydg::Error when the partition is not of this mesh.
template <int Dim>
std::vector<GlobalIndex> partition_dof_offsets(const PolytopicMesh<Dim>& mesh,
                                               const MeshPartition& partition, BasisSpace space);

/// Rank `rank`'s RankBlockPattern for `local`, the pattern of an Assembler on the rank's
/// QuadratureMesh (its owned elements, then its ghosts, as the partition lists them), with
/// `dof_offsets` from partition_dof_offsets. Throws polydg::Error when the pattern's block rows
/// are not the rank's owned and ghost elements, or their sizes differ from the numbering's.
RankBlockPattern make_rank_block_pattern(std::shared_ptr<const BlockPattern> local,
                                         const MeshPartition& partition, int rank,
                                         std::span<const GlobalIndex> dof_offsets);

}  // namespace polydg
