#pragma once
// The device solvers' wave-speed reduction, host side (DeviceExplicitTriangleDG,
// DeviceExplicitPolygonDG): the per-block partials that a kernel writes (partials(time)), the
// last pass over them into one result, and its 16-byte copy to the host, which the host waits
// for alone (an event after the copy), not for the work launched after it.
//
//   const int blocks = launch_kernel_writing(reduction.partials(t));
//   reduction.launch_finish(blocks);
//   launch(...);                                  // more work: not waited for below
//   const WaveSpeedResult result = reduction.wait();
#include <cuda_runtime.h>

#include <limits>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/core/device_event.cuh"
#include "polydg/detail/hyperbolic/device_explicit_kernels.cuh"

namespace polydg::hyperbolic::detail {

class WaveSpeedReduction {
 public:
  /// Room for the partials of up to `block_capacity` blocks.
  explicit WaveSpeedReduction(std::size_t block_capacity)
      : block_speed_(block_capacity),
        block_bad_point_(block_capacity),
        result_(1),
        result_host_(1) {}

  /// Where a kernel writes its blocks' partials, for coefficients at `time`.
  WaveSpeedPartials partials(double time) const {
    return {block_speed_.data(), block_bad_point_.data(), time, counted_elements_};
  }
  /// From now on the partials reduce only the elements below `elements` (a rank's owned ones).
  void count_first_elements(Index elements) { counted_elements_ = elements; }
  /// The last pass over the partials of `blocks` blocks and the copy of its result to the host;
  /// does not wait.
  void launch_finish(int blocks) const {
    finish_wave_speed_kernel<<<1, reduction_block_size>>>(
        block_speed_.data(), block_bad_point_.data(), blocks, result_.data());
    POLYDG_CUDA_CHECK_LAUNCH("finish_wave_speed_kernel");
    POLYDG_CUDA_CHECK(cudaMemcpyAsync(result_host_.data(), result_.data(), sizeof(WaveSpeedResult),
                                      cudaMemcpyDeviceToHost, nullptr));
    copied_.record(nullptr);
  }
  /// Waits for the last launch_finish's copy and returns its result.
  WaveSpeedResult wait() const {
    copied_.wait();
    return result_host_[0];
  }
  /// launch_finish, then wait.
  WaveSpeedResult finish(int blocks) const {
    launch_finish(blocks);
    return wait();
  }

 private:
  // Mutable: the solvers' const queries (max_wave_speed) reduce too, one at a time per object.
  mutable device::DeviceBuffer<double> block_speed_;
  mutable device::DeviceBuffer<long long> block_bad_point_;
  mutable device::DeviceBuffer<WaveSpeedResult> result_;
  mutable device::PinnedBuffer<WaveSpeedResult> result_host_;
  device::DeviceEvent copied_;
  Index counted_elements_ = std::numeric_limits<Index>::max();
};

}  // namespace polydg::hyperbolic::detail
