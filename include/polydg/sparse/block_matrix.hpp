#pragma once
/// BlockMatrix: a BlockPattern plus one value per stored entry (blocks contiguous, row-major;
/// see BlockPattern). Assembling again overwrites the values in place: the pattern and the
/// storage are allocated once.
#include <memory>
#include <span>
#include <vector>

#include "polydg/sparse/block_pattern.hpp"

namespace polydg {

/// The relative tolerance with which the library calls an assembled matrix symmetric
/// (BlockMatrix::is_symmetric(), the MAT_SYMMETRIC flag of petsc::AijMatrix): a thousand times
/// the rounding of the assembly (sums of O(100) quadrature terms in double, ~1e-13 of the
/// block's largest value), and far below the asymmetry of any advection that changes how a
/// Krylov method behaves.
inline constexpr double symmetry_tolerance = 1e-10;

template <class Real = double>
class BlockMatrix {
 public:
  BlockMatrix() = default;
  /// Values zero.
  explicit BlockMatrix(std::shared_ptr<const BlockPattern> pattern);

  const BlockPattern& pattern() const { return *pattern_; }
  const std::shared_ptr<const BlockPattern>& shared_pattern() const { return pattern_; }
  std::span<Real> values() { return values_; }
  std::span<const Real> values() const { return values_; }
  /// The N_r × N_c values of block `block`, row-major.
  std::span<Real> block_values(Index block) {
    return std::span<Real>(values_).subspan(
        pattern_->block_value_offset(block),
        pattern_->block_value_offset(block + 1) - pattern_->block_value_offset(block));
  }
  std::span<const Real> block_values(Index block) const {
    return std::span<const Real>(values_).subspan(
        pattern_->block_value_offset(block),
        pattern_->block_value_offset(block + 1) - pattern_->block_value_offset(block));
  }
  void set_zero();

  /// y = A x (the CPU reference product; sizes dof_count()).
  void multiply(std::span<const Real> x, std::span<Real> y) const;
  /// The entry (row, column) in global numbering; 0 outside the pattern. For tests.
  Real entry(GlobalIndex row, GlobalIndex column) const;

  /// Whether A = Aᵀ to `relative_tolerance`: is_symmetric(pattern(), values(), ...).
  bool is_symmetric(Real relative_tolerance) const;

 private:
  std::shared_ptr<const BlockPattern> pattern_;
  std::vector<Real> values_;
};

/// is_symmetric - whether the matrix with block sparsity `pattern` and `values` (in a
/// BlockMatrix's order) equals its transpose up to a relative tolerance: every block pair
/// (r, c), (c, r) satisfies |A_rc[i][j] − A_cr[j][i]| ≤ relative_tolerance · m_rc, with m_rc the
/// largest |value| of the two blocks (a diagonal block is compared with its own transpose).
///
/// Notes:
///   O(value_count()) on the OpenMP threads, stopping at the first pair that differs (a matrix
///   with advection is told apart at its first interface). The scale is the block pair's, not
///   the matrix's, so that small elements (mass ~ h^d) are held to the same relative standard
///   as large ones. A NaN makes the matrix not symmetric. Throws polydg::Error when `values`
///   has not pattern.value_count() entries.
///
/// See also: symmetry_tolerance, BlockMatrix::is_symmetric(), petsc::AijMatrix::update()
template <class Real>
bool is_symmetric(const BlockPattern& pattern, std::span<const Real> values,
                  Real relative_tolerance);

template <class Real>
bool BlockMatrix<Real>::is_symmetric(Real relative_tolerance) const {
  return polydg::is_symmetric(*pattern_, values(), relative_tolerance);
}

extern template bool is_symmetric(const BlockPattern&, std::span<const float>, float);
extern template bool is_symmetric(const BlockPattern&, std::span<const double>, double);
extern template class BlockMatrix<float>;
extern template class BlockMatrix<double>;

}  // namespace polydg
