#pragma once
/// Determinant of a small dense N×N matrix (N ≤ 4 in practice), for host and device.
#include <cmath>

#include "polydg/core/macros.hpp"

namespace polydg {

/// Gaussian elimination with partial pivoting; the matrix is overwritten. Exactly 0 when a
/// pivot column is zero.
template <int N, class Real>
POLYDG_HD inline Real small_determinant(Real (&m)[N][N]) {
  Real det = Real(1);
  for (int col = 0; col < N; ++col) {
    int pivot = col;
    for (int row = col + 1; row < N; ++row)
      if (std::fabs(m[row][col]) > std::fabs(m[pivot][col])) pivot = row;
    if (m[pivot][col] == Real(0)) return Real(0);
    if (pivot != col) {
      for (int k = 0; k < N; ++k) {
        const Real t = m[col][k];
        m[col][k] = m[pivot][k];
        m[pivot][k] = t;
      }
      det = -det;
    }
    det *= m[col][col];
    for (int row = col + 1; row < N; ++row) {
      const Real factor = m[row][col] / m[col][col];
      for (int k = col; k < N; ++k) m[row][k] -= factor * m[col][k];
    }
  }
  return det;
}

}  // namespace polydg
