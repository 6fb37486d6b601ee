#pragma once
/// DenseBlockOperator: a DenseBlockMatrix<double> (the CPU dense block format) seen as a
/// LinearOperator in host memory, for ShellMatrix.
///
///   polydg::DenseBlockMatrix<double> dense(matrix);
///   polydg::petsc::DenseBlockOperator op(dense);
///   polydg::petsc::ShellMatrix shell(op);
///   ...                        // after a re-assembly:
///   dense.update_values(matrix);
///   shell.values_changed();    // so a KSP sets its preconditioner up again
#include <span>
#include <vector>

#include "polydg/petsc/linear_operator.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"

namespace polydg::petsc {

class DenseBlockOperator final : public LinearOperator {
 public:
  /// DenseBlockOperator - wraps `matrix`, which must outlive this object (no copy is made, so
  /// DenseBlockMatrix::update_values() on it is seen by the next product).
  explicit DenseBlockOperator(const DenseBlockMatrix<double>& matrix) : matrix_(matrix) {}

  const BlockPattern& pattern() const override { return matrix_.pattern(); }
  MemorySpace memory() const override { return MemorySpace::host; }

  void multiply(const double* x, double* y) const override {
    matrix_.multiply(input(x), output(y));
  }
  void multiply_transpose(const double* x, double* y) const override {
    matrix_.multiply_transpose(input(x), output(y));
  }
  void multiply_add(const double* x, const double* z, double* y) const override {
    matrix_.multiply_add(input(x), input(z), output(y));
  }
  void diagonal(double* d) const override { matrix_.diagonal(output(d)); }
  std::vector<double> inverted_block_diagonal(Index block_rows) const override {
    return matrix_.inverted_block_diagonal(block_rows);
  }

  const DenseBlockMatrix<double>& matrix() const { return matrix_; }

 private:
  std::span<const double> input(const double* v) const {
    return {v, std::size_t(matrix_.dof_count())};
  }
  std::span<double> output(double* v) const { return {v, std::size_t(matrix_.dof_count())}; }

  const DenseBlockMatrix<double>& matrix_;
};

}  // namespace polydg::petsc
