#pragma once
/// Tensor-product rules: the unit cube [0, 1]^Dim and the prism (reference (Dim−1)-simplex) ×
/// [0, 1], the space-time element K × I_n (time is the last coordinate).
#include "polydg/fem/quadrature_rule.hpp"

namespace polydg {

/// Gauss–Legendre in every direction on [0, 1]^Dim, Dim = 1..4, exact for degree `degree` in
/// each variable separately (Q_degree). Throws polydg::Error unless
/// 0 ≤ degree ≤ max_quadrature_degree.
template <int Dim>
QuadratureRule<Dim> make_cube_rule(int degree);

/// Simplex rule of degree `space_degree` on conv{0, e_1, …, e_{Dim−1}} times the Gauss–Legendre
/// rule of degree `time_degree` on [0, 1], Dim = 2..4 (2D+1 prisms are Dim = 3, 3D+1 are
/// Dim = 4). Exact for x^a t^c with |a| ≤ space_degree and c ≤ time_degree. Throws
/// polydg::Error unless both degrees are in 0..max_quadrature_degree.
template <int Dim>
QuadratureRule<Dim> make_prism_rule(int space_degree, int time_degree);

}  // namespace polydg
