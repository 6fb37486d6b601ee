#pragma once
// The launch configuration of the GPU assembly kernels that a caller may tune: internal (tests
// and benchmarks set it to cover every schedule; a user has no reason to). No setting changes
// the results, bit for bit in the deterministic write mode, but tensor_cores (the same terms
// summed four at a time). Plain C++: DeviceAssemblyOptions holds one (device_assembler.hpp).
namespace polydg::device::detail {

inline constexpr int max_block_threads = 512;
/// The most shared memory per block for the point batches by default (opting in above 48 KiB);
/// a launch takes less where more would cost resident blocks (launch_tiled_kernel).
inline constexpr int point_batch_shared_bytes = 128 * 1024;
/// The producer warp is used where the items have at least this many points on average: two
/// batches (docs/performance.md, "Assembly: the paper's Table 2 setting", "What bounds it").
inline constexpr int min_points_to_overlap = 64;

struct LaunchTuning {
  /// Most threads per block of the quadrature kernels (a multiple of 32, ≤ 512; a launch takes
  /// what its table needs).
  int max_block_threads = detail::max_block_threads;
  /// Most shared memory per block for the point batches (LaunchLimits::max_shared_bytes).
  int max_block_shared_bytes = point_batch_shared_bytes;
  /// Items whose tables fit one thread's registers one per thread
  /// (LaunchLimits::small_items_per_thread); false: as the next option says.
  bool small_items_per_thread = true;
  /// Items with small tables (P_1, P_2) one per warp rather than one per block
  /// (LaunchLimits::small_items_per_warp).
  bool small_items_per_warp = true;
  /// Items one per block get a producer warp that evaluates the next batch of quadrature
  /// points while the others multiply (LaunchLimits::overlap_point_evaluation) ...
  bool overlap_point_evaluation = true;
  /// ... where a launch's items have at least this many points on average (0: always).
  int overlap_min_mean_points = min_points_to_overlap;
  /// One-item-per-block launches keep as many blocks as are resident, each taking items in
  /// turn (LaunchLimits::persistent_blocks) ...
  bool persistent_blocks = true;
  /// ... at most this many of them (0: as many as are resident; a few: each block takes many
  /// items, as on a large mesh — for tests).
  int max_persistent_blocks = 0;
  /// Double-precision tables too large for a warp and small enough for a few warps' registers,
  /// whose items have enough points, are multiplied on the FP64 tensor cores where the device
  /// has them (LaunchLimits::tensor_cores). The one setting that changes the rounding (within
  /// 1e-13 of the CPU either way in the tests).
  bool tensor_cores = true;
  /// In the deterministic mode, on meshes whose highest degree is at most this (−1: never), the
  /// interior-face kernels run on a second stream beside the element and boundary kernels (they
  /// write blocks of their own; the gather waits for all). Faster at P_1 only
  /// (docs/performance.md, "Assembly: the paper's Table 2 setting", "What bounds it").
  int overlap_interior_faces_max_degree = 1;
};

}  // namespace polydg::device::detail
