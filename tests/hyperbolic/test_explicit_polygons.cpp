#define BOOST_TEST_MODULE explicit_polygons
// The CPU reference of the explicit modal DG solver on polygons (explicit_polygon_dg.hpp;
// docs/theory.md, "Explicit path for conservation laws"): exact properties of the
// semi-discretisation on METIS agglomerates (orthonormal bases, free stream, conservation with
// walls, exactness on polynomials, thread-count independence), agreement with the triangle
// solver on polygons of one triangle, and L2 rates of a translated smooth function.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <numbers>
#include <numeric>
#include <vector>

#include "error_message.hpp"
#include "log_log_slope.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_discretisation.hpp"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/hyperbolic/supersonic_vortex.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "unit_square_hill.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace polydg;
using namespace polydg::hyperbolic;

namespace {

constexpr double epsilon = std::numeric_limits<double>::epsilon();

/// unit_square_mesh(n, perturbation) agglomerated by METIS into about `elements` polygons; with
/// `retriangulate`, each polygon's quadrature sub-triangles are an ear clipping of its boundary
/// (about one per face, long and thin) instead of its fine triangles.
PolytopicMesh<2> polygon_mesh(int n, double perturbation, Index elements,
                              bool retriangulate = false) {
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, perturbation, 7));
  PolytopicMeshOptions options;
  options.retriangulate = retriangulate;
  return PolytopicMesh<2>(fine, agglomerate(*fine, elements).element_of_cell, 1, options);
}

/// Every triangle of `fine` its own polygon.
PolytopicMesh<2> single_triangle_polygons(const SimplexMesh<2>& fine) {
  std::vector<Index> identity(std::size_t(fine.cell_count()));
  std::iota(identity.begin(), identity.end(), Index(0));
  return PolytopicMesh<2>(std::make_shared<const SimplexMesh<2>>(fine), identity, 1);
}

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

static_assert(ExplicitDiscretisation<ExplicitPolygonDG<Euler>>);
static_assert(ExplicitDiscretisation<ExplicitTriangleDG<Euler>>);
static_assert(ExplicitDiscretisation<ExplicitPolygonDG<LinearAdvection<Drift>>>);

/// max over elements of ‖w_h‖_{L2(K)} / √|K| for coefficients w (orthonormal modes: the RMS of
/// w_h on each element).
template <class DG>
double max_element_rms(const DG& dg, const std::vector<double>& w) {
  double largest = 0;
  for (Index c = 0; c < dg.element_count(); ++c)
    for (int v = 0; v < DG::variables; ++v) {
      double sum = 0;
      for (int i = 0; i < dg.basis_size(); ++i) {
        const double x = w[dg.coefficient_index(c, v, i)];
        sum += x * x;
      }
      largest = std::max(largest, std::sqrt(sum / dg.geometry().measure[c]));
    }
  return largest;
}

}  // namespace

