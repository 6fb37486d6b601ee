#pragma once
// The schedule every assembly kernel shares (tables of at most thread_item_rows rows go one item
// per thread instead where they fit: thread_item_kernel.cuh, the same sums). A team of threads per
// item (an element, an interface, an element's boundary), whose outputs form a rows × columns table
// of sums over the item's quadrature points of Σ_k test_ik trial_jk — the factored integrands of
// element_integrand.hpp and face_integrand.hpp (rows: test functions; columns: trial functions,
// or the rhs column alone: launch_rhs_points sends the P_1 rhs tables here and the others to
// vector_point_schedule.cuh). The team is a thread block, or — for tables
// with at most 32 register tiles (P_1 and P_2 items, P_3 elements in 3D) — one warp of a block,
// with its own shared memory and warp barriers only, under a register cap: such items (a P_1
// interface: a few points, 8 × 8 outputs) are bound by latency and instruction issue, and a
// warp each keeps more of them in flight per multiprocessor than a block each does. The cap is 128
// registers (16 warps per multiprocessor), the lowest at which the 2 × 2-tile kernels do not spill
// (the 4 × 4 ones spill a few bytes): under a 64-register cap (32 warps) the P_1 interface kernel
// spilled, and its local memory overflowed L1 into L2 and DRAM.
//
// Points are taken in batches held in the team's shared memory, each in three phases between
// team barriers:
//   1. points:    thread m evaluates point m of the batch into its record (the map, the weight,
//                 the coefficients, the per-axis basis tables) — Launch::evaluate_point; in a
//                 thread-block team one extra warp, the producer, does this for the next batch
//                 while the others are in phase 3 of this one (tensor-core tables: phases 2 and
//                 3, the others meeting at a barrier of their own; two record buffers), because a
//                 point's evaluation is a long dependent chain on one lane: done between
//                 barriers, the rest of the block waited for it (the main stall of the P_5
//                 element and interior kernels). Persistent
//                 blocks (LaunchLimits::persistent_blocks: as many as are resident, taking items
//                 in turn) have the producer evaluate the next item's first batch during this
//                 item's last: a P_5 interface's points are one batch or two, and its kernel
//                 runs one block per multiprocessor, so only that hides their evaluation;
//   2. functions: threads over (point, column u) fill column u of the point's test table
//                 (u < rows) and trial table (u < columns) — Launch::evaluate_function; the
//                 padding up to the tile multiples is zeroed here;
//   3. products:  every thread adds the batch's points into its register tiles of TR × TC
//                 outputs, rows ti + r·row_tiles and columns tj + c·column_tiles (interleaved, so
//                 a warp's shared-memory reads are consecutive or broadcast): per point and
//                 component, TR + TC shared loads for TR·TC FMAs. Double tables too large for
//                 a warp and small enough for a few warps' registers (P_4 / P_5 elements,
//                 boundaries and interfaces in 2D+1) go to the FP64 tensor cores instead
//                 (LaunchLimits::tensor_cores; tensor_tiles below): a warp per region of 8 × 8
//                 tiles (two regions for the interfaces' larger tables), one MMA per tile (pair)
//                 and four (point, component) terms — where the items have enough points
//                 (enough_points_for_tensor_cores) and the tables fit the device's shared
//                 memory (tensor_tables_fit). Launches that never take them say so
//                 (Launch::tensor_tables = false: the 2D interfaces, too few points).
// So each basis function is evaluated once per point, and the block is a register-tiled
// product of the point's tables.
//
// Split over points: point k (the item's order: piece k / rule size, rule point k mod rule size)
// belongs to group k mod G; a (tile, group) pair is a unit of phase-3 work, and a thread takes
// one unit per pass. After the last
// batch the groups' partial sums meet in shared memory and each output is
//   initial + partial_0 + partial_1 + … + partial_{G−1}        (in this order),
// each partial a chain of FMAs over its points in increasing k and components in increasing k.
// G and the sums depend only on the number of rows of the launch's largest table (choose_tiling
// below), not on the team, the thread count, the batch size, the tile shape or the shared memory:
// the same bits on every run and launch configuration. Tiles beyond what one pass of the team
// covers are done in further passes over the points (re-evaluating them).
//
// A Launch (trivially copyable, the kernel's parameter) provides, with Item = launch.item(b):
//   using Real;  static constexpr int components;   (K, the integrand's)
//   static constexpr bool tensor_tables;             (whether its tables may take the tensor cores)
//   int rows(const Item&) const;  int columns(const Item&) const;  Index point_count(…) const;
//   int function_code(const Item&, int u) const;    (once per block: e.g. u's multi-index)
//   void evaluate_point(const Item&, Index k, Real* record) const;
//        (an item's points are counted in Index: launch_tiled_points checks that they fit)
//   void evaluate_function(const Item&, const Real* record, int u, int code,
//                          Real* test, int test_stride, Real* trial, int trial_stride) const;
//        (writes component c at test[c · test_stride] unless test is null, likewise trial)
//   Real initial(const Item&, int i, int j) const;  void store(const Item&, int i, int j, Real)
//   const;
// and optionally
//   bool point_contributes(const Real* record) const;  (false: the point's products are all
//        exact zeros, e.g. a boundary point where no term acts; it is skipped)
//   void store_pair(const Item&, int i, int j, Real first, Real second) const;  (store of
//        initial + first at (i, j) and initial + second at (i, j + 1), j + 1 < columns: the
//        tensor-core tables' stores, in one paired store where it can)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/dg/device_launch_tuning.hpp"
#include "polydg/detail/dg/thread_item_kernel.cuh"

