// build_block_pattern_on_device in a build without CUDA: throws, so front-end code that asks
// for the device pattern gets a clear error instead of a link failure (no #ifdef POLYDG_CUDA).
#include "polydg/core/error.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {

DeviceBlockPattern build_block_pattern_on_device(std::span<const Index>,
                                                 std::span<const std::array<Index, 2>>) {
  raise("build_block_pattern_on_device: libpolydg was built without CUDA (POLYDG_CUDA=OFF)");
}

DeviceBlockPattern build_block_pattern_from_device_arrays(device::DeviceBuffer<Index>, const Index*,
                                                          Index) {
  raise(
      "build_block_pattern_from_device_arrays: libpolydg was built without CUDA "
      "(POLYDG_CUDA=OFF)");
}

}  // namespace polydg
