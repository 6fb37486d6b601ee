#define BOOST_TEST_MODULE limiter
// The explicit path's nonlinear stabilisation (docs/theory.md, "Explicit path for conservation
// laws", limiting): the Barth–Jespersen limiter (slope_limiter.hpp), the positivity fix
// (positivity.hpp), TimeStepper's stage limiter, the Euler boundary functor and the double Mach
// reflection (euler_boundary.hpp, double_mach_reflection.hpp).
//
// The bounds are recomputed here from the mesh (neighbours through SimplexMesh's facets, points
// in physical coordinates, u_h by the Dubiner basis at x = x_0 + J (r, s)), not read back from
// the limiter's tables.
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <limits>
#include <numbers>
#include <ostream>
#include <span>
#include <type_traits>
#include <vector>

#include "error_message.hpp"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/dubiner_basis.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/euler_boundary.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"
#include "polydg/mesh/generators.hpp"
#include "same_bits.hpp"

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

/// u_h of variable v of element c at the physical point x.
template <class Dg>
double evaluate(const Dg& dg, const std::vector<double>& u, Index c, int v, const Point<2>& x) {
  const TriangleGeometry& g = dg.geometry();
  const std::size_t k = std::size_t(g.element_count);
  const double dx = x[0] - g.origin[c], dy = x[1] - g.origin[k + c];
  const Point<2> rs{g.inverse_jacobian[c] * dx + g.inverse_jacobian[k + c] * dy,
                    g.inverse_jacobian[2 * k + c] * dx + g.inverse_jacobian[3 * k + c] * dy};
  std::vector<double> phi(dg.basis_size());
  evaluate_dubiner_basis(dg.degree(), rs, phi.data());
  double value = 0;
  for (int i = 0; i < dg.basis_size(); ++i) value += u[dg.coefficient_index(c, v, i)] * phi[i];
  return value;
}

/// The mean of variable v on element c: u_0 φ_0 with φ_0 = √2 (dubiner_basis.hpp).
template <class Dg>
double mean(const Dg& dg, const std::vector<double>& u, Index c, int v) {
  return std::numbers::sqrt2 * u[dg.coefficient_index(c, v, 0)];
}

/// [min, max] of the means of c and its facet neighbours, for variable v.
template <class Dg>
std::pair<double, double> neighbour_bounds(const SimplexMesh<2>& mesh, const Dg& dg,
                                           const std::vector<double>& u, Index c, int v) {
  double low = mean(dg, u, c, v), high = low;
  for (Index f : mesh.cell_facets(c))
    for (Index other : mesh.facet_cells(f))
      if (other >= 0 && other != c) {
        low = std::min(low, mean(dg, u, other, v));
        high = std::max(high, mean(dg, u, other, v));
      }
  return {low, high};
}

/// The physical Gauss points (Q per edge) of c's edges, or its vertices.
std::vector<Point<2>> limiter_points(const SimplexMesh<2>& mesh, Index c, LimiterPoints kind,
                                     int gauss_points) {
  const auto x = mesh.cell_points(c);
  if (kind == LimiterPoints::vertices) return {x[0], x[1], x[2]};
  // Gauss–Legendre on [0, 1]: 1/2 and, for Q = 2, 1/2 ± 1/(2√3); Q = 3: 1/2, 1/2 ± √(3/5)/2.
  std::vector<double> t;
  if (gauss_points == 2) t = {0.5 - 0.5 / std::sqrt(3.0), 0.5 + 0.5 / std::sqrt(3.0)};
  if (gauss_points == 3) t = {0.5 - 0.5 * std::sqrt(0.6), 0.5, 0.5 + 0.5 * std::sqrt(0.6)};
  BOOST_TEST_REQUIRE(!t.empty());
  std::vector<Point<2>> points;
  for (int e = 0; e < 3; ++e)
    for (double s : t) points.push_back(x[(e + 1) % 3] + s * (x[(e + 2) % 3] - x[(e + 1) % 3]));
  return points;
}

/// Some points of c for checks over the whole element: vertices, edge midpoints, centroid and
/// points in between.
std::vector<Point<2>> points_all_over(const SimplexMesh<2>& mesh, Index c) {
  const auto x = mesh.cell_points(c);
  std::vector<Point<2>> points;
  for (int a = 0; a <= 4; ++a)
    for (int b = 0; a + b <= 4; ++b)
      points.push_back(x[0] + (a / 4.0) * (x[1] - x[0]) + (b / 4.0) * (x[2] - x[0]));
  return points;
}

