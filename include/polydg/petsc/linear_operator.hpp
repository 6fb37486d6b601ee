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
#include <memory>
#include <vector>

#include "polydg/sparse/block_pattern.hpp"

namespace polydg::petsc {

/// Where a LinearOperator reads and writes the vectors of its products.
enum class MemorySpace {
  host,    ///< ordinary (CPU) memory
  device,  ///< CUDA device memory
};

/// The part of a rank's product that needs its ghosts' entries of x: for the owned rows e,
/// y_e += Σ_{f ghost} A_ef x_f. A distributed ShellMatrix computes A x with the ghosts' x set
/// to zero while the ghosts are exchanged, then adds this (docs/performance.md, "Distributed
/// assembly and products").
class GhostColumnProduct {
 public:
  virtual ~GhostColumnProduct() = default;
  /// x_ghosts: the ghosts' entries of x (local unknowns from the owned ones on), y: the local
  /// rows; both in the operator's memory(), as its products (and, on the device, asynchronous
  /// on the same stream).
  virtual void multiply_add(const double* x_ghosts, double* y) const = 0;
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

  /// The ghost columns' product of a rank's operator whose first `owned_block_rows` elements
  /// are owned and the rest ghosts; it reads the operator's current values, so it stays valid
  /// across value updates, and must not outlive the operator. nullptr (the default) where the
  /// operator has none: a distributed ShellMatrix then gathers the ghosts before each product,
  /// without overlapping the exchange.
  virtual std::unique_ptr<GhostColumnProduct> ghost_column_product(Index owned_block_rows) const {
    (void)owned_block_rows;
    return nullptr;
  }
};

}  // namespace polydg::petsc
