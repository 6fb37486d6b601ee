#pragma once
// The structured n×n×n Kuhn triangulation of the unit cube that the 3D generators share
// (unit_cube_mesh, oscillating_cube_mesh): vertex numbering, reference positions, cells and
// face tags.
#include <vector>

#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::detail {

struct CubeGrid {
  int n;  ///< cubes per side

  /// Vertex (i, j, k) at (i/n, j/n, k/n), 0 ≤ i, j, k ≤ n, i fastest.
  Index vertex(int i, int j, int k) const { return Index((k * (n + 1) + j) * (n + 1) + i); }
  Index vertex_count() const { return Index((n + 1) * (n + 1) * (n + 1)); }
  /// The reference position of vertex (i, j, k); the faces are exactly 0 and 1.
  Point<3> reference_point(int i, int j, int k) const;
  /// Six tetrahedra per cube, one per order of the axes along the cube's main diagonal (Kuhn;
  /// the same diagonal in every cube, so faces match across cubes), cube by cube (i fastest),
  /// as the paths (i, j, k) → ... → (i + 1, j + 1, k + 1) one axis at a time. Every
  /// tetrahedron has exactly one edge along z (the path's z step) and projects onto the xy
  /// plane as the triangle (i, j), (i, j) + one axis, (i + 1, j + 1).
  std::vector<SimplexMesh<3>::Cell> cells() const;
  /// The boundary triangles with tags 1 / 2 (x = 0 / 1), 3 / 4 (y = 0 / 1), 5 / 6 (z = 0 / 1).
  std::vector<SimplexMesh<3>::TaggedFacet> face_tags() const;
};

}  // namespace polydg::detail