/// The state of u_h of element c at x (Euler).
template <class Dg>
State<4> state_at(const Dg& dg, const std::vector<double>& u, Index c, const Point<2>& x) {
  State<4> s;
  for (int v = 0; v < 4; ++v) s[v] = evaluate(dg, u, c, v, x);
  return s;
}

/// The points where PositivityFix promises ρ, p ≥ ε: the volume rule's points, the edges'
/// Gauss points (Q per edge) and the vertices, all in physical coordinates.
template <class Dg>
std::vector<Point<2>> positivity_points(const SimplexMesh<2>& mesh, const Dg& dg, Index c) {
  std::vector<Point<2>> points =
      limiter_points(mesh, c, LimiterPoints::edge_gauss_points, dg.tables().edge_point_count);
  for (const Point<2>& x : limiter_points(mesh, c, LimiterPoints::vertices, 0)) points.push_back(x);
  const ResidualView g = dg.view();
  for (int q = 0; q < g.volume_points; ++q) points.push_back(g.volume_point(c, q));
  return points;
}

}  // namespace

// (1) A linear function is in the P_1 space: its projection is exact. Wherever its values at
// an element's limiter points lie within the neighbours' means, the limiter must keep the
// element's coefficients bit for bit (so u_h stays the linear function); where a value lies
// outside, it must scale the slope down. Both cases occur on the perturbed mesh, for both
// point sets and each of the four variables (independent linear functions).
BOOST_AUTO_TEST_CASE(linear_data_within_the_bounds_is_kept) {
  const SimplexMesh<2> mesh = square_mesh(8, 0.0, 1.0, 0.2, 11);
  const Euler gas;
  ExplicitTriangleDG dg(mesh, 1, gas);
  // Four independent linear functions that are also admissible Euler states (project checks).
  const double base[4] = {2.0, 0.5, -0.3, 10.0};
  const Point<2> slope[4] = {{1.0, 0.3}, {-0.4, 2.0}, {0.7, -0.7}, {0.0, 1.5}};
  const auto linear = [&](const Point<2>& x, int v) {
    return base[v] + slope[v][0] * x[0] + slope[v][1] * x[1];
  };
  const auto u = dg.project([&](const Point<2>& x) {
    return State<4>{{linear(x, 0), linear(x, 1), linear(x, 2), linear(x, 3)}};
  });
  for (LimiterPoints kind : {LimiterPoints::edge_gauss_points, LimiterPoints::vertices}) {
    const BarthJespersenLimiter limiter(dg, kind);
    std::vector<double> limited = u;
    limiter(limited);
    int kept = 0, flattened = 0;
    for (Index c = 0; c < dg.element_count(); ++c)
      for (int v = 0; v < 4; ++v) {
        const auto [low, high] = neighbour_bounds(mesh, dg, u, c, v);
        // Classify away from the bounds by more than rounding (values of size ≤ 12).
        const double margin = 1e-12;
        bool inside = true, outside = false;
        for (const Point<2>& x : limiter_points(mesh, c, kind, 2)) {
          const double value = linear(x, v);
          inside = inside && value < high - margin && value > low + margin;
          outside = outside || value > high + margin || value < low - margin;
        }
        const bool same =
            u[dg.coefficient_index(c, v, 1)] == limited[dg.coefficient_index(c, v, 1)] &&
            u[dg.coefficient_index(c, v, 2)] == limited[dg.coefficient_index(c, v, 2)];
        if (inside) {
          ++kept;
          BOOST_TEST(same, "element " << c << ", variable " << v << " changed within bounds");
          for (const Point<2>& x : points_all_over(mesh, c))
            BOOST_TEST(std::abs(evaluate(dg, limited, c, v, x) - linear(x, v)) <= 1e-14 * 12);
        }
        if (outside) {
          ++flattened;
          BOOST_TEST(!same, "element " << c << ", variable " << v << " not limited");
        }
        BOOST_TEST(u[dg.coefficient_index(c, v, 0)] == limited[dg.coefficient_index(c, v, 0)]);
      }
    std::cout << (kind == LimiterPoints::vertices ? "vertices" : "edge Gauss points") << ": "
              << kept << " (element, variable) pairs within bounds, " << flattened
              << " outside, of " << 4 * dg.element_count() << std::endl;
    BOOST_TEST(kept > 0);
    BOOST_TEST(flattened > 0);
  }
}

