#pragma once
/// ShellMatrix: a PETSc MATSHELL whose products, diagonal and inverted diagonal blocks come from
/// a LinearOperator, so KSP and the point-block preconditioners run on the dense block format
/// (and, with a device LinearOperator such as DeviceDenseBlockOperator, on the GPU) without an
/// AIJ copy of the matrix.
///
///   polydg::DenseBlockMatrix<double> dense(matrix);
///   polydg::petsc::DenseBlockOperator op(dense);
///   polydg::petsc::ShellMatrix shell(op, "flow_");
///   polydg::petsc::LinearSolver solver(shell.mat(), {.options_prefix = "flow_"});
///   solver.solve(b.vec(), x.vec());     // -flow_ksp_type cg -flow_pc_type pbjacobi
#include <petscmat.h>

#include <string>

#include "polydg/core/types.hpp"
#include "polydg/petsc/linear_operator.hpp"
#include "polydg/sparse/rank_block_pattern.hpp"

namespace polydg::petsc {

class ShellMatrix {
 public:
  /// An empty ShellMatrix (no Mat), as left behind by a move.
  ShellMatrix() = default;

  /// ShellMatrix - creates a MATSHELL on PETSC_COMM_WORLD that applies `linear_operator`.
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Input parameters:
  ///   linear_operator - the operator A; its pattern().dof_count() is the number of rows and
  ///                     columns. It must outlive the Mat, including every reference to the
  ///                     Mat taken with PetscObjectReference() (e.g. by a KSP)
  ///   options_prefix  - prefix of the Mat's options (MatSetOptionsPrefix()), e.g. "flow_";
  ///                     empty for none
  ///
  /// Level: beginner
  ///
  /// Example:
  ///   polydg::petsc::DenseBlockOperator op(dense);
  ///   polydg::petsc::ShellMatrix shell(op);
  ///   KSPSetOperators(ksp, shell.mat(), shell.mat());
  ///
  /// Notes:
  ///   The Mat implements MATOP_MULT, MATOP_MULT_TRANSPOSE, MATOP_MULT_ADD and
  ///   MATOP_GET_DIAGONAL (so -pc_type jacobi works) and MATOP_INVERT_VBLOCK_DIAGONAL with
  ///   the pattern's block sizes set by MatSetVariableBlockSizes() (so -pc_type vpbjacobi works,
  ///   also on hp meshes). When all block sizes are equal to N, the Mat's block size is N
  ///   (MatSetBlockSize()) and MATOP_INVERT_BLOCK_DIAGONAL is implemented (so -pc_type
  ///   pbjacobi works). PETSc stores inverted blocks column-major while
  ///   LinearOperator::inverted_block_diagonal() returns them row-major: they are transposed
  ///   here. The inverted blocks handed out by MatInvertBlockDiagonal() are owned by the Mat
  ///   and valid until its next call or its destruction.
  ///
  ///   Vectors are taken with VecGetArrayReadAndMemType(), VecGetArrayWriteAndMemType() and,
  ///   for MatMultAdd() with z = y, VecGetArrayAndMemType(). An array in the memory space of
  ///   linear_operator.memory() goes to the operator as it is; any other is staged through
  ///   buffers owned by the Mat (one per vector argument, allocated at the first product that
  ///   needs them, kept until the Mat is destroyed) with polydg::device copies, which throw
  ///   "built without CUDA" in a CPU build. A host Vec for a device operator goes through a
  ///   pinned host buffer (device::PinnedBuffer): its array is copied into it (OpenMP-parallel
  ///   memcpy), then to a device buffer with one cudaMemcpy at full PCIe speed, and outputs
  ///   the same way back — rather than one cudaMemcpy from the Vec's pageable array, which
  ///   the driver splits through its own small pinned buffers at lower speed (perf/bench_ksp
  ///   times both). A device Vec for a host operator is copied into a pinned buffer directly.
  ///   Each product with host Vecs thus moves x (and z) to the device and y back over PCIe,
  ///   2 or 3 × 8 dof_count() bytes, besides the product itself.
  ///
  ///   Completion: every staging copy is a synchronous cudaMemcpy on the legacy default
  ///   stream, the stream a DeviceDenseBlockOperator launches its kernels on, so copying y
  ///   back waits for the product; when the output Vec's device array is used in place, the
  ///   device is synchronized (cudaDeviceSynchronize()) before the array goes back to PETSc,
  ///   which may use its own non-blocking streams. Either way the product is complete when
  ///   MatMult() and friends return. The Mat's vector type (MatShellSetVecType(), what
  ///   MatCreateVecs() and a KSP's work vectors get) is -[prefix]vec_type when given, else
  ///   VECCUDA for an operator in device memory where a device placement is possible
  ///   (polydg/petsc/placement.hpp), VECSTANDARD otherwise: by default a device operator's
  ///   vectors are used in place.
  ///
  ///   A polydg::Error (or any exception) thrown by the operator inside a PETSc callback does
  ///   not cross into PETSc: it is caught and returned as a PETSc error (PETSC_ERR_LIB) whose
  ///   message is the exception's text, so POLYDG_PETSC_CALL around the PETSc call that led
  ///   to it (MatMult(), KSPSolve(), ...) throws polydg::Error carrying that text.
  ///
  ///   MatSetFromOptions() is called under the prefix; a -[prefix]mat_type other than shell
  ///   throws polydg::Error (it would replace the shell). PETSc does not
  ///   manage scalings and shifts of this shell (MatShellSetManageScalingShifts()):
  ///   MatScale(), MatShift(), MatDiagonalScale() and MatAXPY() on it fail instead of
  ///   changing the products but not the inverted diagonal blocks.
  ///
  ///   Throws polydg::Error when PETSC_COMM_WORLD has more than one rank (a distributed
  ///   operator takes the constructor below), when dof_count() does not fit in PetscInt and for
  ///   any failing PETSc call.
  ///
  /// See also: LinearOperator, DenseBlockOperator, DeviceDenseBlockOperator, values_changed(),
  ///           AijMatrix
  explicit ShellMatrix(const LinearOperator& linear_operator,
                       const std::string& options_prefix = "");

