#pragma once
// Test helper: runs `body`, which must throw polydg::Error, and returns its message (the test
// fails when nothing or something else is thrown).
#include <boost/test/unit_test.hpp>
#include <string>

#include "polydg/core/error.hpp"

namespace polydg::testing {

template <class Body>
std::string error_message(Body body) {
  try {
    body();
  } catch (const Error& error) {
    return error.what();
  }
  BOOST_FAIL("no polydg::Error thrown");
  return {};
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace polydg::testing