// (2) A step projected onto P_1 overshoots (new extrema beside the jump). After limiting, u_h
// at every limiter point lies within the neighbours' means (to rounding), with vertex points
// everywhere on the element; means are untouched (modes 0 bit for bit, totals to 1e-14).
BOOST_AUTO_TEST_CASE(a_new_extremum_is_removed_and_means_are_kept) {
  const SimplexMesh<2> mesh = square_mesh(10, 0.0, 1.0, 0.2, 11);
  const Euler gas;
  for (int p : {1, 2}) {
    ExplicitTriangleDG dg(mesh, p, gas);
    const auto u = dg.project([&](const Point<2>& x) {
      const bool behind = x[0] + 0.4 * x[1] < 0.55;
      const double bump = std::sin(3 * x[0]) * std::cos(2 * x[1]);
      return State<4>{
          {behind ? 8.0 : 1.4, behind ? 2.0 + bump : -1.0, 0.5 * bump, behind ? 300.0 : 2.5}};
    });
    for (LimiterPoints kind : {LimiterPoints::edge_gauss_points, LimiterPoints::vertices}) {
      const BarthJespersenLimiter limiter(dg, kind);
      std::vector<double> limited = u;
      limiter(limited);
      double worst_excess = 0, worst_before = 0;
      for (Index c = 0; c < dg.element_count(); ++c)
        for (int v = 0; v < 4; ++v) {
          const auto [low, high] = neighbour_bounds(mesh, dg, u, c, v);
          // Rounding of u_h: relative to its size, the mean's plus the slopes'.
          const double scale = std::max(std::abs(low), std::abs(high)) + (high - low);
          const auto points = kind == LimiterPoints::vertices
                                  ? points_all_over(mesh, c)
                                  : limiter_points(mesh, c, kind, dg.tables().edge_point_count);
          for (const Point<2>& x : points) {
            // At p = 2 the limiter bounds the linear part; where it limits, that is all there
            // is. Where it does not, the quadratic part may still exceed the bounds.
            const bool limited_here =
                limited[dg.coefficient_index(c, v, 1)] != u[dg.coefficient_index(c, v, 1)] ||
                limited[dg.coefficient_index(c, v, 2)] != u[dg.coefficient_index(c, v, 2)];
            const double before = evaluate(dg, u, c, v, x);
            worst_before = std::max(worst_before, std::max(before - high, low - before) / scale);
            if (p > 1 && !limited_here) continue;
            const double after = evaluate(dg, limited, c, v, x);
            const double excess = std::max(after - high, low - after) / scale;
            worst_excess = std::max(worst_excess, excess);
            BOOST_TEST(excess <= 100 * epsilon, "p = " << p << ", element " << c << ", variable "
                                                       << v << ": " << after << " outside [" << low
                                                       << ", " << high << "]");
          }
          BOOST_TEST(limited[dg.coefficient_index(c, v, 0)] == u[dg.coefficient_index(c, v, 0)]);
          if (p > 1) {
            // Modes of degree 2 dropped exactly where the linear part was limited.
            const bool limited_here =
                limited[dg.coefficient_index(c, v, 1)] != u[dg.coefficient_index(c, v, 1)] ||
                limited[dg.coefficient_index(c, v, 2)] != u[dg.coefficient_index(c, v, 2)];
            for (int i = 3; i < dg.basis_size(); ++i)
              BOOST_TEST(limited[dg.coefficient_index(c, v, i)] ==
                         (limited_here ? 0.0 : u[dg.coefficient_index(c, v, i)]));
          }
        }
      const auto before = dg.total_integral(u), after = dg.total_integral(limited);
      for (int v = 0; v < 4; ++v)
        BOOST_TEST(std::abs(after[v] - before[v]) <= 1e-14 * std::abs(before[v]));
      std::cout << "step, p = " << p << ", "
                << (kind == LimiterPoints::vertices ? "vertices" : "edge Gauss points")
                << ": largest relative excess over the bounds " << worst_before << " before, "
                << worst_excess << " after" << std::endl;
      BOOST_TEST(worst_before > 0.01);  // the data did have new extrema
    }
  }
}

