#pragma once
/// The interior-penalty parameter σ of SPEC §2 (seed 004, Appendix A), per fine facet F:
///
///   σ|F = C_σ · max over the elements κ next to F of
///         min(|κ| / |K_F|, p_κ^{2(d−1)}) · ā_κ · p_κ² · |F| / |κ|,
///
/// K_F the sub-simplex of κ that has F as a facet, ā_κ = ‖nᵀAn‖_{L∞(κ)}. ā_κ is bounded from the
/// entrywise extrema of A over κ's quadrature points (diffusion_bound below): exact when A is
/// constant on κ, and zero where nᵀAn vanishes identically, so faces with ā = 0 on both sides
/// carry no penalty.
#include <cmath>

#include "polydg/core/types.hpp"

namespace polydg {

/// Entrywise minimum and maximum of A over an element's quadrature points.
template <int Dim>
struct DiffusionRange {
  Tensor<Dim> lower;
  Tensor<Dim> upper;
};

/// Upper bound of max_x nᵀA(x)n over the element: Σ_ij n_i n_j (upper_ij if n_i n_j ≥ 0,
/// else lower_ij), clamped at 0.
template <int Dim>
POLYDG_HD inline double diffusion_bound(const DiffusionRange<Dim>& range, const Point<Dim>& n) {
  double bound = 0;
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j) {
      const double weight = n[i] * n[j];
      bound += weight * (weight >= 0 ? range.upper[i][j] : range.lower[i][j]);
    }
  return bound > 0 ? bound : 0;
}

/// One element's term of σ|F: min(|κ|/|K_F|, p^{2(d−1)}) · ā · p² · |F| / |κ|.
template <int Dim>
POLYDG_HD inline double penalty_term(double element_measure, double cell_measure,
                                     double facet_measure, int degree, double diffusion) {
  const double p2 = double(degree) * degree;
  double cap = 1;
  for (int k = 0; k < Dim - 1; ++k) cap *= p2;  // p^{2(d−1)}
  const double ratio = element_measure / cell_measure;
  return (ratio < cap ? ratio : cap) * diffusion * p2 * facet_measure / element_measure;
}

}  // namespace polydg
