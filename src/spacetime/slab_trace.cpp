#include "polydg/spacetime/slab_trace.hpp"

#include <cmath>
#include <numeric>

#include "polydg/core/error.hpp"
#include "polydg/fem/basis_indexing.hpp"

namespace polydg {

std::vector<double> top_trace(const PolytopicMesh<2>& spatial, const BlockPattern& slab_pattern,
                              std::span<const double> slab_solution,
                              std::span<const Index> elements, BasisSpace space) {
  require(Index(elements.size()) <= slab_pattern.block_row_count(), "top_trace: ", elements.size(),
          " elements for a slab pattern of ", slab_pattern.block_row_count());
  const Index rows = Index(elements.size());
  require(GlobalIndex(slab_solution.size()) >= slab_pattern.dof_offset(rows),
          "top_trace: ", slab_solution.size(), " coefficients for ", slab_pattern.dof_offset(rows),
          " unknowns");
  std::vector<GlobalIndex> offsets(elements.size() + 1, 0);
  for (Index k = 0; k < rows; ++k) {
    require(elements[k] >= 0 && elements[k] < spatial.element_count(), "top_trace: element ",
            elements[k], " is not one of the spatial mesh's ", spatial.element_count());
    offsets[k + 1] = offsets[k] + basis_size(2, spatial.element_degree(elements[k]));
  }
  const GlobalIndex total = offsets[std::size_t(rows)];
  std::vector<double> trace(std::size_t(total), 0.0);
  for (Index k = 0; k < rows; ++k) {
    const int p = spatial.element_degree(elements[k]);
    const int slab_size = space_basis_size(space, 3, p);
    require(slab_pattern.block_size(k) == slab_size, "top_trace: element ", elements[k],
            " of the slab has ", slab_pattern.block_size(k), " unknowns, the space has ",
            slab_size);
    const double* coefficients = slab_solution.data() + slab_pattern.dof_offset(k);
    for (int j = 0; j < slab_size; ++j) {
      int spatial_index = 0, time_degree = 0;
      if (space == BasisSpace::total_degree) {
        const MultiIndex<3> alpha = basis_multi_index<3>(j);
        spatial_index = basis_index(MultiIndex<2>{{alpha[0], alpha[1]}});
        time_degree = alpha[2];
      } else {  // time-major: j = time_degree · N_s + spatial index
        spatial_index = j % basis_size(2, p);
        time_degree = j / basis_size(2, p);
      }
      const double top_value = std::sqrt((2.0 * time_degree + 1) / 2);  // L̂_k(1)
      trace[offsets[k] + spatial_index] += coefficients[j] * top_value;
    }
  }
  return trace;
}

std::vector<double> top_trace(const PolytopicMesh<2>& spatial, const BlockPattern& slab_pattern,
                              std::span<const double> slab_solution, BasisSpace space) {
  require(slab_pattern.block_row_count() == spatial.element_count(), "top_trace: the slab has ",
          slab_pattern.block_row_count(), " elements, the spatial mesh ", spatial.element_count());
  require(GlobalIndex(slab_solution.size()) == slab_pattern.dof_count(),
          "top_trace: ", slab_solution.size(), " coefficients for ", slab_pattern.dof_count(),
          " unknowns");
  std::vector<Index> elements(std::size_t(spatial.element_count()));
  std::iota(elements.begin(), elements.end(), Index(0));
  return top_trace(spatial, slab_pattern, slab_solution, elements, space);
}

}  // namespace polydg
