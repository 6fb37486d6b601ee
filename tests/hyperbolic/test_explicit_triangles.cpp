#define BOOST_TEST_MODULE explicit_triangles
// The CPU reference of the explicit modal DG solver on triangles (docs/theory.md, "Explicit path
// for conservation laws"): exact properties of the semi-discretisation (free stream, conservation
// with walls, exactness on polynomials), the rotating hill's convergence rates, and the errors.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <numbers>
#include <vector>

#include "error_message.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/refinement.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace polydg;
using namespace polydg::hyperbolic;

namespace {

constexpr double epsilon = std::numeric_limits<double>::epsilon();

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

/// A constant velocity.
struct Drift {
  Point<2> a;
  Point<2> operator()(const Point<2>&) const { return a; }
};

}  // namespace

// (1) A constant state is a steady solution: each element's boundary integral of F(ū)·n
// vanishes and ∇·F(ū) = 0, so the residual is rounding only. The mesh is perturbed (general
// affine maps, both facet orientations occur) and the boundary data is the state itself.
BOOST_AUTO_TEST_CASE(euler_free_stream_is_preserved) {
  const SimplexMesh<2> mesh = square_mesh(6, 0.0, 1.0, 0.2, 7);
  const Euler gas;
  const State<4> moving = gas.conserved({1.3, {0.7, -0.4}, 0.9});
  const State<4> resting = gas.conserved({1.3, {0.0, 0.0}, 0.9});
  for (int p = 0; p <= 4; ++p) {
    ExplicitTriangleDG dg(mesh, p, gas);
    // Rounding scale: flux magnitude (≈ 3 here) times the residual's 1/h_min.
    const double scale = 10.0 / dg.geometry().min_size;
    {
      auto u = dg.project([&](const Point<2>&) { return moving; });
      std::vector<double> r(u.size());
      dg.residual(u, 0.0, exact_boundary([&](const Point<2>&, double) { return moving; }), r);
      std::cout << "free stream p = " << p << ": max |R| = " << max_abs(r) << std::endl;
      BOOST_TEST(max_abs(r) <= 1000 * epsilon * scale, "p = " << p << ": " << max_abs(r));
    }
    {
      // At rest the reflecting wall's mirror state is the state itself.
      auto u = dg.project([&](const Point<2>&) { return resting; });
      std::vector<double> r(u.size());
      dg.residual(u, 0.0, reflecting_walls(gas), r);
      BOOST_TEST(max_abs(r) <= 1000 * epsilon * scale, "p = " << p << ": " << max_abs(r));
    }
  }
}

// (2) With reflecting walls on every boundary the LLF flux of mass and energy through a wall
// is exactly zero (the mirror state has the same ρ, E and p and the opposite normal momentum),
// and interior fluxes cancel pairwise, so Σ∫ρ and Σ∫E change by rounding only.
BOOST_AUTO_TEST_CASE(euler_with_walls_conserves_mass_and_energy) {
  const SimplexMesh<2> mesh = square_mesh(6, 0.0, 1.0, 0.2, 7);
  const Euler gas;
  for (int p : {1, 2}) {
    ExplicitTriangleDG dg(mesh, p, gas);
    auto u = dg.project([&](const Point<2>& x) {
      const double bump =
          std::exp(-40 * ((x[0] - 0.4) * (x[0] - 0.4) + (x[1] - 0.55) * (x[1] - 0.55)));
      return gas.conserved({1.0 + 0.5 * bump, {0.3, 0.2 * x[0]}, 1.0 + bump});
    });
    const auto before = dg.total_integral(u);
    TimeStepper stepper(dg, TimeScheme::ssp_rk3);
    const auto walls = reflecting_walls(gas);
    const double dt = dg.stable_time_step(u, 0.0, 0.5);
    const int steps = 30;
    for (int s = 0; s < steps; ++s) stepper.step(u, s * dt, dt, walls);
    const auto after = dg.total_integral(u);
    std::cout << "walls p = " << p << ", " << steps << " SSP-RK3 steps: mass change "
              << after[0] - before[0] << ", energy change " << after[3] - before[3]
              << ", x-momentum change " << after[1] - before[1] << std::endl;
    // The state did change (the test is not vacuous).
    BOOST_TEST(std::abs(after[1] - before[1]) > 1e-6);
    for (int v : {0, 3})
      BOOST_TEST(std::abs(after[v] - before[v]) <= 100 * steps * epsilon * std::abs(before[v]),
                 "p = " << p << ", variable " << v << ": " << before[v] << " -> " << after[v]);
  }
}

