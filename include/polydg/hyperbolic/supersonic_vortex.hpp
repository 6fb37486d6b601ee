#pragma once
/// The supersonic vortex [Fuhry2014, Fuhry2013]: steady isentropic flow of a perfect gas through
/// the quarter annulus r_i ≤ r ≤ r_o, 0 ≤ θ ≤ π/2 (docs/theory.md, "Explicit path for
/// conservation laws"), the Euler equations' smooth test with curved walls.
///
///   using namespace polydg::hyperbolic;
///   const SupersonicVortex vortex;                       // r_i = 1, r_o = 1.384, M_i = 2.25
///   const SimplexMesh<2> mesh = supersonic_vortex_mesh(2, vortex);   // 180 · 4² triangles
///   ExplicitTriangleDG dg(mesh, 2, vortex.gas);
///   auto u = dg.project([&](const Point<2>& x) { return vortex.exact(x); });
///   const auto march = march_to_steady_state(dg, TimeScheme::ssp_rk3, u,
///                                            SupersonicVortexBoundary{vortex}, 0.5, 1e-3, 50.0);
///   double error = dg.l2_errors(u, vortex, 0.0)[0];      // density
///
/// Exact solution: the velocity is tangential, counter-clockwise, of magnitude
/// V(r) = M_i c_i r_i / r with c_i = √(γ p_i / ρ_i), and Bernoulli's law for an isentropic gas
/// gives
///   ρ(r) = ρ_i (1 + (γ − 1)/2 · M_i² (1 − r_i²/r²))^{1/(γ−1)},   p = p_i (ρ/ρ_i)^γ,
/// p_i = ρ_i^γ / γ (so c_i = 1 and p = ρ^γ / γ for the default ρ_i = 1). The flow is supersonic
/// everywhere (M = 2.25 at r_i, ≈ 1.33 at r_o), so the straight edge θ = 0 (on the x axis) is a
/// pure inflow and θ = π/2 (on the y axis) a pure outflow.
///
/// Mesh (supersonic_vortex_mesh): structured in (r, θ), 6 · 2^k radial by 15 · 2^k angular
/// cells, each split in two triangles: 180 · 4^k triangles at level k. Vertices are placed ON
/// the arcs (r = r_i + (r_o − r_i) i / n_r exactly, θ = π/2 · j / n_θ), so a finer level is not
/// the uniform refinement of a coarser one (refinement would leave the new vertices on the
/// chords); the elements stay straight-sided. Boundary tags: inner wall, outer wall, inflow,
/// outflow (SupersonicVortex's constants).
///
/// Boundary conditions (SupersonicVortexBoundary), after Krivodonova and Berger as [Fuhry2014]
/// and [Fuhry2013] use them ("curved reflecting boundary conditions" on the curved edges,
/// inflow / outflow at the inlet and outlet):
///  * curved walls: the mirror state m_g = m − 2(m·ν)ν (Euler::wall_state) with ν = x/|x|, the
///    normal of the TRUE circle through the boundary Gauss point x (a point of the straight
///    facet, just inside the circle), not the facet's normal: the ghost state then makes the
///    flow tangent to the physical wall, which keeps the p + 1 rates with straight elements
///    (docs/theory.md). Only the ghost state uses ν: the LLF flux between u_inside and the ghost
///    state is taken along the straight facet's normal n, and the surface integral over the
///    straight facet (explicit_dg.hpp is unchanged). The papers do not spell out the flux's
///    normal; the facet's is the one consistent with integrating over the straight facet, and
///    the one Krivodonova and Berger's treatment keeps (only the boundary state is changed).
///  * inflow and outflow (and any other tag): the exact state at x as the ghost state. On the
///    supersonic outflow every characteristic leaves the domain; the LLF flux there is not the
///    pure upwind flux but its dissipation term λ(u − u_exact) is of the size of the error.
#include <cmath>
#include <cstddef>
#include <vector>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_discretisation.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::hyperbolic {

/// The problem's parameters and exact (steady) solution. Trivially copyable, POLYDG_HD members:
/// usable in kernels as a boundary functor's member.
struct SupersonicVortex {
  static constexpr int inner_wall_tag = 1;
  static constexpr int outer_wall_tag = 2;
  /// θ = 0: the straight edge on the positive x axis.
  static constexpr int inflow_tag = 3;
  /// θ = π/2: the straight edge on the positive y axis.
  static constexpr int outflow_tag = 4;

  double inner_radius = 1.0;
  double outer_radius = 1.384;
  double inner_mach = 2.25;
  double inner_density = 1.0;
  Euler gas{};

