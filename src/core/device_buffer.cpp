// The parts of the device-memory layer that need no CUDA (compiled in every build).
#include "polydg/core/device_buffer.hpp"

#include "polydg/core/error.hpp"

namespace polydg::device {

void throw_size_mismatch(std::size_t given, std::size_t expected) {
  raise("DeviceBuffer::assign: a host array of ", given, " elements for a device buffer of ",
        expected);
}

}  // namespace polydg::device