namespace polydg::device::detail {

// max_block_threads, point_batch_shared_bytes, min_points_to_overlap: device_launch_tuning.hpp.
/// Units of phase-3 work (tiles × point groups) the split over points aims at per item.
inline constexpr int target_units_per_item = 128;
inline constexpr int max_point_groups = 8;
/// The one-item-per-warp kernel: its blocks, and the register cap (min_warp_team_blocks such
/// blocks per multiprocessor: 128 registers).
inline constexpr int max_warp_team_threads = 256;
inline constexpr int min_warp_team_blocks = 2;
/// Units a table small enough for one warp aims at: one pass of its lanes.
inline constexpr int target_units_per_warp_item = 32;
/// FP64 tensor-core products (tensor_tiles below): a warp's register region is at most this
/// many 8 × 8 tiles on a side, a block has at most max_tensor_regions warps of regions...
inline constexpr int tensor_region_side = 4;
inline constexpr int max_tensor_regions = 8;
/// ... each with at most this many regions, one after the other in each batch (the P_4 / P_5
/// interfaces in 3D: 9 / 16 regions; more warps would have fewer registers each, and the FMA
/// tiles of these tables spilled at 128), so a table takes them where it needs at most
/// max_tensor_regions_per_warp · max_tensor_regions regions...
inline constexpr int max_tensor_regions_per_warp = 2;
/// ... and where its items have at least this many points on average. Tables of more than
/// small_tensor_table_rows rows gain from the tensor cores however few their points (the 3D P_4 /
/// P_5 interfaces have 25–36, and their FMA tiles spill at the register cap). Smaller
/// tables need many more points (below). Points, like rows, are the same in every configuration of
/// a launch: the same bits.
inline constexpr int min_tensor_points_per_item = 16;
/// ... and tables of at most small_tensor_table_rows rows (P_4 in 3D: 35) at least
/// min_tensor_points_per_small_item: such tables beat their 4 × 8 FMA tiles on the tensor cores
/// only with many points — a P_4 slab element with the tensor rules' 247 points, not with the
/// total-degree rules' 142.
/// (A P_5 table, 56 rows, fills seven 8-row tiles; a P_4 one leaves 5 of 40 rows zero.)
inline constexpr int small_tensor_table_rows = 40;
inline constexpr int min_tensor_points_per_small_item = 192;
/// Their blocks: the regions' warps and the producer warp. The launch bound follows: ptxas takes
/// 160–168 registers there (the region loops of tensor_region_products), where the 128 of a
/// max_block_threads bound spilled.
inline constexpr int max_tensor_block_threads = 32 * (max_tensor_regions + 1);
/// The launch bound of the one-item-per-block kernel of TR × TC tiles.
template <int TR, int TC>
inline constexpr int block_thread_bound =
    TR == 8 && TC == 8 ? max_tensor_block_threads : max_block_threads;

/// The launch configuration the caller may choose (the results do not depend on it).
struct LaunchLimits {
  int max_threads = max_block_threads;  ///< a multiple of 32, at most max_block_threads
  cudaStream_t stream = nullptr;
  /// Most shared memory per block for the point batches (tensor-core tables' sums come on top);
  /// above 48 KiB the kernel opts in (up to the device's
  /// cudaDevAttrMaxSharedMemoryPerBlockOptin). A launch takes less where more would lower the
  /// resident blocks per multiprocessor.
  int max_shared_bytes = point_batch_shared_bytes;
  /// Items whose tables fit one thread's registers (fits_one_thread: P_1 items, 2D P_2
  /// elements) go one per thread (thread_item_kernel.cuh); false: as the next option says. The
  /// sums are the same either way.
  bool small_items_per_thread = true;
  /// Items whose units fit one warp go one per warp; false: one per block. The sums are the same
  /// either way.
  bool small_items_per_warp = true;
  /// One-item-per-block launches get a producer warp that evaluates the next batch's points
  /// while the other warps multiply (phase 1 beside phase 3; tensor-core tables: beside phases 2
  /// and 3); false: the three phases in turn. The sums are the same either way.
  bool overlap_point_evaluation = true;
  /// ... where the launch's items have at least this many points on average, or at any number
  /// when the blocks are persistent.
  int overlap_min_mean_points = min_points_to_overlap;
  /// One-item-per-block launches with one point group run as many blocks as are resident at
  /// once, each taking items in turn, and the producer warp also evaluates the next item's
  /// first batch (tiled_point_kernel). The sums are the same either way.
  bool persistent_blocks = true;
  /// ... at most this many of them (0: as many as are resident at once).
  int max_persistent_blocks = 0;
  /// Double-precision tables of block teams with at most max_tensor_regions regions are
  /// multiplied on the FP64 tensor cores (compute capability 8.0 and above). The one launch
  /// choice that changes the rounding: each entry is the same sum of the same products, with
  /// the four products of a tensor-core step added in the tensor core's order. The bits are
  /// the same on every run and every other launch choice either way.
  bool tensor_cores = true;
  /// Where not null, incremented (on the host) by each launch whose tables take the FP64 tensor
  /// cores, which launch_tiled_points decides per launch (the option above, the tables' rows and
  /// points, the device): so that a report can say which kernels ran on them.
  int* tensor_core_launches = nullptr;
};

/// Sizes the kernel needs besides the Launch (computed once per launch on the host).
struct TiledPointSizes {
  int groups;        ///< G, the point groups
  int batch;         ///< points per batch
  int record_size;   ///< Reals of a point's record
  int table_size;    ///< Reals of a point's test and trial tables (largest item of the launch)
  int code_doubles;  ///< doubles of shared memory before the records, holding the int codes
  int accumulator_doubles;  ///< tensor-core tables: their sums between batches (after the codes)
  int team_doubles;         ///< doubles of shared memory per team (the one-item-per-warp kernel)
  int producer_threads;     ///< 0, or the last threads of the team: they evaluate the next batch's
                            ///< points during phase 3 (records double-buffered)
};

__host__ __device__ constexpr int tiles_of(int size, int tile) { return (size + tile - 1) / tile; }

/// The threads that work on one item: a whole thread block (items with many outputs), or one warp
/// of a block (small items: many in flight per multiprocessor, warp barriers only).
/// sync_first(count): a barrier of the team's first `count` threads alone (a multiple of 32), so
/// that the others — the producer warp — need not wait there.
struct BlockTeam {
  __device__ int size() const { return int(blockDim.x); }
  __device__ int rank() const { return int(threadIdx.x); }
  __device__ void sync() const { __syncthreads(); }
  __device__ void sync_first(int count) const {
    if (count == size()) return __syncthreads();
    asm volatile("bar.sync 1, %0;" : : "r"(count) : "memory");  // barrier 0 is __syncthreads
  }
};
struct WarpTeam {
  __device__ int size() const { return 32; }
  __device__ int rank() const { return int(threadIdx.x) % 32; }
  __device__ void sync() const { __syncwarp(); }
  __device__ void sync_first(int) const { __syncwarp(); }
};

/// Tensor-core tables (TR = TC = 8): the products of a batch are FP64 MMAs on tiles of 8 × 8
/// outputs, C += A (8 rows × 4) B (4 × 8 columns) — m16n8k4 for two tiles one above the other,
/// m8n8k4 for one — whose k dimension runs over (point, component) pairs κ = m·Kp + k (Kp = K,
/// or 4 for K = 3, with a zero component): four of them per step, one point's or two points'
/// (batches hold whole steps). A unit is a warp with a region of at most tensor_region_side²
/// tiles, or two such regions one after the other (tensor_regions_per_warp): per κ step it loads
/// one fragment per tile row and column and issues one MMA per tile (pair), independent chains,
/// in a loop compiled for the region's shape. Its sums stay in registers for a batch's steps and in
/// shared memory between batches (held in registers across the producer's and phase 2's code they
/// spilled, and the MMA loop then went through local memory, slower than the FMA tiles). The
/// tables of a batch lie as test[κ][i] and trial[κ][j] with row strides of the padded size + 4 (≡ 4
/// mod 8 doubles: the fragment loads, lane → (κ + lane % 4, 8·tile + lane / 4), hit 16 different
/// bank pairs per half warp).
template <int TR, int TC>
inline constexpr bool tensor_tiles = TR == 8 && TC == 8;
__host__ __device__ constexpr int padded_tensor_components(int k) { return k == 3 ? 4 : k; }
template <int K>
inline constexpr int tensor_components = padded_tensor_components(K);  // Kp
/// The regions along one side of tiles8 tiles of 8: at most tensor_region_side tiles each,
/// and two where there are two tiles or more (more warps, shorter dependent chains).
__host__ __device__ constexpr int tensor_chunks(int tiles8) {
  const int fewest = (tiles8 + tensor_region_side - 1) / tensor_region_side;
  return tiles8 <= 2 ? tiles8 : (fewest > 2 ? fewest : 2);
}
__host__ __device__ constexpr int tensor_regions(int rows, int columns) {
  return tensor_chunks(tiles_of(rows, 8)) * tensor_chunks(tiles_of(columns, 8));
}
/// A table's regions per warp (1 up to max_tensor_regions_per_warp) where `warps` warps share
/// `regions` regions.
__host__ __device__ constexpr int tensor_regions_per_warp(int regions, int warps) {
  const int each = (regions + warps - 1) / warps;
  return each < 1 ? 1 : each > max_tensor_regions_per_warp ? max_tensor_regions_per_warp : each;
}
/// The warps of a table of `regions` regions: at most max_tensor_regions, as few as the regions
/// per warp allow.
__host__ __device__ constexpr int tensor_warps(int regions) {
  const int each = tensor_regions_per_warp(regions, max_tensor_regions);
  return (regions + each - 1) / each;
}

/// (acc0, acc1) (the lane's two of an 8 × 8 tile) += a b: m8n8k4 on the FP64 tensor cores
/// (sm_80 and above; the host takes this path only there).
__device__ inline void tensor_multiply_add(double& acc0, double& acc1, double a, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
               : "+d"(acc0), "+d"(acc1)
               : "d"(a), "d"(b));
#else
  __trap();
#endif
}

