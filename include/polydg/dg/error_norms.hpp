#pragma once
/// Norms of the error v = u − u_h of a DG solution u_h (laid out as in discrete_function.hpp)
/// against an exact solution u with gradient ∇u, by quadrature on the elements' sub-simplices
/// and sub-facets (degree 2p + ErrorNormOptions::extra_degree, faces the larger p of the two):
///
///   l2          = ‖v‖_{L2(Ω)}
///   h1_seminorm = (Σ_κ ‖∇v‖²_{L2(κ)})^½                                  (broken gradient)
///   dg          = |||v|||, the energy norm of the method (docs/theory.md, "Error norms"):
///
///   |||v|||² = Σ_κ ∫_κ ( A∇v·∇v + max(c, 0) v² )
///            + Σ_{F ⊂ Γint ∪ ∂Ω_D} ∫_F σ |[[v]]|²
///            + ½ Σ_{F ⊂ Γint} ∫_F |b·n| [[v]]²  +  ½ ∫_{∂Ω} |b·n| v²
///
/// σ is the assembler's penalty, per fine facet: penalty.hpp's formula with C_σ =
/// penalty_constant and ā_κ from compute_diffusion_ranges at the assembly's quadrature points
/// (assembly_degrees). u is continuous, so on an interface [[v]] = −[[u_h]] and |[[v]]|² =
/// (u_h|κ1 − u_h|κ2)²; on the boundary v = u − u_h. ∂Ω_D is the set of boundary quadrature
/// points with nᵀA(x)n > 0 on a tag that BoundaryConditions marks Dirichlet (docs/theory.md, "The
/// model problem").
///
/// Coefficients as in coefficients.hpp (diffusion, advection and reaction are read); u is
/// called as exact(x) → double and ∇u as exact_gradient(x) → Point<Dim>, from several
/// threads at once (they must be safe for that, as plain lambdas are). Parallel over
/// elements and then over interfaces, each writing its own partial sums, which are added in
/// index order: the same result on every run, whatever the thread count. Throws
/// polydg::Error naming the element when a coefficient of u_h, u(x) or ∇u(x) is not finite,
/// and for a solution of the wrong length.
#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/core/point_io.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/diffusion_ranges.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/dg/element_trace_constants.hpp"
#include "polydg/dg/penalty.hpp"
#include "polydg/dg/quadrature_degree.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/fem/mapped_quadrature.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

struct ErrorNorms {
  double l2 = 0;
  double h1_seminorm = 0;
  double dg = 0;
};

struct ErrorNormOptions {
  /// C_σ of the penalty (docs/theory.md, "Penalty"); use the assembler's.
  double penalty_constant = 10;
  /// The penalty's scaling, for the overload that builds its own QuadratureMesh (the other
  /// takes the mesh's); use the assembler's. error_norm_options(AssemblyOptions) copies both.
  PenaltyScaling penalty_scaling = PenaltyScaling::element_trace;
  /// The assembler's quadrature degrees: ā_κ is taken at the same points, so σ is its σ.
  QuadratureDegrees assembly_degrees{};
  /// The error integrals use degree 2p + extra_degree (u is not a polynomial).
  int extra_degree = 4;
};

namespace detail {

/// u(x) and ∇u(x), checked finite.
template <int Dim, class Exact, class ExactGradient>
double exact_value_and_gradient(const Exact& exact, const ExactGradient& exact_gradient,
                                const Point<Dim>& x, Index e, Point<Dim>& gradient) {
  const double u = exact(x);
  require(std::isfinite(u), "error norms: the exact solution is not finite (", u, ") at x = ", x,
          " in element ", e);
  gradient = exact_gradient(x);
  for (int i = 0; i < Dim; ++i)
    require(std::isfinite(gradient[i]), "error norms: the exact gradient is not finite (", gradient,
            ") at x = ", x, " in element ", e);
  return u;
}

}  // namespace detail