// (3) For F(u) = a u with constant a and u ∈ P_p: the projection is exact, u is continuous, so
// F* = (a·n) u at every Gauss point (exact boundary data on the boundary), and all quadratures
// are exact (volume degree 2p − 1 ≤ 2p, edges 2p ≤ 2p + 1). Integrating by parts, the residual
// is then the L2 projection of −a·∇u, to rounding.
BOOST_AUTO_TEST_CASE(linear_advection_residual_is_exact_on_polynomials) {
  const SimplexMesh<2> mesh = square_mesh(5, -1.0, 1.0, 0.2, 7);
  const Point<2> a{1.0, -0.6};
  const LinearAdvection law{Drift{a}};
  for (int p = 1; p <= 4; ++p) {
    // u = (0.3 + x − 0.5 y)^p + x^{p−1} y, degree p.
    auto u_exact = [p](const Point<2>& x) {
      return State<1>{{std::pow(0.3 + x[0] - 0.5 * x[1], p) + std::pow(x[0], p - 1) * x[1]}};
    };
    auto minus_a_grad_u = [&](const Point<2>& x) {
      const double base = p * std::pow(0.3 + x[0] - 0.5 * x[1], p - 1);
      const double dx = base + (p > 1 ? (p - 1) * std::pow(x[0], p - 2) * x[1] : 0.0);
      const double dy = -0.5 * base + std::pow(x[0], p - 1);
      return State<1>{{-(a[0] * dx + a[1] * dy)}};
    };
    ExplicitTriangleDG dg(mesh, p, law);
    const auto u = dg.project(u_exact);
    const auto expected = dg.project(minus_a_grad_u);
    std::vector<double> r(u.size());
    dg.residual(u, 0.0, exact_boundary([&](const Point<2>& x, double) { return u_exact(x); }), r);
    double difference = 0;
    for (std::size_t i = 0; i < r.size(); ++i)
      difference = std::max(difference, std::abs(r[i] - expected[i]));
    std::cout << "polynomial p = " << p << ": max |R - P(-a.grad u)| = " << difference
              << ", max |R| = " << max_abs(r) << std::endl;
    // Rounding scale: |u| ≤ 3^p on [−1, 1]², times |a| / h_min.
    const double scale = std::pow(3.0, p) * 2 / dg.geometry().min_size;
    BOOST_TEST(difference <= 1000 * epsilon * scale,
               "p = " << p << ": " << difference << " (max |r| " << max_abs(r) << ")");
  }
}

// Each residual entry is written by one element from fluxes written by one facet each, in a
// fixed order: the result does not depend on the thread count, bit for bit. (Without OpenMP
// there is one thread and nothing to compare.)
#ifdef _OPENMP
BOOST_AUTO_TEST_CASE(residual_is_independent_of_the_thread_count) {
  const SimplexMesh<2> mesh = square_mesh(7, 0.0, 1.0, 0.2, 7);
  const Euler gas;
  ExplicitTriangleDG dg(mesh, 3, gas);
  const auto u = dg.project([&](const Point<2>& x) {
    return gas.conserved({1.0 + 0.3 * x[0] * x[1], {0.4 - x[1], 0.2 * x[0]}, 1.0 + 0.5 * x[0]});
  });
  const int threads = omp_get_max_threads();
  std::vector<double> serial(u.size()), parallel(u.size());
  omp_set_num_threads(1);
  dg.residual(u, 0.0, reflecting_walls(gas), serial);
  omp_set_num_threads(std::max(threads, 3));
  dg.residual(u, 0.0, reflecting_walls(gas), parallel);
  omp_set_num_threads(threads);
  BOOST_TEST(max_abs(serial) > 0.1);
  BOOST_TEST(serial == parallel);
}
#endif

