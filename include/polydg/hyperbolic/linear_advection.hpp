#pragma once
/// Scalar linear advection u_t + ∇·(a u) = 0 with a velocity field a(x, t): the ConservationLaw
/// of the rotating hill (docs/theory.md, "Explicit path for conservation laws"), m = 1, F(u) = a u,
/// wave speed |a·n|.
///
///   using namespace polydg::hyperbolic;
///   LinearAdvection hill{RotatingVelocity{}};   // a = (−y, x)
///   LinearAdvection drift{[](const polydg::Point<2>&, double) {
///     return polydg::Point<2>{1.0, 0.5};
///   }};
///
/// The velocity is any callable velocity(x, t) → Point<2>, or velocity(x) → Point<2> for a
/// steady field (Constant<Point<2>> from dg/coefficients.hpp works too). For the CUDA path it
/// must be POLYDG_HD: a named functor such as RotatingVelocity, or an extended
/// __host__ __device__ lambda. The formulation is conservative, so a divergent a is allowed; the
/// rotating hill's a is divergence-free, where it is also u_t + a·∇u = 0.
#include <cmath>
#include <type_traits>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"

namespace polydg::hyperbolic {

/// A velocity field of (x, t) or of x alone.
template <class Velocity>
concept AdvectionVelocity = std::is_invocable_r_v < Point<2>,
const Velocity&, const Point<2>&,
    double > || std::is_invocable_r_v<Point<2>, const Velocity&, const Point<2>&>;

/// Solid-body rotation about `centre` with angular speed ω: a(x) = ω (−(y − c_y), x − c_x).
struct RotatingVelocity {
  Point<2> centre{};
  double angular_speed = 1;
  POLYDG_HD constexpr Point<2> operator()(const Point<2>& x) const {
    return {-angular_speed * (x[1] - centre[1]), angular_speed * (x[0] - centre[0])};
  }
};

template <AdvectionVelocity Velocity>
struct LinearAdvection {
  static constexpr int variables = 1;
  Velocity velocity;

  /// a(x, t), whichever form velocity takes.
  POLYDG_HD constexpr Point<2> velocity_at(const Point<2>& x, double t) const {
    if constexpr (std::is_invocable_r_v<Point<2>, const Velocity&, const Point<2>&, double>)
      return velocity(x, t);
    else
      return velocity(x);
  }

  POLYDG_HD constexpr Flux<1> flux(const State<1>& u, const Point<2>& x, double t) const {
    const Point<2> a = velocity_at(x, t);
    return {{{{a[0] * u[0]}}, {{a[1] * u[0]}}}};
  }
  POLYDG_HD double max_normal_wave_speed(const State<1>&, const Point<2>& n, const Point<2>& x,
                                         double t) const {
    return std::abs(dot(velocity_at(x, t), n));
  }
  POLYDG_HD bool is_physical(const State<1>& u) const { return std::isfinite(u[0]); }
  /// The inside state, so the LLF flux there is a·n u(inside): zero where a is tangential to
  /// the wall (a·n = 0, a wall of this flow), the upwind outflow flux where a·n > 0.
  POLYDG_HD constexpr State<1> wall_state(const State<1>& u, const Point<2>&) const { return u; }
};

template <class Velocity>
LinearAdvection(Velocity) -> LinearAdvection<Velocity>;

}  // namespace polydg::hyperbolic
