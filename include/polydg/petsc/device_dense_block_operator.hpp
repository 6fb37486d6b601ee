#pragma once
/// DeviceDenseBlockOperator: a DeviceDenseBlockMatrix<double> (the dense block format on the
/// GPU) seen as a LinearOperator in device memory, so a ShellMatrix runs KSP's products on the
/// GPU.
///
///   polydg::DenseBlockMatrix<double> host(matrix);                 // BlockMatrix → DBF
///   polydg::DeviceDenseBlockMatrix<double> gpu(host);              // copied to the device
///   polydg::petsc::DeviceDenseBlockOperator op(gpu, matrix.shared_pattern());
///   polydg::petsc::ShellMatrix shell(op, "flow_");                 // host or device Vecs
///   ...                        // after a re-assembly (e.g. DeviceAssembler on the same pattern):
///   gpu.update_values(device_values);
///   shell.values_changed();    // so a KSP sets its preconditioner up again
#include <memory>
#include <vector>

#include "polydg/petsc/linear_operator.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"

namespace polydg::petsc {

class DeviceDenseBlockOperator final : public LinearOperator {
 public:
  /// DeviceDenseBlockOperator - wraps a dense block matrix in device memory.
  ///
  /// Not collective.
  ///
  /// Input parameters:
  ///   matrix  - the device matrix; it must outlive this object (no copy is made, so
  ///             DeviceDenseBlockMatrix::update_values() on it is seen by the next product)
  ///   pattern - the BlockPattern `matrix` was built from (a DeviceDenseBlockMatrix keeps no
  ///             pattern), e.g. BlockMatrix::shared_pattern(); shared, so it lives as long as
  ///             this object even when the host BlockMatrix / DenseBlockMatrix is gone
  ///
  /// Level: intermediate
  ///
  /// Notes:
  ///   memory() is MemorySpace::device: the products take device pointers. A ShellMatrix
  ///   hands it a device Vec's array in place and stages host Vecs through its buffers.
  ///
  ///   Streams and completion: multiply(), multiply_transpose() and multiply_add() launch one
  ///   kernel each on the legacy default CUDA stream and return without waiting. Work issued
  ///   afterwards on the default stream (or on a blocking stream) is ordered after them: a
  ///   ShellMatrix with host Vecs copies y back with a synchronous cudaMemcpy on the default
  ///   stream, which waits for the product, so the product is complete when MatMult() returns.
  ///   With device Vecs (PETSc built with CUDA) the ShellMatrix synchronizes the device before
  ///   it gives the arrays back, since PETSc may work on its own non-blocking streams.
  ///   diagonal() and inverted_block_diagonal() return host results and are complete on return
  ///   (they end with a synchronous device-to-host copy).
  ///
  ///   diagonal() computes A_ii on the device and copies it to the host (one kernel, one copy
  ///   of dof_count() values through a temporary device buffer). inverted_block_diagonal()
  ///   gathers the diagonal blocks on the device (DeviceDenseBlockMatrix::diagonal_blocks()),
  ///   copies them to the host once (Σ N_e² values) and inverts them there with
  ///   invert_diagonal_blocks() (LU with partial pivoting, the same code as
  ///   DenseBlockMatrix::inverted_block_diagonal()); a singular block throws polydg::Error
  ///   naming its element. Both allocate their device buffer per call (they run once per
  ///   preconditioner set-up), so concurrent calls on one operator are safe.
  ///
  ///   Throws polydg::Error when `pattern` is null or does not match `matrix` (dof count or
  ///   value count), and — in a build without CUDA — from every DeviceDenseBlockMatrix call
  ///   ("built without CUDA"; such a build cannot construct the matrix in the first place).
  ///
  /// See also: DenseBlockOperator, ShellMatrix, DeviceDenseBlockMatrix
  DeviceDenseBlockOperator(const DeviceDenseBlockMatrix<double>& matrix,
                           std::shared_ptr<const BlockPattern> pattern);

  const BlockPattern& pattern() const override { return *pattern_; }
  MemorySpace memory() const override { return MemorySpace::device; }

  /// y = A x; x and y are device pointers (pattern().dof_count() entries). Asynchronous on
  /// the default stream.
  void multiply(const double* x, double* y) const override;
  /// y = Aᵀ x; device pointers. Asynchronous on the default stream.
  void multiply_transpose(const double* x, double* y) const override;
  /// y = A x + z; device pointers, z may be y. Asynchronous on the default stream.
  void multiply_add(const double* x, const double* z, double* y) const override;
  /// d_i = A_ii into host memory `d` (dof_count() entries); complete on return.
  void diagonal(double* d) const override;
  /// The inverted diagonal blocks in host memory, row-major, element after element.
  std::vector<double> inverted_block_diagonal(Index block_rows) const override;
  /// The ghost columns' product on the device (DeviceGhostColumnBlocks over the matrix's
  /// values; its list is built once here, from the layout copied back to the host).
  std::unique_ptr<GhostColumnProduct> ghost_column_product(Index owned_block_rows) const override;

  const DeviceDenseBlockMatrix<double>& matrix() const { return matrix_; }

 private:
  const DeviceDenseBlockMatrix<double>& matrix_;
  std::shared_ptr<const BlockPattern> pattern_;
  std::vector<Index> block_sizes_;
};

}  // namespace polydg::petsc
