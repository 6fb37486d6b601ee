#pragma once
/// Errors inside OpenMP loops: an exception must not leave a parallel region, so each
/// iteration catches polydg::Error and records it here; after the loop rethrow() throws the
/// error of the smallest index — the same one on every run, whatever the thread count.
#include <limits>
#include <mutex>
#include <string>

#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"

namespace polydg {

class ParallelErrors {
 public:
  void record(GlobalIndex index, const std::string& message) {
    std::lock_guard lock(mutex_);
    if (index < index_) {
      index_ = index;
      message_ = message;
    }
  }
  /// Throws the recorded error of the smallest index, if any.
  void rethrow() const {
    if (index_ != std::numeric_limits<GlobalIndex>::max()) throw Error(message_);
  }

 private:
  std::mutex mutex_;
  GlobalIndex index_ = std::numeric_limits<GlobalIndex>::max();
  std::string message_;
};

/// Runs body(i) for i in [begin, end) in parallel (OpenMP, dynamic schedule) and rethrows the
/// polydg::Error of the smallest failing index afterwards.
template <class Body>
void parallel_for(GlobalIndex begin, GlobalIndex end, Body&& body) {
  ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 16)
  for (GlobalIndex i = begin; i < end; ++i) {
    try {
      body(i);
    } catch (const Error& error) {
      errors.record(i, error.what());
    }
  }
  errors.rethrow();
}

}  // namespace polydg
