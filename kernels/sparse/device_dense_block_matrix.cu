// CUDA implementation of DeviceDenseBlockMatrix (polydg/sparse/device_dense_block_matrix.hpp).
//
// Launch layout: every group g gets ⌈G_g W_g / threads⌉ thread blocks, W_g the work items of a
// block row (N_g rows; ⌈N_g / R⌉ row chunks in multiply_kernel; 1 in inflate); the host lists,
// per thread block, its group and its index among the group's blocks, so one launch covers all
// groups, in the order of the block rows they cover (launch_table).
// Thread t of group g is (l, i or chunk) = (t mod G, t div G): a warp covers 32 consecutive
// block rows l, so its reads of A[k][i][l] are one coalesced segment per (k, i).
//
// Traffic of y = A x (minimal_bytes): values once; per row and slot the column offset (8 B)
// and size (4 B), read by the N threads of the row (cached after the first); per row its dof
// offset; x (gathered, mostly from L2) and y once.
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/sparse/device_dense_block_matrix.hpp"

namespace polydg {
namespace {

constexpr int threads_per_block = 256;

using BlockWork = detail::DenseBlockWork;

/// Which group a thread block works on and the thread's index t inside the group.
struct GroupThread {
  DenseBlockGroup group;
  GlobalIndex t;
};

__device__ inline GroupThread group_thread(const DenseBlockGroup* groups, const BlockWork* launch) {
  const BlockWork work = launch[blockIdx.x];
  return {groups[work.group], GlobalIndex(work.block) * blockDim.x + threadIdx.x};
}

/// Columns of a slot multiply_kernel loads before it sums them, so that the loads of a few
/// columns overlap instead of one column's load waiting for the last one's sum: on N = 3..10
/// blocks (4 or 8 rows per thread) the kernel is bound by that latency. With 1 or 2 rows per
/// thread (large blocks, few block rows) 8 columns help fp32 but not fp64, where x, read once
/// per row, is as many bytes as the values: there 1 column.
template <class Real, int rows_per_thread>
inline constexpr int columns_in_flight = rows_per_thread >= 8   ? 2
                                         : rows_per_thread == 4 ? 4
                                         : sizeof(Real) == 4    ? 8
                                                                : 1;

/// Blocks per multiprocessor the register count must allow: with 4 or 8 rows per thread 3
/// (768 threads; 86 registers would allow only 2); otherwise 0, no bound (an explicit 1 lets
/// the compiler take 48 registers instead of 38 at one row per thread).
template <int rows_per_thread>
inline constexpr int multiply_min_blocks = rows_per_thread >= 4 ? 3 : 0;

/// Thread (l, c) of a group owns the rows i = c R .. c R + R − 1 (R = rows_per_thread, fewer at
/// the end) of block row l: per column k it loads x once and A[k][i][l] for its rows — a warp
/// (32 consecutive l) reads one coalesced segment per (k, i). The values are read once, with
/// the streaming hint (__ldcs: evicted first) meant to leave L2 to x, which is gathered once
/// per neighbour (its effect on its own is not known; L2's hit rate stayed low on P_1).
template <class Real, int rows_per_thread>
__global__ void __launch_bounds__(threads_per_block, multiply_min_blocks<rows_per_thread>)
    multiply_kernel(const DenseBlockGroup* groups, const BlockWork* launch, const Real* values,
                    const GlobalIndex* row_dofs, const GlobalIndex* slot_columns,
                    const Index* slot_sizes, const Real* x, const Real* z, Real* y) {
  constexpr int U = columns_in_flight<Real, rows_per_thread>;
  const auto [group, t] = group_thread(groups, launch);
  const GlobalIndex rows = group.row_count;
  const int chunks = (group.row_size + rows_per_thread - 1) / rows_per_thread;
  if (t >= rows * chunks) return;
  const GlobalIndex l = t % rows;
  const int first = int(t / rows) * rows_per_thread;
  const int count = min(rows_per_thread, group.row_size - first);
  const GlobalIndex stride = GlobalIndex(group.row_size) * rows;  // k → k + 1
  const Real* a = values + group.first_value + GlobalIndex(first) * rows + l;
  Real sum[rows_per_thread];
#pragma unroll
  for (int r = 0; r < rows_per_thread; ++r) sum[r] = 0;
  // The next slot's size and column are loaded while this slot is summed: the chain size →
  // column → x of one slot after the other is what the thread would wait for.
  GlobalIndex slot = group.first_slot + l;
  Index size = group.slot_count > 0 ? slot_sizes[slot] : 0;
  GlobalIndex column = size > 0 ? slot_columns[slot] : 0;
  for (Index b = 0; b < group.slot_count && size > 0; ++b) {
    // unused slots come last (size 0); their values are zero padding
    const GlobalIndex next = slot + rows;
    const bool more = b + 1 < group.slot_count;
    const Index next_size = more ? slot_sizes[next] : 0;
    const GlobalIndex next_column = more ? slot_columns[next] : 0;
    const Real* xs = x + column;
    for (Index j = 0; j < size; j += U) {
      // U columns' loads first (predicated), then their sums in the same order as one by one.
      Real xj[U], aj[U][rows_per_thread];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const bool loaded = j + u < size;
        xj[u] = loaded ? xs[j + u] : Real(0);
#pragma unroll
        for (int r = 0; r < rows_per_thread; ++r)
          aj[u][r] = loaded && r < count
                         ? __ldcs(a + GlobalIndex(u) * stride + GlobalIndex(r) * rows)
                         : Real(0);
      }
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (j + u < size)
#pragma unroll
          for (int r = 0; r < rows_per_thread; ++r)
            if (r < count) sum[r] += aj[u][r] * xj[u];
      a += GlobalIndex(min(U, size - j)) * stride;
    }
    slot = next;
    size = next_size;
    column = next_column;
  }
  const GlobalIndex row = row_dofs[group.first_row + l] + first;
#pragma unroll
  for (int r = 0; r < rows_per_thread; ++r)
    if (r < count) y[row + r] = z ? sum[r] + z[row + r] : sum[r];
}

/// The block sizes multiply_fixed_kernel is compiled for: groups whose rows all have N rows and
/// all of whose slots have N columns (one degree: 2D P_1..P_5, 2D+1 and 3D P_1..P_5, HDG 2D and
/// 3D p = 1..5), each with the rows per thread R, the columns per chunk C (C divides N), the
/// chunks D whose loads are in flight at once (see the kernel), and the blocks per
/// multiprocessor its registers must allow.
///
/// Each shape is the fastest of three to seven candidates for its N (fp64, matrices far larger
/// than L2). What decided nearly everywhere: more loads in flight per
/// thread beat more resident threads, up to what the registers allow without spilling; where a
/// size's matrix has few block rows (N = 30, 50) one column per chunk at three blocks per
/// multiprocessor won instead; R = N (at N = 6) and R = 1 (at N = 75, 105) lost. The results:
/// docs/performance.md, "DBF SpMV".
///
/// End shapes (the last three fields; 0: none). In a launch of more than one wave, the thread
/// blocks that start last, once the queue is empty, set its end: each thread streams its rows
/// at about one memory round trip per D chunks, and little else runs beside it. An end shape
/// has fewer rows per thread and more columns per round trip, so those rows take fewer round
/// trips; it reads x once per column and thread, twice as often per value, so in bulk it is
/// slower and takes only the last end_wave_fraction of a wave. N = 56: (2, 8, 3), 10.5 round
/// trips for a five-slot row against 21. N = 10, 15, 20, 21 and 35, whose rows are 3-5x
/// shorter, have no long tail to shorten and gain nothing from one. Splitting each N = 56 row's
/// chunks between two lanes that meet in a shuffle lost, fp32 most.
///
/// Adjacent lanes (last field): the N / R threads of a block row sit in adjacent lanes of a
/// warp (t -> l = t / (N / R)) instead of N / R groups of rows apart (l = t mod G), so their
/// gathers of the same x and column offsets are one request, not N / R requests from as many
/// warps. N = 4 (slab P_1) is bound by L2 rather than DRAM, the x gathers adding half the
/// values' sectors again, so fewer gather requests pay. For N = 6, 8, 10, 12, 16 and 24 they do
/// not (at N = 24 a warp's load then reads 32 bytes from each of eight bands).
///
/// Block threads (last field): 128 where the matrices ran faster in thread blocks of 128 than
/// of 256 (the kernel's launch bound then asks twice the blocks per multiprocessor, so the
/// register cap is the same): N = 4 (slab P_1), 8 and 12 (HDG 2D p = 1, 2), 15 and 105 (HDG 3D
/// p = 1, 5). N = 30 and 50 lost with 128; the others did not care.
struct FixedBlockSize {
  int n, rows_per_thread, chunk_columns, chunks_in_flight, min_blocks;
  int end_rows_per_thread = 0, end_chunk_columns = 0, end_chunks_in_flight = 0;
  bool adjacent_lanes = false;
  int block_threads = threads_per_block;
};
constexpr FixedBlockSize fixed_block_sizes[] = {{3, 3, 3, 4, 2},
                                                {4, 2, 4, 3, 2, 0, 0, 0, true, 128},
                                                {6, 3, 3, 3, 2},
                                                {8, 2, 4, 3, 2, 0, 0, 0, false, 128},
                                                {10, 5, 5, 2, 1},
                                                {12, 3, 6, 3, 1, 0, 0, 0, false, 128},
                                                {15, 5, 5, 2, 1, 0, 0, 0, false, 128},
                                                {16, 4, 8, 2, 1},
                                                {20, 4, 5, 2, 2},
                                                {21, 3, 3, 3, 2},
                                                {24, 3, 4, 3, 2},
                                                {30, 5, 1, 3, 3},
                                                {35, 5, 5, 2, 1},
                                                {50, 5, 1, 3, 3},
                                                {56, 4, 4, 3, 1, 2, 8, 3},
                                                {75, 5, 3, 3, 1},
                                                {105, 5, 5, 2, 1, 0, 0, 0, false, 128}};

/// The block row l of a group's thread t in multiply_fixed_rows, for G block rows: t mod G, or
/// t / lanes where the lanes = N / R threads of a block row sit in adjacent lanes (lanes > 0).
/// The kernel and the launch order (launch_table's key) both take it from here.
POLYDG_HD inline GlobalIndex fixed_thread_block_row(GlobalIndex t, GlobalIndex rows,
                                                    int adjacent_lanes) {
  return adjacent_lanes > 0 ? t / adjacent_lanes : t % rows;
}

/// y = A x (+ z) for a group of one block size N (see fixed_block_sizes): thread (l, c) —
/// t = c G + l, or t = l N / R + c with Adjacent — owns rows c R .. c R + R − 1 of block row l, and
/// walks the row's columns k = 0, 1, … (slot after slot) in chunks of C. The loads of D chunks are
/// in flight while it sums the oldest: before summing chunk q it issues those of chunk q + D − 1,
/// and each chunk's column offset (the slot's x) was loaded D chunks before its x is. The earlier
/// kernel issued two whole slots' loads, waited, summed, and only then loaded the next slots'
/// offsets, whose x then waited again: on the 2D P_1 matrix (N = 3) the offsets' and the sums'
/// waits were most of the stalls. It sums in the general kernel's order (k ascending), so the bits
/// are the same.
template <class Real, int N, int R, int C, int D, bool Adjacent>
__device__ __forceinline__ void multiply_fixed_rows(const DenseBlockGroup& group, GlobalIndex t,
                                                    const Real* values, const GlobalIndex* row_dofs,
                                                    const GlobalIndex* slot_columns, const Real* x,
                                                    const Real* z, Real* y) {
  static_assert(N % R == 0 && N % C == 0 && D >= 2);
  constexpr int chunks_per_slot = N / C;
  const GlobalIndex rows = group.row_count;
  constexpr int lanes = N / R;
  if (t >= rows * lanes) return;
  const GlobalIndex l = fixed_thread_block_row(t, rows, Adjacent ? lanes : 0);
  const int first = int(Adjacent ? t % lanes : t / rows) * R;
  // Loaded first: the store at the end then does not wait for it.
  const GlobalIndex row = row_dofs[group.first_row + l] + first;
  const GlobalIndex stride = GlobalIndex(N) * rows;  // k → k + 1
  const Real* a = values + group.first_value + GlobalIndex(first) * rows + l;
  const GlobalIndex* columns = slot_columns + group.first_slot + l;
  const int chunks = int(group.slot_count) * chunks_per_slot;
  const auto column_of = [&](int chunk) {
    return chunk < chunks ? columns[GlobalIndex(chunk / chunks_per_slot) * rows] : GlobalIndex(0);
  };
  // Buffer b holds chunk q ≡ b (mod D); column[b] is the offset for the next chunk it loads.
  Real xs[D][C], as[D][C][R];
  GlobalIndex column[D];
#pragma unroll
  for (int b = 0; b < D; ++b) column[b] = column_of(b);
  // Offsets inside a chunk in 32 bits (the host checks C N rows < 2^31): 64-bit ones, one per
  // load, took 20-70 more registers.
  const int row_step = int(rows), column_step = int(stride);
  const auto load = [&](int b, int chunk) {
    const bool used = chunk < chunks;
    const Real* xc = x + column[b] + (chunk % chunks_per_slot) * C;
    const Real* ac = a + GlobalIndex(chunk) * C * stride;
#pragma unroll
    for (int j = 0; j < C; ++j) {
      xs[b][j] = used ? xc[j] : Real(0);
#pragma unroll
      for (int r = 0; r < R; ++r)
        as[b][j][r] = used ? __ldcs(ac + (j * column_step + r * row_step)) : Real(0);
    }
    column[b] = column_of(chunk + D);
  };
  Real sum[R];
#pragma unroll
  for (int r = 0; r < R; ++r) sum[r] = 0;
#pragma unroll
  for (int b = 0; b + 1 < D; ++b) load(b, b);
  for (int q = 0; q < chunks; q += D) {
#pragma unroll
    for (int d = 0; d < D; ++d) {
      load((d + D - 1) % D, q + d + D - 1);
      if (q + d < chunks)
#pragma unroll
        for (int j = 0; j < C; ++j)
#pragma unroll
          for (int r = 0; r < R; ++r) sum[r] += as[d][j][r] * xs[d][j];
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r) y[row + r] = z ? sum[r] + z[row + r] : sum[r];
}

/// The kernel of one fixed_block_sizes entry: thread blocks below head_blocks take the entry's
/// shape (R, C, D); the rest, the last in the launch, its end shape (Re, Ce, De) if it has one.
/// MinBlocks counts blocks of threads_per_block: the register cap is the same at any Threads.
template <class Real, int N, int R, int C, int D, bool Adjacent, int MinBlocks, int Re, int Ce,
          int De, int Threads>
__global__ void __launch_bounds__(Threads, MinBlocks* threads_per_block / Threads)
    multiply_fixed_kernel(const DenseBlockGroup* groups, const BlockWork* launch,
                          GlobalIndex head_blocks, const Real* values, const GlobalIndex* row_dofs,
                          const GlobalIndex* slot_columns, const Real* x, const Real* z, Real* y) {
  const auto [group, t] = group_thread(groups, launch);
  if constexpr (Re > 0) {
    if (GlobalIndex(blockIdx.x) >= head_blocks) {
      multiply_fixed_rows<Real, N, Re, Ce, De, false>(group, t, values, row_dofs, slot_columns, x,
                                                      z, y);
      return;
    }
  }
  multiply_fixed_rows<Real, N, R, C, D, Adjacent>(group, t, values, row_dofs, slot_columns, x, z,
                                                  y);
}

/// The end shape's share of a launch with more than a wave: this fraction of the block rows
/// one wave covers. For N = 56 (slab P_5) a third to a half of a wave gains most, a quarter
/// less, and 0.7 or a whole wave lose to none: the end shape is slower in bulk.
constexpr double end_wave_fraction = 0.35;

/// run(multiply_fixed_kernel for fixed_block_sizes[kind]): one instantiation per table entry.
template <class Real, class Run, std::size_t... kinds>
void run_fixed_kernel(int kind, const Run& run, std::index_sequence<kinds...>) {
  ((kind == int(kinds)
        ? run(multiply_fixed_kernel<
              Real, fixed_block_sizes[kinds].n, fixed_block_sizes[kinds].rows_per_thread,
              fixed_block_sizes[kinds].chunk_columns, fixed_block_sizes[kinds].chunks_in_flight,
              fixed_block_sizes[kinds].adjacent_lanes, fixed_block_sizes[kinds].min_blocks,
              fixed_block_sizes[kinds].end_rows_per_thread,
              fixed_block_sizes[kinds].end_chunk_columns,
              fixed_block_sizes[kinds].end_chunks_in_flight,
              fixed_block_sizes[kinds].block_threads>)
        : void()),
   ...);
}

/// Threads of y = A x for a group with R rows per thread: one per (block row, chunk of rows).
inline GlobalIndex multiply_thread_count(const DenseBlockGroup& group, int rows_per_thread) {
  return GlobalIndex(group.row_count) * ((group.row_size + rows_per_thread - 1) / rows_per_thread);
}

template <class Real>
__global__ void __launch_bounds__(threads_per_block)
    multiply_transpose_kernel(const DenseBlockGroup* groups, const BlockWork* launch,
                              const Real* values, const GlobalIndex* row_dofs,
                              const GlobalIndex* slot_columns, const Index* slot_sizes,
                              const GlobalIndex* transpose_offsets, const Index* transpose_strides,
                              const Real* x, Real* y) {
  const auto [group, t] = group_thread(groups, launch);
  const GlobalIndex rows = group.row_count;
  if (t >= rows * group.row_size) return;
  const GlobalIndex l = t % rows, j = t / rows;
  Real sum = 0;
  for (Index b = 0; b < group.slot_count; ++b) {
    const GlobalIndex slot = group.first_slot + GlobalIndex(b) * rows + l;
    const Index size = slot_sizes[slot];
    if (size == 0) break;
    const Real* xs = x + slot_columns[slot];
    const Real* a = values + transpose_offsets[slot];
    const GlobalIndex stride = transpose_strides[slot];
    for (Index i = 0; i < size; ++i) sum += a[(j * size + i) * stride] * xs[i];
  }
  y[row_dofs[group.first_row + l] + j] = sum;
}

/// X[k][l] of each group from x (zero in padding); one thread per row l.
template <class Real>
__global__ void inflate_kernel(const DenseBlockGroup* groups, const BlockWork* launch,
                               const GlobalIndex* slot_columns, const Index* slot_sizes,
                               const Real* x, Real* inflated) {
  const auto [group, l] = group_thread(groups, launch);
  const GlobalIndex rows = group.row_count;
  if (l >= rows) return;
  Real* out = inflated + group.first_inflated + l;
  GlobalIndex k = 0;
  for (Index b = 0; b < group.slot_count; ++b) {
    const GlobalIndex slot = group.first_slot + GlobalIndex(b) * rows + l;
    const Real* xs = x + slot_columns[slot];
    for (Index j = 0; j < slot_sizes[slot]; ++j, ++k) out[k * rows] = xs[j];
  }
  for (; k < group.column_width; ++k) out[k * rows] = Real(0);
}

/// y_il = Σ_k A[k][i][l] X[k][l]: both read coalesced.
template <class Real>
__global__ void __launch_bounds__(threads_per_block)
    contract_kernel(const DenseBlockGroup* groups, const BlockWork* launch, const Real* values,
                    const GlobalIndex* row_dofs, const Real* inflated, Real* y) {
  const auto [group, t] = group_thread(groups, launch);
  const GlobalIndex rows = group.row_count;
  if (t >= rows * group.row_size) return;
  const GlobalIndex l = t % rows, i = t / rows;
  const GlobalIndex stride = GlobalIndex(group.row_size) * rows;
  const Real* a = values + group.first_value + i * rows + l;
  const Real* X = inflated + group.first_inflated + l;
  Real sum = 0;
#pragma unroll 4
  for (Index k = 0; k < group.column_width; ++k) sum += a[k * stride] * X[k * rows];
  y[row_dofs[group.first_row + l] + i] = sum;
}

/// A[k][i][l] = the BlockMatrix's entry (i, j) of the row's block b, k its column.
template <class Real>
__global__ void __launch_bounds__(threads_per_block)
    update_values_kernel(const DenseBlockGroup* groups, const BlockWork* launch,
                         const GlobalIndex* slot_value_offsets, const Index* slot_sizes,
                         const Real* block_values, Real* values) {
  const auto [group, t] = group_thread(groups, launch);
  const GlobalIndex rows = group.row_count;
  if (t >= rows * group.row_size) return;
  const GlobalIndex l = t % rows, i = t / rows;
  const GlobalIndex stride = GlobalIndex(group.row_size) * rows;
  Real* a = values + group.first_value + i * rows + l;
  for (Index b = 0; b < group.slot_count; ++b) {
    const GlobalIndex slot = group.first_slot + GlobalIndex(b) * rows + l;
    const Index size = slot_sizes[slot];
    if (size == 0) break;
    const Real* source = block_values + slot_value_offsets[slot] + i * size;
    for (Index j = 0; j < size; ++j, a += stride) *a = source[j];
  }
}

/// d[row + i] = A[start + i][i][l]: thread (l, i) of a group, start the row's diagonal column.
template <class Real>
__global__ void __launch_bounds__(threads_per_block)
    diagonal_kernel(const DenseBlockGroup* groups, const BlockWork* launch, const Real* values,
                    const GlobalIndex* row_dofs, const Index* diagonal_columns, Real* d) {
  const auto [group, t] = group_thread(groups, launch);
  const GlobalIndex rows = group.row_count;
  if (t >= rows * group.row_size) return;
  const GlobalIndex l = t % rows, i = t / rows, n = group.row_size;
  const GlobalIndex start = diagonal_columns[group.first_row + l];
  d[row_dofs[group.first_row + l] + i] =
      values[group.first_value + ((start + i) * n + i) * rows + l];
}

/// Row i of the diagonal block of row l, row-major at the row's block offset: thread (l, i).
template <class Real>
__global__ void __launch_bounds__(threads_per_block)
    diagonal_blocks_kernel(const DenseBlockGroup* groups, const BlockWork* launch,
                           const Real* values, const Index* diagonal_columns,
                           const GlobalIndex* block_offsets, Real* blocks) {
  const auto [group, t] = group_thread(groups, launch);
  const GlobalIndex rows = group.row_count;
  if (t >= rows * group.row_size) return;
  const GlobalIndex l = t % rows, i = t / rows, n = group.row_size;
  const GlobalIndex start = diagonal_columns[group.first_row + l];
  const Real* a = values + group.first_value + ((start * n) + i) * rows + l;  // A[start][i][l]
  Real* out = blocks + block_offsets[group.first_row + l] + i * n;
  for (GlobalIndex j = 0; j < n; ++j) out[j] = a[j * n * rows];
}

/// The thread blocks of all groups for `work(g)` threads in group g, ordered by the first
/// block row each covers (its first thread's row l): blocks that run at the same time then
/// cover one stretch of the mesh in every group, so the x entries their rows gather (the
/// neighbours' unknowns) are read from DRAM about once, not once per group. Group after group,
/// each group's pass over all of x evicted it from L2 before the next (a low L2 hit rate on the
/// P_1 IP-DG matrix).
template <class Real, class Work, class RowOf>
std::vector<BlockWork> launch_table(const DenseBlockMatrix<Real>& host, const Work& work,
                                    const RowOf& row_of, int block_threads = threads_per_block) {
  std::vector<std::pair<Index, BlockWork>> ordered;
  const auto groups = host.groups();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const GlobalIndex blocks = (work(g) + block_threads - 1) / block_threads;
    for (GlobalIndex b = 0; b < blocks; ++b) {
      const GlobalIndex l = row_of(g, b * block_threads);
      ordered.push_back({host.row_block_rows()[groups[g].first_row + l], {Index(g), Index(b)}});
    }
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<BlockWork> table(ordered.size());
  for (std::size_t b = 0; b < ordered.size(); ++b) table[b] = ordered[b].second;
  return table;
}

/// launch_table for kernels whose thread t of a group works on block row t mod G.
template <class Real, class Work>
std::vector<BlockWork> launch_table(const DenseBlockMatrix<Real>& host, const Work& work,
                                    int block_threads = threads_per_block) {
  return launch_table(
      host, work, [&](std::size_t g, GlobalIndex t) { return t % host.groups()[g].row_count; },
      block_threads);
}

/// The index in fixed_block_sizes of a group's block size if every row has N rows and every
/// slot N columns (exact grouping of a one-degree pattern), else −1 (the general kernel).
template <class Real>
int fixed_block_size(const DenseBlockMatrix<Real>& host, const DenseBlockGroup& group) {
  const auto sizes = host.slot_column_sizes();
  for (int kind = 0; kind < int(std::size(fixed_block_sizes)); ++kind) {
    if (group.row_size != fixed_block_sizes[kind].n) continue;
    // The kernel's offsets inside a chunk are 32-bit.
    if (GlobalIndex(fixed_block_sizes[kind].chunk_columns) * group.row_size * group.row_count >
        GlobalIndex(std::numeric_limits<int>::max()))
      return -1;
    const auto first = sizes.begin() + group.first_slot;
    const bool uniform = group.slot_count > 0 &&
                         std::all_of(first, first + GlobalIndex(group.slot_count) * group.row_count,
                                     [&](Index size) { return size == group.row_size; });
    return uniform ? kind : -1;
  }
  return -1;
}

template <class T>
device::DeviceBuffer<T> upload(std::span<const T> host) {
  return device::DeviceBuffer<T>(host);
}

}  // namespace

template <class Real>
DeviceDenseBlockMatrix<Real>::DeviceDenseBlockMatrix(const DenseBlockMatrix<Real>& host,
                                                     int rows_per_thread, Index end_block_rows)
    : dof_count_(host.dof_count()),
      stored_values_(GlobalIndex(host.values().size())),
      matrix_values_(host.pattern().value_count()),
      inflated_size_(host.inflated_size()),
      rows_(Index(host.row_block_rows().size())),
      slots_(Index(host.slot_column_sizes().size())) {
  const auto multiply_threads = [&](int rows_per_thread) {
    GlobalIndex threads = 0;
    for (const DenseBlockGroup& g : host.groups())
      threads += multiply_thread_count(g, rows_per_thread);
    return threads;
  };
  // A matrix of very few block rows (large blocks, few faces) gives too few threads to cover
  // the memory latency: halve the rows per thread while there are fewer than a sixteenth of
  // the device's resident threads. Halving until all of them were covered, as first, made the
  // matrices with blocks above 16 rows slower: 4 rows per thread keep more loads in flight per
  // thread, which covers the latency better than more threads do, down to a tenth of the
  // resident threads (an eighth as the bound left HDG 3D p = 5 with 2 rows per thread and one
  // column in flight, which lost).
  int device = 0, processors = 1, threads_per_processor = 2048;
  if (cudaGetDevice(&device) == cudaSuccess) {
    cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&threads_per_processor, cudaDevAttrMaxThreadsPerMultiProcessor, device);
  }
  const GlobalIndex resident = GlobalIndex(processors) * threads_per_processor;
  require(end_block_rows >= automatic_end_rows, "DeviceDenseBlockMatrix: end_block_rows ",
          end_block_rows, " (automatic_end_rows, or 0 or more)");
  require(rows_per_thread == 0 || rows_per_thread == 1 || rows_per_thread == 2 ||
              rows_per_thread == 4 || rows_per_thread == 8,
          "DeviceDenseBlockMatrix: rows_per_thread ", rows_per_thread,
          " (0 to choose, or 1, 2, 4, 8)");
  const bool forced_rows_per_thread = rows_per_thread > 0;
  if (forced_rows_per_thread) {
    rows_per_thread_ = rows_per_thread;
  } else {
    // At most 4, and no more registers than the largest block needs: 4 rather than 8 made
    // N = 6 and 10 faster (bench_spmv --rows-per-thread), N = 8 and 15 no slower.
    Index largest = 1;
    for (const DenseBlockGroup& g : host.groups()) largest = std::max(largest, g.row_size);
    rows_per_thread_ = 4;
    while (rows_per_thread_ > 1 && rows_per_thread_ / 2 >= largest) rows_per_thread_ /= 2;
    while (rows_per_thread_ > 1 && multiply_threads(rows_per_thread_) < resident / 16)
      rows_per_thread_ /= 2;
  }
  rows_per_thread = rows_per_thread_;
  const auto upload_table = [](const std::vector<BlockWork>& table) {
    return upload<BlockWork>(std::span<const BlockWork>(table));
  };
  // y = A x: groups of one block size in fixed_block_sizes get that size's kernel (unless the
  // rows per thread were forced), the others the general kernel; one launch per kernel.
  std::vector<int> kinds;
  for (const DenseBlockGroup& g : host.groups())
    kinds.push_back(forced_rows_per_thread ? -1 : fixed_block_size(host, g));
  // ... except where a size's launch would fill between one and one and a half waves of the
  // blocks the device holds at once: its last wave would run nearly empty. The few-face HDG 3D
  // p = 1 matrix (11,780 block rows of 15, 1.05 waves at one block per multiprocessor) ran
  // faster in the general kernel than in its own.
  // Then the end of a launch: a size with an end shape gives it the groups that come last in
  // the launch order (the highest block rows), end_block_rows of them or, by default, about
  // end_wave_fraction of the block rows one wave of the size's kernel covers — where the launch
  // has more than a wave (with less, every thread starts at once and none waits in a queue).
  std::vector<char> at_end(kinds.size(), 0);
  for (int kind = 0; kind < int(std::size(fixed_block_sizes)); ++kind) {
    const FixedBlockSize& size = fixed_block_sizes[kind];
    std::vector<std::size_t> members;
    GlobalIndex blocks = 0, threads = 0;
    for (std::size_t g = 0; g < kinds.size(); ++g)
      if (kinds[g] == kind) {
        members.push_back(g);
        const GlobalIndex group_threads =
            multiply_thread_count(host.groups()[g], size.rows_per_thread);
        threads += group_threads;
        blocks += (group_threads + size.block_threads - 1) / size.block_threads;
      }
    if (blocks == 0) continue;
    int per_processor = 1;
    run_fixed_kernel<Real>(
        kind,
        [&](auto kernel) {
          if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_processor, kernel,
                                                            size.block_threads, 0) != cudaSuccess) {
            per_processor = 1;         // assume one: the rules only tune
            (void)cudaGetLastError();  // not left for the next launch check to report
          }
        },
        std::make_index_sequence<std::size(fixed_block_sizes)>());
    per_processor = std::max(per_processor, 1);
    const double waves = double(blocks) / double(per_processor * processors);
    if (waves > 1.0 && waves < 1.5) {
      for (const std::size_t g : members) kinds[g] = -1;
      continue;
    }
    if (size.end_rows_per_thread == 0) continue;
    const double wave_threads = double(per_processor) * processors * size.block_threads;
    const double target = end_block_rows >= 0      ? double(end_block_rows)
                          : threads > wave_threads ? end_wave_fraction * wave_threads /
                                                         double(size.n / size.rows_per_thread)
                                                   : 0.0;
    const auto first_block_row = [&](std::size_t g) {
      return host.row_block_rows()[host.groups()[g].first_row];
    };
    std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
      return first_block_row(a) > first_block_row(b);
    });
    double rows = 0;
    for (const std::size_t g : members) {
      if (rows >= target) break;
      at_end[g] = 1;
      rows += host.groups()[g].row_count;
    }
  }
  for (int kind = -1; kind < int(std::size(fixed_block_sizes)); ++kind) {
    const auto threads = [&](bool end) {
      return [&, end](std::size_t g) {
        if (kinds[g] != kind || bool(at_end[g]) != end) return GlobalIndex(0);
        const int r = kind < 0 ? rows_per_thread
                      : end    ? fixed_block_sizes[kind].end_rows_per_thread
                               : fixed_block_sizes[kind].rows_per_thread;
        return multiply_thread_count(host.groups()[g], r);
      };
    };
    const int adjacent_lanes =
        kind >= 0 && fixed_block_sizes[kind].adjacent_lanes
            ? fixed_block_sizes[kind].n / fixed_block_sizes[kind].rows_per_thread
            : 0;
    const auto row_of = [&](std::size_t g, GlobalIndex t) {
      return fixed_thread_block_row(t, host.groups()[g].row_count, adjacent_lanes);
    };
    const int block_threads = kind >= 0 ? fixed_block_sizes[kind].block_threads : threads_per_block;
    std::vector<BlockWork> table = launch_table(host, threads(false), row_of, block_threads);
    const GlobalIndex head_blocks = GlobalIndex(table.size());
    const std::vector<BlockWork> end_table = launch_table(host, threads(true), block_threads);
    table.insert(table.end(), end_table.begin(), end_table.end());
    if (table.empty()) continue;
    multiply_launches_.push_back({kind, head_blocks, upload_table(table), block_threads});
  }
  for (std::size_t g = 0; g < kinds.size(); ++g) {
    if (kinds[g] >= 0) fixed_size_rows_ += host.groups()[g].row_count;
    if (at_end[g]) end_rows_ += host.groups()[g].row_count;
  }
  const auto groups = host.groups();
  row_blocks_ = upload_table(launch_table(
      host, [&](std::size_t g) { return GlobalIndex(groups[g].row_count) * groups[g].row_size; }));
  inflate_blocks_ = upload_table(
      launch_table(host, [&](std::size_t g) { return GlobalIndex(groups[g].row_count); }));
  groups_ = upload<DenseBlockGroup>(host.groups());
  values_ = upload<Real>(host.values());
  row_dof_offsets_ = upload<GlobalIndex>(host.row_dof_offsets());
  row_diagonal_columns_ = upload<Index>(host.row_diagonal_columns());
  {
    // Where each row's diagonal block goes in diagonal_blocks(): Σ N_e'² over elements e' < e.
    const BlockPattern& p = host.pattern();
    std::vector<GlobalIndex> element_offsets(static_cast<std::size_t>(p.block_row_count()));
    for (Index e = 0; e < p.block_row_count(); ++e) {
      element_offsets[e] = diagonal_block_values_;
      diagonal_block_values_ += GlobalIndex(p.block_size(e)) * p.block_size(e);
    }
    std::vector<GlobalIndex> row_offsets(host.row_block_rows().size());
    for (std::size_t position = 0; position < row_offsets.size(); ++position)
      row_offsets[position] = element_offsets[host.row_block_rows()[position]];
    row_diagonal_block_offsets_ = upload<GlobalIndex>(row_offsets);
  }
  slot_column_dof_offsets_ = upload<GlobalIndex>(host.slot_column_dof_offsets());
  slot_column_sizes_ = upload<Index>(host.slot_column_sizes());
  slot_transpose_offsets_ = upload<GlobalIndex>(host.slot_transpose_offsets());
  slot_transpose_strides_ = upload<Index>(host.slot_transpose_strides());
  // Per slot: where its block's values start in the BlockMatrix (pattern order).
  const BlockPattern& pattern = host.pattern();
  std::vector<GlobalIndex> slot_value_offsets(host.slot_column_sizes().size(), 0);
  for (const DenseBlockGroup& group : host.groups())
    for (Index l = 0; l < group.row_count; ++l) {
      const Index r = host.row_block_rows()[group.first_row + l];
      const Index blocks = pattern.block_row_begin(r + 1) - pattern.block_row_begin(r);
      for (Index b = 0; b < blocks; ++b)
        slot_value_offsets[group.first_slot + GlobalIndex(b) * group.row_count + l] =
            pattern.block_value_offset(pattern.block_row_begin(r) + b);
    }
  slot_value_offsets_ = upload<GlobalIndex>(slot_value_offsets);
}

