#pragma once
/// DeviceDenseBlockMatrix: a DenseBlockMatrix (dense_block_matrix.hpp, the grouped dense block
/// format of docs/theory.md, "Dense block format") in device memory, with its products on the GPU.
///
///   polydg::DenseBlockMatrix<double> host(block_matrix);          // layout, on the CPU
///   polydg::DeviceDenseBlockMatrix<double> matrix(host);          // copied to the device once
///   matrix.multiply(x, y);                                        // device pointers
///   matrix.update_values(assembled_values);                       // after a GPU re-assembly
///
/// The products (one launch each, all groups at once, thread blocks in the order of the block rows
/// they cover): in y = A x thread (l, c) of a group owns y_il for a chunk c of R rows i
/// (rows_per_thread(): the power of two at or above the largest block, at most 4, halved while the
/// matrix has very few block rows) and reads A[k][i][l] for k ascending, a few
/// columns' loads in flight at once — consecutive threads read consecutive addresses — and x once
/// per column for its chunk, so y = A x is one coalesced pass over the values. Groups of one block
/// size N with N × N blocks only have kernels compiled for that size — N = 3, 6, 10, 15, 21 (2D
/// P_1..P_5), 4, 10, 20, 35, 56 (2D+1 and 3D P_1..P_5), 8, 12, 16, 20, 24 (HDG 2D p = 1..5) and
/// 15, 30, 50, 75, 105 (HDG 3D) — which keep the loads of two to four chunks of columns in
/// flight, the slots' x offsets loaded ahead (a launch of their own per size;
/// fixed_size_rows()). Aᵀ x gathers the transposed blocks (no atomics; those reads are
/// strided).
/// The seed's two-step variant inflates x into X[k][l] first, then contracts. Every output is
/// summed by one thread in a fixed order: bitwise the same on every run.
///
/// diagonal() and diagonal_blocks() read the diagonal block of each row, which starts at the
/// row's column k = row_diagonal_columns (A_ii = A[start + i][i][l]).
///
/// All pointers are device memory; the calls are asynchronous on the default stream. The
/// header includes no CUDA header; a build without CUDA links a stub that throws.
#include <cstddef>
#include <span>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/types.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/ghost_column_blocks.hpp"

namespace polydg {

namespace detail {
/// One thread block of a DeviceDenseBlockMatrix launch: its group, and its index among that
/// group's thread blocks (thread t of the group is block × threads per block + thread).
struct DenseBlockWork {
  Index group;
  Index block;
};
/// One launch of y = A x: its kernel (−1 the general one, else a fixed block size) and blocks;
/// those from head_blocks on take the size's end shape.
struct DenseBlockLaunch {
  int kernel = -1;
  GlobalIndex head_blocks = 0;
  device::DeviceBuffer<DenseBlockWork> blocks;
  int block_threads = 0;  ///< threads per block of the launch
};
}  // namespace detail

template <class Real = double>
class DeviceDenseBlockMatrix {
 public:
  /// Copies `host`'s layout and values to the device; also keeps, per slot, the offset of its
  /// block in the BlockMatrix value order (for update_values). rows_per_thread: of y = A x,
  /// 0 to choose (the power of two at or above the largest block, at most 4, halved while
  /// the matrix gives fewer threads than a sixteenth of what the device holds) and the
  /// fixed-size kernels where the blocks allow them, or 1, 2, 4, 8 for the general kernel
  /// everywhere (the products are bitwise the same whichever); anything else throws.
  /// end_block_rows: block rows a fixed-size kernel with an end shape (N = 56) gives to it at
  /// the end of its launch — whole slices, the last in launch order, until at least that many;
  /// automatic_end_rows (the default) for a fraction of a wave where the launch has more than
  /// one, none otherwise. The products' bits do not depend on it.
  static constexpr Index automatic_end_rows = -1;
  explicit DeviceDenseBlockMatrix(const DenseBlockMatrix<Real>& host, int rows_per_thread = 0,
                                  Index end_block_rows = automatic_end_rows);

