#pragma once
// The schedule of the rhs launches: tables of rows × 1, the rhs column alone (the element source,
// the boundary data, the previous slab's data), for tables too large for one thread
// (launch_rhs_points; P_1 stays one item per thread). Every rhs goes through launch_rhs_points,
// also in an assembly of matrix and rhs together (the matrix launches then have no rhs column),
// so the rhs has the same bits whether or not the matrix is assembled with it.
//
// One warp per item. Its lanes take the item's points 32 at a time (a batch), one each: lane m
// evaluates point 32 t + m into its record (Launch::evaluate_point; its own slot of shared
// memory, as thread_item_kernel.cuh) and the point's trial vector of the rhs column. Then, for
// each chunk of 32 rows, it forms the 32 rows' test vectors and their products with its trial
// vector, and a transposing reduction (31 exchanges; sum_rows_across_lanes) leaves row 32 c + m's
// sum over the batch on lane m, which adds it to the item's running sum of that row. No lane
// reads another's shared memory: no barriers. A batch whose trial vectors are all zero (points
// with no data term, e.g. a slab's bottom facets in the boundary launch) is skipped.
//
// Sums: row i's is initial + ((0 + S_0) + S_1 + …), S_t batch t's sum of its lanes' products
// (components in increasing order), added in sum_rows_across_lanes' fixed order; lanes past the
// last point add exact zeros. Nothing the caller chooses changes it: the same bits on every run
// and launch configuration.
//
// Why not the tiled schedule (tiled_point_schedule.cuh): with one column its products kept a
// third of a warp's lanes busy at P_3, and each point's test tables went through shared memory,
// so the rhs and the previous slab term cost a large fraction of the matrix's time.
//
// Launch: the interface of tiled_point_schedule.cuh, for a table whose one column (u = 0) is the
// rhs: evaluate_function with trial (and no test) gives that column's trial vector, with test
// (and no trial) row u's test vector. LaunchLimits: max_threads and max_shared_bytes bound the
// warps per block, but a block has at least one warp and its 32 records.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "polydg/core/types.hpp"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/dg/tiled_point_schedule.cuh"

