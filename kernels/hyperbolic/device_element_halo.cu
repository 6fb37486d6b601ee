// CUDA implementation of DeviceElementHalo (polydg/cuda/device_element_halo.hpp): a gather and a
// scatter kernel around ElementHalo's host exchange.
#include <cuda_runtime.h>

#include <span>

#include "polydg/cuda/device_element_halo.hpp"
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
      send_(send_positions_.size()),
      receive_(receive_positions_.size()),
      send_host_(send_positions_.size()),
      receive_host_(receive_positions_.size()) {}

void DeviceElementHalo::exchange(double* u) const {
  const std::size_t sent = send_positions_.size(), received = receive_positions_.size();
  if (sent > 0) {
    gather_kernel<<<blocks_for(sent), threads_per_block>>>(u, send_positions_.data(), sent,
                                                           send_.data());
    POLYDG_CUDA_CHECK_LAUNCH("DeviceElementHalo gather_kernel");
    POLYDG_CUDA_CHECK(cudaMemcpyAsync(send_host_.data(), send_.data(), sent * sizeof(double),
                                      cudaMemcpyDeviceToHost, nullptr));
  }
  // The packed values on the host; also, the last exchange's copy out of receive_host_ is done
  // before MPI writes into it again.
  POLYDG_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  halo_.exchange_packed(send_host_.span(), receive_host_.span(), values_per_element_);
  if (received > 0) {
    POLYDG_CUDA_CHECK(cudaMemcpyAsync(receive_.data(), receive_host_.data(),
                                      received * sizeof(double), cudaMemcpyHostToDevice, nullptr));
    scatter_kernel<<<blocks_for(received), threads_per_block>>>(
        receive_.data(), receive_positions_.data(), received, u);
    POLYDG_CUDA_CHECK_LAUNCH("DeviceElementHalo scatter_kernel");
  }
}

}  // namespace polydg::hyperbolic
