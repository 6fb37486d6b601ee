// The library's METIS call (src/mesh/metis_partition.hpp).
#include "metis_partition.hpp"

#include <metis.h>

#include <cstdint>
#include <limits>

#include "polydg/core/error.hpp"

namespace polydg::detail {

namespace {

// METIS is built with 32- or 64-bit idx_t (IDXTYPEWIDTH in metis.h); every count and weight
// handed to it is checked to fit before conversion.
template <class Integer>
idx_t to_metis_index(Integer value, const char* caller, const char* what) {
  require(value >= 0 && std::uint64_t(value) <= std::uint64_t(std::numeric_limits<idx_t>::max()),
          caller, ": ", what, " = ", value, " does not fit METIS's idx_t (", IDXTYPEWIDTH,
          " bits)");
  return idx_t(value);
}

}  // namespace

std::vector<Index> metis_partition(const CellAdjacency& graph, Index part_count,
                                   const MetisSettings& settings) {
  const char* caller = settings.caller;
  idx_t vertex_count = to_metis_index(graph.cell_count(), caller, "vertex count");
  idx_t constraint_count = 1;
  idx_t parts = to_metis_index(part_count, caller, "part count");
  to_metis_index(graph.neighbours.size(), caller, "graph edge count × 2");
  std::vector<idx_t> offsets(graph.offsets.begin(), graph.offsets.end());
  std::vector<idx_t> neighbours(graph.neighbours.begin(), graph.neighbours.end());
  std::vector<idx_t> weights;
  if (!settings.vertex_weights.empty()) {
    require(settings.vertex_weights.size() == std::size_t(vertex_count), caller, ": ",
            settings.vertex_weights.size(), " vertex weights for ", vertex_count, " vertices");
    GlobalIndex total = 0;
    for (const GlobalIndex weight : settings.vertex_weights) {
      weights.push_back(to_metis_index(weight, caller, "vertex weight"));
      total += weight;
    }
    to_metis_index(total, caller, "total vertex weight");
  }

  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = settings.seed;
  options[METIS_OPTION_NUMBERING] = 0;
  if (settings.imbalance_per_mille > 0)
    options[METIS_OPTION_UFACTOR] = settings.imbalance_per_mille;
  if (settings.kway) options[METIS_OPTION_CONTIG] = settings.contiguous ? 1 : 0;

  idx_t edge_cut = 0;
  std::vector<idx_t> part(std::size_t(vertex_count), 0);
  const auto partitioner = settings.kway ? METIS_PartGraphKway : METIS_PartGraphRecursive;
  const auto partition = [&] {
    return partitioner(&vertex_count, &constraint_count, offsets.data(), neighbours.data(),
                       weights.empty() ? nullptr : weights.data(), nullptr, nullptr, &parts,
                       nullptr, nullptr, options, &edge_cut, part.data());
  };
  int status = partition();
  // METIS 5.1's k-way with contiguous parts fails (METIS_ERROR, after "Cannot bisect a graph
  // with 0 vertices" from its initial partitioning) on some large graphs cut into ~4 vertices
  // per part, as a multigrid level's element graph is; without the constraint it succeeds, and
  // the callers accept (or split) a disconnected part.
  if (status == METIS_ERROR && settings.kway && options[METIS_OPTION_CONTIG] == 1) {
    options[METIS_OPTION_CONTIG] = 0;
    status = partition();
  }
  require(status == METIS_OK, caller, ": ",
          settings.kway ? "METIS_PartGraphKway" : "METIS_PartGraphRecursive", " of ", vertex_count,
          " vertices into ", part_count, " parts failed with status ", status,
          status == METIS_ERROR_MEMORY  ? " (out of memory)"
          : status != METIS_ERROR_INPUT ? ""
          : part_count < 500000         ? " (invalid input)"
                                        : " (invalid input: METIS checks that its single-precision "
                                          "target weights, 1 / parts each, sum to 1, which fails "
                                          "for some part counts from about a million on; "
                                          "PartitionMethod::greedy_growth takes them)");
  std::vector<Index> result(part.begin(), part.end());
  for (Index v = 0; v < Index(result.size()); ++v)
    require(result[v] >= 0 && result[v] < part_count, caller, ": METIS put vertex ", v, " in part ",
            result[v], " outside [0, ", part_count, ")");
  return result;
}

}  // namespace polydg::detail
