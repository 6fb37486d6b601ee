#pragma once
// Benchmark helpers (bench_spmv, bench_ksp, bench_assembly, bench_slab_march): the median time
// of a piece of GPU work on the default stream, measured between CUDA events, after one warm-up
// run; the device's name for the tables and its description for the JSON's provenance.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bench_provenance.hpp"
#include "polydg/detail/core/cuda_check.cuh"

namespace polydg::bench {

/// "NVIDIA H100 80GB HBM3" etc. (device 0), or "no GPU".
inline std::string device_name() {
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) return "no GPU";
  return properties.name;
}

/// Device 0 as a JSON object, the "device" of provenance_json() for every GPU benchmark: name,
/// compute capability, multiprocessors, peak clock, memory, and the CUDA driver and runtime
/// versions (as cudaDriverGetVersion gives them: 12040 is 12.4); "null" where there is no GPU.
inline std::string device_json() {
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) return "null";
  // The clock from the attribute: CUDA 13 removed cudaDeviceProp::clockRate.
  int kilohertz = 0, multiprocessors = 0, driver = 0, runtime = 0;
  POLYDG_CUDA_CHECK(cudaDeviceGetAttribute(&kilohertz, cudaDevAttrClockRate, 0));
  POLYDG_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0));
  POLYDG_CUDA_CHECK(cudaDriverGetVersion(&driver));
  POLYDG_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  return "{\"name\": " + json_string(properties.name) + ", \"compute_capability\": \"" +
         std::to_string(properties.major) + "." + std::to_string(properties.minor) +
         "\", \"multiprocessors\": " + std::to_string(multiprocessors) +
         ", \"clock_mhz\": " + std::to_string(kilohertz * 1e-3) + ", \"memory_gib\": " +
         std::to_string(double(properties.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0)) +
         ", \"driver_version\": " + std::to_string(driver) +
         ", \"runtime_version\": " + std::to_string(runtime) + "}";
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