  GlobalIndex dof_count() const { return dof_count_; }
  /// Stored values (with padding) and the BlockMatrix's values (without).
  GlobalIndex stored_value_count() const { return stored_values_; }
  GlobalIndex matrix_value_count() const { return matrix_values_; }
  GlobalIndex inflated_size() const { return inflated_size_; }
  /// Bytes y = A x must move at least: the stored values, the slot and row arrays it reads,
  /// x and y once each.
  double minimal_bytes() const;

  void multiply(const Real* x, Real* y) const;
  /// y = A x + z; z may equal y.
  void multiply_add(const Real* x, const Real* z, Real* y) const;
  void multiply_transpose(const Real* x, Real* y) const;
  /// Seed 003's two-step product: inflate (x → X, inflated_size() entries), contract (X → y).
  void inflate(const Real* x, Real* inflated) const;
  void contract(const Real* inflated, Real* y) const;
  /// d_i = A_ii: `d` is device memory of dof_count() entries (as DenseBlockMatrix::diagonal()).
  void diagonal(Real* d) const;
  /// The diagonal blocks A_ee themselves (not inverted), element after element in the
  /// pattern's order, each N_e × N_e row-major; element e starts at Σ_{e' < e} N_{e'}² — the
  /// layout of DenseBlockMatrix::inverted_block_diagonal(). `blocks` is device memory of
  /// diagonal_block_value_count() entries.
  void diagonal_blocks(Real* blocks) const;
  /// Σ_e N_e²: the entries diagonal_blocks() writes.
  GlobalIndex diagonal_block_value_count() const { return diagonal_block_values_; }
  /// Overwrites the values from a BlockMatrix value array in device memory (pattern order,
  /// matrix_value_count() entries), e.g. DeviceAssembler::values(): one pass, no allocation.
  void update_values(const Real* block_matrix_values);
  /// Rows of a block one thread of y = A x sums in the general kernel (1, 2, 4, or 8 if asked
  /// for).
  int rows_per_thread() const { return rows_per_thread_; }
  /// Block rows whose y = A x runs in a kernel compiled for their block size: those of groups
  /// of one block size N (2D, 2D+1 and 3D P_1..P_5, HDG 2D / 3D p = 1..5) whose blocks are
  /// all N × N (a one-degree pattern), unless rows_per_thread was given; of those, end_rows()
  /// in the size's end shape. The products' bits are the same either way.
  Index fixed_size_rows() const { return fixed_size_rows_; }
  Index end_rows() const { return end_rows_; }
  /// The stored values, group after group (as DenseBlockMatrix::values()).
  const Real* values() const { return values_.data(); }
  /// The blocks joining rows below `owned_dof_count` to columns at or above it (a rank's owned
  /// rows and ghost columns; GhostColumnBlocks), listed from the layout copied back to the host
  /// (once per call: a set-up step).
  GhostColumnBlocks ghost_column_blocks(GlobalIndex owned_dof_count) const;

 private:
  GlobalIndex dof_count_ = 0, stored_values_ = 0, matrix_values_ = 0, inflated_size_ = 0,
              diagonal_block_values_ = 0;
  int rows_per_thread_ = 4;
  Index rows_ = 0, slots_ = 0, fixed_size_rows_ = 0, end_rows_ = 0;
  device::DeviceBuffer<DenseBlockGroup> groups_;
  // The launches' thread blocks: one thread per (block row, chunk of rows) for y = A x, per
  // (block row, row) for the other kernels, per block row for inflate.
  std::vector<detail::DenseBlockLaunch> multiply_launches_;
  device::DeviceBuffer<detail::DenseBlockWork> row_blocks_, inflate_blocks_;
  device::DeviceBuffer<Real> values_;
  device::DeviceBuffer<GlobalIndex> row_dof_offsets_;
  // Per row: the column k where its diagonal block starts, and where that block goes in
  // diagonal_blocks()'s output.
  device::DeviceBuffer<Index> row_diagonal_columns_;
  device::DeviceBuffer<GlobalIndex> row_diagonal_block_offsets_;
  device::DeviceBuffer<GlobalIndex> slot_column_dof_offsets_, slot_transpose_offsets_,
      slot_value_offsets_;
  device::DeviceBuffer<Index> slot_column_sizes_, slot_transpose_strides_;
};

extern template class DeviceDenseBlockMatrix<float>;
extern template class DeviceDenseBlockMatrix<double>;

}  // namespace polydg
