#pragma once
/// The double Mach reflection (docs/theory.md, "Explicit path for conservation laws"): a Mach 10
/// shock in a perfect gas (γ = 1.4) meets a reflecting wall at 60°, the Euler equations'
/// strong-shock test for the limiter and the positivity fix.
///
///   using namespace polydg::hyperbolic;
///   const DoubleMachReflection problem;
///   const SimplexMesh<2> mesh = double_mach_reflection_mesh(60, problem);   // 8 · 60² triangles
///   ExplicitTriangleDG dg(mesh, 1, problem.gas);
///   BarthJespersenLimiter limiter(dg);
///   PositivityFix positivity(dg);
///   const auto limit = [&](std::span<double> v) { limiter(v); positivity(v); };
///   auto u = dg.project([&](const Point<2>& x) { return problem.initial_state(x); });
///   limit(u);
///   TimeStepper stepper(dg, TimeScheme::ssp_rk2, limit);
///   stepper.advance(u, 0.0, 0.2, double_mach_reflection_boundary(problem), 0.5);
///
/// The set-up (the wedge's frame turned so that the wall is the x axis): Ω = [0, 4] × [0, 1];
/// gas at rest with ρ = 1.4, p = 1 (sound speed 1) ahead of a shock of Mach number M = 10 that
/// makes the angle θ = 60° with the x axis and crosses y = 0 at x_0 = 1/6 at t = 0. Behind it,
/// by the Rankine–Hugoniot conditions,
///   ρ_s = ρ (γ + 1) M² / ((γ − 1) M² + 2) = 8,   p_s = p (1 + 2γ (M² − 1) / (γ + 1)) = 116.5,
///   |v_s| = M c (1 − ρ / ρ_s) = 8.25 along the shock's normal (sin θ, −cos θ),
/// and the shock is where x = x_s(y, t) = x_0 + y / tan θ + M c t / sin θ
/// (= 1/6 + (y + 20 t)/√3).
///
/// Boundaries (tags below): the post-shock state flows in at x = 0 and on y = 0 for x < x_0;
/// the wall y = 0, x ≥ x_0 reflects; x = 4 is an outflow (ghost = inside state, the gas there is
/// at rest until t = 0.2); on y = 1 the ghost state is the undisturbed incident shock's state at
/// each Gauss point, post-shock where x < x_s(1, t), pre-shock beyond: the boundary follows the
/// shock, which keeps the shock straight far from the wall.
///
/// Mesh (double_mach_reflection_mesh): `resolution` rows of rectangles in y, columns of about
/// the same width in x with a column edge on x = x_0 (so that the bottom's two conditions meet
/// at a vertex), each rectangle cut into two triangles along alternating diagonals:
/// about 8 · resolution² triangles. The published unstructured meshes A and C of docs/theory.md's
/// reference (68,622 and 964,338 triangles) correspond to resolutions of about 93 and 347.
#include <cmath>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/euler_boundary.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::hyperbolic {

/// The problem's parameters and its incident-shock solution. Trivially copyable, POLYDG_HD
/// members: usable in kernels as a boundary functor's member.
struct DoubleMachReflection {
  /// x = 0: inflow of the post-shock state.
  static constexpr int left_tag = 1;
  /// y = 0, x < x_0: the post-shock state (ahead of the wedge).
  static constexpr int bottom_inflow_tag = 2;
  /// y = 0, x ≥ x_0: the reflecting wall.
  static constexpr int wall_tag = 3;
  /// x = length: outflow.
  static constexpr int right_tag = 4;
  /// y = height: the moving incident shock's exact state.
  static constexpr int top_tag = 5;

  Euler gas{};
  double mach = 10.0;
  /// The shock's angle with the x axis, in radians (60°).
  double shock_angle = 1.0471975511965976;
  /// x_0: where the wall starts and the shock meets y = 0 at t = 0.
  double wall_start = 1.0 / 6.0;
  double length = 4.0;
  double height = 1.0;
  double pre_shock_density = 1.4;
  double pre_shock_pressure = 1.0;

  POLYDG_HD double pre_shock_sound_speed() const {
    return std::sqrt(gas.gamma * pre_shock_pressure / pre_shock_density);
  }
  /// Ahead of the shock: at rest.
  POLYDG_HD Euler::Primitive pre_shock() const {
    return {pre_shock_density, {0.0, 0.0}, pre_shock_pressure};
  }
  /// Behind the shock (Rankine–Hugoniot, file comment).
  POLYDG_HD Euler::Primitive post_shock() const {
    const double g = gas.gamma, m2 = mach * mach;
    const double density = pre_shock_density * (g + 1) * m2 / ((g - 1) * m2 + 2);
    const double pressure = pre_shock_pressure * (1 + 2 * g * (m2 - 1) / (g + 1));
    const double speed = mach * pre_shock_sound_speed() * (1 - pre_shock_density / density);
    return {density, {speed * std::sin(shock_angle), -speed * std::cos(shock_angle)}, pressure};
  }
  /// x_s(y, t): where the incident shock crosses the line of height y at time t.
  POLYDG_HD double shock_position(double y, double t) const {
    return wall_start + y / std::tan(shock_angle) +
           mach * pre_shock_sound_speed() * t / std::sin(shock_angle);
  }
  /// The conserved state of the undisturbed incident shock at (x, t): post-shock for
  /// x < x_s(y, t), pre-shock otherwise.
  POLYDG_HD State<4> incident_shock_state(const Point<2>& x, double t) const {
    // Two returns, not a choice between two structs: that choice went through a GPU thread's
    // local memory.
    if (x[0] < shock_position(x[1], t)) return gas.conserved(post_shock());
    return gas.conserved(pre_shock());
  }
  POLYDG_HD State<4> initial_state(const Point<2>& x) const { return incident_shock_state(x, 0); }
};

/// The mesh of [0, length] × [0, height] described in the file comment, with the tags of
/// DoubleMachReflection. Throws polydg::Error for resolution outside 1..2000 or a problem whose
/// sizes are not 0 < x_0 < length, height > 0.
SimplexMesh<2> double_mach_reflection_mesh(int resolution,
                                           const DoubleMachReflection& problem = {});

/// Ghost states (file comment): the incident shock's state on the top, EulerBoundary's rules
/// (post-shock inflow, wall, outflow) on the other tags. Trivially copyable, POLYDG_HD.
struct DoubleMachReflectionBoundary {
  DoubleMachReflection problem;
  EulerBoundary fixed;

  POLYDG_HD State<4> operator()(const State<4>& u, const Point<2>& x, const Point<2>& n, double t,
                                int tag) const {
    if (tag == DoubleMachReflection::top_tag) return problem.incident_shock_state(x, t);
    return fixed(u, x, n, t, tag);
  }
};

/// The boundary functor of `problem` (its EulerBoundary filled for the four fixed tags).
DoubleMachReflectionBoundary double_mach_reflection_boundary(
    const DoubleMachReflection& problem = {});

}  // namespace polydg::hyperbolic
