#define BOOST_TEST_MODULE conservation_laws
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <ostream>
#include <random>
#include <vector>

#include "polydg/dg/coefficients.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/hyperbolic/numerical_flux.hpp"

namespace polydg::hyperbolic {
/// For Boost.Test's messages.
template <int M>
std::ostream& operator<<(std::ostream& out, const State<M>& u) {
  out << '(';
  for (int i = 0; i < M; ++i) out << (i ? ", " : "") << u[i];
  return out << ')';
}
}  // namespace polydg::hyperbolic

using namespace polydg;
using namespace polydg::hyperbolic;

namespace {

constexpr double epsilon = std::numeric_limits<double>::epsilon();
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinity = std::numeric_limits<double>::infinity();

/// A user's own law: 2D Burgers, F(u) = (u²/2, u²/2), so F·n = (n_x + n_y) u²/2 and the normal
/// Jacobian's one eigenvalue is (n_x + n_y) u.
struct Burgers {
  static constexpr int variables = 1;
  Flux<1> flux(const State<1>& u, const Point<2>&, double) const {
    const double f = 0.5 * u[0] * u[0];
    return {{{{f}}, {{f}}}};
  }
  double max_normal_wave_speed(const State<1>& u, const Point<2>& n, const Point<2>&,
                               double) const {
    return std::abs(u[0] * (n[0] + n[1]));
  }
  bool is_physical(const State<1>& u) const { return std::isfinite(u[0]); }
  State<1> wall_state(const State<1>& u, const Point<2>&) const { return u; }
};

/// Burgers without a wall state, and a type without a variable count: not laws.
struct NoWallState {
  static constexpr int variables = 1;
  Flux<1> flux(const State<1>& u, const Point<2>&, double) const { return {{u, u}}; }
  double max_normal_wave_speed(const State<1>&, const Point<2>&, const Point<2>&, double) const {
    return 1;
  }
  bool is_physical(const State<1>&) const { return true; }
};
struct NoVariableCount {
  Flux<1> flux(const State<1>& u, const Point<2>&, double) const { return {{u, u}}; }
};
/// Flux returning F·n only (a State) rather than both components.
struct NormalFluxOnly : Burgers {
  State<1> flux(const State<1>& u, const Point<2>&, double) const { return u; }
};

/// The velocity of the rotating hill, given as a lambda of x alone.
constexpr auto rotating = [](const Point<2>& x) { return Point<2>{-x[1], x[0]}; };
/// A velocity that depends on time.
constexpr auto unsteady = [](const Point<2>& x, double t) {
  return Point<2>{std::cos(t), x[0] * t};
};

static_assert(ConservationLaw<Euler>);
static_assert(ConservationLaw<LinearAdvection<RotatingVelocity>>);
static_assert(ConservationLaw<LinearAdvection<decltype(rotating)>>);
static_assert(ConservationLaw<LinearAdvection<decltype(unsteady)>>);
static_assert(ConservationLaw<LinearAdvection<Constant<Point<2>>>>);
static_assert(ConservationLaw<Burgers>);
static_assert(!ConservationLaw<NoWallState>);
static_assert(!ConservationLaw<NoVariableCount>);
static_assert(!ConservationLaw<NormalFluxOnly>);
static_assert(!AdvectionVelocity<double>);

/// Physical Euler states over a range of Mach numbers (up to about 3) and scales.
std::vector<State<4>> euler_states(const Euler& gas, int count = 200) {
  std::mt19937 generator(2024);
  std::uniform_real_distribution<double> density(0.2, 3.0), speed(-2.0, 2.0), pressure(0.1, 5.0);
  std::vector<State<4>> states;
  for (int k = 0; k < count; ++k)
    states.push_back(gas.conserved(
        {density(generator), {speed(generator), speed(generator)}, pressure(generator)}));
  states.push_back(gas.conserved({1.0, {0.0, 0.0}, 1.0}));  // at rest
  return states;
}

/// Unit normals: the four axis directions and random angles.
std::vector<Point<2>> unit_normals(int count = 20) {
  std::vector<Point<2>> normals = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  std::mt19937 generator(7);
  std::uniform_real_distribution<double> angle(0, 2 * std::numbers::pi);
  for (int k = 0; k < count; ++k) {
    const double theta = angle(generator);
    normals.push_back({std::cos(theta), std::sin(theta)});
  }
  return normals;
}

template <int M>
double max_abs(const State<M>& u) {
  double largest = 0;
  for (int i = 0; i < M; ++i) largest = std::max(largest, std::abs(u[i]));
  return largest;
}

/// max_i |a_i − b_i| / max_i |b_i|.
template <int M>
double relative_difference(const State<M>& a, const State<M>& b) {
  return max_abs(a - b) / max_abs(b);
}

/// The largest |eigenvalue| of a real 4×4 matrix whose eigenvalues are real: its characteristic
/// polynomial by Faddeev–LeVerrier, then Newton from above all roots to the largest root of
/// p(λ) and of p(−λ) (monotone there, since p, p′, p″ > 0 right of all roots).
double largest_eigenvalue_magnitude(const double a[4][4]) {
  double coefficients[5] = {0, 0, 0, 0, 1};  // p(λ) = Σ c_k λ^k
  double m[4][4] = {};
  for (int k = 1; k <= 4; ++k) {
    double next[4][4];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        next[i][j] = (i == j) ? coefficients[4 - k + 1] : 0;
        for (int l = 0; l < 4; ++l) next[i][j] += a[i][l] * m[l][j];
      }
    double trace = 0;
    for (int i = 0; i < 4; ++i)
      for (int l = 0; l < 4; ++l) trace += a[i][l] * next[l][i];
    coefficients[4 - k] = -trace / k;
    std::copy(&next[0][0], &next[0][0] + 16, &m[0][0]);
  }
  const auto largest_root = [](const double* c) {
    double bound = 0;
    for (int k = 0; k < 4; ++k) bound = std::max(bound, std::abs(c[k]));
    double x = 1 + bound;  // Cauchy: every root has |λ| < 1 + max |c_k|
    for (int iteration = 0; iteration < 500; ++iteration) {
      const double value = (((x + c[3]) * x + c[2]) * x + c[1]) * x + c[0];
      const double slope = ((4 * x + 3 * c[3]) * x + 2 * c[2]) * x + c[1];
      const double next = x - value / slope;
      if (!(next < x)) break;
      x = next;
    }
    return x;
  };
  const double mirrored[5] = {coefficients[0], -coefficients[1], coefficients[2], -coefficients[3],
                              1};
  return std::max(std::abs(largest_root(coefficients)), std::abs(largest_root(mirrored)));
}

}  // namespace

