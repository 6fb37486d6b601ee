#pragma once
/// BlockMatrix: a BlockPattern plus one value per stored entry (blocks contiguous, row-major;
/// see BlockPattern). Assembling again overwrites the values in place: the pattern and the
/// storage are allocated once.
#include <memory>
#include <span>
#include <vector>

#include "polydg/sparse/block_pattern.hpp"

namespace polydg {

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

 private:
  std::shared_ptr<const BlockPattern> pattern_;
  std::vector<Real> values_;
};

extern template class BlockMatrix<float>;
extern template class BlockMatrix<double>;

}  // namespace polydg
