#pragma once
/// Determinant of a small dense N×N matrix (N ≤ 4 in practice), for host and device: by
/// elimination (small_determinant), or for N ≤ 3 by cofactors (cofactor_determinant), or by
/// whichever of the two applies with fewer operations (determinant).
#include <cmath>

#include "polydg/core/macros.hpp"

namespace polydg {

/// Gaussian elimination with partial pivoting; the matrix is overwritten. Exactly 0 when a
/// pivot column is zero. The pivot search swaps rows as it goes, with fixed indices, so that on
/// the device the matrix stays in registers (a search and one swap at a runtime index put it in
/// local memory); the pivot is the same, the largest |m[row][col]|, the first of equals.
template <int N, class Real>
POLYDG_HD inline Real small_determinant(Real (&m)[N][N]) {
  Real det = Real(1);
  POLYDG_UNROLL
  for (int col = 0; col < N; ++col) {
    POLYDG_UNROLL
    for (int row = col + 1; row < N; ++row)
      if (std::fabs(m[row][col]) > std::fabs(m[col][col])) {
        POLYDG_UNROLL
        for (int k = 0; k < N; ++k) {
          const Real t = m[col][k];
          m[col][k] = m[row][k];
          m[row][k] = t;
        }
        det = -det;
      }
    if (m[col][col] == Real(0)) return Real(0);
    det *= m[col][col];
    POLYDG_UNROLL
    for (int row = col + 1; row < N; ++row) {
      const Real factor = m[row][col] / m[col][col];
      POLYDG_UNROLL
      for (int k = col; k < N; ++k) m[row][k] -= factor * m[col][k];
    }
  }
  return det;
}

/// The same determinant for N ≤ 3 by cofactor expansion: no divisions and no branches, at the
/// price of not being exactly 0 for every singular matrix (it is for a zero row or column).
/// For quadrature weights, which kernels recompute at every point: elimination took three
/// FP64 divisions per point there.
template <int N, class Real>
POLYDG_HD inline Real cofactor_determinant(const Real (&m)[N][N]) {
  static_assert(N >= 1 && N <= 3, "cofactor_determinant is for N <= 3");
  if constexpr (N == 1) {
    return m[0][0];
  } else if constexpr (N == 2) {
    return m[0][0] * m[1][1] - m[0][1] * m[1][0];
  } else {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  }
}

/// cofactor_determinant for N ≤ 3 (m unchanged), small_determinant above (m overwritten): for
/// determinants computed at every quadrature point (affine_measure_ratio).
template <int N, class Real>
POLYDG_HD inline Real determinant(Real (&m)[N][N]) {
  if constexpr (N <= 3)
    return cofactor_determinant<N>(m);
  else
    return small_determinant<N>(m);
}

}  // namespace polydg