namespace polydg::device::detail {

/// Warps (items) per block of the rhs kernel.
inline constexpr int vector_item_warps = 4;

/// One step of sum_rows_across_lanes: the rows v[0 .. 2 Offset) become v[0 .. Offset), the
/// lane with bit Offset set keeping the upper half (its own plus its partner's), the other lane
/// the lower half. (A template, so that every index is a constant and v stays in registers.)
template <int Offset, class Real>
__device__ inline void halve_rows_across_lanes(Real (&v)[32], int lane) {
  const bool upper = (lane & Offset) != 0;
#pragma unroll
  for (int j = 0; j < Offset; ++j) {
    const Real send = upper ? v[j] : v[j + Offset];
    const Real keep = upper ? v[j + Offset] : v[j];
    v[j] = keep + __shfl_xor_sync(0xffffffffu, send, Offset);
  }
}

/// v[j] on each lane holds its part of row j's sum (j < 32); afterwards lane m's v[0] is row
/// m's sum over the 32 lanes: 31 exchanges for 32 sums, where a butterfly per row would take
/// 160.
template <class Real>
__device__ inline void sum_rows_across_lanes(Real (&v)[32], int lane) {
  halve_rows_across_lanes<16>(v, lane);
  halve_rows_across_lanes<8>(v, lane);
  halve_rows_across_lanes<4>(v, lane);
  halve_rows_across_lanes<2>(v, lane);
  halve_rows_across_lanes<1>(v, lane);
}

/// Item b = blockIdx.x · (blockDim.x / 32) + warp. A warp's shared memory: 32 records of
/// record_stride Reals (odd: the lanes' slots fall in different banks), then row_slots running
/// sums.
template <class Launch>
__global__ void __launch_bounds__(32 * vector_item_warps)
    vector_point_kernel(Launch launch, int record_stride, int row_slots, Index items) {
  using Real = typename Launch::Real;
  constexpr int K = Launch::components;
  extern __shared__ double shared_storage[];
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const Index b = Index(blockIdx.x) * Index(blockDim.x / 32) + warp;
  if (b >= items) return;  // the whole warp
  Real* team = reinterpret_cast<Real*>(shared_storage) + warp * (32 * record_stride + row_slots);
  Real* record = team + lane * record_stride;
  Real* sums = team + 32 * record_stride;
  const typename Launch::Item item = launch.item(b);
  const int rows = launch.rows(item);
  const Index points = launch.point_count(item);
  for (int u = lane; u < row_slots; u += 32) sums[u] = Real(0);
  for (Index first = 0; first < points; first += 32) {
    const bool has_point = first + lane < points;
    Real trial[K];
#pragma unroll
    for (int c = 0; c < K; ++c) trial[c] = Real(0);
    if (has_point) {
      launch.evaluate_point(item, first + lane, record);
      launch.evaluate_function(item, record, 0, 0, nullptr, 0, trial, 1);
    }
    bool acts = false;
#pragma unroll
    for (int c = 0; c < K; ++c) acts = acts || trial[c] != Real(0);
    if (!__any_sync(0xffffffffu, acts)) continue;
    for (int chunk = 0; chunk * 32 < rows; ++chunk) {
      Real v[32];
#pragma unroll
      for (int j = 0; j < 32; ++j) {
        const int u = chunk * 32 + j;
        v[j] = Real(0);
        if (u < rows && has_point) {
          Real test[K];
          launch.evaluate_function(item, record, u, launch.function_code(item, u), test, 1, nullptr,
                                   0);
#pragma unroll
          for (int c = 0; c < K; ++c) v[j] += test[c] * trial[c];
        }
      }
      sum_rows_across_lanes(v, lane);
      sums[chunk * 32 + lane] += v[0];
    }
  }
  for (int u = lane; u < rows; u += 32)
    launch.store(item, u, 0, launch.initial(item, u, 0) + sums[u]);
}

/// Sums the rhs columns of `launch`'s items 0..items−1 (at most max_rows rows, records of
/// record_size Reals). `name` appears in errors. Asynchronous on limits.stream.
template <class Launch>
void launch_vector_points(const Launch& launch, Index items, int max_rows, int record_size,
                          const char* name, const LaunchLimits& limits) {
  if (items <= 0 || max_rows <= 0) return;
  using Real = typename Launch::Real;
  const int record_stride = record_size | 1;
  const int row_slots = tiles_of(max_rows, 32) * 32;
  const std::size_t team_bytes = std::size_t(32 * record_stride + row_slots) * sizeof(Real);
  // As many warps per block as the caller's thread and shared memory limits allow (at least one).
  const int warps =
      std::clamp(std::min<int>(limits.max_threads / 32,
                               int(std::size_t(std::max(limits.max_shared_bytes, 0)) / team_bytes)),
                 1, vector_item_warps);
  const std::size_t bytes = team_bytes * std::size_t(warps);
  const Index blocks = (items + warps - 1) / warps;
  if (std::getenv("POLYDG_TRACE_LAUNCHES"))
    std::fprintf(stderr, "%s: %d items, rhs column, %d blocks of %d warps, %zu bytes\n", name,
                 int(items), int(blocks), warps, bytes);
  launch_with_shared_memory(vector_point_kernel<Launch>, blocks, 32 * warps, bytes, name, limits,
                            launch, record_stride, row_slots, items);
}

/// The rhs columns of `launch`'s items (at most max_rows rows, records of record_size Reals, at
/// most max_points points each, total_points in all): tables that fit one thread
/// (fits_one_thread: P_1) by thread_item_kernel.cuh through launch_tiled_points — with their
/// 4 rows and 18 points (P_1 slab elements) a warp each left most lanes idle —
/// and the others by vector_point_kernel. The choice depends on the tables alone, and the
/// tiled schedule's sums for them are the same in every configuration: the same bits either way.
template <class Launch>
void launch_rhs_points(const Launch& launch, Index items, int max_rows, int record_size,
                       GlobalIndex max_points, GlobalIndex total_points, const char* name,
                       const LaunchLimits& limits) {
  if (fits_one_thread(max_rows, 1, record_size))
    return launch_tiled_points(launch, items, max_rows, 1, record_size, max_points, total_points,
                               name, limits);
  require_item_points_fit(max_points, 32, name);  // a batch's lanes index up to 31 past the end
  launch_vector_points(launch, items, max_rows, record_size, name, limits);
}

}  // namespace polydg::device::detail
