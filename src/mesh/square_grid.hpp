#pragma once
// The structured n×n triangulation of the unit square that the built-in generators share
// (unit_square_mesh, oscillating_domain_mesh): vertex numbering, cells, side tags; and for
// every generator a platform-independent random number for seeded vertex perturbations and
// the sine of their wavy boundaries.
#include <cstdint>
#include <vector>

#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::detail {

struct SquareGrid {
  int n;  ///< squares per side

  /// Vertex (i, j) at (i/n, j/n), 0 ≤ i, j ≤ n, row by row.
  Index vertex(int i, int j) const { return Index(j * (n + 1) + i); }
  Index vertex_count() const { return Index((n + 1) * (n + 1)); }
  /// The reference position of vertex (i, j); the sides are exactly 0 and 1.
  Point<2> reference_point(int i, int j) const;
  /// Two counter-clockwise triangles per square, cut along alternating diagonals so the mesh
  /// has no preferred direction; the triangles of square (i, j) are 2(jn + i) and 2(jn + i) + 1.
  std::vector<SimplexMesh<2>::Cell> cells() const;
  /// The boundary edges with tags 1 bottom (y = 0), 2 right (x = 1), 3 top (y = 1), 4 left.
  std::vector<SimplexMesh<2>::TaggedFacet> side_tags() const;
};

/// A uniform number in [0, 1) from (seed, index) by SplitMix64: the same on every platform and
/// standard library (std::uniform_real_distribution is not).
double hashed_uniform(std::uint64_t seed, std::uint64_t index);

/// sin(2π·waves·r), reduced to one period first so that it is exactly 0 at r = 0 and r = 1
/// (the sides of the unit square and cube stay exactly where they are).
double sine_wave(int waves, double r);

}  // namespace polydg::detail
