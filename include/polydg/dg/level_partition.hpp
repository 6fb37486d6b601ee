#pragma once
/// The levels of an agglomeration hierarchy over MPI ranks, for a distributed multigrid
/// (petsc::AgglomerationMultigrid with a MeshPartition): which rank owns each element of each
/// level, and each element's first unknown in that level's global numbering, where rank r owns
/// one contiguous range of unknowns (the layout of PETSc's MPI Vecs and MPIAIJ rows).
///
/// Level 0 is numbered as the partition numbers the finest mesh (partition_dof_offsets: the
/// elements in the partition's new order), so its rows are the RankBlockPattern's. A coarse
/// element of level ℓ + 1 goes to the rank that owns the most of its children's unknowns on
/// level ℓ (the lowest such rank on a tie): the prolongation's rows of a rank then mostly
/// read its own coarse columns, and a degree level (the same elements, one degree lower)
/// keeps every element where it was. Within a rank, coarse elements keep their level's order.
/// Every rank computes the same result from the hierarchy and the partition alone.
///
///   const std::vector<LevelPartition> levels =
///       partition_levels(hierarchy.prolongations(), finest_offsets, partition);
///   levels[l].rank_dof_begin[rank]            // rank's first unknown on level l
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/prolongation.hpp"
#include "polydg/mesh/mesh_partition.hpp"

namespace polydg {

struct LevelPartition {
  /// Per element of the level (its own index): the rank that owns it,
  std::vector<int> owner;
  /// and its first unknown in the level's global numbering.
  std::vector<GlobalIndex> first_dof;
  /// Rank r owns the unknowns [rank_dof_begin[r], rank_dof_begin[r + 1]) (size ranks + 1).
  std::vector<GlobalIndex> rank_dof_begin;

  GlobalIndex owned_dof_count(int rank) const {
    return rank_dof_begin[std::size_t(rank) + 1] - rank_dof_begin[std::size_t(rank)];
  }
  GlobalIndex dof_count() const { return rank_dof_begin.back(); }
};

/// The levels' partitions, finest first: one more than `prolongations` (prolongations[ℓ] from
/// level ℓ + 1 to ℓ, as AgglomerationHierarchy::prolongations()). `finest_offsets`: the finest
/// level's unknowns per element in its own numbering (dg_coefficient_offsets; the first
/// prolongation's fine_offsets). Throws polydg::Error when the partition is not of the finest
/// level's elements or the prolongations do not chain.
LevelPartition partition_finest_level(std::span<const GlobalIndex> finest_offsets,
                                      const MeshPartition& partition);
std::vector<LevelPartition> partition_levels(std::span<const Prolongation> prolongations,
                                             std::span<const GlobalIndex> finest_offsets,
                                             const MeshPartition& partition);

/// A MeshPartition of every level of `hierarchy` (finest first; [0] is `partition`, of the
/// finest mesh), each coarse level's parts those of partition_levels (partition_from_parts): the
/// new numbering of each level is then its LevelPartition's, so a rank assembles its rows of
/// a coarse level as of the finest one (QuadratureMesh of a rank, make_rank_block_pattern).
template <int Dim>
std::vector<MeshPartition> partition_hierarchy(const AgglomerationHierarchy<Dim>& hierarchy,
                                               const MeshPartition& partition);

}  // namespace polydg
