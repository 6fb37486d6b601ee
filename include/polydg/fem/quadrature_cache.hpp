#pragma once
/// Shared, computed-once reference rules. Each function builds its rule on first use and then
/// returns the same object for the life of the program; references stay valid (rules are never
/// moved or freed). Safe to call from several threads at once. Throws polydg::Error for the
/// same bad input as the make_* constructors.
#include "polydg/fem/quadrature_rule.hpp"

namespace polydg {

/// make_gauss_legendre(n): n points on [−1, 1].
const QuadratureRule<1>& gauss_legendre_rule(int n);

/// make_simplex_rule<Dim>(degree) on the reference simplex, Dim = 1..4.
template <int Dim>
const QuadratureRule<Dim>& simplex_rule(int degree);

/// make_cube_rule<Dim>(degree) on [0, 1]^Dim, Dim = 1..4.
template <int Dim>
const QuadratureRule<Dim>& cube_rule(int degree);

/// make_prism_rule<Dim>(space_degree, time_degree), Dim = 2..4.
template <int Dim>
const QuadratureRule<Dim>& prism_rule(int space_degree, int time_degree);

/// Total-degree rules on a slab's pieces (SlabRules::total_degree): make_symmetric_prism_rule
/// (degree) and make_symmetric_square_rule(degree) where they exist, else prism_rule<3>(degree,
/// degree) and cube_rule<2>(degree).
const QuadratureRule<3>& total_degree_prism_rule(int degree);
const QuadratureRule<2>& total_degree_square_rule(int degree);

/// The simplex rules by name: [0, 1], the reference triangle, the reference tetrahedron.
inline const QuadratureRule<1>& segment_rule(int degree) { return simplex_rule<1>(degree); }
inline const QuadratureRule<2>& triangle_rule(int degree) { return simplex_rule<2>(degree); }
inline const QuadratureRule<3>& tetrahedron_rule(int degree) { return simplex_rule<3>(degree); }

}  // namespace polydg