// (3) Euler data whose means are admissible (ρ̄, p̄ ≥ 0.5) but whose slopes take ρ and p
// below zero at some points: after the fix, ρ, p ≥ ε at every check point (at p = 1 on the
// whole element: the vertices bound a linear ρ and a concave p(u_h(x))), means bit for bit,
// and elements that were fine untouched.
BOOST_AUTO_TEST_CASE(positivity_fix_restores_density_and_pressure) {
  const SimplexMesh<2> mesh = square_mesh(8, 0.0, 1.0, 0.2, 11);
  const Euler gas;
  const double floor = 1e-3;
  for (int p : {1, 2}) {
    ExplicitTriangleDG dg(mesh, p, gas);
    auto u = dg.project([&](const Point<2>& x) {
      const double wave = std::sin(9 * x[0] + 4 * x[1]);
      return gas.conserved({1.0 + 0.5 * wave, {3.0 * wave, -2.0 * x[0]}, 1.0 + 0.5 * wave});
    });
    // Steepen the slopes (and, at p = 2, the curvature): the means stay as projected.
    for (Index c = 0; c < dg.element_count(); ++c)
      for (int v = 0; v < 4; ++v)
        for (int i = 1; i < dg.basis_size(); ++i) u[dg.coefficient_index(c, v, i)] *= 6.0;
    const PositivityFix fix(dg, floor);
    std::vector<double> fixed = u;
    fix(fixed);
    int needed = 0;
    for (Index c = 0; c < dg.element_count(); ++c) {
      bool fine = true;
      for (const Point<2>& x : positivity_points(mesh, dg, c)) {
        const State<4> s = state_at(dg, u, c, x);
        fine = fine && s[0] >= floor && gas.pressure(s) >= floor;
      }
      needed += !fine;
      const auto points = p == 1 ? points_all_over(mesh, c) : positivity_points(mesh, dg, c);
      for (const Point<2>& x : points) {
        const State<4> s = state_at(dg, fixed, c, x);
        // Rounding: ρ̄ + θ(ρ_k − ρ̄) and (γ − 1)(E − |m|²/2ρ) with |u| ≤ 100.
        BOOST_TEST(s[0] >= floor - 1e-12, "p = " << p << ", element " << c << ": ρ " << s[0]);
        BOOST_TEST(gas.pressure(s) >= floor - 1e-12,
                   "p = " << p << ", element " << c << ": pressure " << gas.pressure(s));
      }
      for (int v = 0; v < 4; ++v) {
        BOOST_TEST(fixed[dg.coefficient_index(c, v, 0)] == u[dg.coefficient_index(c, v, 0)]);
        if (fine)
          for (int i = 1; i < dg.basis_size(); ++i)
            BOOST_TEST(fixed[dg.coefficient_index(c, v, i)] == u[dg.coefficient_index(c, v, i)]);
      }
    }
    std::cout << "positivity, p = " << p << ": " << needed << " of " << dg.element_count()
              << " elements below the floor before the fix" << std::endl;
    BOOST_TEST(needed > dg.element_count() / 10);
  }
}

// (4) What cannot be fixed is reported: an element whose mean is not admissible, named; and the
// limiter's and fix's checks of their inputs.
BOOST_AUTO_TEST_CASE(bad_inputs_are_reported) {
  using polydg::testing::error_names;
  const SimplexMesh<2> mesh = square_mesh(3, 0.0, 1.0, 0.0, 11);
  const Euler gas;
  ExplicitTriangleDG dg(mesh, 1, gas);
  auto u = dg.project([&](const Point<2>&) { return gas.conserved({1.0, {0.5, 0.0}, 1.0}); });
  u[dg.coefficient_index(5, 0, 0)] = -0.1;  // ρ̄ < 0 in element 5
  const PositivityFix fix(dg);
  const BarthJespersenLimiter limiter(dg);
  BOOST_TEST(error_names([&] { fix(u); }, {"PositivityFix", "element 5", "not admissible"}));
  BOOST_TEST(error_names([&] { PositivityFix bad(dg, 0.0); }, {"epsilon = 0"}));
  std::vector<double> wrong(7);
  BOOST_TEST(error_names([&] { limiter(wrong); }, {"7 coefficients"}));
  BOOST_TEST(error_names([&] { fix(wrong); }, {"7 coefficients"}));
}

// (5) The stage limiter runs once per stage (2, 3, 4 for SSP-RK2, SSP-RK3, RK4), on the stage
// buffer and on the new solution; one that changes nothing gives the steps without a limiter
// bit for bit.
BOOST_AUTO_TEST_CASE(stage_limiter_runs_after_every_stage) {
  const SimplexMesh<2> mesh = square_mesh(4, 0.0, 1.0, 0.2, 11);
  const Euler gas;
  ExplicitTriangleDG dg(mesh, 2, gas);
  const auto initial = dg.project([&](const Point<2>& x) {
    return gas.conserved({1.0 + 0.2 * x[0], {0.3, -0.1 * x[1]}, 1.0 + 0.1 * x[1]});
  });
  const auto walls = reflecting_walls(gas);
  const std::pair<TimeScheme, int> schemes[] = {
      {TimeScheme::ssp_rk2, 2}, {TimeScheme::ssp_rk3, 3}, {TimeScheme::rk4, 4}};
  for (const auto& [scheme, stages] : schemes) {
    int calls = 0;
    std::vector<double> plain = initial, hooked = initial;
    TimeStepper plain_stepper(dg, scheme);
    static_assert(std::is_same_v<decltype(plain_stepper),
                                 TimeStepper<ExplicitTriangleDG<Euler>, NoStageLimiter>>);
    TimeStepper hooked_stepper(dg, scheme, [&](std::span<double> v) {
      BOOST_TEST(v.size() == initial.size());
      ++calls;
    });
    const double dt = dg.stable_time_step(initial, 0.0, 0.5);
    for (int s = 0; s < 3; ++s) {
      plain_stepper.step(plain, s * dt, dt, walls);
      hooked_stepper.step(hooked, s * dt, dt, walls);
    }
    BOOST_TEST(calls == 3 * stages);
    BOOST_TEST(plain == hooked);
    BOOST_TEST(plain != initial);
  }
}

