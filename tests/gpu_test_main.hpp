#pragma once
// The main() of a gpu-labelled Boost.Test suite: define BOOST_TEST_MODULE, then include this
// before any other header that includes Boost.Test (instead of <boost/test/unit_test.hpp>).
// Without a CUDA device the suite exits 77, which ctest reports as "Skipped" (SKIP_RETURN_CODE,
// tests/CMakeLists.txt); with one, Boost.Test runs its named cases (--run_test=NAME).
// --list_content (the cases' names) and --help work without a device.
//
// A suite some of whose cases hold without a device (host-side checks) may name them, before
// including this, in POLYDG_GPU_TEST_WITHOUT_DEVICE, a --run_test filter: without a device those
// cases run alone (any --run_test of the command line is dropped), and the suite exits 77 if
// they pass, with their failure otherwise.
#if defined(BOOST_TEST_UNIT_TEST_HPP_071894GER) && !defined(BOOST_TEST_NO_MAIN)
#error "include gpu_test_main.hpp before any other Boost.Test header (that one defined a main)"
#endif
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "polydg/core/device_buffer.hpp"

int main(int argc, char* argv[]) {
  // --list_content and --help run nothing: they work without a device too.
  bool runs_nothing = false;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    runs_nothing = runs_nothing || argument.rfind("--list_content", 0) == 0 ||
                   argument == "--help" || argument.rfind("--help=", 0) == 0;
  }
  if (runs_nothing || polydg::device::device_count() > 0)
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
#ifdef POLYDG_GPU_TEST_WITHOUT_DEVICE
  std::vector<char*> arguments;
  for (int i = 0; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--run_test" || argument == "-t") {
      ++i;  // and its value
      continue;
    }
    if (argument.rfind("--run_test=", 0) == 0) continue;
    arguments.push_back(argv[i]);
  }
  std::string filter = std::string("--run_test=") + POLYDG_GPU_TEST_WITHOUT_DEVICE;
  arguments.push_back(filter.data());
  std::puts("no CUDA device: the host-side cases only (" POLYDG_GPU_TEST_WITHOUT_DEVICE ")");
  const int result =
      boost::unit_test::unit_test_main(&init_unit_test, int(arguments.size()), arguments.data());
  if (result != 0) return result;
#endif
  std::puts("no CUDA device: test skipped");
  return 77;
}
