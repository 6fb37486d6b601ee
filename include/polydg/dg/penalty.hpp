#pragma once
/// The interior-penalty parameter σ per fine facet F (docs/theory.md, "Penalty"):
///
///   σ|F = C_σ · max over the elements κ next to F of their term (penalty_term below),
///
/// by default ā_κ · T_κ with T_κ the element's trace inverse constant; the seed's
/// C_INV · ā_κ · p_κ² · |F| / |κ| on request (PenaltyScaling). K_F is the sub-simplex of κ that
/// has F as a facet, ā_κ = ‖nᵀAn‖_{L∞(κ)}. ā_κ is bounded from the
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

/// Which inverse-estimate factor the penalty uses (docs/theory.md, "Penalty"):
///   element_trace  σ|F = C_σ · max over κ ∋ F of ā_κ · T_κ, T_κ the element's own sharp trace
///                  inverse constant divided by Dim + 1 (element_trace_constants.hpp). The
///                  default: coercive on every element whatever its number of faces, for
///                  C_σ > Dim + 1, with no more penalty than that needs. On a simplex at
///                  p = 1 it is [Dong2021]'s |F| / |κ| with F the mean facet, halved on interfaces.
///   polytopic_cap  C_INV = min(|κ| / |K_F|, p^{2(d−1)}), Appendix A of [Dong2021]
///                  (docs/theory.md, References) as written, for reproducing its numbers. Not
///                  coercive at p = 1 on agglomerates of many fine facets: the cap is 1 there and
///                  the consistency terms of all N_F facets add up (Poisson on polygons of 161
///                  triangles gave an L2 error of 0.64, element_trace 0.08; P_1 slabs on such
///                  polygons blew up).
///   sub_simplex    C_INV = |κ| / |K_F|, σ = C_σ ā p² |F| / |K_F|: the trace inverse estimate
///                  on the sub-simplex K_F. Coercive, but a factor of about the square root of
///                  the number of fine cells per element larger than it needs to be, which
///                  locks agglomerates of many cells (the jumps are over-penalised).
enum class PenaltyScaling { element_trace, polytopic_cap, sub_simplex };

/// One element's term of σ|F, without C_σ: ā · T_κ (element_trace), or
/// C_INV · ā · p² · |F| / |κ|. `element_trace_constant` is T_κ (read only by element_trace).
template <int Dim>
POLYDG_HD inline double penalty_term(double element_measure, double cell_measure,
                                     double facet_measure, int degree, double diffusion,
                                     PenaltyScaling scaling, double element_trace_constant) {
  if (scaling == PenaltyScaling::element_trace) return diffusion * element_trace_constant;
  const double p2 = double(degree) * degree;
  const double ratio = element_measure / cell_measure;
  double factor = ratio;
  if (scaling == PenaltyScaling::polytopic_cap) {
    double cap = 1;
    for (int k = 0; k < Dim - 1; ++k) cap *= p2;  // p^{2(d−1)}
    factor = ratio < cap ? ratio : cap;
  }
  return factor * diffusion * p2 * facet_measure / element_measure;
}

}  // namespace polydg