BOOST_AUTO_TEST_CASE(euler_primitive_conserved_round_trip) {
  const Euler gas;
  for (const State<4>& u : euler_states(gas)) {
    const Euler::Primitive w = gas.primitive(u);
    BOOST_TEST(relative_difference(gas.conserved(w), u) < 4 * epsilon);
    BOOST_TEST(w.density == u[0]);
    BOOST_TEST(std::abs(w.pressure - gas.pressure(u)) == 0);
  }
  // one by hand: ρ = 2, v = (3, −1), p = 0.4, γ = 1.4: E = 0.4 / 0.4 + ½·2·10 = 11
  const State<4> u = gas.conserved({2.0, {3.0, -1.0}, 0.4});
  BOOST_TEST(u == (State<4>{{2.0, 6.0, -2.0, 11.0}}));
  BOOST_TEST(std::abs(gas.pressure(u) - 0.4) < 8 * epsilon);
  BOOST_TEST(std::abs(gas.sound_speed(u) - std::sqrt(1.4 * 0.4 / 2)) < 8 * epsilon);
  const Euler monatomic{5.0 / 3};
  BOOST_TEST(std::abs(monatomic.sound_speed(monatomic.conserved({2.0, {3.0, -1.0}, 0.4})) -
                      std::sqrt(5.0 / 3 * 0.4 / 2)) < 8 * epsilon);
}

