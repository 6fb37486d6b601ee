#pragma once
// Bitwise equality of two arrays, for tests of reproducibility (thread counts, launch
// configurations, runs): the same size and the same bytes.
#include <cstring>
#include <vector>

namespace polydg::testing {

template <class T, class Allocator>
bool same_bits(const std::vector<T, Allocator>& a, const std::vector<T, Allocator>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace polydg::testing
