#include "polydg/spacetime/slab_trace.hpp"

#include <cmath>

#include "polydg/core/error.hpp"
#include "polydg/fem/basis_indexing.hpp"

namespace polydg {

std::vector<double> top_trace(const PolytopicMesh<2>& spatial, const BlockPattern& slab_pattern,
                              std::span<const double> slab_solution) {
  require(slab_pattern.block_row_count() == spatial.element_count(), "top_trace: the slab has ",
          slab_pattern.block_row_count(), " elements, the spatial mesh ", spatial.element_count());
  require(GlobalIndex(slab_solution.size()) == slab_pattern.dof_count(),
          "top_trace: ", slab_solution.size(), " coefficients for ", slab_pattern.dof_count(),
          " unknowns");
  std::vector<GlobalIndex> offsets(std::size_t(spatial.element_count()) + 1, 0);
  for (Index e = 0; e < spatial.element_count(); ++e)
    offsets[e + 1] = offsets[e] + basis_size(2, spatial.element_degree(e));
  std::vector<double> trace(std::size_t(offsets.back()), 0.0);
  for (Index e = 0; e < spatial.element_count(); ++e) {
    const int p = spatial.element_degree(e);
    require(slab_pattern.block_size(e) == basis_size(3, p), "top_trace: element ", e,
            " of the slab has ", slab_pattern.block_size(e), " unknowns, P_", p, " in 2D+1 has ",
            basis_size(3, p));
    for (int k = 0; k < basis_size(3, p); ++k) {
      const MultiIndex<3> alpha = basis_multi_index<3>(k);
      const MultiIndex<2> spatial_alpha{{alpha[0], alpha[1]}};
      const double top_value = std::sqrt((2.0 * alpha[2] + 1) / 2);  // L̂_{α3}(1)
      trace[offsets[e] + basis_index(spatial_alpha)] +=
          slab_solution[slab_pattern.dof_offset(e) + k] * top_value;
    }
  }
  return trace;
}

}  // namespace polydg
