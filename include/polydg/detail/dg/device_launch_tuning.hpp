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

/// Each field sets the LaunchLimits field of the same meaning (tiled_point_schedule.cuh says
/// what each does), but the last, which DeviceAssembler itself reads.
struct LaunchTuning {
  int max_block_threads = detail::max_block_threads;      ///< LaunchLimits::max_threads
  int max_block_shared_bytes = point_batch_shared_bytes;  ///< LaunchLimits::max_shared_bytes
  bool small_items_per_thread = true;
  bool small_items_per_warp = true;
  bool overlap_point_evaluation = true;
  int overlap_min_mean_points = min_points_to_overlap;
  bool persistent_blocks = true;
  int max_persistent_blocks = 0;  ///< 0: as many as are resident
  bool tensor_cores = true;       ///< the one that changes the rounding (within 1e-13 of the CPU)
  /// In the deterministic mode, on meshes whose highest degree is at most this (−1: never), the
  /// interior-face kernels run on a second stream beside the element and boundary kernels (they
  /// write blocks of their own; the gather waits for all): it pays at P_1 only.
  int overlap_interior_faces_max_degree = 1;
};

}  // namespace polydg::device::detail
