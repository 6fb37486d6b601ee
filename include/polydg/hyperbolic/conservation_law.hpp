#pragma once
/// The physics of a 2D system of conservation laws u_t + ∇·F(u) = 0, u ∈ R^m, as the explicit DG
/// solver sees it (docs/theory.md, "Explicit path for conservation laws"): a Law type that
/// satisfies the concept ConservationLaw below, called per quadrature point inside CUDA kernels and
/// OpenMP loops. So every member is POLYDG_HD, header-only, without virtual calls, exceptions or
/// allocation, and states are fixed-size values (State<m>). Libraries' laws: LinearAdvection
/// (linear_advection.hpp), Euler (euler.hpp); the numerical flux: local_lax_friedrichs_flux
/// (numerical_flux.hpp).
///
/// A law provides, with u a State<m>, n a unit normal, x a Point<2>, t the time:
///   static constexpr int variables;                  m ≥ 1
///   flux(u, x, t) → Flux<m>                          F(u) = (F_x, F_y), both components
///   max_normal_wave_speed(u, n, x, t) → double       max |eigenvalue| of ∂(F·n)/∂u
///   is_physical(u) → bool                            u is an admissible, finite state
///   wall_state(u, n) → State<m>                      the ghost state of a reflecting wall
///
/// Why both flux components rather than F·n: the volume term ∫F(u)·∇φ needs both, and the
/// surface term's F·n is their contraction (physical_normal_flux), 2m multiply-adds; one function
/// written by the user means the two terms cannot disagree. Why x and t in flux and wave speed:
/// a linear advection velocity a(x, t) (the rotating hill) makes both depend on the point; a law
/// that does not (Euler) ignores them, which costs nothing once inlined. is_physical and
/// wall_state depend on the state alone.
///
/// Contract: max_normal_wave_speed bounds the eigenvalues of the normal Jacobian from above
/// (the LLF dissipation and the CFL time step both use it). Nothing throws: on a state that is
/// not physical a law may return NaN, which propagates into the residual, where the solver's
/// checks (is_physical, finiteness) report it on the host. To run in CUDA kernels a law must be
/// trivially copyable (it is passed by value) with POLYDG_HD members.
#include <concepts>
#include <string>
#include <type_traits>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"

namespace polydg::hyperbolic {

/// A state u ∈ R^M (conserved variables), usable on host and device.
template <int M>
struct State {
  static_assert(M >= 1, "a conservation law has at least one variable");
  static constexpr int size = M;
  double v[M];

  POLYDG_HD constexpr double& operator[](int i) { return v[i]; }
  POLYDG_HD constexpr const double& operator[](int i) const { return v[i]; }

  POLYDG_HD constexpr State& operator+=(const State& other) {
    for (int i = 0; i < M; ++i) v[i] += other.v[i];
    return *this;
  }
  POLYDG_HD constexpr State& operator-=(const State& other) {
    for (int i = 0; i < M; ++i) v[i] -= other.v[i];
    return *this;
  }
  POLYDG_HD constexpr State& operator*=(double scale) {
    for (int i = 0; i < M; ++i) v[i] *= scale;
    return *this;
  }
  POLYDG_HD friend constexpr State operator+(State a, const State& b) { return a += b; }
  POLYDG_HD friend constexpr State operator-(State a, const State& b) { return a -= b; }
  POLYDG_HD friend constexpr State operator-(State a) { return a *= -1.0; }
  POLYDG_HD friend constexpr State operator*(double s, State a) { return a *= s; }
  POLYDG_HD friend constexpr State operator*(State a, double s) { return a *= s; }
  POLYDG_HD friend constexpr bool operator==(const State& a, const State& b) {
    for (int i = 0; i < M; ++i)
      if (a.v[i] != b.v[i]) return false;
    return true;
  }
};

/// F(u) = (F_x, F_y): flux[0] = F_x(u), flux[1] = F_y(u), each a State<M>.
template <int M>
struct Flux {
  State<M> component[2];

  POLYDG_HD constexpr State<M>& operator[](int direction) { return component[direction]; }
  POLYDG_HD constexpr const State<M>& operator[](int direction) const {
    return component[direction];
  }
};

/// F·n = F_x n_x + F_y n_y.
template <int M>
POLYDG_HD constexpr State<M> dot(const Flux<M>& flux, const Point<2>& n) {
  State<M> result;
  for (int i = 0; i < M; ++i) result[i] = flux[0][i] * n[0] + flux[1][i] * n[1];
  return result;
}

/// Law::variables is an integral constant ≥ 1 (checked first, so that State<Law::variables> in
/// ConservationLaw is well-formed).
template <class Law>
concept HasVariableCount = requires {
  typename std::integral_constant<int, Law::variables>;
}
&&(Law::variables >= 1);

template <class Law>
concept ConservationLaw = HasVariableCount<Law> &&
    requires(const Law& law, const State<Law::variables>& u, const Point<2>& n, const Point<2>& x,
             double t) {
  { law.flux(u, x, t) } -> std::same_as<Flux<Law::variables>>;
  { law.max_normal_wave_speed(u, n, x, t) } -> std::convertible_to<double>;
  { law.is_physical(u) } -> std::convertible_to<bool>;
  { law.wall_state(u, n) } -> std::same_as<State<Law::variables>>;
};

/// The physical normal flux F(u)·n at (x, t): what a surface quadrature point integrates
/// (as opposed to the numerical flux, numerical_flux.hpp).
template <ConservationLaw Law>
POLYDG_HD constexpr State<Law::variables> physical_normal_flux(const Law& law,
                                                               const State<Law::variables>& u,
                                                               const Point<2>& n, const Point<2>& x,
                                                               double t) {
  return dot(law.flux(u, x, t), n);
}

/// The largest max_normal_wave_speed of u at x over the directions e_x, e_y, (e_x ± e_y)/√2 —
/// for speeds |v·n| + c (advection, Euler) within cos(π/8) of the maximum over all directions;
/// the explicit solvers' CFL step takes it, its CFL number absorbing the factor.
template <ConservationLaw Law>
POLYDG_HD double sampled_max_wave_speed(const Law& law, const State<Law::variables>& u,
                                        const Point<2>& x, double t) {
  const double d = 0.70710678118654752;
  const Point<2> directions[4] = {{1.0, 0.0}, {0.0, 1.0}, {d, d}, {d, -d}};
  double speed = 0;
  for (const Point<2>& n : directions) {
    const double s = double(law.max_normal_wave_speed(u, n, x, t));
    speed = speed < s ? s : speed;
  }
  return speed;
}

/// "(u_0, u_1, …)": a state in an error message.
template <int M>
std::string describe_state(const State<M>& u) {
  std::string text = "(";
  for (int v = 0; v < M; ++v) text += (v ? ", " : "") + polydg::detail::concatenate(u[v]);
  return text + ")";
}

}  // namespace polydg::hyperbolic