BOOST_AUTO_TEST_CASE(euler_flux_is_the_textbook_formula) {
  const Euler gas;
  for (const State<4>& u : euler_states(gas)) {
    const auto [rho, v, p] = gas.primitive(u);
    const double e = u[3];
    const Flux<4> f = gas.flux(u, {0.3, 0.4}, 1.5);
    const State<4> fx{{rho * v[0], rho * v[0] * v[0] + p, rho * v[0] * v[1], v[0] * (e + p)}};
    const State<4> fy{{rho * v[1], rho * v[0] * v[1], rho * v[1] * v[1] + p, v[1] * (e + p)}};
    BOOST_TEST(max_abs(f[0] - fx) <= 8 * epsilon * max_abs(fx));
    BOOST_TEST(max_abs(f[1] - fy) <= 8 * epsilon * max_abs(fy));
  }
}

// F(u)·n = T⁻¹ F_x(T u), T rotating the momentum into the frame (n, τ), τ = (−n_y, n_x).
BOOST_AUTO_TEST_CASE(euler_flux_is_rotationally_invariant) {
  const Euler gas;
  const Point<2> x{0.1, 0.2};
  for (const State<4>& u : euler_states(gas))
    for (const Point<2>& n : unit_normals()) {
      const State<4> rotated{{u[0], u[1] * n[0] + u[2] * n[1], -u[1] * n[1] + u[2] * n[0], u[3]}};
      const State<4> g = gas.flux(rotated, x, 0)[0];
      const State<4> back{{g[0], g[1] * n[0] - g[2] * n[1], g[1] * n[1] + g[2] * n[0], g[3]}};
      const State<4> normal = physical_normal_flux(gas, u, n, x, 0);
      // Both sides round differently (a few operations each on values up to max |F|).
      BOOST_TEST(max_abs(back - normal) <= 32 * epsilon * max_abs(gas.flux(u, x, 0)[0]) +
                                               32 * epsilon * max_abs(gas.flux(u, x, 0)[1]));
    }
}

// max_normal_wave_speed = the largest |eigenvalue| of a central-difference Jacobian of F·n.
// Threshold: with step h = 1e-5 |u|, the truncation error is about h²|F‴|/6 ~ 1e-10 relative
// and the rounding error ε|F|/h ~ 1e-11; the largest eigenvalue |v·n| + c is simple and at least
// c from the others, and the eigenvector condition number of the Euler Jacobian stays below
// ~1e2 for Mach ≤ 3, so the eigenvalue moves by ~1e-8 relative (3e-8 is the worst seen here).
// 1e-6 keeps a margin of 30 while a wrong formula (a missing γ in c, c omitted, |v| for |v·n|)
// is off by percents.
BOOST_AUTO_TEST_CASE(euler_wave_speed_is_the_largest_jacobian_eigenvalue) {
  const Euler gas;
  const Point<2> x{0, 0};
  double worst = 0;
  for (const State<4>& u : euler_states(gas, 100))
    for (const Point<2>& n : unit_normals(5)) {
      const double h = 1e-5 * max_abs(u);
      double jacobian[4][4];
      for (int j = 0; j < 4; ++j) {
        State<4> plus = u, minus = u;
        plus[j] += h;
        minus[j] -= h;
        const State<4> difference =
            physical_normal_flux(gas, plus, n, x, 0) - physical_normal_flux(gas, minus, n, x, 0);
        for (int i = 0; i < 4; ++i) jacobian[i][j] = difference[i] / (plus[j] - minus[j]);
      }
      const double speed = gas.max_normal_wave_speed(u, n, x, 0);
      const double velocity_n = dot(gas.velocity(u), n);
      BOOST_TEST(std::abs(speed - (std::abs(velocity_n) + gas.sound_speed(u))) <=
                 4 * epsilon * speed);
      worst = std::max(worst, std::abs(largest_eigenvalue_magnitude(jacobian) - speed) / speed);
    }
  BOOST_TEST_MESSAGE("largest relative eigenvalue difference " << worst);
  BOOST_TEST(worst < 1e-6);
}

