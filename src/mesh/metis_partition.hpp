#pragma once
// The library's one call of METIS (private to src/mesh): a graph in CSR form cut into parts, for
// the fine mesh's agglomeration (agglomeration.cpp) and the partition of a polytopic mesh over
// ranks (mesh_partition.cpp).
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/agglomeration.hpp"

namespace polydg::detail {

struct MetisSettings {
  const char* caller = "";  ///< the public function that asked, first word of every error
  bool kway = true;         ///< METIS_PartGraphKway; false: METIS_PartGraphRecursive
  /// k-way only: ask for connected parts (METIS 5.1 stops through a signal when asked on a
  /// disconnected graph, so only where the graph is connected).
  bool contiguous = false;
  int seed = 1;  ///< METIS_OPTION_SEED
  /// One weight per vertex; empty: all 1.
  std::span<const GlobalIndex> vertex_weights;
  /// METIS_OPTION_UFACTOR (allowed imbalance − 1, in thousandths); 0: METIS's default.
  int imbalance_per_mille = 0;
};

/// The part of every vertex of `graph`, in [0, part_count). METIS 5.1's k-way with contiguous
/// parts fails (METIS_ERROR) on some large graphs cut into ~4 vertices per part; it is then
/// retried without the constraint. Throws polydg::Error, naming settings.caller, for counts or
/// weights that do not fit METIS's idx_t and for a failing call.
std::vector<Index> metis_partition(const CellAdjacency& graph, Index part_count,
                                   const MetisSettings& settings);

}  // namespace polydg::detail
