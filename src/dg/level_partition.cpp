#include "polydg/dg/level_partition.hpp"

#include <utility>

#include "polydg/core/error.hpp"
#include "polydg/dg/discrete_function.hpp"

namespace polydg {

namespace {

/// Numbers a level's elements rank after rank, each rank's in `order` (element indices).
void number_by_owner(LevelPartition& level, std::span<const GlobalIndex> offsets,
                     std::span<const Index> order, int ranks) {
  level.rank_dof_begin.assign(std::size_t(ranks) + 1, 0);
  for (std::size_t e = 0; e < level.owner.size(); ++e)
    level.rank_dof_begin[std::size_t(level.owner[e]) + 1] += offsets[e + 1] - offsets[e];
  for (int r = 0; r < ranks; ++r) level.rank_dof_begin[r + 1] += level.rank_dof_begin[r];
  std::vector<GlobalIndex> next(level.rank_dof_begin.begin(), level.rank_dof_begin.end() - 1);
  level.first_dof.assign(level.owner.size(), 0);
  for (const Index e : order) {
    GlobalIndex& first = next[std::size_t(level.owner[std::size_t(e)])];
    level.first_dof[std::size_t(e)] = first;
    first += offsets[std::size_t(e) + 1] - offsets[std::size_t(e)];
  }
}

}  // namespace

LevelPartition partition_finest_level(std::span<const GlobalIndex> finest_offsets,
                                      const MeshPartition& partition) {
  const std::size_t elements = partition.part_of_element.size();
  require(!finest_offsets.empty() && finest_offsets.size() == elements + 1,
          "partition_levels: the partition has ", elements, " elements, the finest level ",
          finest_offsets.empty() ? 0 : finest_offsets.size() - 1, ": it is not this level's");
  LevelPartition level;
  level.owner = partition.part_of_element;
  number_by_owner(level, finest_offsets, partition.old_from_new, partition.part_count);
  return level;
}

std::vector<LevelPartition> partition_levels(std::span<const Prolongation> prolongations,
                                             std::span<const GlobalIndex> finest_offsets,
                                             const MeshPartition& partition) {
  std::vector<LevelPartition> levels;
  levels.push_back(partition_finest_level(finest_offsets, partition));
  const int ranks = partition.part_count;
  for (std::size_t l = 0; l < prolongations.size(); ++l) {
    const Prolongation& p = prolongations[l];
    const LevelPartition& fine = levels.back();
    require(p.coarse_of_fine.size() == fine.owner.size() &&
                p.fine_offsets.size() == fine.owner.size() + 1,
            "partition_levels: prolongation ", l, " has ", p.coarse_of_fine.size(),
            " fine elements, level ", l, " has ", fine.owner.size());
    const std::size_t coarse_elements = p.coarse_offsets.size() - 1;
    std::vector<std::vector<Index>> children(coarse_elements);
    for (std::size_t e = 0; e < p.coarse_of_fine.size(); ++e) {
      const Index parent = p.coarse_of_fine[e];
      require(parent >= 0 && std::size_t(parent) < coarse_elements,
              "partition_levels: fine element ", e, " of level ", l, " has no coarse element (",
              parent, ")");
      children[std::size_t(parent)].push_back(Index(e));
    }
    LevelPartition coarse;
    coarse.owner.assign(coarse_elements, 0);
    // share[r]: the unknowns of the coarse element's children that rank r owns (set and reset
    // through the children only, so the loop costs the fine elements, not ranks × elements).
    std::vector<GlobalIndex> share(std::size_t(ranks), 0);
    for (std::size_t c = 0; c < coarse_elements; ++c) {
      require(!children[c].empty(), "partition_levels: coarse element ", c, " of level ", l + 1,
              " contains no element of level ", l);
      for (const Index e : children[c])
        share[std::size_t(fine.owner[std::size_t(e)])] += p.fine_offsets[e + 1] - p.fine_offsets[e];
      int best = fine.owner[std::size_t(children[c].front())];
      for (const Index e : children[c]) {
        const int r = fine.owner[std::size_t(e)];
        if (share[std::size_t(r)] > share[std::size_t(best)] ||
            (share[std::size_t(r)] == share[std::size_t(best)] && r < best))
          best = r;
      }
      coarse.owner[c] = best;
      for (const Index e : children[c]) share[std::size_t(fine.owner[std::size_t(e)])] = 0;
    }
    std::vector<Index> order(coarse_elements);
    for (std::size_t c = 0; c < coarse_elements; ++c) order[c] = Index(c);
    number_by_owner(coarse, p.coarse_offsets, order, ranks);
    if (l + 1 < prolongations.size())
      require(prolongations[l + 1].fine_offsets == p.coarse_offsets,
              "partition_levels: prolongation ", l + 1, " does not start from level ", l + 1,
              "'s unknowns");
    levels.push_back(std::move(coarse));
  }
  return levels;
}

template <int Dim>
std::vector<MeshPartition> partition_hierarchy(const AgglomerationHierarchy<Dim>& hierarchy,
                                               const MeshPartition& partition) {
  const std::vector<LevelPartition> levels =
      partition_levels(hierarchy.prolongations(),
                       dg_coefficient_offsets<Dim>(hierarchy.mesh(0).degrees()), partition);
  std::vector<MeshPartition> parts{partition};
  for (int level = 1; level < hierarchy.level_count(); ++level)
    parts.push_back(partition_from_parts(hierarchy.mesh(level), levels[std::size_t(level)].owner,
                                         partition.part_count));
  return parts;
}

template std::vector<MeshPartition> partition_hierarchy(const AgglomerationHierarchy<2>&,
                                                        const MeshPartition&);
template std::vector<MeshPartition> partition_hierarchy(const AgglomerationHierarchy<3>&,
                                                        const MeshPartition&);

}  // namespace polydg
