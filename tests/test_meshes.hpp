#pragma once
// Test helper: meshes that several tests build.
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::testing {

// The vertices and tetrahedra of a simplex mesh, before it is built (boundary not yet tagged).
struct TetrahedronSoup {
  std::vector<Point<3>> vertices;
  std::vector<SimplexMesh<3>::Cell> cells;
};

// The unit cube split into n³ cubes of 6 tetrahedra each (Kuhn: one tetrahedron per ordering
// of the axes along the cube's main diagonal, conforming across cubes). Vertex (i, j, k) at
// (i, j, k)/n has index (k(n+1) + j)(n+1) + i.
inline TetrahedronSoup kuhn_unit_cube(int n) {
  const auto vertex = [n](int i, int j, int k) { return Index((k * (n + 1) + j) * (n + 1) + i); };
  TetrahedronSoup mesh;
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i)
        mesh.vertices.push_back({{double(i) / n, double(j) / n, double(k) / n}});
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& order : orders) {
          int corner[3] = {i, j, k};
          SimplexMesh<3>::Cell cell;
          cell[0] = vertex(i, j, k);
          for (int step = 0; step < 3; ++step) {
            ++corner[order[step]];
            cell[step + 1] = vertex(corner[0], corner[1], corner[2]);
          }
          mesh.cells.push_back(cell);
        }
  return mesh;
}

}  // namespace polydg::testing
