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