// (6) The tag-dispatch boundary functor: kernel-ready, the three ghost states, and checks.
BOOST_AUTO_TEST_CASE(euler_boundary_dispatches_on_tags) {
  using polydg::testing::error_names;
  static_assert(std::is_trivially_copyable_v<EulerBoundary>);
  static_assert(std::is_trivially_copyable_v<DoubleMachReflectionBoundary>);
  static_assert(BoundaryCondition<EulerBoundary, Euler>);
  static_assert(BoundaryCondition<DoubleMachReflectionBoundary, Euler>);
  const Euler gas;
  const State<4> given = gas.conserved({2.0, {1.0, -0.5}, 3.0});
  EulerBoundary boundary{gas};
  boundary.inflow(1, given).outflow(2).reflecting_wall(3);
  const State<4> inside = gas.conserved({1.0, {0.6, 0.8}, 1.0});
  const Point<2> x{0.5, 0.0}, n{0.0, -1.0};
  BOOST_TEST(boundary(inside, x, n, 0.0, 1) == given);
  BOOST_TEST(boundary(inside, x, n, 0.0, 2) == inside);
  BOOST_TEST(boundary(inside, x, n, 0.0, 3) == gas.wall_state(inside, n));
  BOOST_TEST(std::isnan(boundary(inside, x, n, 0.0, 4)[0]));

  const SimplexMesh<2> mesh = square_mesh(2, 0.0, 1.0, 0.0, 11);  // tags 1..4
  BOOST_TEST(error_names([&] { boundary.require_covers(mesh); }, {"boundary tag 4", "no rule"}));
  boundary.outflow(4);
  boundary.require_covers(mesh);
  BOOST_TEST(error_names([&] { boundary.outflow(2); }, {"tag 2", "has a rule already"}));
  BOOST_TEST(error_names(
      [&] {
        EulerBoundary{gas}.inflow(1, State<4>{{1.0, 0.0, 0.0, -1.0}});
      },
      {"inflow state of tag 1", "not physical"}));
}

