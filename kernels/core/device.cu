// CUDA implementation of the device-memory layer declared in polydg/core/device_buffer.hpp.
#include <cuda_runtime.h>

#include "cuda_check.cuh"
#include "polydg/core/device_buffer.hpp"

namespace polydg::device {

bool compiled_with_cuda() { return true; }

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error so later calls are unaffected
    return 0;
  }
  return count;
}

void* allocate(std::size_t bytes) {
  void* pointer = nullptr;
  cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status != cudaSuccess) {
    cudaGetLastError();
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    cudaGetLastError();
    raise("CUDA error in cudaMalloc of ", bytes, " bytes (", bytes / 1048576.0, " MiB; ",
          free_bytes / 1048576.0, " MiB free of ", total_bytes / 1048576.0,
          " MiB on the device): ", cudaGetErrorName(status), " (", cudaGetErrorString(status), ")");
  }
  return pointer;
}

void deallocate(void* pointer) noexcept {
  if (pointer) cudaFree(pointer);
}

void* allocate_pinned(std::size_t bytes) {
  void* pointer = nullptr;
  cudaError_t status = cudaMallocHost(&pointer, bytes);
  if (status != cudaSuccess) {
    cudaGetLastError();
    raise("CUDA error in cudaMallocHost of ", bytes, " bytes (", bytes / 1048576.0,
          " MiB of pinned host memory): ", cudaGetErrorName(status), " (",
          cudaGetErrorString(status), ")");
  }
  return pointer;
}

void deallocate_pinned(void* pointer) noexcept {
  if (pointer) cudaFreeHost(pointer);
}

void copy_host_to_device(void* destination, const void* source, std::size_t bytes) {
  POLYDG_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyHostToDevice));
}
void copy_device_to_host(void* destination, const void* source, std::size_t bytes) {
  POLYDG_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToHost));
}
void copy_device_to_device(void* destination, const void* source, std::size_t bytes) {
  POLYDG_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToDevice));
}
void fill_zero(void* destination, std::size_t bytes) {
  POLYDG_CUDA_CHECK(cudaMemsetAsync(destination, 0, bytes));
}
void synchronize() { POLYDG_CUDA_CHECK(cudaDeviceSynchronize()); }

}  // namespace polydg::device
