#pragma once
// Test helper: [Dong2021]'s parabolic test problem (docs/theory.md, References), u = sin(πx)
// sin(πy)(1 − t) with a = 1, w = 0, c = 1 and the source to match, as the space-time tests solve
// it.
#include <cmath>
#include <numbers>

#include "polydg/dg/coefficients.hpp"

namespace polydg::testing {

inline double heat_solution(const Point<3>& x) {
  constexpr double pi = std::numbers::pi;
  return std::sin(pi * x[0]) * std::sin(pi * x[1]) * (1 - x[2]);
}

inline auto heat_data() {
  return make_coefficients<2>()
      .with_diffusion(1.0)
      .with_reaction(1.0)
      .with_source([](const Point<3>& x) {
        constexpr double pi = std::numbers::pi;
        const double s = std::sin(pi * x[0]) * std::sin(pi * x[1]);
        return -s + (2 * pi * pi + 1) * s * (1 - x[2]);
      })
      .with_dirichlet(heat_solution);
}

}  // namespace polydg::testing
