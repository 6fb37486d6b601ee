#pragma once
// Shared scaffolding of the gpu-labelled tests (plain mains, no Boost.Test: nvcc compiles them):
// a check macro that counts failures, the exit codes ctest understands, and the comparisons the
// tests make between device and host results.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "relative_difference.hpp"
#include "same_bits.hpp"

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

/// The main() of a GPU test: skipped without a device; otherwise runs `checks` in order and
/// returns the verdict — an exception out of one (polydg::Error included) fails the test.
template <class... Checks>
int run_gpu_checks(Checks&&... checks) {
  if (no_cuda_device()) return skipped_exit_code;
  try {
    (checks(), ...);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "unexpected exception: %s\n", error.what());
    return 1;
  }
  return gpu_test_result();
}

/// POLYDG_GPU_TEST_SMALL=1 (set by scripts/gpu/check.sh for compute-sanitizer's racecheck,
/// which is slow): tests run their lowest degrees only.
inline bool small_run() {
  const char* value = std::getenv("POLYDG_GPU_TEST_SMALL");
  return value && std::string(value) == "1";
}

}  // namespace polydg::testing

#define POLYDG_GPU_CHECK(condition)                                                      \
  do {                                                                                   \
    if (!(condition)) {                                                                  \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++::polydg::testing::gpu_test_failures();                                          \
    }                                                                                    \
  } while (0)
