#pragma once
/// The interior-penalty parameter σ of SPEC §2 (seed 004, Appendix A), per fine facet F:
///
///   σ|F = C_σ · max over the elements κ next to F of  C_INV · ā_κ · p_κ² · |F| / |κ|,
///   C_INV = min(|κ| / |K_F|, p_κ^{2(d−1)}) (default, SPEC) or |κ| / |K_F| (PenaltyScaling),
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

/// Which inverse-estimate factor C_INV the penalty uses (see docs/theory.md):
///   polytopic_cap  C_INV = min(|κ| / |K_F|, p^{2(d−1)}), SPEC §2 / seed 004 Appendix A as
///                  written. The default. Smaller on large agglomerates — but with p = 1 and
///                  elements of very many fine facets it is too small for coercivity (the SIP
///                  consistency terms of all N_F facets add up): Poisson on polygons of 161
///                  triangles gave an L2 error of 0.64 (sub_simplex: 0.08), and P_1 slabs on
///                  such polygons blew up over 20 steps. Use sub_simplex there.
///   sub_simplex    C_INV = |κ| / |K_F|, so σ = C_σ ā p² |F| / |K_F| — the trace inverse
///                  estimate on the sub-simplex K_F; coercive whatever the number of faces,
///                  but larger: on the convergence study's coarse meshes (8 triangles per
///                  polygon) its errors are up to 2× larger and the p = 1 rates pre-asymptotic.
enum class PenaltyScaling { polytopic_cap, sub_simplex };

/// One element's term of σ|F: C_INV · ā · p² · |F| / |κ|.
template <int Dim>
POLYDG_HD inline double penalty_term(double element_measure, double cell_measure,
                                     double facet_measure, int degree, double diffusion,
                                     PenaltyScaling scaling = PenaltyScaling::polytopic_cap) {
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
