#pragma once
/// The uniform split of a tetrahedron into r³ tetrahedra (private to src/): how the solution
/// writer samples a discontinuous field in 3D (io/solution_vtu.cpp), as triangle_lattice.hpp
/// does in 2D.
///
/// Lattice points (i, j, k), r ≥ i ≥ j ≥ k ≥ 0, are numbered with i slowest, then j, then k;
/// point (i, j, k) has the reference coordinates (a, b, c) = ((i − j)/r, (j − k)/r, k/r), i.e.
/// it lies at v0 + a (v1 − v0) + b (v2 − v0) + c (v3 − v0) of the tetrahedron (v0, v1, v2, v3)
/// (r = 1: the four vertices in order). In the (i, j, k) coordinates the tetrahedron is
/// {r ≥ i ≥ j ≥ k ≥ 0}, which is exactly r³ of the Kuhn tetrahedra of the unit cubes (the
/// split of unit_cube_mesh; one per order of the axes along every cube's main diagonal): those
/// are the sub-tetrahedra, all of volume |T|/r³, as quadruples of lattice point numbers with the
/// orientation of (v0, v1, v2, v3) (the map from (i, j, k) has determinant 1/r³ > 0 times the
/// tetrahedron's).
#include <array>
#include <utility>
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg::io {

struct TetrahedronLattice {
  /// (r + 1)(r + 2)(r + 3) / 6 points (a, b, c).
  std::vector<Point<3>> reference_points;
  /// r³ tetrahedra.
  std::vector<std::array<Index, 4>> tetrahedra;
};

/// The lattice of r = subdivisions ≥ 1 (not checked: the writer checks its option first).
inline TetrahedronLattice make_tetrahedron_lattice(int subdivisions) {
  const int r = subdivisions;
  TetrahedronLattice lattice;
  const auto slot = [r](int i, int j, int k) { return (i * (r + 1) + j) * (r + 1) + k; };
  std::vector<Index> number(std::size_t(r + 1) * (r + 1) * (r + 1), -1);
  for (int i = 0; i <= r; ++i)
    for (int j = 0; j <= i; ++j)
      for (int k = 0; k <= j; ++k) {
        number[slot(i, j, k)] = Index(lattice.reference_points.size());
        lattice.reference_points.push_back({double(i - j) / r, double(j - k) / r, double(k) / r});
      }
  constexpr int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < r; ++j)
      for (int k = 0; k < r; ++k)
        for (const auto& order : orders) {
          std::array<std::array<int, 3>, 4> corners;
          corners[0] = {i, j, k};
          for (int step = 0; step < 3; ++step) {
            corners[step + 1] = corners[step];
            ++corners[step + 1][order[step]];
          }
          // A Kuhn tetrahedron lies in the convex {i ≥ j ≥ k} when its corners do; otherwise
          // its interior misses it (the planes i = j, j = k are unions of Kuhn faces).
          bool inside = true;
          for (const auto& [a, b, c] : corners) inside = inside && a >= b && b >= c;
          if (!inside) continue;
          std::array<Index, 4> tetrahedron;
          for (int v = 0; v < 4; ++v)
            tetrahedron[v] = number[slot(corners[v][0], corners[v][1], corners[v][2])];
          // Positive in (i, j, k) (exact in integers), hence in the tetrahedron.
          std::array<std::array<int, 3>, 3> edge;
          for (int v = 0; v < 3; ++v)
            for (int d = 0; d < 3; ++d) edge[v][d] = corners[v + 1][d] - corners[0][d];
          const int determinant = edge[0][0] * (edge[1][1] * edge[2][2] - edge[1][2] * edge[2][1]) -
                                  edge[0][1] * (edge[1][0] * edge[2][2] - edge[1][2] * edge[2][0]) +
                                  edge[0][2] * (edge[1][0] * edge[2][1] - edge[1][1] * edge[2][0]);
          if (determinant < 0) std::swap(tetrahedron[2], tetrahedron[3]);
          lattice.tetrahedra.push_back(tetrahedron);
        }
  return lattice;
}

}  // namespace polydg::io
