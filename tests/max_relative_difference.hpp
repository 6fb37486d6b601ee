#pragma once
// The relative difference of two solutions in the maximum norm, max_i |a_i − b_i| / max_i |b_i|
// (the absolute one where b is zero): the measure the shell and slab-solver tests compare
// iterates by.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>

namespace polydg::testing {

inline double max_relative_difference(std::span<const double> a, std::span<const double> b) {
  double difference = 0, largest = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    difference = std::max(difference, std::abs(a[i] - b[i]));
    largest = std::max(largest, std::abs(b[i]));
  }
  return largest > 0 ? difference / largest : difference;
}

}  // namespace polydg::testing
