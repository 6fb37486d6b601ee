#pragma once
/// A square-like domain with an oscillating boundary: the background mesh of the numerical
/// examples of [Dong2021] (docs/theory.md, References; about 500k triangles on a domain
/// approximating (0,1)² whose boundary has many small wiggles), built without a mesh generator.
///
/// The four sides of the unit square become sine curves with k = wiggles_per_side whole waves
/// of amplitude ε:
///   bottom y = ε sin(2πkx),  top   y = 1 + ε sin(2πkx),  x ∈ [0, 1];
///   left   x = ε sin(2πky),  right x = 1 + ε sin(2πky),  y ∈ [0, 1].
/// The mesh is the n×n square of unit_square_mesh (alternating diagonals) moved by the map
///   F(s, t) = (s + ε sin(2πkt) β(s),  t + ε sin(2πks) β(t)),
///   β(r) = cosh(2πk(r − ½)) / cosh(πk),
/// whose displacement is harmonic: it equals the boundary wiggle on the sides (β(0) = β(1) = 1)
/// and decays within about one wavelength 1/k, so the interior stays an undistorted grid.
/// With η = 2πkε (the curves' largest slope) det ∇F ≥ 1 − 2η, and about 1 − η in practice.
#include <cstdint>

#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

struct OscillatingDomain {
  /// n: the mesh has 2n² triangles. 502 gives 504,008, next to the paper's 503,596.
  int cells_per_side = 502;
  /// k: whole sine waves along each side.
  int wiggles_per_side = 16;
  /// ε: the waves' amplitude (default: slope η = 2πkε ≈ 0.5, waves visible at plot scale).
  double amplitude = 0.005;
  /// Interior vertices are moved, before the map, by a seeded random offset of length at most
  /// interior_perturbation / n (≤ 0.3 keeps every triangle of the square valid); 0: none. The
  /// default makes the triangles irregular, like the paper's unstructured background mesh.
  double interior_perturbation = 0.2;
  std::uint64_t seed = 1;
};

/// F: the point of the domain that the point `reference` of the unit square is mapped to.
Point<2> oscillating_domain_map(const OscillatingDomain& domain, const Point<2>& reference);

/// The exact area of the domain: 1 for every k and ε, since each side's displacement is a
/// whole number of sine waves (zero mean; by Green's theorem the area is ∮ x dy = 1). The mesh
/// has this area up to rounding as well: its left and right sides are the same polyline
/// shifted by 1 in x (and bottom and top by 1 in y), so what one side's chords cut off the
/// other side's add.
double oscillating_domain_area(const OscillatingDomain& domain);

/// The triangulated domain. Boundary tags: 1 bottom, 2 right, 3 top, 4 left (as
/// unit_square_mesh). Throws polydg::Error for n < 1, k < 0, n < 4k (fewer than 4 cells per
/// wave), ε < 0, η = 2πkε > 0.8, a perturbation outside [0, 0.3], or a triangle that the map
/// inverts anyway.
SimplexMesh<2> oscillating_domain_mesh(const OscillatingDomain& domain = {});

}  // namespace polydg
