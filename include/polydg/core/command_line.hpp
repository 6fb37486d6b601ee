#pragma once
/// Strict parsing of command-line option values for the examples and benchmarks: the whole text
/// must be the number (std::stoi / std::stod alone accept "12abc" as 12 and "nan" as a number),
/// and a bad value is a polydg::Error naming the option and the text:
///
///   int levels = polydg::parse_integer("--levels", argv[i]);        // "4"
///   double T = polydg::parse_number("--T", argv[i]);                 // "0.5", finite only
///   std::vector<int> p = polydg::parse_integer_list("--p", argv[i]); // "1,2,3"
///   auto kinds = polydg::parse_choice_list("--products", argv[i], {"aij", "dense_blocks"});
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "polydg/core/error.hpp"

namespace polydg {

/// The int that `text` spells (optional sign, decimal digits, nothing else).
inline int parse_integer(std::string_view option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text.c_str(), &end, 10);
  require(!text.empty() && end == text.c_str() + text.size(), "option ", option,
          ": not an integer: '", text, "'");
  require(errno != ERANGE && value >= std::numeric_limits<int>::min() &&
              value <= std::numeric_limits<int>::max(),
          "option ", option, ": integer out of range: '", text, "'");
  return int(value);
}

/// The finite double that `text` spells (decimal or exponent form, nothing else).
inline double parse_number(std::string_view option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  require(!text.empty() && end == text.c_str() + text.size(), "option ", option,
          ": not a number: '", text, "'");
  require(errno != ERANGE && std::isfinite(value), "option ", option, ": not a finite number: '",
          text, "'");
  return value;
}

/// The ints of a comma-separated list ("1,2,3"; at least one, no empty items).
inline std::vector<int> parse_integer_list(std::string_view option, const std::string& text) {
  std::vector<int> values;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    require(!item.empty(), "option ", option, ": empty item in the list '", text, "'");
    values.push_back(parse_integer(option, item));
  }
  require(!values.empty() && text.back() != ',', "option ", option,
          ": expected a comma-separated list of integers, got '", text, "'");
  return values;
}

/// The items of a comma-separated list ("aij,dense_blocks"; at least one, no empty items),
/// each one of `choices`.
inline std::vector<std::string> parse_choice_list(std::string_view option, const std::string& text,
                                                  const std::vector<std::string_view>& choices) {
  std::string names;  // for the message
  for (const std::string_view choice : choices)
    names += (names.empty() ? "" : ", ") + std::string(choice);
  std::vector<std::string> values;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    require(!item.empty(), "option ", option, ": empty item in the list '", text, "'");
    require(std::ranges::find(choices, std::string_view(item)) != choices.end(), "option ", option,
            ": '", item, "' is not one of ", names);
    values.push_back(item);
  }
  require(!values.empty() && text.back() != ',', "option ", option,
          ": expected a comma-separated list, got '", text, "'");
  return values;
}

}  // namespace polydg