template <class Real>
double DeviceDenseBlockMatrix<Real>::minimal_bytes() const {
  return double(stored_values_) * sizeof(Real) + double(slots_) * (sizeof(GlobalIndex) + 4) +
         double(rows_) * sizeof(GlobalIndex) + 2.0 * double(dof_count_) * sizeof(Real);
}

template <class Real>
void DeviceDenseBlockMatrix<Real>::multiply(const Real* x, Real* y) const {
  multiply_add(x, nullptr, y);
}

template <class Real>
void DeviceDenseBlockMatrix<Real>::multiply_add(const Real* x, const Real* z, Real* y) const {
  for (const detail::DenseBlockLaunch& launch : multiply_launches_) {
    const auto run = [&](auto kernel) {
      kernel<<<unsigned(launch.blocks.size()), threads_per_block>>>(
          groups_.data(), launch.blocks.data(), values_.data(), row_dof_offsets_.data(),
          slot_column_dof_offsets_.data(), slot_column_sizes_.data(), x, z, y);
    };
    const auto run_fixed = [&](auto kernel) {
      kernel<<<unsigned(launch.blocks.size()), unsigned(launch.block_threads)>>>(
          groups_.data(), launch.blocks.data(), launch.head_blocks, values_.data(),
          row_dof_offsets_.data(), slot_column_dof_offsets_.data(), x, z, y);
    };
    if (launch.kernel >= 0) {
      run_fixed_kernel<Real>(launch.kernel, run_fixed,
                             std::make_index_sequence<std::size(fixed_block_sizes)>());
    } else {
      switch (rows_per_thread_) {
        case 8:
          run(multiply_kernel<Real, 8>);
          break;
        case 4:
          run(multiply_kernel<Real, 4>);
          break;
        case 2:
          run(multiply_kernel<Real, 2>);
          break;
        default:
          run(multiply_kernel<Real, 1>);
      }
    }
    POLYDG_CUDA_CHECK_LAUNCH("DeviceDenseBlockMatrix multiply_kernel");
  }
}