  /// ShellMatrix - creates a MATSHELL on PETSC_COMM_WORLD with this rank's rows of a
  /// distributed operator.
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Input parameters:
  ///   linear_operator - the operator on the rank's local pattern (rows.local(): the owned
  ///                     elements, then the ghosts), e.g. a DeviceDenseBlockOperator of the
  ///                     matrix an Assembler on the rank's QuadratureMesh assembled; it must
  ///                     outlive the Mat, as above
  ///   rows            - the rank's RankBlockPattern: the Mat has rows.global_dof_count() rows,
  ///                     rows.owned_dof_count() here (the layout of AijMatrix(rows), Vector(rows))
  ///   options_prefix  - as above
  ///
  /// Level: intermediate
  ///
  /// Notes:
  ///   MatMult() starts the scatter of the ghosts' entries of x from their owners (a
  ///   GhostScatter, set up here) and copies the owned entries into a local vector in the
  ///   operator's memory. Where the operator has a ghost column product
  ///   (LinearOperator::ghost_column_product(), as DenseBlockOperator and
  ///   DeviceDenseBlockOperator do), it then applies the operator to the local vector with the
  ///   ghosts' entries zero while they are on their way (on the GPU the product is enqueued
  ///   and the host waits for the messages meanwhile), and adds the ghost columns' part when
  ///   they have arrived: the exchange overlaps the product. Otherwise, or with
  ///   -[prefix]shell_overlap_ghosts false (to measure what the overlap gains), it appends the
  ///   ghosts' entries first and applies the operator after. Either way the owned rows of the
  ///   result are kept. MatMultAdd() likewise;
  ///   MatGetDiagonal() and the block inverses (pbjacobi, vpbjacobi) take the owned rows.
  ///   MatMultTranspose() is not implemented for a distributed operator (a PETSc error that says
  ///   so). The local product also computes the ghost rows (discarded): on a partition the
  ///   ghosts are few (0.3 % of the rows per rank on the Table 2 slab over two ranks).
  ///
  /// See also: RankBlockPattern, GhostScatter, AijMatrix(const RankBlockPattern&)
  ShellMatrix(const LinearOperator& linear_operator, const RankBlockPattern& rows,
              const std::string& options_prefix = "");

  /// ~ShellMatrix - releases the Mat (MatDestroy()); other references keep it, and the
  /// buffers it owns, alive.
  ~ShellMatrix();

  ShellMatrix(ShellMatrix&& other) noexcept;
  ShellMatrix& operator=(ShellMatrix&& other) noexcept;
  ShellMatrix(const ShellMatrix&) = delete;
  ShellMatrix& operator=(const ShellMatrix&) = delete;

  /// values_changed - tells PETSc that the operator's values changed (e.g. after
  /// DenseBlockMatrix::update_values()).
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Level: beginner
  ///
  /// Notes:
  ///   PETSc cannot see into the operator: this increases the Mat's object state (through
  ///   MatAssemblyBegin() / MatAssemblyEnd(), which also applies -[prefix]mat_view), so a KSP
  ///   using the Mat sets its preconditioner up again (recomputing the diagonal or the
  ///   inverted blocks) on the next solve. Products always use the operator's current
  ///   values, with or without this call.
  ///
  /// See also: AijMatrix::update()
  void values_changed();

  /// The PETSc matrix, for KSPSetOperators() and the like; owned by this object (take a
  /// reference with PetscObjectReference() to keep it beyond this object's lifetime).
  Mat mat() const { return mat_; }
  /// Number of rows and columns (the pattern's dof_count()).
  GlobalIndex row_count() const { return row_count_; }

 private:
  Mat mat_ = nullptr;
  GlobalIndex row_count_ = 0;
};

}  // namespace polydg::petsc
