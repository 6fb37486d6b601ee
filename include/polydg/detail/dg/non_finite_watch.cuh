#pragma once
// What the assembly kernels write into the matrix values, watched for non-finite numbers: the
// stores that put an entry's final value (or, for atomics, a value on the way to it) also note
// the least index of `values` at which a NaN or an infinity was written. A non-finite addend
// leaves every later sum non-finite, so the noted index is the least index whose final value is
// not finite — what a pass over the values finds, without the pass (a read of the whole matrix
// on every assembly).
#include <cuda_runtime.h>

#include "polydg/core/types.hpp"

namespace polydg::device::detail {

/// No non-finite value noted yet (the value of first_bad before an assembly).
inline constexpr unsigned long long no_non_finite_value = ~0ull;

template <class Real>
struct NonFiniteWatch {
  const Real* values = nullptr;
  unsigned long long* first_bad = nullptr;  ///< null: nothing watched

  __device__ void note(const Real* entry, Real value) const {
    if (first_bad && !isfinite(value))
      atomicMin(first_bad, static_cast<unsigned long long>(entry - values));
  }

  // note() in two steps, for stores without a branch each: least_bad keeps the least index of a
  // non-finite value (a selection), note_least notes it once.
  __device__ void least_bad(unsigned long long& least, const Real* entry, Real value) const {
    const auto index = static_cast<unsigned long long>(entry - values);
    least = isfinite(value) || index >= least ? least : index;
  }
  __device__ void note_least(unsigned long long least) const {
    if (first_bad && least != no_non_finite_value) atomicMin(first_bad, least);
  }
};

}  // namespace polydg::device::detail
