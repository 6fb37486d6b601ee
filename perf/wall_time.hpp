#pragma once
// Wall-clock timing for the benchmarks' host-side measurements (GPU kernels are timed with CUDA
// events, cuda_event_timing.hpp): seconds since a steady-clock instant, and the median of
// repeated runs. Work that queues device work synchronizes inside `work` to be counted.
#include <algorithm>
#include <chrono>
#include <vector>

namespace polydg::bench {

using WallClock = std::chrono::steady_clock;

inline double seconds_since(WallClock::time_point start) {
  return std::chrono::duration<double>(WallClock::now() - start).count();
}

/// The median wall time of max(repeats, 1) calls of work() (the upper one of an even count).
template <class Work>
double median_seconds(int repeats, Work&& work) {
  std::vector<double> times(std::size_t(std::max(repeats, 1)));
  for (double& time : times) {
    const auto start = WallClock::now();
    work();
    time = seconds_since(start);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace polydg::bench
