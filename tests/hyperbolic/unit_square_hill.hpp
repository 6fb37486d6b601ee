#pragma once
// The rotating hill on the unit square, as the polygon tests march it: a Gaussian of width 0.1
// at distance 0.15 from the centre (0.5, 0.5), turned once per unit time by linear advection.
#include <cmath>
#include <numbers>

#include "polydg/core/macros.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"

namespace polydg::testing {

inline hyperbolic::LinearAdvection<hyperbolic::RotatingVelocity> unit_square_hill_law() {
  return hyperbolic::LinearAdvection{
      hyperbolic::RotatingVelocity{{0.5, 0.5}, 2 * std::numbers::pi}};
}

/// The exact solution u(x, t); trivially copyable with a POLYDG_HD call (exact boundary data in
/// the GPU kernels).
struct UnitSquareHill {
  POLYDG_HD hyperbolic::State<1> operator()(const Point<2>& x, double t) const {
    const double c = std::cos(2 * std::numbers::pi * t), s = std::sin(2 * std::numbers::pi * t);
    const double dx = (x[0] - 0.5) * c + (x[1] - 0.5) * s - 0.15;
    const double dy = -(x[0] - 0.5) * s + (x[1] - 0.5) * c;
    return hyperbolic::State<1>{{std::exp(-(dx * dx + dy * dy) / (2 * 0.1 * 0.1))}};
  }
};

}  // namespace polydg::testing
