// DeviceGhostColumnBlocks in a build without CUDA: constructing one throws.
#include "polydg/core/error.hpp"
#include "polydg/sparse/device_ghost_column_blocks.hpp"

namespace polydg {

DeviceGhostColumnBlocks::DeviceGhostColumnBlocks(const GhostColumnBlocks&) {
  raise("DeviceGhostColumnBlocks: libpolydg was built without CUDA (POLYDG_CUDA=OFF)");
}

void DeviceGhostColumnBlocks::multiply_add(const double*, const double*, double*) const {
  raise(
      "DeviceGhostColumnBlocks::multiply_add: libpolydg was built without CUDA (POLYDG_CUDA=OFF)");
}

}  // namespace polydg
