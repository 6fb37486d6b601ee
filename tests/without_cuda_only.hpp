#pragma once
// Test helper: a Boost.Test decorator for test cases about a build without CUDA. In a CUDA
// build they are reported as skipped, with the reason, instead of passing without a check.
//   BOOST_AUTO_TEST_CASE(name, *polydg::testing::without_cuda_only("covered by test_cuda_smoke"))
#include <boost/test/unit_test.hpp>
#include <string>

#include "polydg/core/device_buffer.hpp"

namespace polydg::testing {

inline boost::unit_test::decorator::precondition without_cuda_only(std::string covered_by) {
  return boost::unit_test::precondition(
      [covered_by](boost::unit_test::test_unit_id) -> boost::test_tools::assertion_result {
        boost::test_tools::assertion_result result(!device::compiled_with_cuda());
        result.message() << "built with CUDA: " << covered_by;
        return result;
      });
}

}  // namespace polydg::testing
