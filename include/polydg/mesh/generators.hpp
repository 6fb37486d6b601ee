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

}  // namespace polydg
