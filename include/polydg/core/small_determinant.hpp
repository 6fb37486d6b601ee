#pragma once
/// Determinant of a small dense N×N matrix (N ≤ 4 in practice), for host and device.
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

}  // namespace polydg
