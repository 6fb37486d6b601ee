#pragma once
// Test helper: collects the library's warnings (polydg::warn) while it is alive.
#include <string>
#include <vector>

#include "polydg/core/log.hpp"

namespace polydg::testing {

struct CapturedWarnings {
  std::vector<std::string> messages;
  WarningHandler previous;

  CapturedWarnings() {
    previous = set_warning_handler([this](const std::string& m) { messages.push_back(m); });
  }
  ~CapturedWarnings() { set_warning_handler(previous); }
  CapturedWarnings(const CapturedWarnings&) = delete;
  CapturedWarnings& operator=(const CapturedWarnings&) = delete;

  /// True when some warning contains `part`.
  bool contain(const std::string& part) const {
    for (const std::string& m : messages)
      if (m.find(part) != std::string::npos) return true;
    return false;
  }
};

}  // namespace polydg::testing
