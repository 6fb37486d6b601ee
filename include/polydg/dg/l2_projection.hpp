#pragma once
/// The element-wise L2 projection Π f onto the DG space S of a PolytopicMesh (docs/theory.md,
/// "Basis"): on every element κ, Π f|κ ∈ P_{p_κ}(κ) with ∫_κ (f − Π f) φ_k = 0 for all basis
/// functions φ_k of κ. The bounding-box Legendre basis is orthonormal on B_κ, not on κ, so each
/// element solves its N_κ × N_κ mass system M c = r, M_jk = ∫_κ φ_j φ_k and r_j = ∫_κ f φ_j, both
/// by quadrature on κ's sub-simplices of degree degrees.element(p_κ) = 2 p_κ + extra, by Cholesky.
/// A polynomial of degree ≤ p_κ is reproduced to round-off (the quadrature is exact for it).
///
/// `function` is called as function(x) → double with x a Point<Dim>. The result is laid out as
/// in discrete_function.hpp. Parallel over elements (each element writes only its own
/// coefficients: the same result on every run). Throws polydg::Error naming the element when
/// f is not finite at a quadrature point or the mass matrix is not positive definite.
#include <cmath>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/core/point_io.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/dg/quadrature_degree.hpp"
#include "polydg/fem/legendre_basis.hpp"
#include "polydg/fem/mapped_quadrature.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

namespace detail {

/// Solves M c = r in place for a symmetric positive definite n × n matrix (row-major; only the
/// lower triangle is read and it is overwritten by the Cholesky factor); r becomes c. Returns
/// false when a pivot is not positive (M not positive definite to round-off).
inline bool cholesky_solve(std::vector<double>& matrix, int n, double* rhs) {
  for (int j = 0; j < n; ++j) {
    double pivot = matrix[j * n + j];
    for (int k = 0; k < j; ++k) pivot -= matrix[j * n + k] * matrix[j * n + k];
    if (!(pivot > 0)) return false;
    const double diagonal = std::sqrt(pivot);
    matrix[j * n + j] = diagonal;
    for (int i = j + 1; i < n; ++i) {
      double entry = matrix[i * n + j];
      for (int k = 0; k < j; ++k) entry -= matrix[i * n + k] * matrix[j * n + k];
      matrix[i * n + j] = entry / diagonal;
    }
  }
  for (int i = 0; i < n; ++i) {  // L y = r
    for (int k = 0; k < i; ++k) rhs[i] -= matrix[i * n + k] * rhs[k];
    rhs[i] /= matrix[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {  // Lᵀ c = y
    for (int k = i + 1; k < n; ++k) rhs[i] -= matrix[k * n + i] * rhs[k];
    rhs[i] /= matrix[i * n + i];
  }
  return true;
}

}  // namespace detail

template <int Dim, class Function>
std::vector<double> l2_project(const PolytopicMesh<Dim>& mesh, const Function& function,
                               const QuadratureDegrees& degrees = {}) {
  const std::vector<GlobalIndex> offsets = dg_coefficient_offsets<Dim>(mesh.degrees());
  std::vector<double> coefficients(std::size_t(offsets.back()), 0.0);
  // The rule cache builds each rule once; build them before the parallel loop.
  for (Index e = 0; e < mesh.element_count(); ++e)
    simplex_rule<Dim>(degrees.element(mesh.element_degree(e)));

  parallel_for(0, mesh.element_count(), [&](Index e) {
    const int p = mesh.element_degree(e);
    const int n = basis_size(Dim, p);
    const Box<Dim>& box = mesh.element_box(e);
    const QuadratureRule<Dim>& reference = simplex_rule<Dim>(degrees.element(p));
    std::vector<double> mass(std::size_t(n) * n, 0.0);
    double* rhs = coefficients.data() + offsets[e];
    double values[basis_size(Dim, max_basis_degree)];
    for (const auto& simplex : mesh.element_simplices(e)) {
      const QuadratureRule<Dim> rule = map_to_simplex(reference, mesh.simplex_points(simplex));
      for (std::size_t q = 0; q < rule.size(); ++q) {
        const Point<Dim>& x = rule.points[q];
        const double f = function(x);
        require(std::isfinite(f), "l2_project: the function is not finite (", f, ") at x = ", x,
                " in element ", e);
        evaluate_basis(p, box, x, values);
        const double w = rule.weights[q];
        for (int j = 0; j < n; ++j) {
          rhs[j] += w * f * values[j];
          for (int k = 0; k <= j; ++k) mass[j * n + k] += w * values[j] * values[k];
        }
      }
    }
    require(detail::cholesky_solve(mass, n, rhs), "l2_project: the mass matrix of element ", e,
            " (degree ", p, ", ", n, " basis functions) is not positive definite");
  });
  return coefficients;
}

}  // namespace polydg
