#pragma once
/// Built-in meshes: the embedded defaults of the demos and tests, no input files needed.
#include <cstdint>

#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

/// The unit square [0,1]² split into n×n squares, each cut into two triangles along alternating
/// diagonals. Interior vertices are moved by a seeded uniform random offset of at most
/// `perturbation` × (1/n) in each coordinate, 0 giving the structured mesh. Every triangle stays
/// valid for perturbation ≤ 0.25: each vertex moves less than √2·h/4, half the smallest
/// altitude (h/√2) of the right isosceles triangles, so no vertex can reach the opposite side.
/// Boundary tags: 1 bottom (y = 0), 2 right (x = 1), 3 top (y = 1), 4 left (x = 0).
/// Throws polydg::Error for n < 1 or perturbation outside [0, 0.25].
SimplexMesh<2> unit_square_mesh(int n, double perturbation = 0.0, std::uint64_t seed = 1);

/// unit_square_mesh(n, perturbation, seed) mapped affinely onto [low, high]²: the same cells,
/// vertex offsets (relative to the side) and boundary tags. Throws as unit_square_mesh, and for
/// low ≥ high.
SimplexMesh<2> square_mesh(int n, double low, double high, double perturbation = 0.0,
                           std::uint64_t seed = 1);

/// The unit cube [0,1]³ split into n×n×n cubes of six tetrahedra each (Kuhn: one per order of
/// the axes along every cube's main diagonal, so the faces match across cubes). Interior
/// vertices are moved by a seeded uniform random offset of at most `perturbation` × (1/n) in
/// each coordinate, 0 giving the structured mesh. Every tetrahedron stays valid for perturbation
/// ≤ 0.2: a Kuhn tetrahedron's smallest altitude is h/√2, and a vertex and the plane of the
/// opposite face move apart by less than 2√3 · 0.2 h < h/√2. Boundary tags: 1 / 2 the faces
/// x = 0 / 1, 3 / 4 y = 0 / 1, 5 / 6 z = 0 / 1. Throws polydg::Error for n < 1 or perturbation
/// outside [0, 0.2].
SimplexMesh<3> unit_cube_mesh(int n, double perturbation = 0.0, std::uint64_t seed = 1);

/// The unit cube with an oscillating top, the 3D analogue of oscillating_domain_mesh: the n×n×n
/// Kuhn tetrahedra of unit_cube_mesh mapped by
///   F(x, y, z) = (x, y, z (1 + a s(x, y))),  s(x, y) = sin(2π w x) sin(2π w y),
/// a = `amplitude`, w = `waves`. The top z = 1 becomes the surface z = 1 + a s(x, y); the bottom
/// z = 0 and the four sides (where s = 0) stay flat, so the domain is
/// {(x, y) ∈ [0, 1]², 0 ≤ z ≤ 1 + a s(x, y)}, of volume 1 (whole waves: ∫ s = 0).
///
/// Validity for |a| < 1, whatever n and w: every Kuhn tetrahedron has one edge along z whose two
/// vertices share (x, y), and F moves each vertex along z by a factor of its own (x, y), so the
/// mapped tetrahedron's volume is its volume times 1 + a s at that edge's (x, y), positive for
/// every |a| < 1: the range where det ∇F = 1 + a s > 0 everywhere. (Its volume is Σ c_i z_i
/// with c_i from the vertices' x and y; written as the z-derivative of the linear interpolant
/// of the heights, taken along that edge.) Tetrahedra under a trough shrink by a factor down to
/// 1 − |a|.
///
/// `perturbation` moves vertices before the map and keeps the z edges along z: each interior
/// column (0 < i, j < n; all its vertices, top and bottom ones within their face) by a seeded
/// uniform offset of at most perturbation / n in x and in y, and each interior vertex by at most
/// perturbation / n in z. Every tetrahedron stays valid for perturbation ≤ 0.25: it projects
/// onto a right isosceles triangle of the square grid whose corners move less than √2 h/4,
/// half its smallest altitude, and its z edge keeps at least half its length h.
///
/// Boundary tags as unit_cube_mesh: 1 / 2 x = 0 / 1, 3 / 4 y = 0 / 1, 5 the bottom z = 0, 6 the
/// oscillating top. Throws polydg::Error for n outside [1, 640], waves < 0, n < 4 waves (the
/// grid cannot resolve the waves), amplitude outside (−1, 1), perturbation outside [0, 0.25].
SimplexMesh<3> oscillating_cube_mesh(int n, double amplitude, int waves, double perturbation = 0.0,
                                     std::uint64_t seed = 1);

}  // namespace polydg
