#pragma once
// Items one per thread: the schedule of tiled_point_schedule.cuh for tables small enough to be
// summed in one thread's registers — P_1 elements, boundaries and interfaces, 2D P_2 elements
// (at most thread_item_rows rows). Such items have a few hundred FLOPs each; a warp per item
// spent thousands of warp instructions on one (P_1), most of them the
// shared team's index arithmetic, barriers and one lane's point evaluation with the rest idle.
// Here a thread evaluates its item's points in turn, each into a record, forms the point's test
// and trial vectors in registers and adds their products into register sums, then stores
// initial + sum. The record is in registers where the launch's table stride is compiled in
// (FixedStride: the P_1 launches, stride 2; the Launch's evaluate_point / evaluate_function then
// index it at fixed places only, basis_tables.cuh; scripts/gpu/ptx-report.py shows that these
// kernels have no local memory), else in the thread's own slot of shared memory (indexed at run
// time, a register array would go to local memory).
//
// The sums are those of the tiled schedule with one point group (G = 1; choose_tiling gives
// tables of at most thread_item_rows rows one group): per output a chain of FMAs over the points
// in increasing k and the components in increasing order, from zero, then added to the initial
// value. So either schedule gives the same bits.
//
// Launch: the same interface as for tiled_point_schedule.cuh, with evaluate_point and
// evaluate_function templates on FixedStride (0: the launch's stride()) and
// `static constexpr int record_size_for(int stride)`. Its evaluate_function is called
// for a function's trial vector and its test vector separately (the two are independent), so
// that only the trial vectors and one row's test vector are live at once. Optionally
// `bool store_table(item, const Real (&sum)[R][C])`: stores initial + sum for the whole table,
// or returns false and leaves the item to the entry-by-entry store(); and point_contributes, as
// there (points whose products are zeros are skipped).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "polydg/core/types.hpp"
#include "polydg/detail/core/cuda_check.cuh"