// (0) The orthonormalised bases: ∫_K φ̃_i φ̃_k = δ_ik by a rule of degree 2p + 4 (independent of
// the one that orthonormalised them) and by the residual's compressed rule on every polygon,
// ∫_K φ̃_0 = √|K|, and a polynomial of degree p is projected exactly (its L2 error is rounding).
BOOST_AUTO_TEST_CASE(bases_are_orthonormal_on_each_polygon) {
  const PolytopicMesh<2> mesh = polygon_mesh(12, 0.2, 30);
  for (int p = 0; p <= 4; ++p) {
    ExplicitPolygonDG dg(mesh, p, LinearAdvection{Drift{{1.0, 0.0}}});
    const PolygonGeometry& g = dg.geometry();
    const int n = dg.basis_size();
    const PolygonQuadratureRules check = make_polygon_quadrature_rules(2 * p + 4, 1);
    const PolygonResidualView view = dg.view();
    double worst_orthonormality = 0, worst_integral = 0;
    for (Index c = 0; c < g.element_count; ++c) {
      std::vector<double> gram(std::size_t(n) * n, 0.0);
      std::vector<double> phi(max_polygon_basis_size), modes(n);
      for (Index s = g.element_triangle_offsets[c]; s < g.element_triangle_offsets[c + 1]; ++s)
        for (int q = 0; q < check.volume_point_count; ++q) {
          const Point<2> x =
              view.triangle_point(s, check.volume_points[2 * q], check.volume_points[2 * q + 1]);
          view.legendre_values(c, x, phi.data());
          for (int i = 0; i < n; ++i) {
            modes[i] = 0;
            for (int j = 0; j <= i; ++j)
              modes[i] += view.orthonormalisation_entry(c, i, j) * phi[j];
          }
          const double w = check.volume_weights[q] * g.triangle_determinant[s];
          for (int i = 0; i < n; ++i)
            for (int k = 0; k < n; ++k) gram[i * n + k] += w * modes[i] * modes[k];
        }
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k)
          worst_orthonormality =
              std::max(worst_orthonormality, std::abs(gram[i * n + k] - (i == k ? 1.0 : 0.0)));
      worst_integral = std::max(
          worst_integral, std::abs(g.constant_mode_integral[c] / std::sqrt(g.measure[c]) - 1));
    }
    // The residual's volume rule (compressed where an element has more sub-triangle points
    // than dim P_2p): positive weights, at most max(dim P_2p, k·V) points, and the same Gram
    // matrix I, since φ̃_i φ̃_k has degree 2p.
    double worst_compressed = 0;
    Index compressed_elements = 0;
    const std::size_t dimension = std::size_t(basis_size(2, 2 * p));
    for (Index c = 0; c < g.element_count; ++c) {
      const std::size_t points =
          std::size_t(g.element_point_offsets[c + 1] - g.element_point_offsets[c]);
      const std::size_t triangle_points =
          std::size_t(g.element_triangle_offsets[c + 1] - g.element_triangle_offsets[c]) *
          std::size_t(view.volume_points);
      BOOST_TEST(points <= (triangle_points > dimension ? dimension : triangle_points));
      if (points < triangle_points) ++compressed_elements;
      std::vector<double> gram(std::size_t(n) * n, 0.0);
      std::vector<double> phi(max_polygon_basis_size), modes(n);
      for (Index k = g.element_point_offsets[c]; k < g.element_point_offsets[c + 1]; ++k) {
        BOOST_TEST(g.point_weights[k] > 0);
        view.legendre_values(c, view.rule_point(k), phi.data());
        for (int i = 0; i < n; ++i) {
          modes[i] = 0;
          for (int j = 0; j <= i; ++j) modes[i] += view.orthonormalisation_entry(c, i, j) * phi[j];
        }
        for (int i = 0; i < n; ++i)
          for (int l = 0; l < n; ++l) gram[i * n + l] += g.point_weights[k] * modes[i] * modes[l];
      }
      for (int i = 0; i < n; ++i)
        for (int l = 0; l < n; ++l)
          worst_compressed =
              std::max(worst_compressed, std::abs(gram[i * n + l] - (i == l ? 1.0 : 0.0)));
    }
    // p ≤ 4 on polygons of about 10 triangles (k·V = 30 > dim P_2 = 6, ..., 160 > 45): every
    // element's rule is compressed.
    BOOST_TEST(compressed_elements == g.element_count, "p = " << p);
    // The compression reproduces the moments of the Legendre modes of degree ≤ 2p to 1e-12
    // relative (its check), times up to 10² for the cancellation in Σ_j C_ij φ_j (above).
    BOOST_TEST(worst_compressed <= 1e-10, "p = " << p);
    std::cout << "p = " << p << ": max |Gram - I| = " << worst_orthonormality
              << " (compressed rule " << worst_compressed
              << "), max |∫φ̃_0 / √|K| - 1| = " << worst_integral << std::endl;
    // Rounding: about 10² ε for sums over ~10² points of products of size ~1 (orthonormal
    // modes times √w), times up to 10² for the cancellation in Σ_j C_ij φ_j at points other
    // than those it was built on (Legendre modes of a round polygon inside its box).
    BOOST_TEST(worst_orthonormality <= 1e4 * epsilon, "p = " << p);
    BOOST_TEST(worst_integral <= 1e3 * epsilon, "p = " << p);

    // u = (0.3 + x − 0.5 y)^p + x^{p−1} y ∈ P_p is projected exactly.
    auto polynomial = [p](const Point<2>& x, double) {
      return State<1>{
          {std::pow(0.3 + x[0] - 0.5 * x[1], p) + (p > 0 ? std::pow(x[0], p - 1) * x[1] : 0.0)}};
    };
    const auto u = dg.project([&](const Point<2>& x) { return polynomial(x, 0.0); });
    const double error = dg.l2_errors(u, polynomial, 0.0)[0];
    BOOST_TEST(error <= 1e3 * epsilon, "p = " << p << ": projection error " << error);
  }
}

