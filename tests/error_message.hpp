#pragma once
// Test helpers for error paths: a bad input must be refused with a polydg::Error whose message
// says what is wrong and where (the element, point, tag, file or value), so the tests check the
// message, not only the exception's type.
//
//   error_message(body)         runs `body`, which must throw polydg::Error, and returns its
//                               message (the test case fails when nothing or something else is
//                               thrown).
//   error_names(body, {parts})  for BOOST_TEST: true when `body` throws polydg::Error and its
//                               message contains every part; otherwise false, saying which part
//                               is missing and quoting the message (reported at the caller's
//                               line, and the test case goes on).
#include <boost/test/unit_test.hpp>
#include <initializer_list>
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

template <class Body>
boost::test_tools::predicate_result error_names(Body body,
                                                std::initializer_list<std::string> parts) {
  std::string message;
  try {
    body();
    boost::test_tools::predicate_result result(false);
    result.message() << "no polydg::Error thrown";
    return result;
  } catch (const Error& error) {
    message = error.what();
  }
  std::string missing;
  for (const std::string& part : parts)
    if (!contains(message, part)) missing += "missing \"" + part + "\"; ";
  boost::test_tools::predicate_result result(missing.empty());
  if (!missing.empty()) result.message() << missing << "the message: " << message;
  return result;
}

}  // namespace polydg::testing
