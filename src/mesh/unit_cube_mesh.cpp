#include <array>

#include "polydg/core/error.hpp"
#include "polydg/mesh/generators.hpp"
#include "square_grid.hpp"

namespace polydg {

SimplexMesh<3> unit_cube_mesh(int n, double perturbation, std::uint64_t seed) {
  require(n >= 1 && n <= 640, "unit_cube_mesh: n = ", n,
          " cubes per side; need 1 <= n <= 640 (6n³ tetrahedra must fit the 32-bit Index)");
  require(perturbation >= 0 && perturbation <= 0.2, "unit_cube_mesh: perturbation ", perturbation,
          " outside [0, 0.2] (larger offsets can fold tetrahedra)");
  const auto vertex = [n](int i, int j, int k) { return Index((k * (n + 1) + j) * (n + 1) + i); };
  const double largest_offset = perturbation / n;
  std::vector<Point<3>> vertices(std::size_t(n + 1) * (n + 1) * (n + 1));
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) {
        const Index v = vertex(i, j, k);
        // i == n gives exactly 1, as in the square grid: the faces are exactly the planes.
        Point<3> x{{i == n ? 1.0 : double(i) / n, j == n ? 1.0 : double(j) / n,
                    k == n ? 1.0 : double(k) / n}};
        if (perturbation > 0 && i > 0 && i < n && j > 0 && j < n && k > 0 && k < n)
          for (int d = 0; d < 3; ++d)
            x[d] += largest_offset *
                    (2 * detail::hashed_uniform(seed, 3 * std::uint64_t(v) + std::uint64_t(d)) - 1);
        vertices[v] = x;
      }

  // Kuhn: one tetrahedron per order of the three axes along the cube's main diagonal, the
  // same diagonal in every cube, so faces match across cubes.
  constexpr int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<SimplexMesh<3>::Cell> cells;
  cells.reserve(std::size_t(6) * n * n * n);
  std::vector<SimplexMesh<3>::TaggedFacet> tags;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& order : orders) {
          std::array<std::array<int, 3>, 4> corners;
          corners[0] = {i, j, k};
          for (int step = 0; step < 3; ++step) {
            corners[step + 1] = corners[step];
            ++corners[step + 1][order[step]];
          }
          SimplexMesh<3>::Cell cell;
          for (int c = 0; c < 4; ++c) cell[c] = vertex(corners[c][0], corners[c][1], corners[c][2]);
          cells.push_back(cell);
          // A face of the tetrahedron on a side of the cube: its three vertices share that
          // side's coordinate. Tags 1 / 2 (x = 0 / 1), 3 / 4 (y = 0 / 1), 5 / 6 (z = 0 / 1).
          for (int skip = 0; skip < 4; ++skip) {
            SimplexMesh<3>::Facet facet;
            std::array<std::array<int, 3>, 3> face;
            for (int c = 0, f = 0; c < 4; ++c)
              if (c != skip) {
                face[f] = corners[c];
                facet[f++] = cell[c];
              }
            for (int axis = 0; axis < 3; ++axis)
              for (int side = 0; side < 2; ++side) {
                const int value = side == 0 ? 0 : n;
                if (face[0][axis] == value && face[1][axis] == value && face[2][axis] == value)
                  tags.push_back({facet, 2 * axis + side + 1});
              }
          }
        }
  return SimplexMesh<3>(std::move(vertices), std::move(cells), {}, std::move(tags),
                        MeshSource{"unit_cube_mesh", {}});
}

}  // namespace polydg