/// The error norms on a QuadratureMesh built for `mesh`'s boundary conditions.
template <int Dim, class Coefficients, class Exact, class ExactGradient>
ErrorNorms compute_error_norms(const QuadratureMesh<Dim>& mesh, const Coefficients& coefficients,
                               std::span<const double> solution, const Exact& exact,
                               const ExactGradient& exact_gradient,
                               const ErrorNormOptions& options = {}) {
  const std::vector<GlobalIndex> offsets = dg_coefficient_offsets<Dim>(mesh.element_degrees);
  require_coefficient_count(solution, offsets, "error norms");
  require_penalty_data(mesh, "error norms");
  const std::vector<DiffusionRange<Dim>> ranges =
      compute_diffusion_ranges(mesh, coefficients, options.assembly_degrees);
  const QuadratureDegrees degrees{options.extra_degree};
  for (int p : mesh.element_degrees) {  // build the cached rules outside the parallel loops
    element_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.element(p));
    simplex_rule<Dim - 1>(degrees.element(p));
    interface_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.face(p, p));
  }
  const double c_sigma = options.penalty_constant;

  // Elements: volume terms and their boundary facets. partial[e] = {‖v‖², ‖∇v‖², |||v|||²}.
  // On a rank's part (quadrature_mesh.hpp) the owned elements only; the solution holds the
  // ghosts' coefficients too, which the halo interfaces' jumps read.
  std::vector<std::array<double, 3>> element_sums(mesh.element_count());
  for (Index e = mesh.owned_element_count; e < mesh.element_count(); ++e)
    require_finite_coefficients(solution.data() + offsets[e],
                                basis_size(Dim, mesh.element_degrees[e]), e, "error norms");
  parallel_for(0, mesh.owned_element_count, [&](Index e) {
    const int p = mesh.element_degrees[e];
    const Box<Dim>& box = mesh.element_boxes[e];
    const double* u_h = solution.data() + offsets[e];
    require_finite_coefficients(u_h, basis_size(Dim, p), e, "error norms");
    double l2 = 0, h1 = 0, dg = 0;

    const QuadratureRule<Dim>& volume_reference =
        element_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.element(p));
    for (Index s = mesh.element_simplex_offsets[e]; s < mesh.element_simplex_offsets[e + 1]; ++s) {
      const QuadratureRule<Dim> rule = map_to_simplex(volume_reference, mesh.simplex_vertices[s]);
      for (std::size_t q = 0; q < rule.size(); ++q) {
        const Point<Dim>& x = rule.points[q];
        Point<Dim> grad_u, grad_u_h;
        const double u = detail::exact_value_and_gradient(exact, exact_gradient, x, e, grad_u);
        const double v = u - evaluate_dg_function_gradient(p, box, u_h, x, grad_u_h);
        const Point<Dim> grad_v = grad_u - grad_u_h;
        const double c = coefficients.reaction(x);
        const double w = rule.weights[q];
        l2 += w * v * v;
        h1 += w * dot(grad_v, grad_v);
        dg += w * (dot(coefficients.diffusion(x) * grad_v, grad_v) + (c > 0 ? c : 0) * v * v);
      }
    }

    const QuadratureRule<Dim - 1>& facet_reference = simplex_rule<Dim - 1>(degrees.element(p));
    for (Index f = mesh.element_boundary_offsets[e]; f < mesh.element_boundary_offsets[e + 1];
         ++f) {
      const Point<Dim>& n = mesh.boundary_facet_normals[f];
      const bool dirichlet = mesh.boundary_facet_kinds[f] == BoundaryKind::dirichlet;
      const double sigma =
          c_sigma *
          penalty_term<Dim>(mesh.element_measures[e], mesh.boundary_facet_cell_measures[f],
                            mesh.boundary_facet_measures[f], p, diffusion_bound(ranges[e], n),
                            mesh.penalty_scaling, element_trace_constant(mesh, e));
      const QuadratureRule<Dim> rule =
          map_to_facet(facet_reference, mesh.boundary_facet_vertices[f]);
      for (std::size_t q = 0; q < rule.size(); ++q) {
        const Point<Dim>& x = rule.points[q];
        Point<Dim> grad_u;
        const double u = detail::exact_value_and_gradient(exact, exact_gradient, x, e, grad_u);
        const double v = u - evaluate_dg_function(p, box, u_h, x);
        const double normal_diffusion = dot(n, coefficients.diffusion(x) * n);
        const double penalty = dirichlet && normal_diffusion > 0 ? sigma : 0;
        dg += rule.weights[q] * (penalty + 0.5 * std::fabs(dot(coefficients.advection(x), n))) * v *
              v;
      }
    }
    element_sums[e] = {l2, h1, dg};
  });

  // Interfaces: [[v]] = −[[u_h]]; u_h's coefficients were checked above.
  std::vector<double> interface_sums(mesh.interface_count());
  parallel_for(0, mesh.interface_count(), [&](Index i) {
    const auto [a, b] = mesh.interface_elements[i];
    const int p_a = mesh.element_degrees[a], p_b = mesh.element_degrees[b];
    const QuadratureRule<Dim - 1>& reference =
        interface_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.face(p_a, p_b));
    double dg = 0;
    for (Index f = mesh.interface_facet_offsets[i]; f < mesh.interface_facet_offsets[i + 1]; ++f) {
      const Point<Dim>& n = mesh.interface_facet_normals[f];
      const double measure = mesh.interface_facet_measures[f];
      const auto& cells = mesh.interface_facet_cell_measures[f];
      const double term_a = penalty_term<Dim>(mesh.element_measures[a], cells[0], measure, p_a,
                                              diffusion_bound(ranges[a], n), mesh.penalty_scaling,
                                              element_trace_constant(mesh, a));
      const double term_b = penalty_term<Dim>(mesh.element_measures[b], cells[1], measure, p_b,
                                              diffusion_bound(ranges[b], n), mesh.penalty_scaling,
                                              element_trace_constant(mesh, b));
      const double sigma = c_sigma * (term_a > term_b ? term_a : term_b);
      const QuadratureRule<Dim> rule = map_to_facet(reference, mesh.interface_facet_vertices[f]);
      for (std::size_t q = 0; q < rule.size(); ++q) {
        const Point<Dim>& x = rule.points[q];
        const double jump =
            evaluate_dg_function(p_a, mesh.element_boxes[a], solution.data() + offsets[a], x) -
            evaluate_dg_function(p_b, mesh.element_boxes[b], solution.data() + offsets[b], x);
        dg += rule.weights[q] * (sigma + 0.5 * std::fabs(dot(coefficients.advection(x), n))) *
              jump * jump;
      }
    }
    // A halo interface (one element a ghost) is counted half here and half by its other rank.
    interface_sums[i] = b < mesh.owned_element_count ? dg : 0.5 * dg;
  });

  double l2 = 0, h1 = 0, dg = 0;
  for (const auto& sums : element_sums) {
    l2 += sums[0];
    h1 += sums[1];
    dg += sums[2];
  }
  for (double sum : interface_sums) dg += sum;
  return {std::sqrt(l2), std::sqrt(h1), std::sqrt(dg)};
}

