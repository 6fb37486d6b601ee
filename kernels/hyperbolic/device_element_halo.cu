// CUDA implementation of DeviceElementHalo (polydg/cuda/device_element_halo.cuh): a gather and a
// scatter kernel, on pinned host memory (device-accessible under unified addressing), around
// ElementHalo's host exchange.
#include <cuda_runtime.h>

#include <span>

#include "polydg/cuda/device_element_halo.cuh"
#include "polydg/detail/core/cuda_check.cuh"

namespace polydg::hyperbolic {
namespace {

constexpr int threads_per_block = 256;

__global__ void gather_kernel(const double* __restrict__ u,
                              const std::size_t* __restrict__ positions, std::size_t count,
                              double* __restrict__ packed) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) packed[i] = u[positions[i]];
}

__global__ void scatter_kernel(const double* __restrict__ packed,
                               const std::size_t* __restrict__ positions, std::size_t count,
                               double* __restrict__ u) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) u[positions[i]] = packed[i];
}

unsigned blocks_for(std::size_t count) {
  return unsigned((count + threads_per_block - 1) / threads_per_block);
}

}  // namespace

DeviceElementHalo::DeviceElementHalo(const ElementHalo& halo, std::size_t values_per_element)
    : halo_(halo),
      values_per_element_(values_per_element),
      send_positions_(std::span<const std::size_t>(halo.send_positions(values_per_element))),
      receive_positions_(std::span<const std::size_t>(halo.receive_positions(values_per_element))),
      send_host_(send_positions_.size()),
      receive_host_(receive_positions_.size()) {}

void DeviceElementHalo::start(const double* u) const {
  // Also orders this gather after the last scatter, which read receive_host_: finish's wait
  // below covers both before MPI writes into it again.
  const std::size_t sent = send_positions_.size();
  if (sent > 0) {
    gather_kernel<<<blocks_for(sent), threads_per_block>>>(u, send_positions_.data(), sent,
                                                           send_host_.data());
    POLYDG_CUDA_CHECK_LAUNCH("DeviceElementHalo gather_kernel");
  }
  gathered_.record(nullptr);
}

void DeviceElementHalo::finish(double* u) const {
  // A rank without neighbours (one rank) has nothing to wait for: the host runs on ahead.
  if (halo_.neighbour_count() == 0) return;
  gathered_.wait();
  halo_.exchange_packed(send_host_.span(), receive_host_.span(), values_per_element_);
  const std::size_t received = receive_positions_.size();
  if (received > 0) {
    scatter_kernel<<<blocks_for(received), threads_per_block>>>(
        receive_host_.data(), receive_positions_.data(), received, u);
    POLYDG_CUDA_CHECK_LAUNCH("DeviceElementHalo scatter_kernel");
  }
}

}  // namespace polydg::hyperbolic
