#pragma once
/// Gauss–Legendre and Gauss–Jacobi rules on [−1, 1], the one-dimensional building blocks of
/// every other rule (simplex rules by collapsed coordinates, tensor and prism rules).
///
/// Method: Golub–Welsch eigenvalues of the Jacobi matrix by the implicit QL algorithm with
/// Wilkinson shifts (eigenvalues only, double) as starting guesses, then Newton steps on the
/// orthonormal three-term recurrence in long double, and weights from the Christoffel formula
/// w_i = 1 / Σ_{k<n} p_k(x_i)² (p_k orthonormal; a sum of positive terms) at the polished node,
/// also in long double. Both are then rounded to double: nodes and weights are correct to about
/// one ulp (relative, also the small weights next to the end points) for any n up to
/// max_gauss_points. Symmetric rules (α = β) are exactly symmetric.
#include "polydg/fem/quadrature_rule.hpp"

namespace polydg {

/// Largest number of points the Gauss constructors accept (a guard against garbage input; the
/// construction itself is O(n²)).
constexpr int max_gauss_points = 1000;

/// n-point Gauss–Jacobi rule: Σ w_i f(x_i) = ∫_{−1}^{1} f(x) (1 − x)^α (1 + x)^β dx exactly for
/// polynomials f of degree ≤ 2n − 1. Nodes ascending. Throws polydg::Error unless
/// 1 ≤ n ≤ max_gauss_points, α > −1 and β > −1.
QuadratureRule<1> make_gauss_jacobi(int n, double alpha, double beta);

/// n-point Gauss–Legendre rule on [−1, 1] (Gauss–Jacobi with α = β = 0), degree 2n − 1.
QuadratureRule<1> make_gauss_legendre(int n);

}  // namespace polydg
