#pragma once
/// One-axis tables of the orthonormal Legendre polynomials L̂_k = sqrt((2k+1)/2) P_k on [−1, 1]
/// (docs/theory.md, "Basis"), for host and device.
///
/// The tables are what the bounding-box basis multiplies together, one table per axis, so a
/// kernel that evaluates many basis functions at one point computes them once. Values come from
/// the three-term recurrence (k+1) P_{k+1} = (2k+1) ξ P_k − k P_{k−1} written with fused
/// multiply-adds, never from monomial coefficients (which lose all accuracy at p ≈ 10).
///
/// Contract: 0 ≤ p ≤ max_legendre_table_degree; `values` (and `derivatives`) hold at least p + 1
/// entries. No checks are made here (device code cannot throw): host code checks degrees before
/// launching.
#include <cmath>

#include "polydg/core/macros.hpp"

namespace polydg {

/// The largest degree of the tables below: max_basis_degree (legendre_basis.hpp checks that
/// they agree).
inline constexpr int max_legendre_table_degree = 10;

/// sqrt((2k + 1) / 2), the factor that normalises P_k, for 0 ≤ k ≤ max_legendre_table_degree:
/// the correctly rounded square roots, i.e. what std::sqrt returns (a test checks it), as
/// literals. Why: kernels evaluate these tables at every quadrature point, and a square root per
/// entry there (and a division per recurrence step) was a long chain of dependent FP64
/// operations on each point's lane; the recurrences below are unrolled over k, so every factor
/// is a constant.
POLYDG_HD constexpr double legendre_normalisation(int k) {
  switch (k) {
    case 0:
      return 0.7071067811865476;
    case 1:
      return 1.224744871391589;
    case 2:
      return 1.5811388300841898;
    case 3:
      return 1.8708286933869707;
    case 4:
      return 2.1213203435596424;
    case 5:
      return 2.345207879911715;
    case 6:
      return 2.5495097567963922;
    case 7:
      return 2.7386127875258306;
    case 8:
      return 2.9154759474226504;
    case 9:
      return 3.082207001484488;
    default:
      return 3.24037034920393;  // k = 10
  }
}

/// Writes L̂_0(ξ), …, L̂_p(ξ) into values[0..p] (p ≤ max_legendre_table_degree).
template <class Real>
POLYDG_HD inline void orthonormal_legendre(int p, Real xi, Real* values) {
  // Unnormalised P_k first: the recurrence for P_k has exact rational coefficients, so it is the
  // most accurate route; the normalisation is one multiplication per entry at the end.
  Real previous = Real(1);  // P_{k-1}
  Real current = xi;        // P_k
  values[0] = Real(1);
  if (p >= 1) values[1] = xi;
  // Unrolled to the largest degree with an exit at p, so that a and b are constants (the same
  // correctly rounded quotients the divisions gave).
  POLYDG_UNROLL
  for (int k = 1; k < max_legendre_table_degree; ++k) {
    if (k >= p) break;
    const Real a = Real(2 * k + 1) / Real(k + 1);
    const Real b = Real(k) / Real(k + 1);
    const Real next = std::fma(a * xi, current, -b * previous);
    previous = current;
    current = next;
    values[k + 1] = next;
  }
  POLYDG_UNROLL
  for (int k = 0; k <= max_legendre_table_degree; ++k) {
    if (k > p) break;
    values[k] *= Real(legendre_normalisation(k));
  }
}

/// Writes L̂_k(ξ) into values[k] and dL̂_k/dξ(ξ) into derivatives[k] for k = 0..p
/// (p ≤ max_legendre_table_degree).
/// Derivatives use P'_{k+1} = P'_{k−1} + (2k+1) P_k (exact, no division by 1 − ξ²).
template <class Real>
POLYDG_HD inline void orthonormal_legendre_with_derivatives(int p, Real xi, Real* values,
                                                            Real* derivatives) {
  values[0] = Real(1);
  derivatives[0] = Real(0);
  if (p >= 1) {
    values[1] = xi;
    derivatives[1] = Real(1);
  }
  // Unrolled as in orthonormal_legendre: constant factors.
  POLYDG_UNROLL
  for (int k = 1; k < max_legendre_table_degree; ++k) {
    if (k >= p) break;
    const Real a = Real(2 * k + 1) / Real(k + 1);
    const Real b = Real(k) / Real(k + 1);
    values[k + 1] = std::fma(a * xi, values[k], -b * values[k - 1]);
    derivatives[k + 1] = std::fma(Real(2 * k + 1), values[k], derivatives[k - 1]);
  }
  POLYDG_UNROLL
  for (int k = 0; k <= max_legendre_table_degree; ++k) {
    if (k > p) break;
    const Real scale = Real(legendre_normalisation(k));
    values[k] *= scale;
    derivatives[k] *= scale;
  }
}

}  // namespace polydg
