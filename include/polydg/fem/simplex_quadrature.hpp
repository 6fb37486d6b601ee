#pragma once
/// Quadrature rules of any degree 0..30 on the reference simplex conv{0, e_1, …, e_Dim}
/// (volume 1/Dim!), Dim = 1..4: segments, triangles, tetrahedra, 4-simplices.
///
/// Construction (Stroud's conical product / the Duffy collapse): with u ∈ [0, 1]^Dim,
///   x_1 = u_1,  x_2 = (1 − u_1) u_2,  x_3 = (1 − u_1)(1 − u_2) u_3, …
/// has Jacobian Π_i (1 − u_i)^{Dim−i}, so axis i takes the ⌈(q+1)/2⌉-point Gauss–Jacobi rule
/// with weight (1 − u)^{Dim−i} (mapped from [−1, 1] to [0, 1]). A polynomial of total degree q
/// becomes a polynomial of degree ≤ q in each u_i, which those rules integrate exactly.
/// All weights are positive and all points interior. Point count ⌈(q+1)/2⌉^Dim: not minimal,
/// but available for every degree and Dim without tables. On triangles, where a symmetric rule
/// has fewer points (symmetric_triangle_rules.hpp: degrees 2, 4–6, 8, 10–12), that one instead.
#include "polydg/fem/quadrature_rule.hpp"

namespace polydg {

/// Largest degree of the simplex, segment, cube and prism rules (2 p_max plus coefficient
/// degree covers the library's use; Gauss rules by point count go further).
constexpr int max_quadrature_degree = 30;

/// Collapsed Gauss–Jacobi rule of total degree `degree` on the reference Dim-simplex.
/// Throws polydg::Error unless 0 ≤ degree ≤ max_quadrature_degree. Computes a fresh rule;
/// simplex_rule() in quadrature_cache.hpp returns a shared cached one.
template <int Dim>
QuadratureRule<Dim> make_simplex_rule(int degree);

/// Throws polydg::Error naming `what` unless 0 ≤ degree ≤ max_quadrature_degree.
void require_quadrature_degree(int degree, const char* what);

}  // namespace polydg
