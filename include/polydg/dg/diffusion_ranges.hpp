#pragma once
/// Per-element entrywise extrema of the diffusion tensor A over the element's quadrature
/// points, for the penalty's ā_κ (see penalty.hpp). Recomputed whenever A may have changed.
/// Throws polydg::Error naming the element and the point when A is not finite there. A constant
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

/// The range of a diffusion coefficient that is `a` everywhere: lower = upper = a. Throws
/// polydg::Error naming the entry when a is not finite.
template <int Dim>
DiffusionRange<Dim> constant_diffusion_range(const Tensor<Dim>& a) {
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j)
      if (!std::isfinite(a[i][j]))
        raise("constant diffusion coefficient A is not finite (A[", i, "][", j, "] = ", a[i][j],
              ")");
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
