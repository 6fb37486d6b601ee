#include "polydg/sparse/block_matrix.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "polydg/core/error.hpp"

namespace polydg {

template <class Real>
BlockMatrix<Real>::BlockMatrix(std::shared_ptr<const BlockPattern> pattern)
    : pattern_(std::move(pattern)), values_(pattern_->value_count(), Real(0)) {}

template <class Real>
void BlockMatrix<Real>::set_zero() {
  std::fill(values_.begin(), values_.end(), Real(0));
}

template <class Real>
void BlockMatrix<Real>::multiply(std::span<const Real> x, std::span<Real> y) const {
  const BlockPattern& p = *pattern_;
  require(GlobalIndex(x.size()) == p.dof_count() && GlobalIndex(y.size()) == p.dof_count(),
          "BlockMatrix::multiply: vectors of ", x.size(), " and ", y.size(), " entries for ",
          p.dof_count(), " unknowns");
#pragma omp parallel for schedule(static)
  for (Index r = 0; r < p.block_row_count(); ++r) {
    const Index rows = p.block_size(r);
    Real* out = y.data() + p.dof_offset(r);
    std::fill(out, out + rows, Real(0));
    for (Index k = p.block_row_begin(r); k < p.block_row_begin(r + 1); ++k) {
      const Index c = p.block_column(k), columns = p.block_size(c);
      const Real* block = values_.data() + p.block_value_offset(k);
      const Real* in = x.data() + p.dof_offset(c);
      for (Index i = 0; i < rows; ++i) {
        Real sum = 0;
        for (Index j = 0; j < columns; ++j) sum += block[i * columns + j] * in[j];
        out[i] += sum;
      }
    }
  }
}

template <class Real>
Real BlockMatrix<Real>::entry(GlobalIndex row, GlobalIndex column) const {
  const BlockPattern& p = *pattern_;
  const auto element_of = [&p](GlobalIndex dof) {
    Index low = 0, high = p.block_row_count() - 1;
    while (low < high) {
      const Index middle = (low + high + 1) / 2;
      if (p.dof_offset(middle) <= dof)
        low = middle;
      else
        high = middle - 1;
    }
    return low;
  };
  require(row >= 0 && row < p.dof_count() && column >= 0 && column < p.dof_count(),
          "BlockMatrix::entry: (", row, ", ", column, ") outside the ", p.dof_count(), "^2 matrix");
  const Index r = element_of(row), c = element_of(column);
  const Index block = p.find_block(r, c);
  if (block < 0) return Real(0);
  return values_[p.block_value_offset(block) + (row - p.dof_offset(r)) * p.block_size(c) +
                 (column - p.dof_offset(c))];
}

namespace {

/// Whether the rows × columns block equals the transpose of the columns × rows block `mirror`
/// (both row-major) to `relative_tolerance` times the largest |value| of the two.
template <class Real>
bool equals_transpose(const Real* block, const Real* mirror, Index rows, Index columns,
                      Real relative_tolerance) {
  Real scale = 0;
  for (Index i = 0; i < rows * columns; ++i)
    scale = std::max({scale, std::abs(block[i]), std::abs(mirror[i])});
  const Real bound = relative_tolerance * scale;
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < columns; ++j)
      // Negated, so that a NaN (every comparison false) counts as a difference.
      if (!(std::abs(block[i * columns + j] - mirror[j * rows + i]) <= bound)) return false;
  return true;
}

}  // namespace

template <class Real>
bool is_symmetric(const BlockPattern& p, std::span<const Real> values, Real relative_tolerance) {
  require(GlobalIndex(values.size()) == p.value_count(), "is_symmetric: ", values.size(),
          " values for a pattern of ", p.value_count());
  std::atomic<bool> symmetric = true;
#pragma omp parallel for schedule(dynamic, 256)
  for (Index r = 0; r < p.block_row_count(); ++r) {
    for (Index k = p.block_row_begin(r); k < p.block_row_begin(r + 1); ++k) {
      if (!symmetric.load(std::memory_order_relaxed)) break;  // an omp for cannot be left early
      const Index c = p.block_column(k);
      if (c < r) continue;  // the pair was compared from row c
      const Index transposed = c == r ? k : p.find_block(c, r);
      const Real* block = values.data() + p.block_value_offset(k);
      const Index rows = p.block_size(r), columns = p.block_size(c);
      const bool equal =
          transposed >= 0
              ? equals_transpose(block, values.data() + p.block_value_offset(transposed), rows,
                                 columns, relative_tolerance)
              : std::all_of(block, block + rows * columns, [](Real v) { return v == Real(0); });
      if (!equal) symmetric.store(false, std::memory_order_relaxed);
    }
  }
  return symmetric.load();
}

template bool is_symmetric(const BlockPattern&, std::span<const float>, float);
template bool is_symmetric(const BlockPattern&, std::span<const double>, double);
template class BlockMatrix<float>;
template class BlockMatrix<double>;

}  // namespace polydg