namespace polydg::device::detail {

/// Tables of at most this many rows (and columns; fits_one_thread) are summed one item per
/// thread.
inline constexpr int thread_item_rows = 8;
/// The most Reals of a point's record the one-item-per-thread kernel takes (a P_1 interface in
/// 3D: 30); a launch with larger records keeps the team schedules.
inline constexpr int max_thread_item_record = 40;
inline constexpr int thread_item_block_threads = 128;
// A block's records stay within the 48 KiB of shared memory a launch has without opting in.
static_assert(thread_item_block_threads * (max_thread_item_record | 1) * sizeof(double) <=
              48 * 1024);

/// Two table shapes are compiled: 4 × 4 (a P_1 element's or boundary face's block, or its rhs
/// column, 4 × 1, in 2D+1) and 8 × 8 (a P_1 interface's four blocks; 9 columns took 255
/// registers and spilled). Whether a launch's largest table takes the smaller one:
inline bool fits_small_thread_table(int max_rows, int max_columns) {
  return max_rows <= 4 && max_columns <= 4;
}

/// Whether a launch whose largest table is max_rows × max_columns, with records of
/// record_size Reals, fits the one-item-per-thread kernel.
inline bool fits_one_thread(int max_rows, int max_columns, int record_size) {
  const bool shape = fits_small_thread_table(max_rows, max_columns) ||
                     (max_rows <= thread_item_rows && max_columns <= thread_item_rows);
  return shape && record_size <= max_thread_item_record;
}

/// The table stride compiled into the kernel (the P_1 launches'); launches of other strides keep
/// the record in shared memory.
inline constexpr int fixed_thread_item_stride = 2;

/// Item b = blockIdx.x · blockDim.x + threadIdx.x; tables of at most MaxRows × MaxColumns.
/// FixedStride > 0: the launch's stride, the record in registers. Otherwise thread t's record is
/// at shared_storage + t · record_stride Reals (record_stride odd: the lanes' slots fall in
/// different banks).
template <class Launch, int MaxRows, int MaxColumns, int FixedStride>
__global__ void __launch_bounds__(thread_item_block_threads)
    thread_item_kernel(Launch launch, int record_stride, Index items) {
  using Real = typename Launch::Real;
  constexpr int K = Launch::components;
  constexpr int MaxFunctions = MaxRows > MaxColumns ? MaxRows : MaxColumns;
  extern __shared__ double shared_storage[];
  const Index b = Index(blockIdx.x) * Index(blockDim.x) + Index(threadIdx.x);
  if (b >= items) return;
  Real register_record[FixedStride > 0 ? Launch::record_size_for(FixedStride) : 1];
  Real* record = FixedStride > 0
                     ? register_record
                     : reinterpret_cast<Real*>(shared_storage) + int(threadIdx.x) * record_stride;
  const typename Launch::Item item = launch.item(b);
  const int rows = launch.rows(item), columns = launch.columns(item);
  int codes[MaxFunctions];
#pragma unroll
  for (int u = 0; u < MaxFunctions; ++u)
    codes[u] = u < rows || u < columns ? launch.function_code(item, u) : 0;
  Real sum[MaxRows][MaxColumns];
#pragma unroll
  for (int i = 0; i < MaxRows; ++i)
#pragma unroll
    for (int j = 0; j < MaxColumns; ++j) sum[i][j] = Real(0);

  const Index point_count = launch.point_count(item);
  for (Index k = 0; k < point_count; ++k) {
    launch.template evaluate_point<FixedStride>(item, k, record);
    if constexpr (requires { launch.point_contributes(record); })
      if (!launch.point_contributes(record)) continue;  // its products are zeros
    Real trial[K][MaxColumns];
#pragma unroll
    for (int j = 0; j < MaxColumns; ++j) {
#pragma unroll
      for (int c = 0; c < K; ++c) trial[c][j] = Real(0);
      if (j < columns)
        launch.template evaluate_function<FixedStride>(item, record, j, codes[j], nullptr, 0,
                                                       &trial[0][j], MaxColumns);
    }
#pragma unroll
    for (int i = 0; i < MaxRows; ++i) {
      if (i >= rows) continue;
      Real test[K];
#pragma unroll
      for (int c = 0; c < K; ++c) test[c] = Real(0);
      launch.template evaluate_function<FixedStride>(item, record, i, codes[i], test, 1, nullptr,
                                                     0);
#pragma unroll
      for (int c = 0; c < K; ++c)
#pragma unroll
        for (int j = 0; j < MaxColumns; ++j) sum[i][j] = fma(test[c], trial[c][j], sum[i][j]);
    }
  }

  // A launch may store a whole table at once (store_table: without a branch per entry, which
  // made every store wait for the one before); it says false for items it leaves to store().
  if constexpr (requires { launch.store_table(item, sum); })
    if (launch.store_table(item, sum)) return;
#pragma unroll
  for (int i = 0; i < MaxRows; ++i)
#pragma unroll
    for (int j = 0; j < MaxColumns; ++j)
      if (i < rows && j < columns) launch.store(item, i, j, launch.initial(item, i, j) + sum[i][j]);
}

/// Launches thread_item_kernel for `items` items (total_points points in all) whose tables fit
/// fits_one_thread, blocks of at most max_threads threads, on `stream`.
template <class Launch>
void launch_thread_items(const Launch& launch, Index items, int max_rows, int max_columns,
                         int record_size, GlobalIndex total_points, int max_threads,
                         cudaStream_t stream, const char* name) {
  using Real = typename Launch::Real;
  const int threads = std::min(thread_item_block_threads, max_threads);
  const int record_stride = record_size | 1;
  const bool fixed = launch.stride() == fixed_thread_item_stride;
  const std::size_t bytes =
      fixed ? 0 : std::size_t(threads) * std::size_t(record_stride) * sizeof(Real);
  const auto blocks = static_cast<unsigned>((items + threads - 1) / threads);
  const bool small = fits_small_thread_table(max_rows, max_columns);
  if (std::getenv("POLYDG_TRACE_LAUNCHES"))
    std::fprintf(stderr,
                 "%s: %d items (%.1f points each), %u blocks of %d threads (one item per thread), "
                 "table %dx%d, record in %s, %zu bytes\n",
                 name, int(items), double(total_points) / double(items), blocks, threads,
                 small ? 4 : thread_item_rows, small ? 4 : thread_item_rows,
                 fixed ? "registers" : "shared memory", bytes);
  // Four instantiations: the table shape (4 × 4 or 8 × 8) by the stride (compiled in or not).
  const auto run = [&](auto kernel) {
    kernel<<<blocks, threads, bytes, stream>>>(launch, record_stride, items);
    check_cuda(cudaGetLastError(), name, __FILE__, __LINE__);
  };
  constexpr int stride = fixed_thread_item_stride, rows = thread_item_rows;
  if (small)
    run(fixed ? thread_item_kernel<Launch, 4, 4, stride> : thread_item_kernel<Launch, 4, 4, 0>);
  else
    run(fixed ? thread_item_kernel<Launch, rows, rows, stride>
              : thread_item_kernel<Launch, rows, rows, 0>);
}

}  // namespace polydg::device::detail
