#pragma once
/// A quadrature rule: points and weights in R^Dim, on a reference domain or mapped to a physical
/// simplex, facet or box (host data; kernels get flat copies of points and weights).
#include <cstddef>
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg {

/// Where a rule's points lie. The reference domains are chosen so that they fit together:
/// the reference simplex has vertices 0, e_1, …, e_Dim (volume 1/Dim!), the segment rule is
/// the 1-simplex [0, 1], the cube is [0, 1]^Dim, and the prism is the (Dim−1)-simplex × [0, 1]
/// with time (the extruded direction) as the last coordinate. Only the Gauss rules on which the
/// others are built live on [−1, 1].
enum class ReferenceDomain {
  interval,  ///< [−1, 1]: Gauss–Legendre / Gauss–Jacobi (Jacobi weight folded into the weights)
  simplex,    ///< conv{0, e_1, …, e_Dim}
  unit_cube,  ///< [0, 1]^Dim
  prism,      ///< conv{0, e_1, …, e_{Dim−1}} × [0, 1]
  physical,   ///< mapped onto an element, a facet or a box
};

/// Σ_q weights[q] f(points[q]) ≈ ∫ f. `degree` is the total polynomial degree integrated exactly
/// (a cube rule of degree q is exact even for degree q in each variable separately; a prism
/// rule stores min(space degree, time degree)).
template <int Dim>
struct QuadratureRule {
  std::vector<Point<Dim>> points;
  std::vector<double> weights;
  int degree = 0;
  ReferenceDomain domain = ReferenceDomain::physical;

  std::size_t size() const { return weights.size(); }
};

}  // namespace polydg