/// The same for two tiles of 8 × 8 one above the other (a: the upper tile's fragment, a_below
/// the lower's, one b): m16n8k4 on sm_90 — there m8n8k4 runs at about the FP64 FMA rate,
/// the tensor cores' other half is for the sm_90 shapes — two m8n8k4 before.
__device__ inline void tensor_multiply_add(double& acc0, double& acc1, double& below0,
                                           double& below1, double a, double a_below, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
      "{%0, %1, %2, %3};"
      : "+d"(acc0), "+d"(acc1), "+d"(below0), "+d"(below1)
      : "d"(a), "d"(a_below), "d"(b));
#else
  tensor_multiply_add(acc0, acc1, a, b);
  tensor_multiply_add(below0, below1, a_below, b);
#endif
}

/// The slot of sum e (0, 1) of tile (r, c) of a warp's region, for the lane whose slots start
/// at region_sums (sum_tiled_points): sums stay in shared memory between batches.
__device__ inline double& region_sum(double* region_sums, int column_tiles, int r, int c, int e) {
  return region_sums[((r * column_tiles + c) * 2 + e) * 32];
}

/// A warp's region of R × C tiles of 8 × 8 (compile-time: an MMA loop without predicates)
/// over `steps` κ steps of a batch: its sums come from and go back to shared memory (see
/// sum_tiled_points), the fragments from the batch's tables (test, trial: this lane's first
/// element, strides between κ rows).
template <int R, int C>
__device__ void tensor_region_products(const double* test, int test_stride, const double* trial,
                                       int trial_stride, int steps, double* region_sums,
                                       int column_tiles, bool first_batch) {
  double sums[R][2 * C];
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int c = 0; c < 2 * C; ++c)
      sums[r][c] = first_batch ? 0.0 : region_sum(region_sums, column_tiles, r, c / 2, c % 2);
  const int test_step = 4 * test_stride, trial_step = 4 * trial_stride;
#pragma unroll 2
  for (int step = 0; step < steps; ++step, test += test_step, trial += trial_step) {
    double a[R], b[C];
#pragma unroll
    for (int r = 0; r < R; ++r) a[r] = test[8 * r];
#pragma unroll
    for (int c = 0; c < C; ++c) b[c] = trial[8 * c];
#pragma unroll
    for (int c = 0; c < C; ++c) {
#pragma unroll
      for (int r = 0; r + 1 < R; r += 2)
        tensor_multiply_add(sums[r][2 * c], sums[r][2 * c + 1], sums[r + 1][2 * c],
                            sums[r + 1][2 * c + 1], a[r], a[r + 1], b[c]);
      if constexpr (R % 2 == 1)
        tensor_multiply_add(sums[R - 1][2 * c], sums[R - 1][2 * c + 1], a[R - 1], b[c]);
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int c = 0; c < 2 * C; ++c)
      region_sum(region_sums, column_tiles, r, c / 2, c % 2) = sums[r][c];
}

/// The same for a region of region_rows × region_columns tiles (each 1 to tensor_region_side):
/// the loop compiled for that shape.
__device__ inline void tensor_region_products(int region_rows, int region_columns,
                                              const double* test, int test_stride,
                                              const double* trial, int trial_stride, int steps,
                                              double* region_sums, int column_tiles,
                                              bool first_batch) {
  static_assert(tensor_region_side == 4, "one case per region side");
  const auto with_rows = [&](auto rows) {
    constexpr int R = decltype(rows)::value;
    switch (region_columns) {
      case 1:
        return tensor_region_products<R, 1>(test, test_stride, trial, trial_stride, steps,
                                            region_sums, column_tiles, first_batch);
      case 2:
        return tensor_region_products<R, 2>(test, test_stride, trial, trial_stride, steps,
                                            region_sums, column_tiles, first_batch);
      case 3:
        return tensor_region_products<R, 3>(test, test_stride, trial, trial_stride, steps,
                                            region_sums, column_tiles, first_batch);
      default:
        return tensor_region_products<R, 4>(test, test_stride, trial, trial_stride, steps,
                                            region_sums, column_tiles, first_batch);
    }
  };
  switch (region_rows) {
    case 1:
      return with_rows(std::integral_constant<int, 1>{});
    case 2:
      return with_rows(std::integral_constant<int, 2>{});
    case 3:
      return with_rows(std::integral_constant<int, 3>{});
    default:
      return with_rows(std::integral_constant<int, 4>{});
  }
}