BOOST_AUTO_TEST_CASE(euler_is_physical_rejects_non_physical_states) {
  const Euler gas;
  const State<4> good = gas.conserved({1.0, {0.5, -0.2}, 0.7});
  BOOST_TEST(gas.is_physical(good));
  for (const State<4>& u : euler_states(gas)) BOOST_TEST(gas.is_physical(u));
  BOOST_TEST(!gas.is_physical(State<4>{{-1.0, 0.0, 0.0, 2.5}}));  // ρ < 0
  BOOST_TEST(!gas.is_physical(State<4>{{0.0, 0.0, 0.0, 2.5}}));   // ρ = 0
  // p < 0: less energy than the kinetic energy ½·1·1² = 0.5; p = 0
  BOOST_TEST(!gas.is_physical(State<4>{{1.0, 1.0, 0.0, 0.4}}));
  BOOST_TEST(!gas.is_physical(State<4>{{1.0, 1.0, 0.0, 0.5}}));
  for (int i = 0; i < 4; ++i)
    for (double bad : {not_a_number, infinity, -infinity}) {
      State<4> u = good;
      u[i] = bad;
      BOOST_TEST(!gas.is_physical(u), "component " << i << " = " << bad);
    }
}

// The mirror state keeps ρ, p and the tangential velocity and flips the normal velocity, and
// the LLF mass flux across the wall is zero: exactly for axis-aligned walls (where m·n and the
// mirror take no rounding), to rounding for any other normal (n·n = 1 only to rounding there).
BOOST_AUTO_TEST_CASE(euler_wall_state_reflects_the_normal_velocity) {
  const Euler gas;
  const Point<2> x{0.5, 0.5};
  const std::vector<Point<2>> normals = unit_normals();
  for (const State<4>& u : euler_states(gas))
    for (std::size_t k = 0; k < normals.size(); ++k) {
      const Point<2>& n = normals[k];
      const bool axis_aligned = k < 4;
      const State<4> ghost = gas.wall_state(u, n);
      const Point<2> v = gas.velocity(u), v_ghost = gas.velocity(ghost);
      const Point<2> tangent{-n[1], n[0]};
      const double speed = std::sqrt(dot(v, v));
      const State<4> wall_flux = local_lax_friedrichs_flux(gas, u, ghost, n, x, 0);
      BOOST_TEST(ghost[0] == u[0]);
      BOOST_TEST(ghost[3] == u[3]);
      if (axis_aligned) {
        BOOST_TEST(gas.pressure(ghost) == gas.pressure(u));
        BOOST_TEST(dot(v_ghost, tangent) == dot(v, tangent));
        BOOST_TEST(dot(v_ghost, n) == -dot(v, n));
        BOOST_TEST(wall_flux[0] == 0.0);
        BOOST_TEST(wall_flux[3] == 0.0);
      } else {
        BOOST_TEST(std::abs(gas.pressure(ghost) - gas.pressure(u)) <=
                   16 * epsilon * (gas.pressure(u) + u[0] * speed * speed));
        BOOST_TEST(std::abs(dot(v_ghost, tangent) - dot(v, tangent)) <= 8 * epsilon * speed);
        BOOST_TEST(std::abs(dot(v_ghost, n) + dot(v, n)) <= 8 * epsilon * speed);
        BOOST_TEST(std::abs(wall_flux[0]) <= 8 * epsilon * u[0] * speed);
      }
    }
}

BOOST_AUTO_TEST_CASE(llf_flux_is_consistent) {
  const Euler gas;
  const Point<2> x{0.25, -0.5};
  for (const State<4>& u : euler_states(gas))
    for (const Point<2>& n : unit_normals())
      BOOST_TEST(local_lax_friedrichs_flux(gas, u, u, n, x, 0) ==
                 physical_normal_flux(gas, u, n, x, 0));

  const LinearAdvection hill{RotatingVelocity{}};
  const Burgers burgers;
  for (double value : {-2.0, 0.0, 0.3, 5.0})
    for (const Point<2>& n : unit_normals()) {
      const State<1> u{{value}};
      BOOST_TEST(local_lax_friedrichs_flux(hill, u, u, n, x, 2.0) ==
                 physical_normal_flux(hill, u, n, x, 2.0));
      BOOST_TEST(local_lax_friedrichs_flux(burgers, u, u, n, x, 0) ==
                 physical_normal_flux(burgers, u, n, x, 0));
    }
}

