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
#include <memory>
#include <span>
#include <vector>

#include "polydg/petsc/linear_operator.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/ghost_column_blocks.hpp"

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

  std::unique_ptr<GhostColumnProduct> ghost_column_product(Index owned_block_rows) const override {
    return std::make_unique<GhostColumns>(matrix_, owned_block_rows);
  }

  const DenseBlockMatrix<double>& matrix() const { return matrix_; }

 private:
  class GhostColumns final : public GhostColumnProduct {
   public:
    GhostColumns(const DenseBlockMatrix<double>& matrix, Index owned_block_rows)
        : matrix_(matrix),
          blocks_(matrix.groups(), matrix.row_dof_offsets(), matrix.slot_column_dof_offsets(),
                  matrix.slot_column_sizes(), matrix.pattern().dof_offset(owned_block_rows)) {}
    void multiply_add(const double* x_ghosts, double* y) const override {
      blocks_.multiply_add(matrix_.values(), x_ghosts, y);
    }

   private:
    const DenseBlockMatrix<double>& matrix_;
    GhostColumnBlocks blocks_;
  };

  std::span<const double> input(const double* v) const {
    return {v, std::size_t(matrix_.dof_count())};
  }
  std::span<double> output(double* v) const { return {v, std::size_t(matrix_.dof_count())}; }

  const DenseBlockMatrix<double>& matrix_;
};

}  // namespace polydg::petsc
