#include "polydg/dg/agglomeration_hierarchy.hpp"

#include <algorithm>
#include <cmath>

#include "polydg/core/error.hpp"
#include "polydg/fem/basis_indexing.hpp"

namespace polydg {

template <int Dim>
AgglomerationHierarchy<Dim>::AgglomerationHierarchy(const PolytopicMesh<Dim>& finest,
                                                    const HierarchyOptions& options) {
  const double factor =
      options.coarsening_factor == 0 ? (Dim == 2 ? 4.0 : 8.0) : options.coarsening_factor;
  require(std::isfinite(factor) && factor > 1, "AgglomerationHierarchy: coarsening_factor ",
          options.coarsening_factor, " must be 0 (the default) or > 1");
  require(options.max_levels >= 1, "AgglomerationHierarchy: max_levels ", options.max_levels,
          " must be at least 1");
  meshes_.push_back(finest);
  const auto room_for_a_level = [&] {
    return int(meshes_.size()) < options.max_levels &&
           dof_count(level_count() - 1) > options.coarsest_dofs;
  };
  while (options.degree_levels && room_for_a_level()) {
    const PolytopicMesh<Dim>& fine = meshes_.back();
    const int highest = *std::max_element(fine.degrees().begin(), fine.degrees().end());
    if (highest <= 1) break;
    std::vector<int> degrees(fine.degrees().begin(), fine.degrees().end());
    for (int& degree : degrees) degree = std::min(degree, highest - 1);
    meshes_.emplace_back(fine.shared_fine_mesh(), fine.partition(), std::move(degrees));
    prolongations_.push_back(make_prolongation(meshes_[meshes_.size() - 2], meshes_.back()));
  }
  while (room_for_a_level()) {
    const PolytopicMesh<Dim>& fine = meshes_.back();
    const Index elements = fine.element_count();
    const Index wanted = std::max<Index>(1, Index(std::lround(double(elements) / factor)));
    if (wanted >= elements) break;
    const Agglomeration coarse =
        coarsen_agglomeration(fine.fine_mesh(), fine.partition(), wanted, options.agglomeration);
    // Stalled: the element graph could not be cut into fewer connected parts.
    if (coarse.element_count >= elements) break;
    std::vector<int> degrees(std::size_t(coarse.element_count), max_element_degree);
    for (Index c = 0; c < fine.fine_mesh().cell_count(); ++c) {
      int& degree = degrees[coarse.element_of_cell[c]];
      degree = std::min(degree, fine.element_degree(fine.element_of_cell(c)));
    }
    meshes_.emplace_back(fine.shared_fine_mesh(), coarse.element_of_cell, std::move(degrees));
    prolongations_.push_back(make_prolongation(meshes_[meshes_.size() - 2], meshes_.back()));
  }
}

template <int Dim>
GlobalIndex AgglomerationHierarchy<Dim>::dof_count(int level) const {
  GlobalIndex total = 0;
  for (const int p : mesh(level).degrees()) total += basis_size(Dim, p);
  return total;
}

template class AgglomerationHierarchy<2>;
template class AgglomerationHierarchy<3>;

}  // namespace polydg
