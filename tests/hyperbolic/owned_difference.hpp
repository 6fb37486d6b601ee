#pragma once
// The distributed explicit tests' measure of agreement with one rank's march on the whole mesh.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg::testing {

/// 0, 1, ..., count − 1: each cell its own element.
inline std::vector<Index> identity(Index count) {
  std::vector<Index> ids(static_cast<std::size_t>(count));
  std::iota(ids.begin(), ids.end(), Index(0));
  return ids;
}

/// max |owned local − whole| / max |whole| over the rank's owned elements, the largest over the
/// ranks (collective); `element[k]` is local element k's element of the whole mesh.
template <class LocalDG, class WholeDG>
double owned_difference(const LocalDG& local_dg, std::span<const double> local,
                        const WholeDG& whole_dg, std::span<const double> whole,
                        std::span<const Index> element, Index owned, int variables, int modes) {
  double difference = 0, size = 0;
  for (const double w : whole) size = std::max(size, std::abs(w));
  for (Index k = 0; k < owned; ++k)
    for (int v = 0; v < variables; ++v)
      for (int i = 0; i < modes; ++i)
        difference =
            std::max(difference, std::abs(local[local_dg.coefficient_index(k, v, i)] -
                                          whole[whole_dg.coefficient_index(element[k], v, i)]));
  return petsc::max_over_ranks(difference / size);
}

}  // namespace polydg::testing
