#pragma once
// The main() of a gpu-labelled Boost.Test suite: define BOOST_TEST_MODULE, then include this
// instead of <boost/test/unit_test.hpp>. Without a CUDA device the suite exits 77, which ctest
// reports as "Skipped" (SKIP_RETURN_CODE, tests/CMakeLists.txt); with one, Boost.Test runs its
// named cases (--run_test=NAME, ctest -R).
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>
#include <cstdio>

#include "polydg/core/device_buffer.hpp"

int main(int argc, char* argv[]) {
  if (polydg::device::device_count() == 0) {
    std::puts("no CUDA device: test skipped");
    return 77;
  }
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
