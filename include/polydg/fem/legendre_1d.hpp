#pragma once
/// One-axis tables of the orthonormal Legendre polynomials L̂_k = sqrt((2k+1)/2) P_k on [−1, 1]
/// (SPEC §3), for host and device.
///
/// The tables are what the bounding-box basis multiplies together, one table per axis, so a
/// kernel that evaluates many basis functions at one point computes them once. Values come from
/// the three-term recurrence (k+1) P_{k+1} = (2k+1) ξ P_k − k P_{k−1} written with fused
/// multiply-adds, never from monomial coefficients (which lose all accuracy at p ≈ 10).
///
/// Contract: 0 ≤ p; `values` (and `derivatives`) hold at least p + 1 entries. No checks are made
/// here (device code cannot throw): host code checks degrees before launching.
#include <cmath>

#include "polydg/core/macros.hpp"

namespace polydg {

/// Writes L̂_0(ξ), …, L̂_p(ξ) into values[0..p].
template <class Real>
POLYDG_HD inline void orthonormal_legendre(int p, Real xi, Real* values) {
  // Unnormalised P_k first: the recurrence for P_k has exact rational coefficients, so it is the
  // most accurate route; the normalisation is one multiplication per entry at the end.
  Real previous = Real(1);  // P_{k-1}
  Real current = xi;        // P_k
  values[0] = Real(1);
  if (p >= 1) values[1] = xi;
  for (int k = 1; k < p; ++k) {
    const Real a = Real(2 * k + 1) / Real(k + 1);
    const Real b = Real(k) / Real(k + 1);
    const Real next = std::fma(a * xi, current, -b * previous);
    previous = current;
    current = next;
    values[k + 1] = next;
  }
  for (int k = 0; k <= p; ++k) values[k] *= std::sqrt(Real(2 * k + 1) / Real(2));
}

/// Writes L̂_k(ξ) into values[k] and dL̂_k/dξ(ξ) into derivatives[k] for k = 0..p.
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
  for (int k = 1; k < p; ++k) {
    const Real a = Real(2 * k + 1) / Real(k + 1);
    const Real b = Real(k) / Real(k + 1);
    values[k + 1] = std::fma(a * xi, values[k], -b * values[k - 1]);
    derivatives[k + 1] = std::fma(Real(2 * k + 1), values[k], derivatives[k - 1]);
  }
  for (int k = 0; k <= p; ++k) {
    const Real scale = std::sqrt(Real(2 * k + 1) / Real(2));
    values[k] *= scale;
    derivatives[k] *= scale;
  }
}

}  // namespace polydg