// (7) The double Mach reflection's data: the post-shock state satisfies the Rankine–Hugoniot
// conditions across the shock moving at M c along its normal (mass, normal momentum and energy
// fluxes equal in the shock's frame, tangential velocity 0 on both sides) and gives the
// classical ρ = 8, p = 116.5, |v| = 8.25; the shock line x_s = 1/6 + (y + 20t)/√3; the mesh
// covers [0, 4] × [0, 1] with the five tags on the right lengths.
BOOST_AUTO_TEST_CASE(double_mach_reflection_data_and_mesh) {
  const DoubleMachReflection problem;
  const Euler::Primitive behind = problem.post_shock(), ahead = problem.pre_shock();
  BOOST_TEST(std::abs(behind.density - 8.0) <= 8.0 * 4 * epsilon);
  BOOST_TEST(std::abs(behind.pressure - 116.5) <= 116.5 * 4 * epsilon);
  const Point<2> normal{std::sin(problem.shock_angle), -std::cos(problem.shock_angle)};
  const double speed = problem.mach * problem.pre_shock_sound_speed();
  BOOST_TEST(std::abs(std::sqrt(dot(behind.velocity, behind.velocity)) - 8.25) <= 1e-14 * 8.25);
  const double gamma = problem.gas.gamma;
  const auto fluxes = [&](const Euler::Primitive& w) {
    const double relative = dot(w.velocity, normal) - speed;  // in the shock's frame
    const double tangential = w.velocity[0] * normal[1] - w.velocity[1] * normal[0];
    const double enthalpy = gamma / (gamma - 1) * w.pressure / w.density;
    return std::array<double, 4>{w.density * relative, w.density * relative * relative + w.pressure,
                                 enthalpy + 0.5 * relative * relative, tangential};
  };
  const auto a = fluxes(ahead), b = fluxes(behind);
  for (int i = 0; i < 4; ++i)
    BOOST_TEST(std::abs(a[i] - b[i]) <= 1e-13 * (std::abs(a[i]) + 100), "jump condition " << i);
  for (double y : {0.0, 0.5, 1.0})
    for (double t : {0.0, 0.1, 0.2})
      BOOST_TEST(std::abs(problem.shock_position(y, t) -
                          (1.0 / 6 + (y + 20 * t) / std::sqrt(3.0))) <= 1e-14 * 4);
  const State<4> left = problem.initial_state({0.1, 0.5});
  const State<4> right = problem.initial_state({1.0, 0.5});
  BOOST_TEST(left == problem.gas.conserved(behind));
  BOOST_TEST(right == problem.gas.conserved(ahead));

  for (int resolution : {1, 6, 13}) {
    const SimplexMesh<2> mesh = double_mach_reflection_mesh(resolution, problem);
    double area = 0, length[6] = {};
    for (Index c = 0; c < mesh.cell_count(); ++c) area += mesh.cell_measure(c);
    for (Index f = 0; f < mesh.facet_count(); ++f)
      if (mesh.is_boundary_facet(f)) {
        const int tag = mesh.facet_tag(f);
        BOOST_TEST_REQUIRE((tag >= 1 && tag <= 5), "facet " << f << " has tag " << tag);
        length[tag] += mesh.facet_measure(f);
        const auto ends = mesh.facet_points(f);
        if (tag == DoubleMachReflection::bottom_inflow_tag)
          BOOST_TEST((ends[0][0] <= 1.0 / 6 + 1e-15 && ends[1][0] <= 1.0 / 6 + 1e-15));
        if (tag == DoubleMachReflection::wall_tag)
          BOOST_TEST((ends[0][0] >= 1.0 / 6 - 1e-15 && ends[1][0] >= 1.0 / 6 - 1e-15));
      }
    BOOST_TEST(std::abs(area - 4.0) <= 1e-12);
    BOOST_TEST(std::abs(length[DoubleMachReflection::left_tag] - 1.0) <= 1e-13);
    BOOST_TEST(std::abs(length[DoubleMachReflection::bottom_inflow_tag] - 1.0 / 6) <= 1e-13);
    BOOST_TEST(std::abs(length[DoubleMachReflection::wall_tag] - 23.0 / 6) <= 1e-13);
    BOOST_TEST(std::abs(length[DoubleMachReflection::right_tag] - 1.0) <= 1e-13);
    BOOST_TEST(std::abs(length[DoubleMachReflection::top_tag] - 4.0) <= 1e-13);
  }
  using polydg::testing::error_names;
  BOOST_TEST(error_names([&] { double_mach_reflection_mesh(0, problem); }, {"resolution 0"}));
}

