#pragma once
/// Errors of a space-time DG solution on one slab (coefficients on the slab's elements, laid
/// out as the Assembler's pattern): the squared L2 error over the slab, ∫_{I_n} ‖u − U‖²_D dt,
/// and the squared L2 error of the trace at the slab's top, ‖u(t_n) − U(t_n⁻)‖²_D. Summing the
/// first over slabs gives the L2(0, T; L2) error², the second on the last slab the error at T.
#include <span>
#include <vector>

#include "polydg/core/parallel_errors.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg {

struct SlabErrors {
  double slab_l2_squared = 0;  ///< ∫_{I_n} ‖u − U‖²_D dt
  double top_l2_squared = 0;   ///< ‖u(t_n) − U(t_n⁻)‖²_D
};

/// `exact` maps a Point<3> (x, y, t) to u. Quadrature of degree 2p + extra_degree. Per-element
/// sums are added in element order (deterministic). On a rank's part of a distributed slab
/// (quadrature_mesh.hpp) the owned elements only: add the squares over the ranks.
template <class Exact>
SlabErrors compute_slab_errors(const QuadratureMesh<3>& mesh, const BlockPattern& pattern,
                               std::span<const double> solution, const Exact& exact,
                               int extra_degree = 4) {
  require(GlobalIndex(solution.size()) == pattern.dof_count(),
          "compute_slab_errors: ", solution.size(), " coefficients for ", pattern.dof_count(),
          " unknowns");
  std::vector<SlabErrors> per_element(mesh.owned_element_count);
  parallel_for(0, mesh.owned_element_count, [&](Index e) {
    const int p = mesh.element_degrees[e];
    const double* coefficients = solution.data() + pattern.dof_offset(e);
    const auto error_at = [&](const Point<3>& x) {
      const double difference =
          exact(x) - evaluate_dg_function<3>(mesh.space, p, mesh.element_boxes[e], coefficients, x);
      require(std::isfinite(difference), "compute_slab_errors: error not finite in element ", e);
      return difference * difference;
    };
    const auto& volume_rule =
        element_piece_rule<3>(mesh.pieces, mesh.slab_rules, 2 * p + extra_degree);
    for (Index s = mesh.element_simplex_offsets[e]; s < mesh.element_simplex_offsets[e + 1]; ++s) {
      const auto& vertices = mesh.simplex_vertices[s];
      const double jacobian = affine_measure_ratio<3, 3>(vertices.data());
      for (std::size_t q = 0; q < volume_rule.size(); ++q)
        per_element[e].slab_l2_squared +=
            volume_rule.weights[q] * jacobian *
            error_at(map_reference_point<3, 3>(vertices.data(), volume_rule.points[q]));
    }
    const auto& face_rule = simplex_rule<2>(2 * p + extra_degree);
    for (Index f = mesh.element_boundary_offsets[e]; f < mesh.element_boundary_offsets[e + 1];
         ++f) {
      if (mesh.boundary_facet_tags[f] != slab_top_tag) continue;
      const auto& vertices = mesh.boundary_facet_vertices[f];
      const double ratio = affine_measure_ratio<2, 3>(vertices.data());
      for (std::size_t q = 0; q < face_rule.size(); ++q)
        per_element[e].top_l2_squared +=
            face_rule.weights[q] * ratio *
            error_at(map_reference_point<2, 3>(vertices.data(), face_rule.points[q]));
    }
  });
  SlabErrors total;
  for (const SlabErrors& errors : per_element) {
    total.slab_l2_squared += errors.slab_l2_squared;
    total.top_l2_squared += errors.top_l2_squared;
  }
  return total;
}

}  // namespace polydg
