#pragma once
/// The local Lax–Friedrichs flux of the explicit DG path (docs/theory.md, "Explicit path for
/// conservation laws"), for any ConservationLaw, on host and device: at a surface quadrature point
/// x of an edge with unit normal n pointing from the left element into the right one (on the
/// boundary: from the domain into the ghost state),
///   F*(u_l, u_r, n) = ½[(F(u_l) + F(u_r))·n + λ(u_l − u_r)],
///   λ = max(max_normal_wave_speed(u_l, n), max_normal_wave_speed(u_r, n)).
/// It is consistent, F*(u, u, n) = F(u)·n, and conservative, F*(u_l, u_r, n) = −F*(u_r, u_l, −n);
/// the solver computes each edge's flux once and adds it to one side and subtracts it from the
/// other.
#include <cmath>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"

namespace polydg::hyperbolic {

template <ConservationLaw Law>
POLYDG_HD State<Law::variables> local_lax_friedrichs_flux(const Law& law,
                                                          const State<Law::variables>& u_left,
                                                          const State<Law::variables>& u_right,
                                                          const Point<2>& n, const Point<2>& x,
                                                          double t) {
  constexpr int m = Law::variables;
  const State<m> flux_left = physical_normal_flux(law, u_left, n, x, t);
  const State<m> flux_right = physical_normal_flux(law, u_right, n, x, t);
  const double speed_left = law.max_normal_wave_speed(u_left, n, x, t);
  const double speed_right = law.max_normal_wave_speed(u_right, n, x, t);
  // Not std::fmax, which drops a NaN: a speed that is NaN (negative pressure with finite
  // components) must reach the residual, where the solver's finiteness check reports it.
  const double lambda =
      std::isnan(speed_left) || speed_left >= speed_right ? speed_left : speed_right;
  State<m> result;
  for (int i = 0; i < m; ++i)
    result[i] = 0.5 * ((flux_left[i] + flux_right[i]) + lambda * (u_left[i] - u_right[i]));
  return result;
}

}  // namespace polydg::hyperbolic