// (8) The double Mach reflection on a coarse mesh (1,152 triangles), p = 1, limiter and
// positivity fix after every SSP-RK2 stage, to t = 0.2 (a few hundred steps): every mean stays
// admissible and ρ, p ≥ ε at every check point after every stage; the mass changes by exactly
// the boundary fluxes: with SSP-RK2, Σ∫ρ changes by Δt/2 (B(u) + B(u*)), B the boundary's mass
// inflow of the two residuals (the limiter and the fix keep every mean).
BOOST_AUTO_TEST_CASE(double_mach_reflection_stays_positive_and_conserves_mass) {
  const DoubleMachReflection problem;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(12, problem);
  ExplicitTriangleDG dg(mesh, 1, problem.gas);
  const BarthJespersenLimiter limiter(dg);
  const double floor = 1e-10;
  const PositivityFix positivity(dg, floor);
  // B(u) of the residual just computed: −Σ_boundary |e| Σ_q w_q F*_ρ (outward normals).
  const auto boundary_inflow = [&] {
    const auto flux = dg.facet_fluxes();
    const TriangleGeometry& g = dg.geometry();
    const ReferenceTables& tables = dg.tables();
    double inflow = 0;
    for (Index f = 0; f < g.facet_count; ++f)
      if (g.facet_element[g.facet_count + f] < 0)
        for (int q = 0; q < tables.edge_point_count; ++q)
          inflow -= g.facet_length[f] * tables.edge_weights[q] * flux[q * g.facet_count + f];
    return inflow;
  };
  // P_1 at the reference vertices, for u_h at the vertices.
  double vertex_values[3][3];
  const Point<2> corners[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
  for (int k = 0; k < 3; ++k) evaluate_dubiner_basis(1, corners[k], vertex_values[k]);
  std::vector<double> stage_inflows;
  double worst_density = std::numeric_limits<double>::infinity(), worst_pressure = worst_density;
  long limited_stages = 0, fixed_stages = 0, inadmissible_means = 0;
  const auto limit = [&](std::span<double> v) {
    // After a stage: the residual just used is the one whose fluxes the solver holds.
    stage_inflows.push_back(boundary_inflow());
    const std::vector<double> before(v.begin(), v.end());
    limiter(v);
    const std::vector<double> limited(v.begin(), v.end());
    positivity(v);
    limited_stages += !std::equal(v.begin(), v.end(), before.begin());
    fixed_stages += !std::equal(v.begin(), v.end(), limited.begin());
    for (Index c = 0; c < dg.element_count(); ++c) {
      State<4> average;
      for (int k = 0; k < 4; ++k)
        average[k] = std::numbers::sqrt2 * v[dg.coefficient_index(c, k, 0)];
      inadmissible_means += !problem.gas.is_physical(average);
      const ResidualView g = dg.view();
      for (int q = 0; q < g.volume_points; ++q) {
        const State<4> s = g.volume_state<4>(v.data(), c, q);
        worst_density = std::min(worst_density, s[0]);
        worst_pressure = std::min(worst_pressure, problem.gas.pressure(s));
      }
      for (int e = 0; e < 3; ++e)
        for (int q = 0; q < g.edge_points; ++q) {
          const State<4> s = g.edge_state<4>(v.data(), c, e, 0, q);
          worst_density = std::min(worst_density, s[0]);
          worst_pressure = std::min(worst_pressure, problem.gas.pressure(s));
        }
      for (int k = 0; k < 3; ++k) {
        const State<4> s = g.state_at<4>(v.data(), c, vertex_values[k]);
        worst_density = std::min(worst_density, s[0]);
        worst_pressure = std::min(worst_pressure, problem.gas.pressure(s));
      }
    }
  };
  auto u = dg.project([&](const Point<2>& x) { return problem.initial_state(x); });
  limiter(u);
  positivity(u);
  const double initial_mass = dg.total_integral(u)[0];
  TimeStepper stepper(dg, TimeScheme::ssp_rk2, limit);
  const auto boundary = double_mach_reflection_boundary(problem);
  double t = 0, predicted_mass = initial_mass;
  long steps = 0;
  while (t < 0.2) {
    const double dt = std::min(dg.stable_time_step(u, t, 0.5), 0.2 - t);
    stage_inflows.clear();
    stepper.step(u, t, dt, boundary);
    BOOST_TEST_REQUIRE(stage_inflows.size() == 2u);
    predicted_mass += 0.5 * dt * (stage_inflows[0] + stage_inflows[1]);
    t = t + dt >= 0.2 ? 0.2 : t + dt;
    ++steps;
  }
  const double mass = dg.total_integral(u)[0];
  std::cout << "double Mach reflection, " << mesh.cell_count() << " triangles, " << steps
            << " SSP-RK2 steps to t = 0.2: mass " << initial_mass << " -> " << mass
            << " (boundary fluxes predict " << predicted_mass << "), smallest density "
            << worst_density << " and pressure " << worst_pressure << " at the points; "
            << limited_stages << " of " << 2 * steps << " stages limited, " << fixed_stages
            << " changed by the positivity fix" << std::endl;
  BOOST_TEST(steps >= 200);
  BOOST_TEST(inadmissible_means == 0);
  // The fix's floor, less the rounding of p = (γ − 1)(E − |m|²/2ρ) with E ≤ 10⁴.
  BOOST_TEST(worst_density >= floor - 1e-12);
  BOOST_TEST(worst_pressure >= floor - 1e-12);
  // Rounding of the updates and sums: ~eps · mass per step.
  BOOST_TEST(std::abs(mass - predicted_mass) <= 100 * steps * epsilon * mass);
  // The inflow of post-shock gas did change the mass (the balance is not vacuous).
  BOOST_TEST(mass - initial_mass > 0.01 * initial_mass);
  BOOST_TEST(limited_stages > 0);
  // The fix was exercised: limiting ρ, m and E separately lets their bounds combine into p < ε
  // at points beside the shock.
  BOOST_TEST(fixed_stages > 0);
}

// (9) The limiter and the fix keep each element's modes in a fixed-size local array up to
// p = largest_local_modes_degree (LocalElementModes: one load, one store of the variables that
// changed) and work in place above (ElementModes). The loop bodies are the same, so the CPU
// classes give the bits of the in-place kernels run element by element, at p = 1..4 and at
// p = 5 (the fallback); elements and variables they leave alone keep their bits.
BOOST_AUTO_TEST_CASE(local_modes_give_the_bits_of_the_in_place_kernels) {
  static_assert(largest_local_modes_degree == 4);
  const SimplexMesh<2> mesh = square_mesh(6, 0.0, 1.0, 0.2, 11);
  const Euler gas;
  for (int p = 1; p <= 5; ++p) {
    ExplicitTriangleDG dg(mesh, p, gas);
    auto u = dg.project([&](const Point<2>& x) {
      const double wave = std::sin(9 * x[0] + 4 * x[1]);
      const bool behind = x[0] + 0.4 * x[1] < 0.55;
      return gas.conserved(
          {(behind ? 3.0 : 1.0) + 0.5 * wave, {3.0 * wave, -2.0 * x[0]}, 1.0 + 0.5 * wave});
    });
    // Steep slopes, so that the fix has work after the limiter, and every fourth element flat,
    // which neither changes (the means stay as projected).
    for (Index c = 0; c < dg.element_count(); ++c)
      for (int v = 0; v < 4; ++v)
        for (int i = 1; i < dg.basis_size(); ++i)
          u[dg.coefficient_index(c, v, i)] *= c % 4 == 0 ? 0.0 : 6.0;
    const BarthJespersenLimiter limiter(dg);
    const PositivityFix fix(dg, 1e-3);
    std::vector<double> classes = u;
    limiter(classes);
    const std::vector<double> limited = classes;
    fix(classes);

    // The fix's one table of check points: the solver's volume and edge tables (orientation 0)
    // and the vertices, value for value.
    const ResidualView g = dg.view();
    const int n = dg.basis_size();
    BOOST_TEST(fix.check_point_count() == g.volume_points + 3 * g.edge_points + 3);
    const std::span<const double> table = fix.check_point_values();
    BOOST_TEST_REQUIRE(table.size() == std::size_t(fix.check_point_count()) * n);
    std::vector<double> expected(g.volume_values, g.volume_values + g.volume_points * n);
    for (int e = 0; e < 3; ++e)
      for (int q = 0; q < g.edge_points; ++q) {
        const double* phi = g.edge_values + ((e * 2 + 0) * g.edge_points + q) * n;
        expected.insert(expected.end(), phi, phi + n);
      }
    const Point<2> corners[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
    for (const Point<2>& x : corners) {
      std::vector<double> phi(n);
      evaluate_dubiner_basis(p, x, phi.data());
      expected.insert(expected.end(), phi.begin(), phi.end());
    }
    BOOST_TEST(testing::same_bits(std::vector<double>(table.begin(), table.end()), expected));

    std::vector<double> in_place = u;
    for (Index c = 0; c < dg.element_count(); ++c)
      barth_jespersen_kernel<4>(g, limiter.point_values().data(),
                                int(limiter.point_values().size() / 2), c, in_place.data());
    BOOST_TEST(testing::same_bits(in_place, limited), "p = " << p << ": limiter");
    for (Index c = 0; c < dg.element_count(); ++c)
      BOOST_TEST_REQUIRE(positivity_fix_kernel(g, gas, fix.check_point_values().data(),
                                               fix.check_point_count(), fix.epsilon(), c,
                                               in_place.data()));
    BOOST_TEST(testing::same_bits(in_place, classes), "p = " << p << ": limiter and fix");

    // Both steps did work somewhere, and left alone elsewhere (per element and variable).
    long limited_pairs = 0, fixed_pairs = 0, untouched_pairs = 0;
    for (Index c = 0; c < dg.element_count(); ++c)
      for (int v = 0; v < 4; ++v) {
        bool by_limiter = false, by_fix = false;
        for (int i = 1; i < dg.basis_size(); ++i) {
          const std::size_t k = dg.coefficient_index(c, v, i);
          by_limiter = by_limiter || limited[k] != u[k];
          by_fix = by_fix || classes[k] != limited[k];
        }
        limited_pairs += by_limiter;
        fixed_pairs += by_fix;
        untouched_pairs += !by_limiter && !by_fix;
      }
    std::cout << "local modes, p = " << p << ": of " << 4 * dg.element_count()
              << " (element, variable) pairs " << limited_pairs << " limited, " << fixed_pairs
              << " changed by the fix, " << untouched_pairs << " untouched" << std::endl;
    BOOST_TEST(limited_pairs > 0);
    BOOST_TEST(fixed_pairs > 0);
    BOOST_TEST(untouched_pairs > 0);
  }
}