/// One item's table by `team`, in shared memory `storage` (the team's own). Each thread takes
/// one (tile, point group) unit per pass, with a register tile.
///
/// Persistent blocks (tiled_point_kernel): next_item ≥ 0 is the item this block takes
/// next; where the producers are free during this item's last batch (a producer warp, G = 1:
/// nothing is left in shared memory after the last pass) they evaluate next_item's first batch
/// into the spare record buffer, and the buffer is returned (otherwise −1). ready_buffer ≥ 0:
/// this item's first batch is already there (the previous call's return).
template <class Team, class Launch, int TR, int TC>
__device__ int sum_tiled_points(const Team& team, const Launch& launch,
                                const typename Launch::Item& item, const TiledPointSizes& sizes,
                                double* storage, Index next_item = -1, int ready_buffer = -1) {
  using Real = typename Launch::Real;
  constexpr int K = Launch::components;
  constexpr bool tensor = tensor_tiles<TR, TC>;
  // The components a point's tables hold: K, or Kp for tensor tiles (zeros above K).
  constexpr int KT = tensor ? tensor_components<K> : K;
  static_assert(!tensor || (std::is_same_v<Real, double> && K <= 4),
                "tensor-core tables are double, at most 4 components");
  const int rows = launch.rows(item), columns = launch.columns(item);
  const int row_tiles = tiles_of(rows, TR), column_tiles = tiles_of(columns, TC);
  const int padded_rows = row_tiles * TR, padded_columns = column_tiles * TC;
  const int functions = padded_rows > padded_columns ? padded_rows : padded_columns;
  // Units: register tiles of one thread, or tensor regions of one warp.
  const int row_chunks = tensor ? tensor_chunks(row_tiles) : row_tiles;
  const int column_chunks = tensor ? tensor_chunks(column_tiles) : column_tiles;
  const int tiles = row_chunks * column_chunks;
  const int groups = sizes.groups;
  const Index point_count = launch.point_count(item);
  const int threads = team.size();
  const int t = team.rank();

  // Shared memory: codes | records (one or two buffers of `batch` records) | tables (`batch`).
  // A point's tables: test then trial, component by component (test[m · table_size + k ·
  // padded_rows + i]); tensor tiles: the batch's test tables, then its trial tables, κ by κ.
  int* codes = reinterpret_cast<int*>(storage);
  const int producers = sizes.producer_threads;
  const bool overlap = producers > 0;
  const int record_size = sizes.record_size, table_size = sizes.table_size;
  const int buffer_size = sizes.batch * record_size;
  Real* records = reinterpret_cast<Real*>(storage + sizes.code_doubles + sizes.accumulator_doubles);
  // Tensor tiles: tile (R, C) of 8 × 8 sums, lane l's two at accumulators[((R · column_tiles + C)
  // · 2 + e) · 32 + l], between batches (tensor_region_products).
  double* accumulators = storage + sizes.code_doubles;
  Real* tables = records + (overlap ? 2 : 1) * buffer_size;
  const int test_stride = tensor ? padded_rows + 4 : padded_rows;  // between components
  const int trial_stride = tensor ? padded_columns + 4 : padded_columns;
  const int test_step = tensor ? KT * test_stride : table_size;  // between points
  const int trial_step = tensor ? KT * trial_stride : table_size;
  Real* test_tables = tables;
  Real* trial_tables = tensor ? tables + sizes.batch * test_step : tables + K * padded_rows;
  const auto evaluate_points = [&](const auto& owner, Index first, int count, Real* buffer,
                                   int rank, int stride) {
    for (int m = rank; m < count; m += stride)
      launch.evaluate_point(owner, first + m, buffer + m * record_size);
  };
  int prefetched = -1;  // the buffer holding next_item's first batch
  // Launch::point_contributes (optional): false where all of a point's products are zero. Such
  // points get zero tables and no products. Skipping exact zeros keeps the bits: a sum of
  // products that starts at +0 is never −0, and adding ±0 to it changes nothing.
  const auto contributes = [&](const Real* record) {
    if constexpr (requires { launch.point_contributes(record); })
      return launch.point_contributes(record);
    else
      return true;
  };

  // The threads that fill the tables (phase 2): all, or — tensor-core tables — all but the
  // producers, which start on the next batch's points at once: the MMAs are short, and producers
  // that waited through phase 2 held the P_5 elements back. The FMA tiles keep the earlier code,
  // compiled as before: the choice and the barrier at run time slowed their P_4 / P_5
  // interfaces. Only the fillers write the codes: a producer may get here
  // while the others still read the previous item's.
  const int fillers = tensor ? threads - producers : threads;
  if (!tensor || t < fillers)  // (FMA tiles: the condition and the barrier below at compile time)
    for (int u = t; u < functions; u += fillers) codes[u] = launch.function_code(item, u);

  // Thread t's unit in a pass: group t / pass_tiles, tile first_tile + t % pass_tiles. The
  // producers (t ≥ product_threads) have no unit. Tensor tiles: warp t / 32 (of `warps`) takes
  // the pass's regions t / 32, t / 32 + warps, … (regions_per_warp of them at most).
  const int product_threads = threads - producers;
  const int unit = tensor ? t / 32 : t;
  const int warps = product_threads / 32;
  const int regions_per_warp = tensor ? tensor_regions_per_warp(tiles, warps) : 1;
  const int tiles_per_pass = (tensor ? warps * regions_per_warp : product_threads) / groups;
  const int lane = t % 32;
  // Tensor tiles: region `tile`'s tiles of 8, [row_begin, row_begin + rows) × [column_begin,
  // column_begin + columns), and where this lane's sums of its tile (r, c) are between batches:
  // region_sum(sums, column_tiles, r, c, e). They start from zero in the pass's first batch:
  // another warp may read these slots for the previous item's stores until the batch's first
  // barrier (items of other sizes have other regions).
  struct Region {
    int row_begin, rows, column_begin, columns;
    double* sums;
  };
  const auto region_of = [&](int tile) {
    const int ti = tile / column_chunks, tj = tile % column_chunks;
    Region region;
    region.row_begin = ti * row_tiles / row_chunks;
    region.rows = (ti + 1) * row_tiles / row_chunks - region.row_begin;
    region.column_begin = tj * column_tiles / column_chunks;
    region.columns = (tj + 1) * column_tiles / column_chunks - region.column_begin;
    region.sums =
        accumulators + (region.row_begin * column_tiles + region.column_begin) * 64 + lane;
    return region;
  };
  for (int first_tile = 0; first_tile < tiles; first_tile += tiles_per_pass) {
    const int pass_tiles = min(tiles_per_pass, tiles - first_tile);
    const bool works = unit < pass_tiles * groups;
    const int group = unit / pass_tiles;
    const int tile = first_tile + unit % pass_tiles;
    const int ti = tile / column_chunks, tj = tile % column_chunks;
    Real sum[tensor ? 1 : TR][tensor ? 1 : TC];
#pragma unroll
    for (int r = 0; r < (tensor ? 1 : TR); ++r)
#pragma unroll
      for (int c = 0; c < (tensor ? 1 : TC); ++c) sum[r][c] = Real(0);
    // Tensor tiles: this warp's regions of the pass, first_tile + unit + k · warps.
    const auto for_each_region = [&](auto&& body) {
#pragma unroll 1
      for (int local = unit; local < pass_tiles; local += warps)
        body(region_of(first_tile + local));
    };
    // The first batch of the first pass may have been evaluated during the previous item.
    const bool ready = first_tile == 0 && ready_buffer >= 0;
    if (overlap) {  // the pass's first batch, by everyone
      team.sync();  // the previous pass's partial sums (in the records) are read
      if (!ready) evaluate_points(item, 0, min(sizes.batch, point_count), records, t, threads);
    }
    // The last pass with G = 1 leaves nothing in shared memory: its last batch's producers may
    // work for the next item.
    const bool prefetch = overlap && next_item >= 0 && groups == 1 &&
                          first_tile + tiles_per_pass >= tiles && point_count > 0;
    // phase = first mod G, the group of the batch's first point.
    const int batch_phase = sizes.batch % groups;
    int phase = 0, buffer = ready ? ready_buffer : 0;
    for (Index first = 0; first < point_count;
         first += sizes.batch, phase = (phase + batch_phase) % groups, buffer ^= int(overlap)) {
      const int count = min(sizes.batch, point_count - first);
      // Tensor tiles: the points up to a whole MMA's (zero tables past the item's last point).
      constexpr int step_points = tensor ? 4 / KT : 1;
      const int table_count = (count + step_points - 1) / step_points * step_points;
      Real* batch_records = records + buffer * buffer_size;
      // Codes and (overlapping) this batch's records written; every thread done with the
      // previous batch's tables.
      team.sync();
      if (!overlap) {
        evaluate_points(item, first, count, batch_records, t, threads);
        team.sync();
      }
      if (!tensor || t < fillers) {
        for (int v = t; v < table_count * functions; v += fillers) {
          const int m = v / functions, u = v % functions;
          Real* test = u < padded_rows ? test_tables + m * test_step + u : nullptr;
          Real* trial = u < padded_columns ? trial_tables + m * trial_step + u : nullptr;
          const bool point = m < count && contributes(batch_records + m * record_size);
          if (point && (u < rows || u < columns))
            launch.evaluate_function(item, batch_records + m * record_size, u, codes[u],
                                     u < rows ? test : nullptr, test_stride,
                                     u < columns ? trial : nullptr, trial_stride);
          // Zeros: all K components where the function or the point has none, and the tensor
          // tables' padding components K..KT always, in a loop of compile-time bounds (straight
          // stores; K = 3 tables have one padding component).
          if (test) {
            if (!point || u >= rows)
              for (int c = 0; c < K; ++c) test[c * test_stride] = Real(0);
#pragma unroll
            for (int c = K; c < KT; ++c) test[c * test_stride] = Real(0);
          }
          if (trial) {
            if (!point || u >= columns)
              for (int c = 0; c < K; ++c) trial[c * trial_stride] = Real(0);
#pragma unroll
            for (int c = K; c < KT; ++c) trial[c * trial_stride] = Real(0);
          }
        }
        // The tables are written.
        if constexpr (tensor)
          team.sync_first(fillers);
        else
          team.sync();
      }
      const Index next = first + sizes.batch;
      if (next >= point_count && prefetch) prefetched = buffer ^ 1;  // the same on every thread
      if (t >= product_threads) {  // a producer: the next batch's records, in the other buffer
        const bool more = next < point_count;
        if (more || prefetch) {  // one call site: evaluate_point is long, inlined at each
          const typename Launch::Item owner = more ? item : launch.item(next_item);
          const Index from = more ? next : 0;
          evaluate_points(owner, from, min(sizes.batch, launch.point_count(owner) - from),
                          records + (buffer ^ 1) * buffer_size, t - product_threads, producers);
        }
        continue;
      }
      if (!works) continue;
      if constexpr (tensor) {
        // Each region's MMAs, κ = 4 step + lane % 4 in increasing step (G = 1), into its sums.
        const int steps = table_count * KT / 4;
        for_each_region([&](const Region& region) {
          const double* test =
              test_tables + (lane % 4) * test_stride + 8 * region.row_begin + lane / 4;
          const double* trial =
              trial_tables + (lane % 4) * trial_stride + 8 * region.column_begin + lane / 4;
          tensor_region_products(region.rows, region.columns, test, test_stride, trial,
                                 trial_stride, steps, region.sums, column_tiles, first == 0);
        });
      } else {
        // The batch's points of this unit's group, in increasing k.
        for (int m = (groups - phase + group) % groups; m < count; m += groups) {
          if (!contributes(batch_records + m * record_size)) continue;  // zero tables
          const Real* test = test_tables + m * table_size + ti;
          const Real* trial = trial_tables + m * table_size + tj;
#pragma unroll
          for (int k = 0; k < K; ++k) {
            Real a[TR], b[TC];
#pragma unroll
            for (int r = 0; r < TR; ++r) a[r] = test[k * padded_rows + r * row_tiles];
#pragma unroll
            for (int c = 0; c < TC; ++c) b[c] = trial[k * padded_columns + c * column_tiles];
#pragma unroll
            for (int r = 0; r < TR; ++r)
#pragma unroll
              for (int c = 0; c < TC; ++c) sum[r][c] = fma(a[r], b[c], sum[r][c]);
          }
        }
      }
    }

    if constexpr (tensor) {
      // A region's sums e = 0, 1 of tile (r, c) are outputs (8 (row_begin + r) + lane / 4,
      // 8 (column_begin + c) + 2 (lane % 4) + e): adjacent columns, stored as a pair where the
      // Launch can (Launch::store_pair; the same values as two store calls).
      if (t < product_threads)
        for_each_region([&](const Region& region) {
          for (int r = 0; r < region.rows; ++r)
            for (int c = 0; c < region.columns; ++c) {
              const int i = 8 * (region.row_begin + r) + lane / 4;
              const int j = 8 * (region.column_begin + c) + 2 * (lane % 4);
              if (i >= rows) continue;
              // (An item without points has no batch that wrote its sums.)
              const double first =
                  point_count > 0 ? region_sum(region.sums, column_tiles, r, c, 0) : 0.0;
              const double second =
                  point_count > 0 ? region_sum(region.sums, column_tiles, r, c, 1) : 0.0;
              if constexpr (requires { launch.store_pair(item, i, j, first, second); })
                if (j + 1 < columns) {
                  launch.store_pair(item, i, j, first, second);
                  continue;
                }
              if (j < columns) launch.store(item, i, j, launch.initial(item, i, j) + first);
              if (j + 1 < columns)
                launch.store(item, i, j + 1, launch.initial(item, i, j + 1) + second);
            }
        });
    } else if (groups == 1) {  // initial + partial_0
      if (works)
#pragma unroll
        for (int r = 0; r < TR; ++r)
#pragma unroll
          for (int c = 0; c < TC; ++c) {
            const int i = ti + r * row_tiles, j = tj + c * column_tiles;
            if (i < rows && j < columns)
              launch.store(item, i, j, launch.initial(item, i, j) + sum[r][c]);
          }
    } else {        // initial + partial_0 + … + partial_{G−1}, through shared memory
      team.sync();  // the records and tables are free
      Real* partial = records;
      if (works)
#pragma unroll
        for (int r = 0; r < TR; ++r)
#pragma unroll
          for (int c = 0; c < TC; ++c) partial[(t * TR + r) * TC + c] = sum[r][c];
      team.sync();
      // Unit t is (group, local tile) = (t / pass_tiles, t % pass_tiles): group g of local
      // tile `local` is unit g · pass_tiles + local.
      for (int v = t; v < pass_tiles * TR * TC; v += threads) {
        const int local = v / (TR * TC), r = (v / TC) % TR, c = v % TC;
        const int pass_tile = first_tile + local;
        const int i = pass_tile / column_tiles + r * row_tiles;
        const int j = pass_tile % column_tiles + c * column_tiles;
        if (i >= rows || j >= columns) continue;
        Real value = launch.initial(item, i, j);
        for (int g = 0; g < groups; ++g)
          value += partial[((g * pass_tiles + local) * TR + r) * TC + c];
        launch.store(item, i, j, value);
      }
    }
  }
  return prefetched;
}

