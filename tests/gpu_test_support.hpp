#pragma once
// Shared helpers of the gpu-labelled tests (Boost.Test suites whose main is gpu_test_main.hpp):
// the comparisons they make between device and host results, and the switch to their smallest
// cases.
#include <cstdlib>
#include <string>

#include "relative_difference.hpp"
#include "same_bits.hpp"

namespace polydg::testing {

/// POLYDG_GPU_TEST_SMALL=1 (set by polydg_racecheck in scripts/gpu/setup.sh, for
/// compute-sanitizer's racecheck, which is slow): tests run their lowest degrees only.
inline bool small_run() {
  const char* value = std::getenv("POLYDG_GPU_TEST_SMALL");
  return value && std::string(value) == "1";
}

}  // namespace polydg::testing
