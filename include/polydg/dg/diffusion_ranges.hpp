#pragma once
/// Per-element entrywise extrema of the diffusion tensor A over the element's quadrature
/// points, for the penalty's ā_κ (see penalty.hpp). Recomputed whenever A may have changed.
/// Throws polydg::Error naming the element and the point when A is not finite there, or not
/// symmetric positive semidefinite (diffusion_defect). A constant
/// A (ConstantCoefficient, coefficients.hpp) is every element's range as it is: no points are
/// visited, and the ranges are the ones the points would give.
#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/core/point_io.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/dg/penalty.hpp"
#include "polydg/dg/quadrature_degree.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/fem/quadrature_cache.hpp"

namespace polydg {

/// What is wrong with a finite diffusion tensor, or nullptr when nothing is: A must be
/// symmetric and positive semidefinite (problem (1)). Both to rounding, relative to the largest
/// entry s: |A_ij − A_ji| ≤ 1e-12 s, and every principal minor of order k ≥ −1e-12 s^k (all
/// principal minors non-negative is the criterion for a symmetric matrix).
template <int Dim>
const char* diffusion_defect(const Tensor<Dim>& a) {
  double scale = 0;
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j) scale = std::max(scale, std::fabs(a[i][j]));
  const double tolerance = 1e-12;
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < i; ++j)
      if (std::fabs(a[i][j] - a[j][i]) > tolerance * scale) return "not symmetric";
  for (int i = 0; i < Dim; ++i)
    if (a[i][i] < -tolerance * scale) return "not positive semidefinite (a diagonal entry < 0)";
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < i; ++j)
      if (a[i][i] * a[j][j] - a[i][j] * a[j][i] < -tolerance * scale * scale)
        return "not positive semidefinite (a 2 x 2 principal minor < 0)";
  if constexpr (Dim == 3) {
    const double determinant = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                               a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                               a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    if (determinant < -tolerance * scale * scale * scale)
      return "not positive semidefinite (its determinant < 0)";
  }
  return nullptr;
}

/// The range of a diffusion coefficient that is `a` everywhere: lower = upper = a. Throws
/// polydg::Error naming the entry when a is not finite, and saying what is wrong when it is not
/// symmetric positive semidefinite.
template <int Dim>
DiffusionRange<Dim> constant_diffusion_range(const Tensor<Dim>& a) {
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j)
      if (!std::isfinite(a[i][j]))
        raise("constant diffusion coefficient A is not finite (A[", i, "][", j, "] = ", a[i][j],
              ")");
  if (const char* defect = diffusion_defect(a))
    raise("constant diffusion coefficient A = ", a, " is ", defect,
          ": the problem needs A symmetric positive semidefinite");
  return DiffusionRange<Dim>{a, a};
}

/// Writes ranges[e] for every element e (ranges.size() must be the element count).
template <int Dim, class Coefficients>
void compute_diffusion_ranges(const QuadratureMesh<Dim>& mesh, const Coefficients& coefficients,
                              const QuadratureDegrees& degrees,
                              std::span<DiffusionRange<Dim>> ranges) {
  require(Index(ranges.size()) == mesh.element_count(), "compute_diffusion_ranges: ", ranges.size(),
          " ranges for ", mesh.element_count(), " elements");
  if constexpr (ConstantCoefficient<decltype(coefficients.diffusion)>) {
    std::fill(ranges.begin(), ranges.end(),
              constant_diffusion_range<Dim>(coefficients.diffusion.constant_value()));
  } else {
    // Rules are looked up (and built) before the parallel loop: the cache locks on first use.
    for (int p = 0; p <= mesh.max_degree(); ++p)
      element_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.element(p));
    parallel_for(0, mesh.element_count(), [&](Index e) {
      const auto& rule = element_piece_rule<Dim>(mesh.pieces, mesh.slab_rules,
                                                 degrees.element(mesh.element_degrees[e]));
      DiffusionRange<Dim> range;
      bool first = true;
      for (Index s = mesh.element_simplex_offsets[e]; s < mesh.element_simplex_offsets[e + 1]; ++s)
        for (std::size_t q = 0; q < rule.size(); ++q) {
          const Point<Dim> x =
              map_reference_point<Dim, Dim>(mesh.simplex_vertices[s].data(), rule.points[q]);
          const Tensor<Dim> a = coefficients.diffusion(x);
          for (int i = 0; i < Dim; ++i)
            for (int j = 0; j < Dim; ++j) {
              if (!std::isfinite(a[i][j]))
                raise("diffusion coefficient A(x) is not finite (A[", i, "][", j, "] = ", a[i][j],
                      ") at x = ", x, " in element ", e);
              range.lower[i][j] = first ? a[i][j] : std::fmin(range.lower[i][j], a[i][j]);
              range.upper[i][j] = first ? a[i][j] : std::fmax(range.upper[i][j], a[i][j]);
            }
          if (const char* defect = diffusion_defect(a))
            raise("diffusion coefficient A(x) = ", a, " is ", defect, " at x = ", x, " in element ",
                  e, ": the problem needs A symmetric positive semidefinite");
          first = false;
        }
      ranges[e] = range;
    });
  }
}

/// The same, returning a new vector.
template <int Dim, class Coefficients>
std::vector<DiffusionRange<Dim>> compute_diffusion_ranges(const QuadratureMesh<Dim>& mesh,
                                                          const Coefficients& coefficients,
                                                          const QuadratureDegrees& degrees) {
  std::vector<DiffusionRange<Dim>> ranges(mesh.element_count());
  compute_diffusion_ranges(mesh, coefficients, degrees, std::span<DiffusionRange<Dim>>(ranges));
  return ranges;
}

}  // namespace polydg
