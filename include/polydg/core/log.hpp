#pragma once
/// Warnings the library gives once and goes on (e.g. "42 boundary facets had no tag").
/// They go to std::cerr prefixed "polydg warning: " unless the user installs a handler.
#include <functional>
#include <string>

namespace polydg {

using WarningHandler = std::function<void(const std::string&)>;

/// Reports a warning through the current handler.
void warn(const std::string& message);
/// Replaces the warning handler; returns the previous one. An empty handler restores stderr.
WarningHandler set_warning_handler(WarningHandler handler);

}  // namespace polydg
