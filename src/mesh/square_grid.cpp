#include "square_grid.hpp"

#include <cmath>
#include <numbers>

namespace polydg::detail {

Point<2> SquareGrid::reference_point(int i, int j) const {
  const double h = 1.0 / n;
  // i == n is written as 1, not n · (1/n), so the right and top sides are exact.
  return {{i == n ? 1.0 : i * h, j == n ? 1.0 : j * h}};
}

std::vector<SimplexMesh<2>::Cell> SquareGrid::cells() const {
  std::vector<SimplexMesh<2>::Cell> result(2 * std::size_t(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const Index a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1),
                  d = vertex(i, j + 1);
      const std::size_t first = 2 * (std::size_t(j) * n + i);
      if ((i + j) % 2 == 0) {
        result[first] = {a, b, c};
        result[first + 1] = {a, c, d};
      } else {
        result[first] = {a, b, d};
        result[first + 1] = {b, c, d};
      }
    }
  return result;
}

std::vector<SimplexMesh<2>::TaggedFacet> SquareGrid::side_tags() const {
  std::vector<SimplexMesh<2>::TaggedFacet> tags;
  tags.reserve(4 * std::size_t(n));
  for (int i = 0; i < n; ++i) {
    tags.push_back({{vertex(i, 0), vertex(i + 1, 0)}, 1});
    tags.push_back({{vertex(n, i), vertex(n, i + 1)}, 2});
    tags.push_back({{vertex(i, n), vertex(i + 1, n)}, 3});
    tags.push_back({{vertex(0, i), vertex(0, i + 1)}, 4});
  }
  return tags;
}

double hashed_uniform(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-53;
}

double sine_wave(int waves, double r) {
  const double phase = waves * r - std::floor(waves * r);
  return std::sin(2 * std::numbers::pi * phase);
}

}  // namespace polydg::detail
