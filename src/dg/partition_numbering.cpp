#include "polydg/dg/partition_numbering.hpp"

#include <utility>

#include "polydg/core/error.hpp"

namespace polydg {

template <int Dim>
std::vector<GlobalIndex> partition_dof_offsets(const PolytopicMesh<Dim>& mesh,
                                               const MeshPartition& partition, BasisSpace space) {
  const Index elements = mesh.element_count();
  require(Index(partition.old_from_new.size()) == elements,
          "partition_dof_offsets: the partition has ", partition.old_from_new.size(),
          " elements, the mesh ", elements, ": it is not this mesh's");
  std::vector<GlobalIndex> offsets(std::size_t(elements) + 1, 0);
  for (Index n = 0; n < elements; ++n)
    offsets[n + 1] =
        offsets[n] + space_basis_size(space, Dim, mesh.element_degree(partition.old_from_new[n]));
  return offsets;
}

RankBlockPattern make_rank_block_pattern(std::shared_ptr<const BlockPattern> local,
                                         const MeshPartition& partition, int rank,
                                         std::span<const GlobalIndex> dof_offsets) {
  require(local != nullptr, "make_rank_block_pattern: no local pattern");
  require(rank >= 0 && rank < partition.part_count, "make_rank_block_pattern: rank ", rank,
          " is not a part of the partition's ", partition.part_count);
  require(dof_offsets.size() == partition.old_from_new.size() + 1,
          "make_rank_block_pattern: ", dof_offsets.size(), " dof offsets for ",
          partition.old_from_new.size(), " elements (+1 expected)");
  const Index begin = partition.part_begin[rank];
  const Index owned = partition.owned_count(rank);
  const auto& ghosts = partition.ghosts[rank];
  require(local->block_row_count() == owned + Index(ghosts.size()),
          "make_rank_block_pattern: the local pattern has ", local->block_row_count(),
          " block rows, rank ", rank, " owns ", owned, " elements and has ", ghosts.size(),
          " ghosts");
  std::vector<GlobalIndex> first(std::size_t(local->block_row_count()));
  for (Index k = 0; k < local->block_row_count(); ++k) {
    const Index n = k < owned ? begin + k : ghosts[std::size_t(k - owned)];
    first[k] = dof_offsets[n];
    require(dof_offsets[n + 1] - dof_offsets[n] == local->block_size(k),
            "make_rank_block_pattern: local element ", k, " (new element ", n, ") has ",
            local->block_size(k), " unknowns in the pattern and ",
            dof_offsets[n + 1] - dof_offsets[n], " in the numbering");
  }
  return RankBlockPattern(std::move(local), owned, std::move(first), dof_offsets.back());
}

template std::vector<GlobalIndex> partition_dof_offsets(const PolytopicMesh<2>&,
                                                        const MeshPartition&, BasisSpace);
template std::vector<GlobalIndex> partition_dof_offsets(const PolytopicMesh<3>&,
                                                        const MeshPartition&, BasisSpace);

}  // namespace polydg