/// Items b, b + gridDim.x, … per block: one item per block with a grid of `items` blocks, or
/// persistent blocks (a grid of the blocks resident at once) that take items in turn. With a
/// producer warp, a persistent block's producer evaluates each item's first batch during the
/// previous item's last products (sum_tiled_points' next_item), so an item of one batch — a P_4
/// slab interface has about 25 points — has its points' evaluation overlapped too.
template <class Launch, int TR, int TC>
__global__ void __launch_bounds__(block_thread_bound<TR, TC>)
    tiled_point_kernel(Launch launch, TiledPointSizes sizes, Index items) {
  extern __shared__ double shared_storage[];  // double: aligned for either precision
  int ready_buffer = -1;
  for (GlobalIndex b = blockIdx.x; b < items; b += gridDim.x) {
    const Index next = b + gridDim.x < items ? Index(b + gridDim.x) : -1;
    ready_buffer = sum_tiled_points<BlockTeam, Launch, TR, TC>(
        BlockTeam{}, launch, launch.item(Index(b)), sizes, shared_storage, next, ready_buffer);
  }
}

/// One item per warp, each warp with sizes.team_doubles of the shared memory. The register cap
/// (min_warp_team_blocks blocks of max_warp_team_threads) keeps many small items in flight:
/// their time is latency (dependent loads, barriers), not arithmetic.
template <class Launch, int TR, int TC>
__global__ void __launch_bounds__(max_warp_team_threads, min_warp_team_blocks)
    tiled_point_warp_kernel(Launch launch, TiledPointSizes sizes, Index items) {
  extern __shared__ double shared_storage[];
  const int warp = int(threadIdx.x) / 32;
  const Index b = Index(blockIdx.x) * Index(blockDim.x / 32) + warp;
  if (b >= items) return;  // the whole warp: no block barriers below
  sum_tiled_points<WarpTeam, Launch, TR, TC>(WarpTeam{}, launch, launch.item(b), sizes,
                                             shared_storage + warp * sizes.team_doubles);
}