template <class Real>
void DeviceDenseBlockMatrix<Real>::multiply_transpose(const Real* x, Real* y) const {
  if (row_blocks_.size() == 0) return;
  multiply_transpose_kernel<Real><<<unsigned(row_blocks_.size()), threads_per_block>>>(
      groups_.data(), row_blocks_.data(), values_.data(), row_dof_offsets_.data(),
      slot_column_dof_offsets_.data(), slot_column_sizes_.data(), slot_transpose_offsets_.data(),
      slot_transpose_strides_.data(), x, y);
  POLYDG_CUDA_CHECK_LAUNCH("DeviceDenseBlockMatrix multiply_transpose_kernel");
}

template <class Real>
void DeviceDenseBlockMatrix<Real>::inflate(const Real* x, Real* inflated) const {
  if (inflate_blocks_.size() == 0) return;
  inflate_kernel<Real><<<unsigned(inflate_blocks_.size()), threads_per_block>>>(
      groups_.data(), inflate_blocks_.data(), slot_column_dof_offsets_.data(),
      slot_column_sizes_.data(), x, inflated);
  POLYDG_CUDA_CHECK_LAUNCH("DeviceDenseBlockMatrix inflate_kernel");
}

template <class Real>
void DeviceDenseBlockMatrix<Real>::contract(const Real* inflated, Real* y) const {
  if (row_blocks_.size() == 0) return;
  contract_kernel<Real><<<unsigned(row_blocks_.size()), threads_per_block>>>(
      groups_.data(), row_blocks_.data(), values_.data(), row_dof_offsets_.data(), inflated, y);
  POLYDG_CUDA_CHECK_LAUNCH("DeviceDenseBlockMatrix contract_kernel");
}