// F*(u_l, u_r, n) = −F*(u_r, u_l, −n), to rounding. (Negating n negates every product exactly
// and the sums commute, so it holds bit for bit here; the solver does not rely on that: it
// computes each edge's flux once.)
BOOST_AUTO_TEST_CASE(llf_flux_is_conservative) {
  const Euler gas;
  const Point<2> x{0.25, -0.5};
  const std::vector<State<4>> states = euler_states(gas, 40);
  for (std::size_t a = 0; a < states.size(); ++a)
    for (std::size_t b = 0; b < states.size(); b += 3)
      for (const Point<2>& n : unit_normals(4)) {
        const State<4> forward = local_lax_friedrichs_flux(gas, states[a], states[b], n, x, 0);
        const State<4> backward =
            local_lax_friedrichs_flux(gas, states[b], states[a], -1.0 * n, x, 0);
        BOOST_TEST(max_abs(forward + backward) <= 4 * epsilon * max_abs(forward));
      }

  const Burgers burgers;
  const LinearAdvection drift{unsteady};
  for (double left : {-2.0, -0.5, 0.0, 1.0, 3.0})
    for (double right : {-1.0, 0.25, 2.0})
      for (const Point<2>& n : unit_normals(4)) {
        const State<1> l{{left}}, r{{right}};
        const double burgers_sum = local_lax_friedrichs_flux(burgers, l, r, n, x, 0)[0] +
                                   local_lax_friedrichs_flux(burgers, r, l, -1.0 * n, x, 0)[0];
        const double drift_sum = local_lax_friedrichs_flux(drift, l, r, n, x, 0.7)[0] +
                                 local_lax_friedrichs_flux(drift, r, l, -1.0 * n, x, 0.7)[0];
        BOOST_TEST(std::abs(burgers_sum) <= 4 * epsilon * 20);
        BOOST_TEST(std::abs(drift_sum) <= 4 * epsilon * 10);
      }
}

// λ is NaN where a side has finite components but negative pressure: the flux must be NaN so
// that the solver's finiteness check sees it (std::fmax would have hidden it).
BOOST_AUTO_TEST_CASE(llf_flux_propagates_a_non_physical_wave_speed) {
  const Euler gas;
  const State<4> good = gas.conserved({1.0, {0.5, 0.0}, 1.0});
  const State<4> negative_pressure{{1.0, 1.0, 0.0, 0.1}};
  const Point<2> n{1, 0}, x{0, 0};
  BOOST_TEST(std::isnan(gas.max_normal_wave_speed(negative_pressure, n, x, 0)));
  for (const State<4>& f : {local_lax_friedrichs_flux(gas, good, negative_pressure, n, x, 0),
                            local_lax_friedrichs_flux(gas, negative_pressure, good, n, x, 0)})
    BOOST_TEST(std::isnan(f[0]));
}

BOOST_AUTO_TEST_CASE(linear_advection_flux_is_velocity_times_u) {
  const Point<2> x{0.3, -0.7};
  const State<1> u{{2.5}};
  // rotating hill, a = (−y, x) = (0.7, 0.3), as a functor and as a lambda of x
  const LinearAdvection hill{RotatingVelocity{}};
  const LinearAdvection hill_lambda{rotating};
  for (const Flux<1>& f : {hill.flux(u, x, 0), hill_lambda.flux(u, x, 3.0)}) {
    BOOST_TEST(f[0][0] == 0.7 * 2.5);
    BOOST_TEST(f[1][0] == 0.3 * 2.5);
  }
  // about another centre at angular speed 2: a = 2 (−(y − 1), x − 1) = (3.4, −1.4)
  const LinearAdvection shifted{RotatingVelocity{{1.0, 1.0}, 2.0}};
  BOOST_TEST(shifted.velocity_at(x, 0)[0] == 2 * 1.7);
  BOOST_TEST(shifted.velocity_at(x, 0)[1] == 2 * -0.7);
  // a(x, t) = (cos t, x t): the time reaches the velocity
  const LinearAdvection drift{unsteady};
  const Flux<1> f = drift.flux(u, x, 2.0);
  BOOST_TEST(f[0][0] == std::cos(2.0) * 2.5);
  BOOST_TEST(f[1][0] == 0.3 * 2.0 * 2.5);
  BOOST_TEST(drift.max_normal_wave_speed(u, {0, -1}, x, 2.0) == 0.6);
  // a constant velocity
  const LinearAdvection constant{Constant<Point<2>>{{1.0, -2.0}}};
  BOOST_TEST(constant.flux(u, x, 0)[1][0] == -5.0);
  BOOST_TEST(constant.max_normal_wave_speed(u, {0.6, 0.8}, x, 0) ==
             std::abs(1.0 * 0.6 + -2.0 * 0.8));
  BOOST_TEST(constant.is_physical(u));
  BOOST_TEST(!constant.is_physical(State<1>{{not_a_number}}));
  BOOST_TEST(constant.wall_state(u, {1, 0}) == u);
}