// (4) The rotating hill: u_t − 2πy u_x + 2πx u_y = 0 on [−1, 1]², a Gaussian of radius
// r = 0.15 at (0.2, 0), exact data on the boundary, RK4, one rotation. The smooth solution gives
// the DG rate p + 1 in L2; the threshold allows 0.2 below it between the two finest meshes.
BOOST_AUTO_TEST_CASE(rotating_hill_converges_at_rate_p_plus_1) {
  const double pi = std::numbers::pi;
  const LinearAdvection law{RotatingVelocity{{0.0, 0.0}, 2 * pi}};
  const auto exact = [pi](const Point<2>& x, double t) {
    const double c = std::cos(2 * pi * t), s = std::sin(2 * pi * t);
    const double dx = x[0] * c + x[1] * s - 0.2;
    const double dy = -x[0] * s + x[1] * c;
    return State<1>{{std::exp(-(dx * dx + dy * dy) / (2 * 0.15 * 0.15))}};
  };
  const auto boundary = exact_boundary(exact);
  const auto start = std::chrono::steady_clock::now();
  for (int p = 1; p <= 3; ++p) {
    std::vector<double> errors;
    SimplexMesh<2> mesh = square_mesh(8, -1.0, 1.0, 0.0, 7);
    for (int level = 0; level < 3; ++level) {
      if (level > 0) mesh = refine(mesh);
      ExplicitTriangleDG dg(mesh, p, law);
      auto u = dg.project([&](const Point<2>& x) { return exact(x, 0.0); });
      TimeStepper stepper(dg, TimeScheme::rk4);
      const auto stats = stepper.advance(u, 0.0, 1.0, boundary, 0.9);
      errors.push_back(dg.l2_errors(u, exact, 1.0)[0]);
      std::cout << "rotating hill p = " << p << ", " << mesh.cell_count() << " triangles, "
                << stats.steps << " RK4 steps: L2 error " << errors.back();
      if (level > 0) std::cout << ", rate " << std::log2(errors[level - 1] / errors[level]);
      std::cout << std::endl;
    }
    const double rate = std::log2(errors[1] / errors[2]);
    BOOST_TEST(rate >= p + 1 - 0.2, "p = " << p << ": rate " << rate);
  }
  std::cout << "rotating hill total "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s with " << omp_get_max_threads() << " threads" << std::endl;
}

// (5) Bad inputs are refused with a message naming what and where.
BOOST_AUTO_TEST_CASE(bad_inputs_are_reported) {
  using polydg::testing::error_names;
  const SimplexMesh<2> mesh = square_mesh(2, 0.0, 1.0, 0.0, 7);
  const Euler gas;
  BOOST_TEST(error_names([&] { ExplicitTriangleDG dg(mesh, -1, gas); }, {"degree p = -1"}));
  BOOST_TEST(error_names([&] { ExplicitTriangleDG dg(mesh, 11, gas); }, {"degree p = 11"}));

  ExplicitTriangleDG dg(mesh, 1, gas);
  const State<4> good = gas.conserved({1.0, {0.1, 0.0}, 1.0});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  BOOST_TEST(error_names(
      [&] {
        dg.project([&](const Point<2>& x) {
          return x[0] > 0.5 && x[1] > 0.5 ? State<4>{{1.0, nan, 0.0, 2.5}} : good;
        });
      },
      {"initial state", "nan", "element", "not physical"}));
  // Negative pressure: E below the kinetic energy.
  BOOST_TEST(error_names(
      [&] { dg.project([&](const Point<2>&) {
              return State<4>{{1.0, 1.0, 0.0, 0.1}};
            }); },
      {"initial state (1, 1, 0, 0.10000000000000001)", "element 0", "not physical"}));
  // A non-physical coefficient vector (density < 0 in element 3) is caught by the time step's
  // wave-speed reduction, and the step is not taken.
  auto u = dg.project([&](const Point<2>&) { return good; });
  u[dg.coefficient_index(3, 0, 0)] = -1.0;
  BOOST_TEST(error_names([&] { (void)dg.stable_time_step(u, 0.25, 0.5); },
                         {"t = 0.25", "element 3", "not physical"}));
  TimeStepper stepper(dg, TimeScheme::rk4);
  BOOST_TEST(error_names([&] { stepper.advance(u, 0.0, 1.0, reflecting_walls(gas), 0.5); },
                         {"element 3", "not physical"}));
  std::vector<double> wrong(5);
  BOOST_TEST(error_names([&] { dg.residual(wrong, 0.0, reflecting_walls(gas), wrong); },
                         {"residual", "5 coefficients"}));
}
