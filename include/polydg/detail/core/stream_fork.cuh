#pragma once
// StreamFork: a second stream for work that may run beside a stream's own, ordered with it by
// events only where it must be.
//
//   fork.fork(stream);    // side() starts after everything enqueued on `stream` so far
//   launch(..., fork.side());
//   fork.join(stream);    // what `stream` enqueues next waits for the side's work
//
// The side stream is non-blocking: it keeps no implicit order with the legacy default stream,
// only the order of fork and join. Move-only; destroying it destroys the stream and events
// (after the work enqueued on them has completed: CUDA defers the release).
#include <cuda_runtime.h>

#include <utility>

#include "polydg/detail/core/cuda_check.cuh"

namespace polydg::device {

class StreamFork {
 public:
  StreamFork() {
    try {
      POLYDG_CUDA_CHECK(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking));
      POLYDG_CUDA_CHECK(cudaEventCreateWithFlags(&forked_, cudaEventDisableTiming));
      POLYDG_CUDA_CHECK(cudaEventCreateWithFlags(&joined_, cudaEventDisableTiming));
    } catch (...) {
      release();
      throw;
    }
  }
  StreamFork(const StreamFork&) = delete;
  StreamFork& operator=(const StreamFork&) = delete;
  StreamFork(StreamFork&& other) noexcept
      : side_(std::exchange(other.side_, nullptr)),
        forked_(std::exchange(other.forked_, nullptr)),
        joined_(std::exchange(other.joined_, nullptr)) {}
  StreamFork& operator=(StreamFork&& other) noexcept {
    std::swap(side_, other.side_);
    std::swap(forked_, other.forked_);
    std::swap(joined_, other.joined_);
    return *this;
  }
  ~StreamFork() { release(); }

  cudaStream_t side() const { return side_; }
  void fork(cudaStream_t stream) {
    POLYDG_CUDA_CHECK(cudaEventRecord(forked_, stream));
    POLYDG_CUDA_CHECK(cudaStreamWaitEvent(side_, forked_, 0));
  }
  void join(cudaStream_t stream) {
    POLYDG_CUDA_CHECK(cudaEventRecord(joined_, side_));
    POLYDG_CUDA_CHECK(cudaStreamWaitEvent(stream, joined_, 0));
  }

 private:
  void release() noexcept {
    if (joined_) cudaEventDestroy(joined_);
    if (forked_) cudaEventDestroy(forked_);
    if (side_) cudaStreamDestroy(side_);
    side_ = nullptr;
    forked_ = joined_ = nullptr;
  }

  cudaStream_t side_ = nullptr;
  cudaEvent_t forked_ = nullptr, joined_ = nullptr;
};

}  // namespace polydg::device
