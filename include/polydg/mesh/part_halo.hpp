#pragma once
/// PartHalo: what one part of a MeshPartition exchanges with the others — per neighbouring
/// part, the local elements it sends (its owned elements that are the neighbour's ghosts) and
/// those it receives (its ghosts that the neighbour owns), both in the partition's new order,
/// which is the order on either side, so the lists pair up with no set-up message. Local
/// element k < owned_count is the part's k-th owned element, then come its ghosts
/// (RankSubmesh's and ElementHalo's layout).
///
/// Computed from the whole partition (part_halos) or read with a rank's part from its file
/// (rank_part_file.hpp), where no rank holds the partition: partition_fingerprint then tells
/// the files of one partition from those of another.
#include <cstdint>
#include <string>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/mesh_partition.hpp"

namespace polydg {

struct PartHalo {
  struct Neighbour {
    int part = 0;
    std::vector<Index> sent, received;  ///< local elements, in the partition's order
  };
  int part_count = 0;
  int part = 0;
  int ghost_layers = 1;
  Index owned_count = 0, local_count = 0;
  /// The neighbours with a non-empty list, by ascending part.
  std::vector<Neighbour> neighbours;
  /// partition_fingerprint of the partition the lists come from.
  std::uint64_t partition_fingerprint = 0;
};

/// Every part's halo in `partition`, in one pass over its ghosts.
std::vector<PartHalo> part_halos(const MeshPartition& partition);

/// FNV-1a over the part count, the ghost layers and every element's part: the same for the same
/// partition, on any host.
std::uint64_t partition_fingerprint(const MeshPartition& partition);

/// Throws polydg::Error "<where>: ..." naming the first inconsistency of `halo` on its own:
/// counts out of range, a neighbour that is the part itself, outside the partition or listed
/// twice or out of order, a sent element that is not owned, a received one that is not a
/// ghost, and ghosts received from no neighbour or from two. (Agreement with the other parts'
/// halos needs their lists: ElementHalo checks it over MPI.)
void check_part_halo(const PartHalo& halo, const std::string& where);

}  // namespace polydg
