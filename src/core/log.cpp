#include "polydg/core/log.hpp"

#include <iostream>
#include <mutex>
#include <utility>

namespace polydg {
namespace {
std::mutex handler_mutex;
WarningHandler& current_handler() {
  static WarningHandler handler;
  return handler;
}
}  // namespace

void warn(const std::string& message) {
  std::lock_guard lock(handler_mutex);
  if (current_handler())
    current_handler()(message);
  else
    std::cerr << "polydg warning: " << message << '\n';
}

WarningHandler set_warning_handler(WarningHandler handler) {
  std::lock_guard lock(handler_mutex);
  return std::exchange(current_handler(), std::move(handler));
}

}  // namespace polydg
