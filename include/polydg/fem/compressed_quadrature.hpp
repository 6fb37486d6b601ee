#pragma once
/// Compression of a positive quadrature rule in 2D (Carathéodory–Tchakaloff; docs/theory.md,
/// "Explicit path for conservation laws", polygons): from the points x_k and weights w_k > 0 of
/// a rule on a region K — e.g. a polygon's sub-triangle rules, k · V points for k sub-triangles
/// — keep at most dim P_d = (d + 1)(d + 2) / 2 of the same points, with new positive weights,
/// that integrate every polynomial of total degree ≤ d exactly as the given rule does. A
/// positive rule with that few points exists by Carathéodory's theorem; it is found by moving
/// the weights along null vectors of the moment matrix until one weight vanishes, one point at
/// a time.
///
///   std::vector<Point<2>> points = ...;  std::vector<double> weights = ...;
///   compress_positive_rule(box, 2 * p, points, weights);   // in place
///
/// The moments are those of the bounding-box Legendre products of degree ≤ d on `box` (a box
/// holding the points: well-conditioned on it). Returns false and leaves the rule unchanged
/// where it has no more points than dim P_d, where d > max_basis_degree, or where the result
/// does not reproduce the moments to 1e-12 relative (its safety check), or a weight is not
/// positive; true after compressing.
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg {

bool compress_positive_rule(const Box<2>& box, int degree, std::vector<Point<2>>& points,
                            std::vector<double>& weights);

}  // namespace polydg