/// The item-dependent part of the launch: the tile shape from the largest table of the launch
/// (rows × columns), and the point groups from its rows alone — G is the one choice that
/// changes the sums, so tables of the same rows and other columns (a block with or without an
/// rhs column) give the same bits. Tensor-core tables (tensor_cores: double precision on a device
/// that has them) are likewise chosen by the rows alone.
struct Tiling {
  int tile_rows, tile_columns;  ///< TR, TC (8 × 8: tensor-core tables)
  int groups;                   ///< G
  int tiles;                    ///< units of one point group: register tiles, tensor regions
};

/// Tables of more than this many 4 × 4 tiles take 4 × 8 tiles: a P_4 / P_5 interface (324 / 784
/// tiles of 4 × 4) had one block of 352 / 512 threads per multiprocessor, and at P_5 two passes
/// over its points; with 4 × 8 tiles it has half the threads and one pass, and a thread reads
/// 12 shared values for 32 FMAs instead of 8 for 16.
inline constexpr int most_square_tiles = 256;

inline Tiling choose_tiling(int rows, int columns, bool tensor_cores = false) {
  const auto tile_for = [](int r, int c) { return tiles_of(r, 4) * tiles_of(c, 4) >= 24 ? 4 : 2; };
  const int square_tile = tile_for(rows, rows);
  const int square_tiles = tiles_of(rows, square_tile) * tiles_of(rows, square_tile);
  const int tile = tile_for(rows, columns);
  // Tables whose tiles fit one warp's lanes aim at a warp's units, counted on the widest table
  // of the rows (rows × (rows + 1), with an rhs column); larger ones at a block's.
  const int widest_tile = tile_for(rows, rows + 1);
  const int widest_tiles = tiles_of(rows, widest_tile) * tiles_of(rows + 1, widest_tile);
  const bool warp_sized = widest_tiles <= target_units_per_warp_item;
  if (tensor_cores && !warp_sized &&
      tensor_regions(rows, rows + 1) <= max_tensor_regions_per_warp * max_tensor_regions)
    return {8, 8, 1, tensor_regions(rows, columns)};
  // Tables a thread can sum (thread_item_kernel.cuh) have one group, as that kernel's sums.
  const int groups = rows <= thread_item_rows ? 1
                     : warp_sized             ? target_units_per_warp_item / widest_tiles
                                              : target_units_per_item / square_tiles;
  const int tile_columns =
      tile == 4 && tiles_of(rows, 4) * tiles_of(columns, 4) > most_square_tiles ? 8 : tile;
  return {tile, tile_columns, std::clamp(groups, 1, max_point_groups),
          tiles_of(rows, tile) * tiles_of(columns, tile_columns)};
}

/// The shared memory per block that costs no resident blocks: an SM's shared memory shared out
/// among the blocks its registers and threads allow (cudaOccupancyMaxActiveBlocksPerMultiprocessor
/// without shared memory). Larger batches mean fewer barriers and fewer phases in which few
/// threads work; beyond this they would cost occupancy.
template <class Kernel>
std::size_t shared_bytes_without_occupancy_loss(Kernel kernel, int threads, const char* name) {
  int device = 0, blocks = 1, per_multiprocessor = 0, reserved = 0;
  check_cuda(cudaGetDevice(&device), name, __FILE__, __LINE__);
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0), name,
             __FILE__, __LINE__);
  check_cuda(cudaDeviceGetAttribute(&per_multiprocessor,
                                    cudaDevAttrMaxSharedMemoryPerMultiprocessor, device),
             name, __FILE__, __LINE__);
  check_cuda(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device),
             name, __FILE__, __LINE__);
  return std::size_t(std::max(per_multiprocessor / std::max(blocks, 1) - reserved, 0));
}

/// The most shared memory a block of the current device may opt in to.
inline std::size_t largest_block_shared_bytes(const char* name) {
  int device = 0, most = 48 * 1024;
  check_cuda(cudaGetDevice(&device), name, __FILE__, __LINE__);
  check_cuda(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), name,
             __FILE__, __LINE__);
  return std::size_t(most);
}

/// Opts `kernel` in to `bytes` of dynamic shared memory per block where that is above 48 KiB.
template <class Kernel>
void allow_shared_memory(Kernel kernel, std::size_t bytes, const char* name) {
  if (bytes > 48 * 1024) {
    const std::size_t most = largest_block_shared_bytes(name);
    if (bytes > most)
      raise(name, ": ", bytes, " bytes of shared memory per block but the device allows ", most);
    check_cuda(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)), name,
        __FILE__, __LINE__);
  }
}