  /// ρ_i^{γ−1} = c_i² (p_i = ρ_i^γ / γ).
  POLYDG_HD double inner_sound_speed() const {
    return std::sqrt(std::pow(inner_density, gas.gamma - 1));
  }
  /// ρ(r) (file comment).
  POLYDG_HD double density(double r) const {
    const double g = gas.gamma;
    const double ratio = inner_radius / r;
    return inner_density *
           std::pow(1 + 0.5 * (g - 1) * inner_mach * inner_mach * (1 - ratio * ratio), 1 / (g - 1));
  }
  /// ρ, v, p at x ≠ 0.
  POLYDG_HD Euler::Primitive primitive(const Point<2>& x) const {
    const double r = std::sqrt(x[0] * x[0] + x[1] * x[1]);
    const double rho = density(r);
    const double speed = inner_mach * inner_sound_speed() * inner_radius / r;
    const double pressure =
        std::pow(inner_density, gas.gamma) / gas.gamma * std::pow(rho / inner_density, gas.gamma);
    return {rho, {-speed * x[1] / r, speed * x[0] / r}, pressure};
  }
  /// The conserved state (ρ, ρu, ρv, E) at x.
  POLYDG_HD State<4> exact(const Point<2>& x) const { return gas.conserved(primitive(x)); }
  /// exact(x): the (x, t) signature of ExplicitTriangleDG::l2_errors and exact_boundary.
  POLYDG_HD State<4> operator()(const Point<2>& x, double = 0) const { return exact(x); }
};

/// The quarter-annulus mesh of level k ≥ 0: 180 · 4^k triangles (file comment). Throws
/// polydg::Error for k < 0 or k > 8 (47 million triangles), or radii that are not
/// 0 < r_i < r_o.
SimplexMesh<2> supersonic_vortex_mesh(int level, const SupersonicVortex& vortex = {});

/// Ghost states (file comment): mirror states with the true circle's normal on the curved
/// walls, the exact state elsewhere.
struct SupersonicVortexBoundary {
  SupersonicVortex vortex{};
  POLYDG_HD State<4> operator()(const State<4>& u, const Point<2>& x, const Point<2>&, double,
                                int tag) const {
    if (tag == SupersonicVortex::inner_wall_tag || tag == SupersonicVortex::outer_wall_tag) {
      const double r = std::sqrt(x[0] * x[0] + x[1] * x[1]);
      // The mirror state does not depend on the normal's sign: x/|x| serves both walls.
      return vortex.gas.wall_state(u, Point<2>{x[0] / r, x[1] / r});
    }
    return vortex.exact(x);
  }
};

/// What march_to_steady_state did.
struct SteadyStateMarch {
  long steps = 0;
  double time = 0;
  /// max |R(u)| over all coefficients at the start and at the last check.
  double initial_residual = 0;
  double final_residual = 0;
  /// final_residual ≤ relative_tolerance · initial_residual (else max_time was reached).
  bool converged = false;
};

/// Pseudo-time march of du/dt = R(u) with the CFL step of number `cfl` until
/// max |R(u)| ≤ relative_tolerance · max |R(u_0)|, checked every `check_every` steps, or until
/// t = max_time. A steady state of the semi-discretisation does not depend on the time steps, so
/// this converges to the discrete steady state (R(u) = 0) however it gets there. monitor(step,
/// t, dt) is called after every step (e.g. progress lines). dg: triangles or polygons (any
/// ExplicitDiscretisation).
template <ExplicitDiscretisation Discretisation,
          BoundaryCondition<discretisation_law<Discretisation>> Boundary, class Monitor>
SteadyStateMarch march_to_steady_state(Discretisation& dg, TimeScheme scheme,
                                       std::vector<double>& u, const Boundary& boundary, double cfl,
                                       double relative_tolerance, double max_time,
                                       const Monitor& monitor, long check_every = 20) {
  std::vector<double> r(u.size());
  const auto residual_norm = [&](double t) {
    dg.residual(u, t, boundary, r);
    double largest = 0;
    for (double v : r) largest = std::fmax(largest, std::abs(v));
    return largest;
  };
  SteadyStateMarch march;
  march.initial_residual = march.final_residual = residual_norm(0.0);
  TimeStepper stepper(dg, scheme);
  double t = 0;
  while (t < max_time && march.final_residual > relative_tolerance * march.initial_residual) {
    const double dt = dg.stable_time_step(u, t, cfl);
    stepper.step(u, t, dt, boundary);
    t += dt;
    ++march.steps;
    monitor(march.steps, t, dt);
    if (march.steps % check_every == 0 || t >= max_time) march.final_residual = residual_norm(t);
  }
  march.time = t;
  march.converged = march.final_residual <= relative_tolerance * march.initial_residual;
  return march;
}

template <ExplicitDiscretisation Discretisation,
          BoundaryCondition<discretisation_law<Discretisation>> Boundary>
SteadyStateMarch march_to_steady_state(Discretisation& dg, TimeScheme scheme,
                                       std::vector<double>& u, const Boundary& boundary, double cfl,
                                       double relative_tolerance, double max_time) {
  return march_to_steady_state(dg, scheme, u, boundary, cfl, relative_tolerance, max_time,
                               [](long, double, double) {});
}

}  // namespace polydg::hyperbolic
