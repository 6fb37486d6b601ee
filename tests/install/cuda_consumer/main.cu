// A user's .cu file against the installed headers: its own kernel through polydg::device::forall
// with a __device__ lambda, on a DeviceBuffer. Each #error / construct below fails to compile
// without one of the flags polydg::cuda (or polydg.pc's cuda_cflags) must carry.
#include <cstdio>
#include <span>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/detail/core/forall.cuh"

#if __cplusplus < 202002L
#error "C++20 is not enabled for CUDA sources (-std=c++20)"
#endif
#ifndef _OPENMP
#error "OpenMP is not enabled for the host code of CUDA sources (-Xcompiler=-fopenmp)"
#endif
#ifndef POLYDG_CUDA
#error "POLYDG_CUDA is not defined"
#endif

// A constexpr host function called on the device: needs --expt-relaxed-constexpr.
constexpr double twice(double x) { return 2 * x; }

int main() {
  if (polydg::device::device_count() == 0) {
    std::puts("no CUDA device: nothing to run");
    return 0;
  }
  const std::vector<double> host(1000, 1.5);
  polydg::device::DeviceBuffer<double> values{std::span<const double>(host)};
  double* data = values.data();
  // A __device__ lambda passed to a host function: needs --extended-lambda.
  polydg::device::forall(static_cast<polydg::GlobalIndex>(host.size()),
                         [=] __device__(polydg::GlobalIndex i) { data[i] = twice(data[i]) + i; });
  const std::vector<double> back = values.to_host();
  for (std::size_t i = 0; i < back.size(); ++i)
    if (back[i] != 3.0 + double(i)) return 1;
  std::puts("ok");
  return 0;
}