// (1) A constant state is a steady solution: each polygon's boundary integral of F(ū)·n vanishes
// (its sub-facets close up) and ∇·F(ū) = 0, so the residual is rounding, and so is the change
// of the state over Runge–Kutta steps.
BOOST_AUTO_TEST_CASE(euler_free_stream_is_preserved_on_polygons) {
  const PolytopicMesh<2> mesh = polygon_mesh(10, 0.2, 25);
  const Euler gas;
  const State<4> moving = gas.conserved({1.3, {0.7, -0.4}, 0.9});
  const State<4> resting = gas.conserved({1.3, {0.0, 0.0}, 0.9});
  const auto free_stream = exact_boundary([&](const Point<2>&, double) { return moving; });
  for (int p = 0; p <= 3; ++p) {
    ExplicitPolygonDG dg(mesh, p, gas);
    // Rounding scale of du_h/dt: flux magnitude (≈ 3 here) over h_min.
    const double scale = 10.0 / dg.geometry().min_size;
    auto u = dg.project([&](const Point<2>&) { return moving; });
    std::vector<double> r(u.size());
    dg.residual(u, 0.0, free_stream, r);
    std::cout << "free stream p = " << p << ": max RMS of du_h/dt = " << max_element_rms(dg, r)
              << std::endl;
    BOOST_TEST(max_element_rms(dg, r) <= 1000 * epsilon * scale, "p = " << p);

    // Each step adds Δt times the residual's rounding: about 10² ε |F| / h_K for the ~10² terms
    // of an entry, times Δt ≤ h_K / (λ (2p + 1)) with |F| ≲ λ |ū|, i.e. ≲ 10² ε |ū| per step.
    const auto initial = u;
    TimeStepper stepper(dg, TimeScheme::ssp_rk3);
    const double dt = dg.stable_time_step(u, 0.0, 0.5);
    const int steps = 20;
    for (int s = 0; s < steps; ++s) stepper.step(u, s * dt, dt, free_stream);
    std::vector<double> change(u.size());
    for (std::size_t i = 0; i < u.size(); ++i) change[i] = u[i] - initial[i];
    std::cout << "free stream p = " << p << ", " << steps
              << " SSP-RK3 steps: max RMS change of u_h = " << max_element_rms(dg, change)
              << std::endl;
    double largest = 0;
    for (int v = 0; v < 4; ++v) largest = std::max(largest, std::abs(moving[v]));
    BOOST_TEST(max_element_rms(dg, change) <= steps * 100 * epsilon * largest, "p = " << p);

    // At rest the reflecting wall's mirror state is the state itself.
    auto at_rest = dg.project([&](const Point<2>&) { return resting; });
    dg.residual(at_rest, 0.0, reflecting_walls(gas), r);
    BOOST_TEST(max_element_rms(dg, r) <= 1000 * epsilon * scale, "p = " << p);
  }
}

