#pragma once
// The points of an orbit of the triangle's six symmetries, shared by the symmetric triangle
// rules and the prism rules built on them (src/fem only).
#include <utility>

namespace polydg::detail {

/// Calls visit(x, y) for each point (x, y) = (λ_1, λ_2) of the orbit in barycentric coordinates
/// with `points` points: the centroid (1), (a, a, 1 − 2a) and its permutations (3), or
/// (a, b, 1 − a − b) and its permutations (6); always in this order. Real is double, or long
/// double where the symmetric triangle rules are refined.
template <class Real, class Visit>
void for_each_triangle_orbit_point(int points, Real a, Real b, Visit visit) {
  if (points == 1) {
    const Real third = Real(1) / Real(3);
    visit(third, third);
  } else if (points == 3) {
    const Real c = 1 - 2 * a;
    visit(a, a);
    visit(a, c);
    visit(c, a);
  } else {
    const Real c = 1 - a - b;
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}, std::pair{a, c}, std::pair{c, a},
                               std::pair{b, c}, std::pair{c, b}})
      visit(x, y);
  }
}

}  // namespace polydg::detail
