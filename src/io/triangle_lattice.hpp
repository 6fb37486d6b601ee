#pragma once
/// The uniform split of a triangle into r² triangles (private to src/): how the solution
/// writers sample a discontinuous field (io/solution_vtu.cpp, hyperbolic/explicit_output.cpp).
///
/// Lattice points (i, j), i, j ≥ 0, i + j ≤ r, are numbered row by row (j, then i); point
/// (i, j) has the reference coordinates (a, b) = (i/r, j/r), i.e. it lies at
/// v0 + a (v1 − v0) + b (v2 − v0) of the triangle (v0, v1, v2). The r² sub-triangles are triples
/// of lattice point numbers with the orientation of (v0, v1, v2).
#include <array>
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg::io {

struct TriangleLattice {
  /// (r + 1)(r + 2) / 2 points (i/r, j/r).
  std::vector<Point<2>> reference_points;
  /// r² triangles.
  std::vector<std::array<Index, 3>> triangles;
};

/// The lattice of r = subdivisions ≥ 1 (not checked: the writers check their option first).
inline TriangleLattice make_triangle_lattice(int subdivisions) {
  const int r = subdivisions;
  TriangleLattice lattice;
  std::vector<Index> number((r + 1) * (r + 1), -1);
  for (int j = 0; j <= r; ++j)
    for (int i = 0; i + j <= r; ++i) {
      number[j * (r + 1) + i] = Index(lattice.reference_points.size());
      lattice.reference_points.push_back({double(i) / r, double(j) / r});
    }
  const auto at = [&](int i, int j) { return number[j * (r + 1) + i]; };
  // Both kinds keep the orientation of the triangle.
  for (int j = 0; j < r; ++j)
    for (int i = 0; i + j < r; ++i) {
      lattice.triangles.push_back({at(i, j), at(i + 1, j), at(i, j + 1)});
      if (i + j + 1 < r)
        lattice.triangles.push_back({at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  return lattice;
}

}  // namespace polydg::io
