#pragma once
// Checks a CUDA runtime call where it is made and turns a failure into polydg::Error naming the
// call, the source location and CUDA's reason.
#include <cuda_runtime.h>

#include "polydg/core/error.hpp"

namespace polydg::device::detail {
inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess)
    raise("CUDA error in ", call, " at ", file, ":", line, ": ", cudaGetErrorName(status), " (",
          cudaGetErrorString(status), ")");
}
}  // namespace polydg::device::detail

#define POLYDG_CUDA_CHECK(call) \
  ::polydg::device::detail::check_cuda((call), #call, __FILE__, __LINE__)
/// After a kernel launch: reports a bad launch configuration at once (not at the next sync).
#define POLYDG_CUDA_CHECK_LAUNCH(kernel_name)                                                  \
  ::polydg::device::detail::check_cuda(cudaGetLastError(), "launch of " kernel_name, __FILE__, \
                                       __LINE__)
