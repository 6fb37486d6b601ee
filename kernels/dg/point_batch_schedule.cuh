#pragma once
// The schedule every assembly kernel shares: one thread block per item (an element, an
// interface, an element's boundary), whose outputs — the entries of the blocks and rhs
// segments the item writes — are sums over the item's quadrature points.
//
// Outputs are dealt to the threads (output o belongs to thread o mod blockDim, at most
// max_outputs_per_thread per thread and pass, accumulated in registers; an item with more
// outputs than one pass holds is done in several passes over its points). Points are taken in
// batches: thread t evaluates point t of the batch (map, weight, coefficients, basis) into its
// slot of shared memory; after a barrier every thread adds the batch's points to its outputs
// in point order. So each output is a sum in the fixed point order, starting from
// launch.initial — the same bits on every run and launch; determinism across items is the
// caller's (each output has one item, or an ordered gather follows).
//
// A Launch (trivially copyable, the kernel's parameter: views and pointers; Launch::Real the
// precision of the values, the slots and the sums) provides, for the
// per-block state Item = launch.item(blockIdx.x) (the item's index, sizes and offsets):
//   int outputs(const Item&) const;         GlobalIndex point_count(const Item&) const;
//   Output output(const Item&, int o) const;   (o decoded once per pass, kept in registers)
//   Real initial(const Item&, const Output&) const;
//   void evaluate(const Item&, GlobalIndex k, Real* slot) const;   (point k into its slot)
//   Real term(const Item&, const Output&, const Real* slot) const;  (a point's share)
//   void store(const Item&, const Output&, Real) const;
#include <cuda_runtime.h>

#include <algorithm>

#include "core/cuda_check.cuh"
#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"

namespace polydg::device::detail {

inline constexpr int max_outputs_per_thread = 8;
inline constexpr int max_block_threads = 256;
/// Shared memory per block for the point batches by default: under the 48 KiB a block gets
/// without opting in (LaunchLimits::max_shared_bytes raises it).
inline constexpr int point_batch_shared_bytes = 40 * 1024;

template <class Launch, class Item>
__device__ void sum_over_points(const Launch& launch, const Item& item, int batch, int slot_size,
                                typename Launch::Real* shared) {
  using Real = typename Launch::Real;
  using Output = decltype(launch.output(item, 0));
  const int outputs = launch.outputs(item);
  const GlobalIndex point_count = launch.point_count(item);
  const int threads = int(blockDim.x);
  const int t = int(threadIdx.x);
  for (int pass = 0; pass < outputs; pass += threads * max_outputs_per_thread) {
    Output output[max_outputs_per_thread];
    Real sum[max_outputs_per_thread];
#pragma unroll
    for (int k = 0; k < max_outputs_per_thread; ++k) {
      const int o = pass + t + k * threads;
      output[k] = launch.output(item, o < outputs ? o : 0);
      sum[k] = o < outputs ? launch.initial(item, output[k]) : Real(0);
    }
    for (GlobalIndex first = 0; first < point_count; first += batch) {
      const int count = int(point_count - first < batch ? point_count - first : batch);
      __syncthreads();  // every thread is done with the previous batch
      if (t < count) launch.evaluate(item, first + t, shared + t * slot_size);
      __syncthreads();
      for (int m = 0; m < count; ++m) {
        const Real* slot = shared + m * slot_size;
#pragma unroll
        for (int k = 0; k < max_outputs_per_thread; ++k)
          if (pass + t + k * threads < outputs) sum[k] += launch.term(item, output[k], slot);
      }
    }
#pragma unroll
    for (int k = 0; k < max_outputs_per_thread; ++k)
      if (pass + t + k * threads < outputs) launch.store(item, output[k], sum[k]);
  }
}

template <class Launch>
__global__ void __launch_bounds__(max_block_threads)
    point_batch_kernel(Launch launch, int batch, int slot_size) {
  extern __shared__ double shared_storage[];  // double: aligned for either precision
  sum_over_points(launch, launch.item(Index(blockIdx.x)), batch, slot_size,
                  reinterpret_cast<typename Launch::Real*>(shared_storage));
}

/// The launch configuration the caller may choose (the results do not depend on it).
struct LaunchLimits {
  int max_threads = max_block_threads;  ///< a multiple of 32, at most max_block_threads
  cudaStream_t stream = nullptr;
  /// Most shared memory per block for the point batches; above 48 KiB the kernel opts in (up to
  /// the device's cudaDevAttrMaxSharedMemoryPerBlockOptin). Larger batches mean fewer
  /// evaluation phases in which few threads evaluate points (large slots, high p), at some
  /// occupancy: on an H100, 100 KiB made 2D+1 slab re-assembly 1.14 / 1.24 / 1.58× faster at
  /// p = 3 / 4 / 5 and 1.15× slower at p = 2 (docs/performance.md).
  int max_shared_bytes = point_batch_shared_bytes;
};

/// Launches `blocks` blocks of `launch`: threads for up to `max_outputs` outputs per block (one
/// per output up to limits.max_threads), batches as large as the threads, the shared budget
/// and `max_points` allow. `name` appears in errors.
template <class Launch>
void launch_point_batches(const Launch& launch, Index blocks, int max_outputs, int slot_size,
                          GlobalIndex max_points, const char* name, const LaunchLimits& limits) {
  if (blocks <= 0 || max_outputs <= 0) return;
  if (limits.max_threads < 32 || limits.max_threads > max_block_threads ||
      limits.max_threads % 32 != 0)
    raise(name, ": ", limits.max_threads, " threads per block (a multiple of 32 up to ",
          max_block_threads, " is needed)");
  const int threads = std::min(limits.max_threads, (max_outputs + 31) / 32 * 32);
  const int slot_bytes = slot_size * int(sizeof(typename Launch::Real));
  const int batch = int(std::max<GlobalIndex>(
      1, std::min<GlobalIndex>({GlobalIndex(threads),
                                GlobalIndex(limits.max_shared_bytes / slot_bytes), max_points})));
  const int bytes = batch * slot_bytes;
  if (bytes > 48 * 1024) {
    int device = 0, most = 48 * 1024;
    check_cuda(cudaGetDevice(&device), name, __FILE__, __LINE__);
    check_cuda(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), name,
               __FILE__, __LINE__);
    if (bytes > most)
      raise(name, ": ", bytes, " bytes of shared memory per block (a batch of ", batch,
            " points of ", slot_bytes, " bytes) but the device allows ", most);
    check_cuda(cudaFuncSetAttribute(point_batch_kernel<Launch>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
               name, __FILE__, __LINE__);
  }
  point_batch_kernel<Launch>
      <<<static_cast<unsigned>(blocks), threads, std::size_t(bytes), limits.stream>>>(launch, batch,
                                                                                      slot_size);
  check_cuda(cudaGetLastError(), name, __FILE__, __LINE__);
}

}  // namespace polydg::device::detail
