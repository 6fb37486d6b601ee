#pragma once
// A thread's run of N consecutive values stored with 16-byte stores (two doubles or four
// floats each) where the destination is 16-byte aligned, else one by one. A P_1 interface thread
// stores 64 doubles, 16 per block; as 8-byte stores they filled the load/store queue, a main
// stall of the kernel. The values and where they go are the same
// either way.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace polydg::device::detail {

template <int N, class Real>
__device__ inline void store_contiguous(Real* destination, const Real (&values)[N]) {
  static_assert(std::is_same_v<Real, double> || std::is_same_v<Real, float>);
  constexpr int per_store = 16 / int(sizeof(Real));
  if constexpr (N % per_store == 0) {
    if ((reinterpret_cast<std::uintptr_t>(destination) & 15) == 0) {
#pragma unroll
      for (int v = 0; v < N / per_store; ++v) {
        if constexpr (std::is_same_v<Real, double>)
          reinterpret_cast<double2*>(destination)[v] =
              make_double2(values[2 * v], values[2 * v + 1]);
        else
          reinterpret_cast<float4*>(destination)[v] =
              make_float4(values[4 * v], values[4 * v + 1], values[4 * v + 2], values[4 * v + 3]);
      }
      return;
    }
  }
#pragma unroll
  for (int e = 0; e < N; ++e) destination[e] = values[e];
}

/// Whether `entry` and the next value can be accessed as one pair (16 bytes of doubles, 8 of
/// floats): aligned to the pair's size.
template <class Real>
__device__ inline bool pair_aligned(const Real* entry) {
  return (reinterpret_cast<std::uintptr_t>(entry) & (2 * sizeof(Real) - 1)) == 0;
}

/// The two consecutive values at `source`, aligned to their pair (pair_aligned), in one load.
template <class Real>
__device__ inline void load_aligned_pair(const Real* source, Real& first, Real& second) {
  static_assert(std::is_same_v<Real, double> || std::is_same_v<Real, float>);
  if constexpr (std::is_same_v<Real, double>) {
    const double2 pair = *reinterpret_cast<const double2*>(source);
    first = pair.x, second = pair.y;
  } else {
    const float2 pair = *reinterpret_cast<const float2*>(source);
    first = pair.x, second = pair.y;
  }
}

/// Two consecutive values in one store (16 bytes of doubles, 8 of floats) where `destination` is
/// aligned to it: true; false, nothing stored, where it is not.
template <class Real>
__device__ inline bool store_aligned_pair(Real* destination, Real first, Real second) {
  static_assert(std::is_same_v<Real, double> || std::is_same_v<Real, float>);
  if (!pair_aligned(destination)) return false;
  if constexpr (std::is_same_v<Real, double>)
    *reinterpret_cast<double2*>(destination) = make_double2(first, second);
  else
    *reinterpret_cast<float2*>(destination) = make_float2(first, second);
  return true;
}

}  // namespace polydg::device::detail
