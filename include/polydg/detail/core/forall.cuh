#pragma once
// forall(n, body): runs body(i) for i in [0, n) on the device, one thread per index, and checks
// the launch. For pointwise work (MFEM's forall); hand-written kernels where tuning pays.
// `body` must be a __device__ (or __host__ __device__) lambda (nvcc --extended-lambda).
#include <cuda_runtime.h>

#include "polydg/core/types.hpp"
#include "polydg/detail/core/cuda_check.cuh"

namespace polydg::device {

template <class Body>
__global__ void forall_kernel(GlobalIndex n, Body body) {
  const GlobalIndex i = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) body(i);
}

template <class Body>
void forall(GlobalIndex n, Body body, cudaStream_t stream = nullptr) {
  if (n <= 0) return;
  constexpr int threads = 256;
  const GlobalIndex blocks = (n + threads - 1) / threads;
  forall_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(n, body);
  POLYDG_CUDA_CHECK_LAUNCH("forall_kernel");
}

}  // namespace polydg::device