// With a single wave speed |a·n| the LLF flux is the upwind flux (a·n) u_upwind.
BOOST_AUTO_TEST_CASE(linear_advection_llf_flux_is_upwind) {
  const LinearAdvection hill{RotatingVelocity{}};
  const State<1> left{{1.5}}, right{{-0.25}};
  for (const Point<2>& x : {Point<2>{0.3, -0.7}, Point<2>{-0.4, 0.1}, Point<2>{2.0, 1.0}})
    for (const Point<2>& n : unit_normals()) {
      const double beta = dot(hill.velocity_at(x, 0), n);
      const double upwind = beta * (beta >= 0 ? left[0] : right[0]);
      BOOST_TEST(std::abs(local_lax_friedrichs_flux(hill, left, right, n, x, 0)[0] - upwind) <=
                 8 * epsilon * std::abs(beta) * 1.5);
    }
}

// The user's Burgers law with the library's LLF flux: its values by hand at n = (1, 0), where
// F*(u_l, u_r) = ½[(u_l² + u_r²)/2 + max(|u_l|, |u_r|)(u_l − u_r)]. Shocks (u_l > u_r):
// u_l = 1, u_r = ½ (shock speed ¾): ½[5/8 + ½] = 9/16, where Godunov's flux is f(u_l) = ½;
// a stationary shock u_l = 1, u_r = −1: ½[1 + 2] = 3/2 (Godunov: ½); a transonic one
// u_l = 2, u_r = −1 (speed ½): ½[5/2 + 6] = 17/4 (Godunov: 2). LLF adds λ(u_l − u_r)/2.
BOOST_AUTO_TEST_CASE(user_defined_burgers_works_with_the_llf_flux) {
  const Burgers burgers;
  const Point<2> n{1, 0}, x{0, 0};
  const auto flux = [&](double left, double right) {
    return local_lax_friedrichs_flux(burgers, State<1>{{left}}, State<1>{{right}}, n, x, 0)[0];
  };
  BOOST_TEST(flux(1.0, 0.5) == 9.0 / 16);
  BOOST_TEST(flux(1.0, -1.0) == 1.5);
  BOOST_TEST(flux(2.0, -1.0) == 17.0 / 4);
  // a rarefaction u_l < u_r: ½[(u_l² + u_r²)/2 − max|u|(u_r − u_l)] = ½[5/2 − 2·3] = −7/4
  BOOST_TEST(flux(-1.0, 2.0) == -7.0 / 4);
  // along the diagonal the normal flux is (n_x + n_y) u²/2 with speed |(n_x + n_y) u|
  const Point<2> diagonal{std::sqrt(0.5), std::sqrt(0.5)};
  const double s = diagonal[0] + diagonal[1];
  const double expected = 0.5 * (s * (1.0 + 0.25) / 2 + s * 1.0 * 0.5);
  BOOST_TEST(std::abs(local_lax_friedrichs_flux(burgers, State<1>{{1.0}}, State<1>{{0.5}}, diagonal,
                                                x, 0)[0] -
                      expected) <= 8 * epsilon);
}
