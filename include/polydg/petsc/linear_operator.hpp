#pragma once
/// LinearOperator: what a ShellMatrix needs from a square block operator A on the unknowns of a
/// BlockPattern — the products, the diagonal and the inverses of the diagonal blocks — so one
/// MATSHELL serves the CPU DenseBlockMatrix (DenseBlockOperator) and the GPU one
/// (DeviceDenseBlockOperator).
///
///   polydg::DenseBlockMatrix<double> dense(matrix);        // BlockMatrix<double> → DBF
///   polydg::petsc::DenseBlockOperator op(dense);           // a LinearOperator in host memory
///   polydg::petsc::ShellMatrix shell(op);                  // MATSHELL calling `op`
///
/// An implementation reports failures by throwing (polydg::Error); ShellMatrix turns them into
/// PETSc error codes at the C boundary and POLYDG_PETSC_CALL turns those back into
/// polydg::Error where the PETSc call (MatMult(), KSPSolve(), ...) was made.
#include <vector>

#include "polydg/sparse/block_pattern.hpp"

namespace polydg::petsc {

/// Where a LinearOperator reads and writes the vectors of its products.
enum class MemorySpace {
  host,    ///< ordinary (CPU) memory
  device,  ///< CUDA device memory
};

class LinearOperator {
 public:
  virtual ~LinearOperator() = default;

  /// The block structure of A: its dof_count() is the number of rows and columns, its block
  /// sizes are the diagonal blocks of inverted_block_diagonal(). Must stay the same object
  /// for the operator's lifetime.
  virtual const BlockPattern& pattern() const = 0;

  /// Where x, z and y of the products live. diagonal() and inverted_block_diagonal() work in
  /// host memory whatever this says.
  virtual MemorySpace memory() const = 0;

  /// y = A x. x and y have pattern().dof_count() entries in memory() and do not overlap.
  virtual void multiply(const double* x, double* y) const = 0;
  /// y = Aᵀ x. x and y have pattern().dof_count() entries in memory() and do not overlap.
  virtual void multiply_transpose(const double* x, double* y) const = 0;
  /// y = A x + z. All three have pattern().dof_count() entries in memory(); z may be y itself
  /// (the same pointer), x does not overlap y.
  virtual void multiply_add(const double* x, const double* z, double* y) const = 0;

  /// d_i = A_ii, pattern().dof_count() entries in host memory.
  virtual void diagonal(double* d) const = 0;
  /// The inverses of the diagonal blocks A_ee of the first `block_rows` elements (all of
  /// them: pattern().block_row_count(); a rank's owned elements, which come first in its local
  /// pattern, whose ghost rows are not the operator's) in host memory: element after element
  /// (element e starts at Σ_{e' < e} N_{e'}²), each N_e × N_e block row-major. Throws
  /// polydg::Error for a singular block.
  virtual std::vector<double> inverted_block_diagonal(Index block_rows) const = 0;
};

}  // namespace polydg::petsc
