#pragma once
/// Where the deterministic assembly keeps the diagonal-block contributions of interior faces
/// (CPU Assembler and GPU DeviceAssembler / CooAssembly alike): interface i = (a, b) owns
/// N_a² then N_b² values of scratch from offsets[i]; element e lists its interfaces in
/// ascending order in element_interfaces[element_interface_offsets[e] ..
/// element_interface_offsets[e + 1]) — the fixed order in which they are added to its block.
#include <array>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg {

struct InterfaceScratchLayout {
  std::vector<GlobalIndex> offsets;              ///< interfaces + 1
  std::vector<Index> element_interface_offsets;  ///< elements + 1
  std::vector<Index> element_interfaces;

  InterfaceScratchLayout() = default;
  /// interfaces: the element pairs; block_sizes[e] = N_e.
  InterfaceScratchLayout(std::span<const std::array<Index, 2>> interfaces,
                         std::span<const Index> block_sizes)
      : offsets(interfaces.size() + 1, 0), element_interface_offsets(block_sizes.size() + 1, 0) {
    for (std::size_t i = 0; i < interfaces.size(); ++i) {
      const auto [a, b] = interfaces[i];
      offsets[i + 1] = offsets[i] + GlobalIndex(block_sizes[a]) * block_sizes[a] +
                       GlobalIndex(block_sizes[b]) * block_sizes[b];
      ++element_interface_offsets[a + 1];
      ++element_interface_offsets[b + 1];
    }
    for (std::size_t e = 0; e < block_sizes.size(); ++e)
      element_interface_offsets[e + 1] += element_interface_offsets[e];
    element_interfaces.resize(std::size_t(element_interface_offsets.back()));
    std::vector<Index> fill(element_interface_offsets.begin(), element_interface_offsets.end() - 1);
    for (std::size_t i = 0; i < interfaces.size(); ++i)
      for (Index e : interfaces[i]) element_interfaces[fill[e]++] = Index(i);
  }
};

}  // namespace polydg