/// The error norms on `mesh` with the boundary conditions `conditions` (which decide where
/// ∂Ω_D is); builds the QuadratureMesh and calls the overload above. Also throws (from
/// BoundaryConditions) for a boundary tag with no condition.
template <int Dim, class Coefficients, class Exact, class ExactGradient>
ErrorNorms compute_error_norms(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                               const Coefficients& coefficients, std::span<const double> solution,
                               const Exact& exact, const ExactGradient& exact_gradient,
                               const ErrorNormOptions& options = {}) {
  QuadratureMesh<Dim> quadrature_mesh(mesh, conditions);
  set_penalty_scaling(quadrature_mesh, options.penalty_scaling);
  return compute_error_norms(quadrature_mesh, coefficients, solution, exact, exact_gradient,
                             options);
}

/// ‖u_h‖_{L2(Ω)} by quadrature of degree degrees.element(p) on each element's sub-simplices
/// (exact for u_h² when extra ≥ 0). Deterministic like compute_error_norms; throws
/// polydg::Error for a solution of the wrong length or a non-finite coefficient (naming the
/// element).
template <int Dim>
double l2_norm(const PolytopicMesh<Dim>& mesh, std::span<const double> solution,
               const QuadratureDegrees& degrees = {}) {
  const std::vector<GlobalIndex> offsets = dg_coefficient_offsets<Dim>(mesh.degrees());
  require_coefficient_count(solution, offsets, "l2_norm");
  for (int p : mesh.degrees()) simplex_rule<Dim>(degrees.element(p));
  std::vector<double> element_sums(mesh.element_count());
  parallel_for(0, mesh.element_count(), [&](Index e) {
    const int p = mesh.element_degree(e);
    const double* u_h = solution.data() + offsets[e];
    require_finite_coefficients(u_h, basis_size(Dim, p), e, "l2_norm");
    const QuadratureRule<Dim>& reference = simplex_rule<Dim>(degrees.element(p));
    double sum = 0;
    for (const auto& simplex : mesh.element_simplices(e)) {
      const QuadratureRule<Dim> rule = map_to_simplex(reference, mesh.simplex_points(simplex));
      for (std::size_t q = 0; q < rule.size(); ++q) {
        const double value = evaluate_dg_function(p, mesh.element_box(e), u_h, rule.points[q]);
        sum += rule.weights[q] * value * value;
      }
    }
    element_sums[e] = sum;
  });
  double sum = 0;
  for (double s : element_sums) sum += s;
  return std::sqrt(sum);
}

}  // namespace polydg
