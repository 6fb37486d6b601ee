#pragma once
// Test helper: solves a small BlockMatrix system densely (Gaussian elimination with partial
// pivoting), so assembler tests do not depend on PETSc.
#include <cmath>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/sparse/block_matrix.hpp"

namespace polydg::testing {

inline std::vector<double> dense_matrix(const BlockMatrix<double>& matrix) {
  const BlockPattern& p = matrix.pattern();
  const GlobalIndex n = p.dof_count();
  std::vector<double> dense(std::size_t(n * n), 0.0);
  for (Index k = 0; k < p.block_count(); ++k) {
    const Index r = p.block_row(k), c = p.block_column(k);
    const auto values = matrix.block_values(k);
    for (Index i = 0; i < p.block_size(r); ++i)
      for (Index j = 0; j < p.block_size(c); ++j)
        dense[(p.dof_offset(r) + i) * n + p.dof_offset(c) + j] = values[i * p.block_size(c) + j];
  }
  return dense;
}

inline std::vector<double> dense_solve(const BlockMatrix<double>& matrix, std::vector<double> b) {
  const std::size_t n = b.size();
  std::vector<double> a = dense_matrix(matrix);
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t row = col + 1; row < n; ++row)
      if (std::abs(a[row * n + col]) > std::abs(a[pivot * n + col])) pivot = row;
    require(a[pivot * n + col] != 0, "dense_solve: singular matrix at column ", col);
    if (pivot != col) {
      for (std::size_t k = 0; k < n; ++k) std::swap(a[col * n + k], a[pivot * n + k]);
      std::swap(b[col], b[pivot]);
    }
    for (std::size_t row = col + 1; row < n; ++row) {
      const double factor = a[row * n + col] / a[col * n + col];
      if (factor == 0) continue;
      for (std::size_t k = col; k < n; ++k) a[row * n + k] -= factor * a[col * n + k];
      b[row] -= factor * b[col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double sum = b[i];
    for (std::size_t k = i + 1; k < n; ++k) sum -= a[i * n + k] * x[k];
    x[i] = sum / a[i * n + i];
  }
  return x;
}

}  // namespace polydg::testing
