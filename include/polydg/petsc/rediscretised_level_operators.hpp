#pragma once
/// rediscretised_level_operators: the IP-DG matrix of `coefficients` assembled anew on every
/// coarse level of an AgglomerationHierarchy — the Assembler on the level's agglomerated mesh,
/// so with the penalty of its own elements and quadrature on their sub-simplices — as AIJ
/// matrices for AgglomerationMultigrid::set_level_operators():
///
///   polydg::AgglomerationHierarchy<2> hierarchy(mesh);
///   polydg::petsc::AgglomerationMultigrid multigrid(hierarchy);
///   auto levels = polydg::petsc::rediscretised_level_operators(hierarchy, conditions, data);
///   multigrid.set_level_operators(polydg::petsc::mats_of(levels));
///
/// Element [0] (the finest level, whose matrix is the caller's) is an empty AijMatrix. Unlike
/// Galerkin products PᵀAP, which keep the fine level's penalty on the coarse faces, these
/// carry each level's own (docs/theory.md, "Agglomeration multigrid"). Assembled on the CPU.
#include <petscmat.h>

#include <vector>

#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/level_partition.hpp"
#include "polydg/dg/partition_numbering.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/placement.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg::petsc {

template <int Dim, class Coefficients>
std::vector<AijMatrix> rediscretised_level_operators(const AgglomerationHierarchy<Dim>& hierarchy,
                                                     const BoundaryConditions& conditions,
                                                     const Coefficients& coefficients,
                                                     const AssemblyOptions& options = {},
                                                     Placement placement = Placement::host) {
  std::vector<AijMatrix> operators;
  operators.reserve(std::size_t(hierarchy.level_count()));
  operators.emplace_back();
  for (int level = 1; level < hierarchy.level_count(); ++level) {
    Assembler<Dim> assembler(hierarchy.mesh(level), conditions, options);
    BlockMatrix<double> matrix = assembler.make_matrix();
    assembler.assemble_matrix(coefficients, matrix);
    AijMatrix& aij = operators.emplace_back(*assembler.pattern(), "", placement);
    aij.update(matrix);
  }
  return operators;
}

/// The same over the ranks of PETSC_COMM_WORLD, for AgglomerationMultigrid(hierarchy,
/// partition): each coarse level split as partition_levels splits it (level 0 as `partition`,
/// the finest mesh's), each rank assembling its rows of that level's MPIAIJ on its part of the
/// level's mesh (partition_from_parts, QuadratureMesh of a rank) — the matrices above,
/// renumbered. Collective.
template <int Dim, class Coefficients>
std::vector<AijMatrix> rediscretised_level_operators(const AgglomerationHierarchy<Dim>& hierarchy,
                                                     const MeshPartition& partition,
                                                     const BoundaryConditions& conditions,
                                                     const Coefficients& coefficients,
                                                     const AssemblyOptions& options = {},
                                                     Placement placement = Placement::host) {
  const std::vector<MeshPartition> level_parts = partition_hierarchy(hierarchy, partition);
  const int rank = world_rank();
  std::vector<AijMatrix> operators;
  operators.reserve(std::size_t(hierarchy.level_count()));
  operators.emplace_back();
  for (int level = 1; level < hierarchy.level_count(); ++level) {
    const PolytopicMesh<Dim>& mesh = hierarchy.mesh(level);
    const MeshPartition& parts = level_parts[std::size_t(level)];
    Assembler<Dim> assembler(QuadratureMesh<Dim>(mesh, conditions, options.pieces, parts, rank),
                             options);
    const RankBlockPattern rows = make_rank_block_pattern(
        assembler.pattern(), parts, rank, partition_dof_offsets(mesh, parts, options.space));
    BlockMatrix<double> matrix = assembler.make_matrix();
    assembler.assemble_matrix(coefficients, matrix);
    AijMatrix& aij = operators.emplace_back(rows, "", placement);
    aij.update(matrix);
  }
  return operators;
}

/// The Mats of `matrices` (null for an empty one), for set_level_operators().
inline std::vector<Mat> mats_of(const std::vector<AijMatrix>& matrices) {
  std::vector<Mat> mats;
  mats.reserve(matrices.size());
  for (const AijMatrix& matrix : matrices) mats.push_back(matrix.mat());
  return mats;
}

}  // namespace polydg::petsc
