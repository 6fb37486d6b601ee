#pragma once
// Shared scaffolding of the gpu-labelled tests (plain mains, no Boost.Test: nvcc compiles them):
// a check macro that counts failures, and the exit codes ctest understands.
#include <cstdio>

#include "polydg/core/device_buffer.hpp"

namespace polydg::testing {

/// Exit code that ctest reports as "Skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt).
inline constexpr int skipped_exit_code = 77;

inline int& gpu_test_failures() {
  static int failures = 0;
  return failures;
}

/// True (after printing why) when there is no CUDA device: the test should return
/// skipped_exit_code.
inline bool no_cuda_device() {
  if (device::device_count() > 0) return false;
  std::puts("no CUDA device: test skipped");
  return true;
}

/// Prints the verdict and returns the process exit code.
inline int gpu_test_result() {
  std::printf("%s (%d failed checks)\n", gpu_test_failures() ? "FAILED" : "passed",
              gpu_test_failures());
  return gpu_test_failures() ? 1 : 0;
}

}  // namespace polydg::testing

#define POLYDG_GPU_CHECK(condition)                                                      \
  do {                                                                                   \
    if (!(condition)) {                                                                  \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++::polydg::testing::gpu_test_failures();                                          \
    }                                                                                    \
  } while (0)
