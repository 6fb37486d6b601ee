#pragma once
/// Reference rules mapped onto physical simplices, facets, prisms and boxes (host). Points are
/// mapped affinely (affine_simplex_map.hpp: the same formulas the kernels use) and weights are
/// scaled by the ratio of physical to reference measure, so Σ w = physical measure. The degree
/// is kept (affine maps preserve polynomial degree); the result's domain is `physical`.
/// Vertex order and orientation do not matter. Throws polydg::Error for a rule on the wrong
/// reference domain or a degenerate simplex / box.
#include <array>
#include <cstddef>

#include "polydg/core/types.hpp"
#include "polydg/fem/quadrature_rule.hpp"

namespace polydg {

/// A rule on the reference Dim-simplex mapped onto the simplex with the Dim + 1 `vertices`. A
/// rule on the reference prism or unit cube goes through the same affine map (onto an affine
/// prism or parallelepiped, e.g. a slab piece of a QuadratureMesh); so does map_to_facet.
template <int Dim>
QuadratureRule<Dim> map_to_simplex(const QuadratureRule<Dim>& reference,
                                   const std::array<Point<Dim>, Dim + 1>& vertices);

/// A rule on the reference (Dim−1)-simplex mapped onto the facet with the Dim `vertices` in
/// R^Dim, Dim = 2..4 (a segment in 2D, a triangle in 3D, a tetrahedron in 4D).
template <int Dim>
QuadratureRule<Dim> map_to_facet(const QuadratureRule<Dim - 1>& reference,
                                 const std::array<Point<Dim>, std::size_t(Dim)>& vertices);

/// A prism rule (reference (Dim−1)-simplex × [0, 1]) mapped onto K × [t0, t1], K the simplex
/// with the Dim `space_vertices` in R^{Dim−1}; time stays the last coordinate. Dim = 2..4.
template <int Dim>
QuadratureRule<Dim> map_to_prism(const QuadratureRule<Dim>& reference,
                                 const std::array<Point<Dim - 1>, std::size_t(Dim)>& space_vertices,
                                 double t0, double t1);

/// A rule on [0, 1]^Dim mapped onto the box (e.g. a bounding box B_κ).
template <int Dim>
QuadratureRule<Dim> map_to_box(const QuadratureRule<Dim>& unit_cube_rule, const Box<Dim>& box);

}  // namespace polydg