/// The blocks of `kernel` (threads, bytes of dynamic shared memory each) the device holds at
/// once: the grid of a persistent launch. Sets the kernel's shared memory attribute first, as
/// the launch will (the occupancy query needs it above 48 KiB).
template <class Kernel>
Index resident_blocks(Kernel kernel, int threads, std::size_t bytes, const char* name) {
  int device = 0, per_multiprocessor = 0, multiprocessors = 0;
  check_cuda(cudaGetDevice(&device), name, __FILE__, __LINE__);
  allow_shared_memory(kernel, bytes, name);
  check_cuda(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, threads, bytes),
      name, __FILE__, __LINE__);
  check_cuda(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device), name,
             __FILE__, __LINE__);
  return Index(std::max(per_multiprocessor, 1)) * Index(multiprocessors);
}

/// Sets the kernel's dynamic shared memory (opting in above 48 KiB) and launches it.
template <class Kernel, class... Arguments>
void launch_with_shared_memory(Kernel kernel, Index blocks, int threads, std::size_t bytes,
                               const char* name, const LaunchLimits& limits,
                               const Arguments&... arguments) {
  allow_shared_memory(kernel, bytes, name);
  kernel<<<static_cast<unsigned>(blocks), threads, bytes, limits.stream>>>(arguments...);
  check_cuda(cudaGetLastError(), name, __FILE__, __LINE__);
}

/// Whether a launch's items, whose largest table has `rows` rows, have enough points on average
/// for the tensor-core tables (min_tensor_points_per_item, or per_small_item); choose_tiling then
/// decides by the rows.
inline bool enough_points_for_tensor_cores(GlobalIndex total_points, Index items, int rows) {
  const int least = rows <= small_tensor_table_rows ? min_tensor_points_per_small_item
                                                    : min_tensor_points_per_item;
  return total_points >= GlobalIndex(least) * GlobalIndex(items);
}

/// Items whose (tile, group) units one warp covers in one pass go one per warp; larger ones one
/// per block. The choice, like the batch size, leaves the sums unchanged (same G, same order).
inline bool fits_one_warp(const Tiling& tiling) {
  return tiling.tile_rows != 8 && tiling.tiles * tiling.groups <= 32;
}

/// Whether the current device has FP64 tensor cores (compute capability 8.0 and above).
inline bool device_has_fp64_tensor_cores(const char* name) {
  int device = 0, major = 0;
  check_cuda(cudaGetDevice(&device), name, __FILE__, __LINE__);
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), name,
             __FILE__, __LINE__);
  return major >= 8;
}

/// A tiled launch's shared memory besides its points' records: the function codes and the
/// tensor-core tables' sums (doubles), and a point's test and trial tables (Reals), for tables
/// of at most max_rows × max_columns in tiles of tile_rows × tile_columns (8 × 8: tensor cores).
struct TiledTableLayout {
  int code_doubles, accumulator_doubles, table_size;
};
inline TiledTableLayout tiled_table_layout(int components, int max_rows, int max_columns,
                                           int tile_rows, int tile_columns) {
  const bool tensor = tile_rows == 8 && tile_columns == 8;
  const int padded_rows = tiles_of(max_rows, tile_rows) * tile_rows;
  const int padded_columns = tiles_of(max_columns, tile_columns) * tile_columns;
  TiledTableLayout layout{};
  // Tensor-core tables: Kp components, rows strided by the padded size + 4 (sum_tiled_points).
  layout.table_size =
      tensor ? padded_tensor_components(components) * (padded_rows + padded_columns + 8)
             : components * (padded_rows + padded_columns);
  layout.code_doubles = (std::max(padded_rows, padded_columns) + 1) / 2;
  // Tensor-core tables: two sums per lane and tile of 8 × 8.
  layout.accumulator_doubles = tensor ? 64 * tiles_of(max_rows, 8) * tiles_of(max_columns, 8) : 0;
  return layout;
}

/// Whether double tensor-core tables of at most max_rows × max_columns (records of record_size
/// doubles) fit `block_bytes` of shared memory per block with the least batch, one MMA step's
/// points with their records double-buffered. A P_5 interface's sums alone take 100 KB: more
/// than an sm_86 / sm_89 device allows a block (99 KB), so there its tables take the FMA tiles
/// (on sm_90, 227 KB, they fit). launch_tiled_points asks with max_rows + 1 columns,
/// the widest table of the rows, so that the choice stays one of the rows alone.
inline bool tensor_tables_fit(int components, int max_rows, int max_columns, int record_size,
                              std::size_t block_bytes) {
  const TiledTableLayout layout = tiled_table_layout(components, max_rows, max_columns, 8, 8);
  const int step_points = 4 / padded_tensor_components(components);
  const std::size_t bytes =
      std::size_t(layout.code_doubles + layout.accumulator_doubles) * sizeof(double) +
      std::size_t(step_points) * std::size_t(2 * record_size + layout.table_size) * sizeof(double);
  return bytes <= block_bytes;
}

