#pragma once
// DeviceEvent: an owned CUDA event without timing, what a host thread waits on when it needs
// the work enqueued up to a point, not everything on the stream (cudaStreamSynchronize).
//
//   event.record(stream);   // after the copy the host needs
//   launch(..., stream);    // more work, which the host does not wait for
//   event.wait();           // returns once the copy (and all before it) is done
//
// Move-only; created on the current device.
#include <cuda_runtime.h>

#include <utility>

#include "polydg/detail/core/cuda_check.cuh"

namespace polydg::device {

class DeviceEvent {
 public:
  DeviceEvent() { POLYDG_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  DeviceEvent(const DeviceEvent&) = delete;
  DeviceEvent& operator=(const DeviceEvent&) = delete;
  DeviceEvent(DeviceEvent&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  DeviceEvent& operator=(DeviceEvent&& other) noexcept {
    std::swap(event_, other.event_);
    return *this;
  }
  ~DeviceEvent() {
    if (event_) cudaEventDestroy(event_);
  }

  void record(cudaStream_t stream) const { POLYDG_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  void wait() const { POLYDG_CUDA_CHECK(cudaEventSynchronize(event_)); }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace polydg::device
