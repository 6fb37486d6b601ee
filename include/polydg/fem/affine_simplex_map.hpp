#pragma once
/// The affine map from the reference K-simplex conv{0, e_1, …, e_K} onto a simplex with vertices
/// v[0..K] in R^Dim, for host and device: K = Dim maps element pieces, K = Dim − 1 maps facets.
///
///   x(ξ) = v_0 + Σ_i ξ_i (v_i − v_0),   J = [v_1 − v_0, …, v_K − v_0]   (Dim × K)
///
/// A reference weight times affine_measure_ratio (|det J| for K = Dim, sqrt(det JᵀJ) for
/// K < Dim, i.e. K! times the simplex's K-measure) is a physical weight.
#include <cmath>

#include "polydg/core/macros.hpp"
#include "polydg/core/small_determinant.hpp"
#include "polydg/core/types.hpp"

namespace polydg {

/// x(ξ) for the simplex with vertices v[0..K] in R^Dim.
template <int K, int Dim, class Real>
POLYDG_HD inline Point<Dim, Real> map_reference_point(const Point<Dim, Real>* vertices,
                                                      const Point<K, Real>& reference) {
  static_assert(K <= Dim, "a K-simplex in R^Dim needs K <= Dim");
  Point<Dim, Real> x = vertices[0];
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < Dim; ++j) x[j] += reference[i] * (vertices[i + 1][j] - vertices[0][j]);
  return x;
}

/// Physical K-measure / reference K-measure of the simplex v[0..K] in R^Dim: |det J| when
/// K = Dim, sqrt(det JᵀJ) when K < Dim. Zero for a degenerate simplex.
template <int K, int Dim, class Real>
POLYDG_HD inline Real affine_measure_ratio(const Point<Dim, Real>* vertices) {
  static_assert(K >= 1 && K <= Dim, "a K-simplex in R^Dim needs 1 <= K <= Dim");
  if constexpr (K == Dim) {
    Real jacobian[Dim][Dim];
    for (int i = 0; i < Dim; ++i)
      for (int j = 0; j < Dim; ++j) jacobian[i][j] = vertices[j + 1][i] - vertices[0][i];
    // Cofactors where they apply (determinant): this runs at every quadrature point.
    return std::fabs(determinant<Dim>(jacobian));
  } else {
    Real gram[K][K];
    for (int i = 0; i < K; ++i)
      for (int j = 0; j < K; ++j) {
        Real s = Real(0);
        for (int c = 0; c < Dim; ++c)
          s += (vertices[i + 1][c] - vertices[0][c]) * (vertices[j + 1][c] - vertices[0][c]);
        gram[i][j] = s;
      }
    const Real g = determinant<K>(gram);
    return g > Real(0) ? std::sqrt(g) : Real(0);
  }
}

}  // namespace polydg