template <class Launch, int TR, int TC>
void launch_tiled_kernel(const Launch& launch, Index items, const Tiling& tiling, int max_rows,
                         int max_columns, int record_size, GlobalIndex max_points,
                         GlobalIndex total_points, const char* name, const LaunchLimits& limits) {
  using Real = typename Launch::Real;
  constexpr bool tensor = tensor_tiles<TR, TC>;
  // No table with 4 × 8 or tensor-core tiles fits one warp: their warp kernels are not
  // instantiated.
  constexpr bool warp_capable = TR == TC && !tensor;
  const bool per_warp = warp_capable && limits.small_items_per_warp && fits_one_warp(tiling);
  auto* block_kernel = tiled_point_kernel<Launch, TR, TC>;
  const int unit_threads =
      tensor ? 32 * tensor_warps(tiling.tiles) : (tiling.tiles * tiling.groups + 31) / 32 * 32;
  // A block team with a producer warp (the units' warps, as many as fit, and one more) where a
  // typical item has several batches of points to overlap, or where the blocks are persistent
  // and the producer works for the next item during an item's last batch.
  // The block kernel's threads: the caller's limit, within the kernel's launch bound.
  const int most_threads = std::min(limits.max_threads, block_thread_bound<TR, TC>);
  const bool can_overlap = !per_warp && limits.overlap_point_evaluation && most_threads >= 64;
  const bool persistent = can_overlap && limits.persistent_blocks && tiling.groups == 1;
  const bool overlap =
      persistent ||
      (can_overlap && total_points >= GlobalIndex(limits.overlap_min_mean_points) * items);
  const int producers = overlap ? 32 : 0;
  const int threads = per_warp  ? std::min(limits.max_threads, max_warp_team_threads)
                      : overlap ? std::min(unit_threads, most_threads - producers) + producers
                                : std::min(std::max(64, unit_threads), most_threads);
  const int teams = per_warp ? threads / 32 : 1;
  TiledPointSizes sizes{};
  sizes.groups = tiling.groups;
  sizes.record_size = record_size;
  const TiledTableLayout layout =
      tiled_table_layout(Launch::components, max_rows, max_columns, TR, TC);
  sizes.table_size = layout.table_size;
  sizes.producer_threads = producers;
  sizes.code_doubles = layout.code_doubles;
  sizes.accumulator_doubles = layout.accumulator_doubles;
  // Per point: its record (two buffers when overlapping) and its tables.
  const std::size_t slot_bytes =
      std::size_t((overlap ? 2 : 1) * record_size + sizes.table_size) * sizeof(Real);
  const std::size_t code_bytes =
      std::size_t(sizes.code_doubles + sizes.accumulator_doubles) * sizeof(double);
  std::size_t budget = 0;
  if constexpr (warp_capable)
    if (per_warp)
      budget = shared_bytes_without_occupancy_loss(tiled_point_warp_kernel<Launch, TR, TC>, threads,
                                                   name);
  if (!per_warp) budget = shared_bytes_without_occupancy_loss(block_kernel, threads, name);
  // The limit is for the point batches: tensor-core tables' sums come on top (a P_5 interface's
  // 100 KB would leave a few points per batch under the default limit).
  const std::size_t accumulator_bytes = std::size_t(sizes.accumulator_doubles) * sizeof(double);
  budget = std::min(std::size_t(limits.max_shared_bytes) + accumulator_bytes, budget) /
           std::size_t(teams);
  // Overlapping, a batch is at most one point per producer: its evaluation is one round of the
  // producer warp, hidden behind the batch's products.
  sizes.batch = int(std::clamp<GlobalIndex>(
      GlobalIndex(budget > code_bytes ? (budget - code_bytes) / slot_bytes : 0), 1,
      std::max<GlobalIndex>(1,
                            overlap ? std::min<GlobalIndex>(producers, max_points) : max_points)));
  // Tensor-core tables: whole MMAs per batch (two points each where K = 2).
  constexpr int step_points = tensor ? 4 / tensor_components<Launch::components> : 1;
  sizes.batch = std::max(step_points, sizes.batch / step_points * step_points);
  // The partial sums of the point groups reuse the records after the last batch: one register
  // tile per unit of a pass.
  const int units_per_pass = per_warp ? 32 : threads;
  const std::size_t partial_bytes =
      tiling.groups > 1 ? std::size_t(units_per_pass) * TR * TC * sizeof(Real) : 0;
  const std::size_t team_bytes =
      (code_bytes + std::max(std::size_t(sizes.batch) * slot_bytes, partial_bytes) + 7) / 8 * 8;
  sizes.team_doubles = int(team_bytes / sizeof(double));
  const std::size_t bytes = team_bytes * std::size_t(teams);
  Index blocks = per_warp ? (items + teams - 1) / teams : items;
  if (persistent)
    blocks =
        std::min<Index>({items, resident_blocks(block_kernel, threads, bytes, name),
                         limits.max_persistent_blocks > 0 ? limits.max_persistent_blocks : items});
  if (std::getenv("POLYDG_TRACE_LAUNCHES"))
    std::fprintf(stderr,
                 "%s: %d items (%.1f points each), %d blocks of %d threads (%s%s), tile %dx%d, "
                 "%d point groups, batch %d, %zu bytes%s\n",
                 name, int(items), double(total_points) / double(items), int(blocks), threads,
                 per_warp     ? "one item per warp"
                 : persistent ? "persistent blocks"
                              : "one item per block",
                 overlap ? ", a producer warp" : "", TR, TC, sizes.groups, sizes.batch, bytes,
                 tensor ? ", FP64 tensor cores" : "");
  if constexpr (warp_capable)
    if (per_warp)
      return launch_with_shared_memory(tiled_point_warp_kernel<Launch, TR, TC>, blocks, threads,
                                       bytes, name, limits, launch, sizes, items);
  launch_with_shared_memory(block_kernel, blocks, threads, bytes, name, limits, launch, sizes,
                            items);
}

/// Raises, naming the launch, when an item's max_points points (and `headroom` more, which a
/// kernel's indices may reach) do not fit in Index: the kernels count an item's points in Index.
inline void require_item_points_fit(GlobalIndex max_points, int headroom, const char* name) {
  const GlobalIndex most = GlobalIndex(std::numeric_limits<Index>::max()) - headroom;
  if (max_points > most)
    raise(name, ": an item has ", max_points, " quadrature points, more than ", most,
          " (split the element into smaller ones)");
}

/// Sums the tables of `launch`'s items 0..items−1, which have at most max_rows × max_columns
/// outputs, records of record_size Reals, at most max_points points each and total_points in
/// all. `name` appears in errors.
template <class Launch>
void launch_tiled_points(const Launch& launch, Index items, int max_rows, int max_columns,
                         int record_size, GlobalIndex max_points, GlobalIndex total_points,
                         const char* name, const LaunchLimits& limits) {
  if (items <= 0 || max_rows <= 0 || max_columns <= 0) return;
  if (limits.max_threads < 32 || limits.max_threads > max_block_threads ||
      limits.max_threads % 32 != 0)
    raise(name, ": ", limits.max_threads, " threads per block (a multiple of 32 up to ",
          max_block_threads, " is needed)");
  require_item_points_fit(max_points, 0, name);
  if (limits.small_items_per_thread && fits_one_thread(max_rows, max_columns, record_size))
    return launch_thread_items(launch, items, max_rows, max_columns, record_size, total_points,
                               limits.max_threads, limits.stream, name);
  using Real = typename Launch::Real;
  constexpr bool tensor_capable =
      std::is_same_v<Real, double> && Launch::components <= 4 && Launch::tensor_tables;
  const Tiling tiling =
      choose_tiling(max_rows, max_columns,
                    tensor_capable && limits.tensor_cores &&
                        enough_points_for_tensor_cores(total_points, items, max_rows) &&
                        device_has_fp64_tensor_cores(name) &&
                        tensor_tables_fit(Launch::components, max_rows, max_rows + 1, record_size,
                                          largest_block_shared_bytes(name)));
  if constexpr (tensor_capable)
    if (tiling.tile_rows == 8) {
      if (limits.tensor_core_launches) ++*limits.tensor_core_launches;
      return launch_tiled_kernel<Launch, 8, 8>(launch, items, tiling, max_rows, max_columns,
                                               record_size, max_points, total_points, name, limits);
    }
  if (tiling.tile_columns == 8)
    launch_tiled_kernel<Launch, 4, 8>(launch, items, tiling, max_rows, max_columns, record_size,
                                      max_points, total_points, name, limits);
  else if (tiling.tile_rows == 4)
    launch_tiled_kernel<Launch, 4, 4>(launch, items, tiling, max_rows, max_columns, record_size,
                                      max_points, total_points, name, limits);
  else
    launch_tiled_kernel<Launch, 2, 2>(launch, items, tiling, max_rows, max_columns, record_size,
                                      max_points, total_points, name, limits);
}

}  // namespace polydg::device::detail
