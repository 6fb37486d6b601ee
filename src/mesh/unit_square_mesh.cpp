#include <random>

#include "polydg/core/error.hpp"
#include "polydg/mesh/generators.hpp"

namespace polydg {

SimplexMesh<2> unit_square_mesh(int n, double perturbation, std::uint64_t seed) {
  require(n >= 1, "unit_square_mesh: n = ", n, " cells per side; need n >= 1");
  require(perturbation >= 0 && perturbation <= 0.25, "unit_square_mesh: perturbation ",
          perturbation, " outside [0, 0.25] (larger offsets can fold triangles)");
  const double h = 1.0 / n;
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> offset(-perturbation * h, perturbation * h);

  std::vector<Point<2>> vertices;
  vertices.reserve(std::size_t(n + 1) * (n + 1));
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      Point<2> p{{i * h, j * h}};
      if (i > 0 && i < n && j > 0 && j < n) {
        p[0] += offset(generator);
        p[1] += offset(generator);
      }
      vertices.push_back(p);
    }
  const auto vertex = [n](int i, int j) { return Index(j * (n + 1) + i); };

  std::vector<SimplexMesh<2>::Cell> cells;
  cells.reserve(2 * std::size_t(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const Index a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1),
                  d = vertex(i, j + 1);
      if ((i + j) % 2 == 0) {  // alternate the diagonals so the mesh has no preferred direction
        cells.push_back({a, b, c});
        cells.push_back({a, c, d});
      } else {
        cells.push_back({a, b, d});
        cells.push_back({b, c, d});
      }
    }

  std::vector<SimplexMesh<2>::TaggedFacet> tags;
  tags.reserve(4 * std::size_t(n));
  for (int i = 0; i < n; ++i) {
    tags.push_back({{vertex(i, 0), vertex(i + 1, 0)}, 1});
    tags.push_back({{vertex(n, i), vertex(n, i + 1)}, 2});
    tags.push_back({{vertex(i, n), vertex(i + 1, n)}, 3});
    tags.push_back({{vertex(0, i), vertex(0, i + 1)}, 4});
  }
  return SimplexMesh<2>(std::move(vertices), std::move(cells), {}, std::move(tags),
                        MeshSource{"unit_square_mesh", {}});
}

}  // namespace polydg
