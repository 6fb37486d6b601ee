#pragma once
// Benchmark helpers (bench_spmv, bench_ksp, bench_assembly, bench_slab_march): the median time
// of a piece of GPU work on the default stream, measured between CUDA events, after one warm-up
// run; the device's name for the tables.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "polydg/detail/core/cuda_check.cuh"

namespace polydg::bench {

/// "NVIDIA H100 80GB HBM3" etc. (device 0), or "no GPU".
inline std::string device_name() {
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) return "no GPU";
  return properties.name;
}

/// Median milliseconds of max(repeats, 1) runs of work(), after one warm-up.
template <class Work>
double median_event_ms(int repeats, Work&& work) {
  cudaEvent_t start, stop;
  POLYDG_CUDA_CHECK(cudaEventCreate(&start));
  POLYDG_CUDA_CHECK(cudaEventCreate(&stop));
  work();
  std::vector<double> times;
  for (int r = 0; r < std::max(repeats, 1); ++r) {
    POLYDG_CUDA_CHECK(cudaEventRecord(start));
    work();
    POLYDG_CUDA_CHECK(cudaEventRecord(stop));
    POLYDG_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    POLYDG_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace polydg::bench
