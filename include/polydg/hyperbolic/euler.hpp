#pragma once
/// The 2D compressible Euler equations for a perfect gas, a ConservationLaw (docs/theory.md,
/// "Explicit path for conservation laws"): conserved u = (ρ, ρu, ρv, E), p = (γ − 1)(E − ½ρ|v|²),
///   F_x = (ρu, ρu² + p, ρuv, u(E + p)),   F_y = (ρv, ρuv, ρv² + p, v(E + p)),
/// eigenvalues of ∂(F·n)/∂u: v·n − c, v·n (twice), v·n + c with c = √(γp/ρ).
///
///   polydg::hyperbolic::Euler gas;                                   // γ = 1.4
///   auto u = gas.conserved({1.0, {0.5, 0.0}, 1.0});      // ρ, (u, v), p
///   double c = gas.sound_speed(u);
///
/// γ is a run-time member (one double to copy into a kernel), so one compiled solver serves
/// any gas. x and t are accepted and ignored. pressure, sound_speed and the wave speed assume
/// ρ > 0 and, for the last two, p > 0 (is_physical); otherwise they return a non-finite or
/// meaningless value, which the solver's checks report (nothing throws on the device).
#include <cmath>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"

namespace polydg::hyperbolic {

struct Euler {
  static constexpr int variables = 4;
  /// Ratio of specific heats; > 1.
  double gamma = 1.4;

  /// Density, velocity and pressure: the variables of initial and boundary data.
  struct Primitive {
    double density;
    Point<2> velocity;
    double pressure;
  };

  POLYDG_HD constexpr Point<2> velocity(const State<4>& u) const {
    return {u[1] / u[0], u[2] / u[0]};
  }
  POLYDG_HD constexpr double pressure(const State<4>& u) const {
    return (gamma - 1) * (u[3] - 0.5 * (u[1] * u[1] + u[2] * u[2]) / u[0]);
  }
  POLYDG_HD double sound_speed(const State<4>& u) const {
    return std::sqrt(gamma * pressure(u) / u[0]);
  }
  POLYDG_HD constexpr Primitive primitive(const State<4>& u) const {
    return {u[0], velocity(u), pressure(u)};
  }
  POLYDG_HD constexpr State<4> conserved(const Primitive& w) const {
    const double momentum_x = w.density * w.velocity[0];
    const double momentum_y = w.density * w.velocity[1];
    const double kinetic = 0.5 * (momentum_x * w.velocity[0] + momentum_y * w.velocity[1]);
    return {{w.density, momentum_x, momentum_y, w.pressure / (gamma - 1) + kinetic}};
  }

  POLYDG_HD constexpr Flux<4> flux(const State<4>& u, const Point<2>& = {}, double = 0) const {
    const double vx = u[1] / u[0];
    const double vy = u[2] / u[0];
    const double p = pressure(u);
    const double enthalpy = u[3] + p;  // E + p
    return {{{{u[1], u[1] * vx + p, u[2] * vx, vx * enthalpy}},
             {{u[2], u[1] * vy, u[2] * vy + p, vy * enthalpy}}}};
  }
  /// |v·n| + c for a unit n.
  POLYDG_HD double max_normal_wave_speed(const State<4>& u, const Point<2>& n, const Point<2>& = {},
                                         double = 0) const {
    return std::abs((u[1] * n[0] + u[2] * n[1]) / u[0]) + sound_speed(u);
  }
  /// ρ > 0, p > 0 and every component finite (an infinite E would give p = ∞ > 0).
  POLYDG_HD bool is_physical(const State<4>& u) const {
    for (int i = 0; i < 4; ++i)
      if (!std::isfinite(u[i])) return false;
    return u[0] > 0 && pressure(u) > 0;
  }
  /// The mirror state of a reflecting (slip) wall with unit normal n: ρ and E kept, momentum
  /// m − 2(m·n)n, so |m|, hence p, and the tangential velocity are kept and the normal velocity
  /// flips. Curved walls pass the normal of the true boundary (docs/theory.md, "Explicit path for
  /// conservation laws").
  POLYDG_HD constexpr State<4> wall_state(const State<4>& u, const Point<2>& n) const {
    const double normal_momentum = u[1] * n[0] + u[2] * n[1];
    return {{u[0], u[1] - 2 * normal_momentum * n[0], u[2] - 2 * normal_momentum * n[1], u[3]}};
  }
};

}  // namespace polydg::hyperbolic
