#define BOOST_TEST_MODULE core_command_line
#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/command_line.hpp"

using namespace polydg;

using testing::error_message;

BOOST_AUTO_TEST_CASE(integers_are_the_whole_text) {
  BOOST_TEST(parse_integer("--levels", "4") == 4);
  BOOST_TEST(parse_integer("--levels", "-12") == -12);
  BOOST_TEST(error_message([] { parse_integer("--elements", "many"); }) ==
             "option --elements: not an integer: 'many'");
  BOOST_TEST(error_message([] { parse_integer("--levels", "12abc"); }) ==
             "option --levels: not an integer: '12abc'");
  BOOST_TEST(error_message([] { parse_integer("--levels", ""); }) ==
             "option --levels: not an integer: ''");
  BOOST_TEST(error_message([] { parse_integer("--p", "1.5"); }) ==
             "option --p: not an integer: '1.5'");
  BOOST_TEST(error_message([] { parse_integer("--steps", "99999999999"); }) ==
             "option --steps: integer out of range: '99999999999'");
}

BOOST_AUTO_TEST_CASE(numbers_are_finite_and_the_whole_text) {
  BOOST_TEST(parse_number("--T", "0.5") == 0.5);
  BOOST_TEST(parse_number("--T", "1e-3") == 1e-3);
  BOOST_TEST(parse_number("--amplitude", "-2") == -2.0);
  BOOST_TEST(error_message([] { parse_number("--T", "0.5s"); }) ==
             "option --T: not a number: '0.5s'");
  BOOST_TEST(error_message([] { parse_number("--T", "nan"); }) ==
             "option --T: not a finite number: 'nan'");
  BOOST_TEST(error_message([] { parse_number("--T", "inf"); }) ==
             "option --T: not a finite number: 'inf'");
  BOOST_TEST(error_message([] { parse_number("--T", "1e999"); }) ==
             "option --T: not a finite number: '1e999'");
}

BOOST_AUTO_TEST_CASE(integer_lists_are_comma_separated) {
  BOOST_TEST((parse_integer_list("--p", "1,2,3") == std::vector<int>{1, 2, 3}));
  BOOST_TEST((parse_integer_list("--p", "5") == std::vector<int>{5}));
  BOOST_TEST(error_message([] { parse_integer_list("--p", "1,,3"); }) ==
             "option --p: empty item in the list '1,,3'");
  BOOST_TEST(error_message([] { parse_integer_list("--p", "1,x"); }) ==
             "option --p: not an integer: 'x'");
  BOOST_TEST(error_message([] { parse_integer_list("--p", "1,2,"); }) ==
             "option --p: expected a comma-separated list of integers, got '1,2,'");
  BOOST_TEST(error_message([] { parse_integer_list("--p", ""); }) ==
             "option --p: expected a comma-separated list of integers, got ''");
}

BOOST_AUTO_TEST_CASE(choice_lists_take_only_their_choices) {
  const std::vector<std::string_view> choices = {"aij", "dense_blocks"};
  BOOST_TEST((parse_choice_list("--products", "aij,dense_blocks", choices) ==
              std::vector<std::string>{"aij", "dense_blocks"}));
  BOOST_TEST((parse_choice_list("--products", "dense_blocks", choices) ==
              std::vector<std::string>{"dense_blocks"}));
  BOOST_TEST(error_message([&] { parse_choice_list("--products", "aij,csr", choices); }) ==
             "option --products: 'csr' is not one of aij, dense_blocks");
  BOOST_TEST(error_message([&] { parse_choice_list("--products", "aij,,aij", choices); }) ==
             "option --products: empty item in the list 'aij,,aij'");
  BOOST_TEST(error_message([&] { parse_choice_list("--products", "aij,", choices); }) ==
             "option --products: expected a comma-separated list, got 'aij,'");
  BOOST_TEST(error_message([&] { parse_choice_list("--products", "", choices); }) ==
             "option --products: expected a comma-separated list, got ''");
}