// (2) With reflecting walls on every boundary the LLF flux of mass and energy through a wall is
// exactly zero and interior sub-facet fluxes enter their two polygons with opposite signs, so
// Σ∫ρ and Σ∫E change by rounding only.
BOOST_AUTO_TEST_CASE(euler_with_walls_conserves_mass_and_energy_on_polygons) {
  const PolytopicMesh<2> mesh = polygon_mesh(10, 0.2, 25);
  const Euler gas;
  for (int p : {1, 2}) {
    ExplicitPolygonDG dg(mesh, p, gas);
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
// F* = (a·n) u at every Gauss point (exact data on the boundary), and all quadratures are exact
// (volume degree 2p − 1 ≤ 2p, sub-facets 2p ≤ 2p + 1). Integrating by parts over each polygon,
// the residual is the L2 projection of −a·∇u, to rounding: on the fine triangles as quadrature
// sub-triangles, and on an ear clipping of each polygon.
BOOST_AUTO_TEST_CASE(linear_advection_residual_is_exact_on_polynomials) {
  const Point<2> a{1.0, -0.6};
  const LinearAdvection law{Drift{a}};
  for (bool retriangulate : {false, true}) {
    const PolytopicMesh<2> mesh = polygon_mesh(10, 0.2, 20, retriangulate);
    std::cout << mesh.element_count() << " polygons, " << mesh.simplex_count()
              << " quadrature sub-triangles" << std::endl;
    // The ear clipping did replace the fine triangles (fewer sub-triangles than fine cells).
    if (retriangulate) BOOST_TEST(mesh.simplex_count() < mesh.fine_mesh().cell_count());
    for (int p = 1; p <= 4; ++p) {
      auto u_exact = [p](const Point<2>& x) {
        return State<1>{{std::pow(0.3 + x[0] - 0.5 * x[1], p) + std::pow(x[0], p - 1) * x[1]}};
      };
      auto minus_a_grad_u = [&](const Point<2>& x) {
        const double base = p * std::pow(0.3 + x[0] - 0.5 * x[1], p - 1);
        const double dx = base + (p > 1 ? (p - 1) * std::pow(x[0], p - 2) * x[1] : 0.0);
        const double dy = -0.5 * base + std::pow(x[0], p - 1);
        return State<1>{{-(a[0] * dx + a[1] * dy)}};
      };
      ExplicitPolygonDG dg(mesh, p, law);
      const auto u = dg.project(u_exact);
      const auto expected = dg.project(minus_a_grad_u);
      std::vector<double> r(u.size()), difference(u.size());
      dg.residual(u, 0.0, exact_boundary([&](const Point<2>& x, double) { return u_exact(x); }), r);
      for (std::size_t i = 0; i < r.size(); ++i) difference[i] = r[i] - expected[i];
      std::cout << "polynomial p = " << p << (retriangulate ? ", ear clipping" : "")
                << ": max RMS of R - P(-a.grad u) = " << max_element_rms(dg, difference)
                << ", of R " << max_element_rms(dg, r) << std::endl;
      // Rounding scale: |u| ≤ 2^p on [0, 1]², times |a| / h_min.
      const double scale = std::pow(2.0, p) * 2 / dg.geometry().min_size;
      BOOST_TEST(max_element_rms(dg, difference) <= 1000 * epsilon * scale, "p = " << p);
    }
  }
}

// Each residual entry is written by one element from fluxes written by one sub-facet each, in a
// fixed order: the result does not depend on the thread count, bit for bit.
#ifdef _OPENMP
BOOST_AUTO_TEST_CASE(residual_is_independent_of_the_thread_count) {
  const PolytopicMesh<2> mesh = polygon_mesh(10, 0.2, 25);
  const Euler gas;
  ExplicitPolygonDG dg(mesh, 3, gas);
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

// (4) On polygons of one triangle each, the polygon solver and the triangle solver are the same
// semi-discretisation: the same space P_p(K), both bases orthonormal with exact mass matrices,
// the same volume rule (the symmetric triangle rules are invariant under the vertex order), the
// same p + 1 Gauss points per edge and the same LLF fluxes there, the same h_K = 2|K|/perimeter.
// Only the basis differs, so the discrete solutions agree up to rounding: the rotating hill's L2
// errors after RK4 steps agree to a relative rounding bound, and so do the time steps.
BOOST_AUTO_TEST_CASE(single_triangle_polygons_reproduce_the_triangle_solver) {
  const auto law = testing::unit_square_hill_law();
  const testing::UnitSquareHill exact;
  const auto boundary = exact_boundary(exact);
  const SimplexMesh<2> fine = unit_square_mesh(8, 0.2, 7);
  const PolytopicMesh<2> polygons = single_triangle_polygons(fine);
  for (int p = 1; p <= 3; ++p) {
    ExplicitTriangleDG triangles_dg(fine, p, law);
    ExplicitPolygonDG polygons_dg(polygons, p, law);
    auto u_triangles = triangles_dg.project([&](const Point<2>& x) { return exact(x, 0.0); });
    auto u_polygons = polygons_dg.project([&](const Point<2>& x) { return exact(x, 0.0); });
    const double dt_triangles = triangles_dg.stable_time_step(u_triangles, 0.0, 0.9);
    const double dt_polygons = polygons_dg.stable_time_step(u_polygons, 0.0, 0.9);
    BOOST_TEST(std::abs(dt_polygons / dt_triangles - 1) <= 100 * epsilon);
    TimeStepper triangle_stepper(triangles_dg, TimeScheme::rk4);
    TimeStepper polygon_stepper(polygons_dg, TimeScheme::rk4);
    const int steps = 40;
    for (int s = 0; s < steps; ++s) {
      triangle_stepper.step(u_triangles, s * dt_triangles, dt_triangles, boundary);
      polygon_stepper.step(u_polygons, s * dt_triangles, dt_triangles, boundary);
    }
    const double t = steps * dt_triangles;
    const double error_triangles = triangles_dg.l2_errors(u_triangles, exact, t)[0];
    const double error_polygons = polygons_dg.l2_errors(u_polygons, exact, t)[0];
    const double integral_triangles = triangles_dg.total_integral(u_triangles)[0];
    const double integral_polygons = polygons_dg.total_integral(u_polygons)[0];
    std::cout << "one triangle per polygon, p = " << p << ", " << steps << " RK4 steps to t = " << t
              << ": L2 errors " << error_triangles << " (triangles), " << error_polygons
              << " (polygons), relative difference " << error_polygons / error_triangles - 1
              << "; integrals differ by " << integral_polygons - integral_triangles << std::endl;
    // Rounding of ~10³ operations per coefficient and step over 40 steps, relative to the
    // error (a fraction of the solution's size): far below 1e-8.
    BOOST_TEST(std::abs(error_polygons / error_triangles - 1) <= 1e-8, "p = " << p);
    BOOST_TEST(std::abs(integral_polygons - integral_triangles) <= 1e-12, "p = " << p);
  }
}

// The supersonic vortex (Euler, curved walls by the ghost state, exact inflow and outflow) on
// its level-0 and level-1 meshes agglomerated into polygons of about 4 triangles (45 and 180),
// SSP-RK3 to the discrete steady state as euler runs it: the density's L2 error falls at rate
// ≥ p + 1 − 0.2 (the GPU study's finer levels: docs/theory.md, "Accuracy of the explicit path").
BOOST_AUTO_TEST_CASE(supersonic_vortex_converges_at_rate_p_plus_1_on_polygons) {
  const SupersonicVortex vortex;
  for (int p = 1; p <= 2; ++p) {
    std::vector<double> sizes, errors;
    for (int level = 0; level <= 1; ++level) {
      auto fine = std::make_shared<const SimplexMesh<2>>(supersonic_vortex_mesh(level, vortex));
      const PolytopicMesh<2> mesh(fine, agglomerate(*fine, fine->cell_count() / 4).element_of_cell,
                                  1);
      ExplicitPolygonDG dg(mesh, p, vortex.gas);
      auto u = dg.project([&](const Point<2>& x) { return vortex.exact(x); });
      const SteadyStateMarch march = march_to_steady_state(
          dg, TimeScheme::ssp_rk3, u, SupersonicVortexBoundary{vortex}, 0.9, 1e-4, 20.0);
      BOOST_TEST(march.converged, "p = " << p << ", level " << level);
      sizes.push_back(1.0 / std::sqrt(double(mesh.element_count())));
      errors.push_back(dg.l2_errors(u, vortex, 0.0)[0]);
      std::cout << "vortex p = " << p << ", " << mesh.element_count() << " polygons, "
                << march.steps << " SSP-RK3 steps: density L2 error " << errors.back() << std::endl;
    }
    const double rate = std::log(errors[0] / errors[1]) / std::log(sizes[0] / sizes[1]);
    BOOST_TEST(rate >= p + 1 - 0.2, "p = " << p << ": rate " << rate);
  }
}

// (5) A smooth function translated with a = (1, 0.5) across the unit square, exact inflow data,
// RK4 to t = 0.25 on METIS agglomerates of 8 triangles each at three refinements. The DG rate
// for smooth solutions is p + 1 in L2; the threshold allows 0.2 below it for the least-squares
// slope against h = (element count)^{-1/2}.
BOOST_AUTO_TEST_CASE(translation_converges_at_rate_p_plus_1_on_polygons) {
  const double pi = std::numbers::pi;
  const Point<2> a{1.0, 0.5};
  const LinearAdvection law{Drift{a}};
  const auto exact = [&](const Point<2>& x, double t) {
    const double y0 = x[0] - a[0] * t, y1 = x[1] - a[1] * t;
    return State<1>{{std::sin(2 * pi * y0) * std::cos(pi * y1)}};
  };
  const auto boundary = exact_boundary(exact);
  const auto start = std::chrono::steady_clock::now();
  for (int p = 1; p <= 2; ++p) {
    std::vector<double> sizes, errors;
    for (int n : {16, 32, 64}) {
      const PolytopicMesh<2> mesh = polygon_mesh(n, 0.2, Index(2 * n * n / 8));
      ExplicitPolygonDG dg(mesh, p, law);
      auto u = dg.project([&](const Point<2>& x) { return exact(x, 0.0); });
      const long steps =
          TimeStepper(dg, TimeScheme::rk4).advance(u, 0.0, 0.25, boundary, 0.9).steps;
      sizes.push_back(1.0 / std::sqrt(double(mesh.element_count())));
      errors.push_back(dg.l2_errors(u, exact, 0.25)[0]);
      std::cout << "translation p = " << p << ", " << mesh.element_count() << " polygons, " << steps
                << " RK4 steps: L2 error " << errors.back();
      if (errors.size() > 1)
        std::cout << ", rate "
                  << std::log(errors[errors.size() - 2] / errors.back()) /
                         std::log(sizes[sizes.size() - 2] / sizes.back());
      std::cout << std::endl;
    }
    const double rate = polydg::testing::log_log_slope(sizes, errors);
    std::cout << "translation p = " << p << ": least-squares rate " << rate << std::endl;
    BOOST_TEST(rate >= p + 1 - 0.2, "p = " << p << ": rate " << rate);
  }
  std::cout << "translation total "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s" << std::endl;
}

// (6) Bad inputs are refused with a message naming what and where.
BOOST_AUTO_TEST_CASE(bad_inputs_are_reported) {
  using polydg::testing::error_names;
  const PolytopicMesh<2> mesh = polygon_mesh(4, 0.0, 6);
  const Euler gas;
  BOOST_TEST(error_names([&] { ExplicitPolygonDG dg(mesh, -1, gas); }, {"degree p = -1"}));
  BOOST_TEST(error_names([&] { ExplicitPolygonDG dg(mesh, 11, gas); }, {"degree p = 11"}));

  ExplicitPolygonDG dg(mesh, 1, gas);
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
  // wave-speed reduction.
  auto u = dg.project([&](const Point<2>&) { return good; });
  u[dg.coefficient_index(3, 0, 0)] = -1.0;
  BOOST_TEST(error_names([&] { (void)dg.stable_time_step(u, 0.25, 0.5); },
                         {"t = 0.25", "element 3", "not physical"}));
  BOOST_TEST(error_names([&] { (void)dg.stable_time_step(u, 0.25, 0.0); }, {"CFL number 0"}));
  std::vector<double> wrong(5);
  BOOST_TEST(error_names([&] { dg.residual(wrong, 0.0, reflecting_walls(gas), wrong); },
                         {"residual", "5 coefficients"}));
}
