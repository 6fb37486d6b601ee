#pragma once
// Thrust's temporary storage through the library's allocator, so that running out of device
// memory inside a Thrust algorithm is a polydg::Error naming the size asked for and the memory
// free (device::allocate), not a thrust::system::detail::bad_alloc:
//
//   polydg::device::ThrustAllocator allocator;
//   thrust::sort_by_key(thrust::cuda::par(allocator), keys, keys + n, values);
#include <cstddef>

#include "polydg/core/device_buffer.hpp"

namespace polydg::device {

struct ThrustAllocator {
  using value_type = char;
  char* allocate(std::ptrdiff_t bytes) {
    return static_cast<char*>(device::allocate(std::size_t(bytes)));
  }
  void deallocate(char* pointer, std::size_t) noexcept { device::deallocate(pointer); }
};

}  // namespace polydg::device
