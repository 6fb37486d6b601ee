#pragma once
/// The library's one exception type and the checks that throw it.
///
/// Every failure the user can cause (bad file, degenerate element, degree out of range, CUDA
/// out of memory) is reported as polydg::Error with a message that names the place (file and
/// line, element or facet index, CUDA call) and what is wrong. Nothing aborts.
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace polydg {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

namespace detail {
template <class... Parts>
std::string concatenate(Parts&&... parts) {
  std::ostringstream out;
  out.precision(17);
  (out << ... << std::forward<Parts>(parts));
  return out.str();
}
}  // namespace detail

/// Throws polydg::Error whose message is the streamed concatenation of `parts`.
template <class... Parts>
[[noreturn]] void raise(Parts&&... parts) {
  throw Error(detail::concatenate(std::forward<Parts>(parts)...));
}

/// Throws polydg::Error with the concatenated message unless `condition` holds.
template <class... Parts>
void require(bool condition, Parts&&... parts) {
  if (!condition) raise(std::forward<Parts>(parts)...);
}

}  // namespace polydg
