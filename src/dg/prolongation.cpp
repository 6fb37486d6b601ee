#include "polydg/dg/prolongation.hpp"

#include <algorithm>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/dg/l2_projection.hpp"
#include "polydg/fem/legendre_basis.hpp"
#include "polydg/fem/mapped_quadrature.hpp"
#include "polydg/fem/quadrature_cache.hpp"

namespace polydg {

template <int Dim>
Prolongation make_prolongation(const PolytopicMesh<Dim>& fine, const PolytopicMesh<Dim>& coarse) {
  require(&fine.fine_mesh() == &coarse.fine_mesh(),
          "make_prolongation: the two meshes agglomerate different fine meshes");
  Prolongation result;
  result.coarse_of_fine.assign(std::size_t(fine.element_count()), -1);
  const SimplexMesh<Dim>& cells = fine.fine_mesh();
  for (Index c = 0; c < cells.cell_count(); ++c) {
    const Index e = fine.element_of_cell(c), parent = coarse.element_of_cell(c);
    Index& known = result.coarse_of_fine[e];
    require(known < 0 || known == parent, "make_prolongation: fine element ", e,
            " is not inside one coarse element (its cells lie in coarse elements ", known, " and ",
            parent, "): the agglomerations are not nested");
    known = parent;
  }
  result.block_offsets.assign(std::size_t(fine.element_count()) + 1, 0);
  for (Index e = 0; e < fine.element_count(); ++e) {
    const int p = fine.element_degree(e),
              coarse_p = coarse.element_degree(result.coarse_of_fine[e]);
    require(coarse_p <= p, "make_prolongation: fine element ", e, " has degree ", p,
            ", its coarse element ", result.coarse_of_fine[e], " degree ", coarse_p,
            ": the coarse space is not inside the fine one");
    result.block_offsets[e + 1] =
        result.block_offsets[e] +
        std::size_t(basis_size(Dim, p)) * std::size_t(basis_size(Dim, coarse_p));
  }
  result.values.assign(result.block_offsets.back(), 0.0);
  result.fine_offsets = dg_coefficient_offsets<Dim>(fine.degrees());
  result.coarse_offsets = dg_coefficient_offsets<Dim>(coarse.degrees());
  for (Index e = 0; e < fine.element_count(); ++e)  // build the rules before the parallel loop
    simplex_rule<Dim>(2 * fine.element_degree(e));

  parallel_for(0, fine.element_count(), [&](Index e) {
    const Index parent = result.coarse_of_fine[e];
    const int p = fine.element_degree(e), coarse_p = coarse.element_degree(parent);
    const int n = basis_size(Dim, p), m = basis_size(Dim, coarse_p);
    const Box<Dim>& box = fine.element_box(e);
    const Box<Dim>& coarse_box = coarse.element_box(parent);
    std::vector<double> mass(std::size_t(n) * n, 0.0), products(std::size_t(n) * m, 0.0);
    double phi[basis_size(Dim, max_basis_degree)], psi[basis_size(Dim, max_basis_degree)];
    const QuadratureRule<Dim>& reference = simplex_rule<Dim>(2 * p);
    for (const auto& simplex : fine.element_simplices(e)) {
      const QuadratureRule<Dim> rule = map_to_simplex(reference, fine.simplex_points(simplex));
      for (std::size_t q = 0; q < rule.size(); ++q) {
        evaluate_basis(p, box, rule.points[q], phi);
        evaluate_basis(coarse_p, coarse_box, rule.points[q], psi);
        const double w = rule.weights[q];
        for (int i = 0; i < n; ++i) {
          for (int k = 0; k <= i; ++k) mass[i * n + k] += w * phi[i] * phi[k];
          for (int j = 0; j < m; ++j) products[i * m + j] += w * phi[i] * psi[j];
        }
      }
    }
    double* block = result.values.data() + result.block_offsets[e];
    std::vector<double> column(static_cast<std::size_t>(n)), factor;
    for (int j = 0; j < m; ++j) {
      for (int i = 0; i < n; ++i) column[i] = products[i * m + j];
      factor = mass;  // cholesky_solve overwrites its matrix
      require(detail::cholesky_solve(factor, n, column.data()),
              "make_prolongation: the mass matrix of fine element ", e, " (degree ", p, ", ", n,
              " basis functions) is not positive definite");
      for (int i = 0; i < n; ++i) block[i * m + j] = column[i];
    }
  });
  return result;
}

template Prolongation make_prolongation(const PolytopicMesh<2>&, const PolytopicMesh<2>&);
template Prolongation make_prolongation(const PolytopicMesh<3>&, const PolytopicMesh<3>&);

}  // namespace polydg
