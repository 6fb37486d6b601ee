#pragma once
/// SlabShellProducts: the KSP operator of a slab march with SlabProducts::dense_blocks — a
/// dense-block copy of the slab matrix (DenseMatrix), the LinearOperator over it (Operator) and
/// the MATSHELL that applies it — built together, refreshed together after each matrix
/// assembly. SlabSolver uses DenseBlockMatrix<double> and petsc::DenseBlockOperator,
/// DeviceSlabSolver DeviceDenseBlockMatrix<double> and petsc::DeviceDenseBlockOperator. On
/// several ranks the matrix is the rank's local one (owned elements, then ghosts) and the Mat
/// the distributed shell over the rank's rows (petsc::ShellMatrix(operator, rows, prefix)).
///
/// Not movable: the operator refers to the matrix and the Mat to the operator. A KSP that holds
/// mat() must be destroyed first (declare the products before the solver).
#include <petscmat.h>

#include <string>
#include <utility>

#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/sparse/rank_block_pattern.hpp"

namespace polydg {

template <class DenseMatrix, class Operator>
class SlabShellProducts {
 public:
  /// The dense matrix from `source` (its layout and values), the operator over it with
  /// `operator_arguments` after the matrix, the Mat with options prefix `options_prefix`: on
  /// one rank (`rows` null) or over the rank's `rows` of a distributed operator.
  template <class Source, class... OperatorArguments>
  SlabShellProducts(const Source& source, const RankBlockPattern* rows,
                    const std::string& options_prefix, OperatorArguments... operator_arguments)
      : dense_(source),
        operator_(dense_, std::move(operator_arguments)...),
        shell_(rows ? petsc::ShellMatrix(operator_, *rows, options_prefix)
                    : petsc::ShellMatrix(operator_, options_prefix)) {}
  SlabShellProducts(const SlabShellProducts&) = delete;
  SlabShellProducts& operator=(const SlabShellProducts&) = delete;

  Mat mat() const { return shell_.mat(); }
  /// New values of the slab matrix (in DenseMatrix::update_values's form); the Mat's next
  /// preconditioner set-up sees them (ShellMatrix::values_changed).
  template <class Values>
  void update_values(const Values& values) {
    dense_.update_values(values);
    shell_.values_changed();
  }

 private:
  DenseMatrix dense_;
  Operator operator_;
  petsc::ShellMatrix shell_;
};

}  // namespace polydg