template <class Real>
void DeviceDenseBlockMatrix<Real>::diagonal(Real* d) const {
  if (row_blocks_.size() == 0) return;
  diagonal_kernel<Real><<<unsigned(row_blocks_.size()), threads_per_block>>>(
      groups_.data(), row_blocks_.data(), values_.data(), row_dof_offsets_.data(),
      row_diagonal_columns_.data(), d);
  POLYDG_CUDA_CHECK_LAUNCH("DeviceDenseBlockMatrix diagonal_kernel");
}

template <class Real>
void DeviceDenseBlockMatrix<Real>::diagonal_blocks(Real* blocks) const {
  if (row_blocks_.size() == 0) return;
  diagonal_blocks_kernel<Real><<<unsigned(row_blocks_.size()), threads_per_block>>>(
      groups_.data(), row_blocks_.data(), values_.data(), row_diagonal_columns_.data(),
      row_diagonal_block_offsets_.data(), blocks);
  POLYDG_CUDA_CHECK_LAUNCH("DeviceDenseBlockMatrix diagonal_blocks_kernel");
}

template <class Real>
void DeviceDenseBlockMatrix<Real>::update_values(const Real* block_matrix_values) {
  if (row_blocks_.size() == 0) return;
  update_values_kernel<Real><<<unsigned(row_blocks_.size()), threads_per_block>>>(
      groups_.data(), row_blocks_.data(), slot_value_offsets_.data(), slot_column_sizes_.data(),
      block_matrix_values, values_.data());
  POLYDG_CUDA_CHECK_LAUNCH("DeviceDenseBlockMatrix update_values_kernel");
}

template <class Real>
GhostColumnBlocks DeviceDenseBlockMatrix<Real>::ghost_column_blocks(
    GlobalIndex owned_dof_count) const {
  const std::vector<DenseBlockGroup> groups = groups_.to_host();
  const std::vector<GlobalIndex> row_dof_offsets = row_dof_offsets_.to_host();
  const std::vector<GlobalIndex> slot_column_dof_offsets = slot_column_dof_offsets_.to_host();
  const std::vector<Index> slot_column_sizes = slot_column_sizes_.to_host();
  return GhostColumnBlocks(groups, row_dof_offsets, slot_column_dof_offsets, slot_column_sizes,
                           owned_dof_count);
}

template class DeviceDenseBlockMatrix<float>;
template class DeviceDenseBlockMatrix<double>;

}  // namespace polydg
