#define BOOST_TEST_MODULE core_error
#include <boost/test/unit_test.hpp>

#include "error_message.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"
#include "without_cuda_only.hpp"

using namespace polydg;

BOOST_AUTO_TEST_CASE(require_throws_with_the_concatenated_message) {
  BOOST_CHECK_NO_THROW(require(true, "never"));
  try {
    require(1 + 1 == 3, "cell ", 42, " has measure ", 0.5);
    BOOST_FAIL("require did not throw");
  } catch (const Error& error) {
    BOOST_TEST(std::string(error.what()) == "cell 42 has measure 0.5");
  }
}

BOOST_AUTO_TEST_CASE(point_and_box_arithmetic) {
  Point<3> a{{1, 2, 3}}, b{{4, 5, 6}};
  BOOST_TEST(dot(a, b) == 32.0);
  BOOST_TEST((a + b == Point<3>{{5, 7, 9}}));
  BOOST_TEST((2.0 * a - b == Point<3>{{-2, -1, 0}}));
  Box<2> box{{{0, -1}}, {{2, 3}}};
  BOOST_TEST(box.measure() == 8.0);
}

BOOST_AUTO_TEST_CASE(device_layer_reports_when_unavailable,
                     *testing::without_cuda_only("the CUDA side is covered by test_cuda_smoke")) {
  BOOST_TEST(device::device_count() == 0);
  BOOST_TEST(testing::error_names([] { device::DeviceBuffer<double>(10); },
                                  {"polydg::device::allocate", "built without CUDA"}));
}

// A CUDA build on a machine without a usable device (CI, or a missing driver): an allocation
// says there is no device, not that memory ran out.
BOOST_AUTO_TEST_CASE(device_allocation_without_a_device_says_so,
                     *boost::unit_test::precondition([](boost::unit_test::test_unit_id)
                                                         -> boost::test_tools::assertion_result {
                       boost::test_tools::assertion_result result(device::compiled_with_cuda() &&
                                                                  device::device_count() == 0);
                       result.message() << "needs a CUDA build on a machine without a device";
                       return result;
                     })) {
  try {
    device::DeviceBuffer<double> buffer(10);
    BOOST_FAIL("allocating without a device did not throw");
  } catch (const Error& error) {
    const std::string message = error.what();
    BOOST_TEST_MESSAGE(message);
    BOOST_TEST(message.find("no usable CUDA device") != std::string::npos);
    BOOST_TEST(message.find("MiB free") == std::string::npos);
  }
}
