#include "polydg/spacetime/slab_trace.hpp"

#include <cmath>

#include "polydg/core/error.hpp"
#include "polydg/fem/basis_indexing.hpp"

namespace polydg {

std::vector<double> top_trace(const PolytopicMesh<2>& spatial, const BlockPattern& slab_pattern,
                              std::span<const double> slab_solution, BasisSpace space) {
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
    const int slab_size = space_basis_size(space, 3, p);
    require(slab_pattern.block_size(e) == slab_size, "top_trace: element ", e, " of the slab has ",
            slab_pattern.block_size(e), " unknowns, the space has ", slab_size);
    const double* coefficients = slab_solution.data() + slab_pattern.dof_offset(e);
    for (int k = 0; k < slab_size; ++k) {
      int spatial_index = 0, time_degree = 0;
      if (space == BasisSpace::total_degree) {
        const MultiIndex<3> alpha = basis_multi_index<3>(k);
        spatial_index = basis_index(MultiIndex<2>{{alpha[0], alpha[1]}});
        time_degree = alpha[2];
      } else {  // time-major: k = time_degree · N_s + spatial index
        spatial_index = k % basis_size(2, p);
        time_degree = k / basis_size(2, p);
      }
      const double top_value = std::sqrt((2.0 * time_degree + 1) / 2);  // L̂_k(1)
      trace[offsets[e] + spatial_index] += coefficients[k] * top_value;
    }
  }
  return trace;
}

}  // namespace polydg
