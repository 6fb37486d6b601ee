#define BOOST_TEST_MODULE error_norms
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/dg/error_norms.hpp"
#include "polydg/dg/l2_projection.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

using namespace polydg;

namespace {

// P(x, y) = Σ_{a+b ≤ degree} c_ab x^a y^b with fixed, mixed-sign coefficients.
struct Polynomial {
  int degree;

  double coefficient(int a, int b) const { return ((a + b) % 2 ? -1.0 : 1.0) / (1 + a + 2 * b); }
  double operator()(const Point<2>& x) const {
    double sum = 0;
    for (int a = 0; a <= degree; ++a)
      for (int b = 0; a + b <= degree; ++b)
        sum += coefficient(a, b) * std::pow(x[0], a) * std::pow(x[1], b);
    return sum;
  }
  Point<2> gradient(const Point<2>& x) const {
    Point<2> g{};
    for (int a = 0; a <= degree; ++a)
      for (int b = 0; a + b <= degree; ++b) {
        if (a > 0) g[0] += coefficient(a, b) * a * std::pow(x[0], a - 1) * std::pow(x[1], b);
        if (b > 0) g[1] += coefficient(a, b) * b * std::pow(x[0], a) * std::pow(x[1], b - 1);
      }
    return g;
  }
};

double smooth(const Point<2>& x) { return std::sin(2 * x[0] + 1) * std::cos(3 * x[1]); }
Point<2> smooth_gradient(const Point<2>& x) {
  return {2 * std::cos(2 * x[0] + 1) * std::cos(3 * x[1]),
          -3 * std::sin(2 * x[0] + 1) * std::sin(3 * x[1])};
}

// Unit square, n×n squares cut into triangles (perturbed), agglomerated into elements of about
// 8 fine triangles.
PolytopicMesh<2> agglomerated_square(int n, int degree, bool retriangulate = false) {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.15, 7));
  const Agglomeration agglomeration = agglomerate_by_cell_count(*fine, 8.0);
  PolytopicMeshOptions options;
  options.retriangulate = retriangulate;
  return PolytopicMesh<2>(fine, agglomeration.element_of_cell, degree, options);
}

// Diffusion, advection and reaction all non-zero, so every term of the DG norm is exercised.
auto full_coefficients() {
  return make_coefficients<2>()
      .with_diffusion(Tensor<2>{{{2.0, 0.5}, {0.5, 1.0}}})
      .with_advection(Point<2>{1.0, -0.5})
      .with_reaction(1.0);
}

bool message_contains(const Error& error, const std::string& part) {
  return std::string(error.what()).find(part) != std::string::npos;
}

// The messages name the element as "... in element <e>" at their end.
bool message_ends_with(const Error& error, const std::string& part) {
  const std::string message = error.what();
  return message.size() >= part.size() &&
         message.compare(message.size() - part.size(), part.size(), part) == 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(projection_reproduces_polynomials) {
  const auto data = full_coefficients();
  for (bool retriangulate : {false, true})
    for (int p = 1; p <= 3; ++p) {
      const PolytopicMesh<2> mesh = agglomerated_square(8, p, retriangulate);
      const Polynomial u{p};
      const std::vector<double> u_h = l2_project(mesh, u);
      const ErrorNorms norms =
          compute_error_norms(mesh, BoundaryConditions::all_dirichlet(), data, u_h, u,
                              [&](const Point<2>& x) { return u.gradient(x); });
      BOOST_TEST_MESSAGE("p = " << p << ", retriangulate = " << retriangulate << ": L2 " << norms.l2
                                << ", H1 " << norms.h1_seminorm << ", DG " << norms.dg);
      BOOST_TEST_CONTEXT("p = " << p << ", retriangulate = " << retriangulate) {
        BOOST_CHECK_LT(norms.l2, 1e-12);
        BOOST_CHECK_LT(norms.h1_seminorm, 1e-11);
        BOOST_CHECK_LT(norms.dg, 1e-10);
      }
    }
}

BOOST_AUTO_TEST_CASE(projection_on_an_hp_mesh) {
  // Degrees 1..3; a polynomial of degree 1 lies in every element's space.
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(8, 0.15, 7));
  const Agglomeration agglomeration = agglomerate_by_cell_count(*fine, 8.0);
  std::vector<int> degrees(agglomeration.element_count);
  for (Index e = 0; e < agglomeration.element_count; ++e) degrees[e] = 1 + e % 3;
  const PolytopicMesh<2> mesh(fine, agglomeration.element_of_cell, degrees);
  const Polynomial u{1};
  const std::vector<double> u_h = l2_project(mesh, u);
  const ErrorNorms norms =
      compute_error_norms(mesh, BoundaryConditions::all_dirichlet(), full_coefficients(), u_h, u,
                          [&](const Point<2>& x) { return u.gradient(x); });
  BOOST_CHECK_LT(norms.l2, 1e-12);
  BOOST_CHECK_LT(norms.h1_seminorm, 1e-11);
  BOOST_CHECK_LT(norms.dg, 1e-10);
}

BOOST_AUTO_TEST_CASE(projection_reproduces_polynomials_in_3d) {
  const auto fine = std::make_shared<const SimplexMesh<3>>(unit_cube_mesh(3));
  const Agglomeration agglomeration = agglomerate_by_cell_count(*fine, 6.0);
  const PolytopicMesh<3> mesh(fine, agglomeration.element_of_cell, 2);
  const auto u = [](const Point<3>& x) {
    return 0.5 - x[0] + 2 * x[1] * x[2] + 0.7 * x[2] * x[2] - 0.3 * x[0] * x[1];
  };
  const auto grad_u = [](const Point<3>& x) {
    return Point<3>{{-1 - 0.3 * x[1], 2 * x[2] - 0.3 * x[0], 2 * x[1] + 1.4 * x[2]}};
  };
  const auto data = make_coefficients<3>()
                        .with_diffusion(1.0)
                        .with_advection(Point<3>{{1.0, 0.5, -0.25}})
                        .with_reaction(2.0);
  const std::vector<double> u_h = l2_project(mesh, u);
  const ErrorNorms norms =
      compute_error_norms(mesh, BoundaryConditions::all_dirichlet(), data, u_h, u, grad_u);
  BOOST_CHECK_LT(norms.l2, 1e-12);
  BOOST_CHECK_LT(norms.h1_seminorm, 1e-11);
  BOOST_CHECK_LT(norms.dg, 1e-10);
  BOOST_CHECK_CLOSE_FRACTION(l2_norm(mesh, l2_project(mesh, [](const Point<3>&) { return 1.0; })),
                             1.0, 1e-13);
}

BOOST_AUTO_TEST_CASE(l2_norm_of_a_projection) {
  const PolytopicMesh<2> mesh = agglomerated_square(8, 2);
  // ‖1‖ = |Ω|^½ = 1; ‖x‖² = 1/3.
  BOOST_CHECK_CLOSE_FRACTION(l2_norm(mesh, l2_project(mesh, [](const Point<2>&) { return 1.0; })),
                             1.0, 1e-13);
  BOOST_CHECK_CLOSE_FRACTION(
      l2_norm(mesh, l2_project(mesh, [](const Point<2>& x) { return x[0]; })), std::sqrt(1.0 / 3),
      1e-13);
}

BOOST_AUTO_TEST_CASE(projection_error_converges_at_the_optimal_rates) {
  const auto data = full_coefficients();
  for (int p = 1; p <= 2; ++p) {
    std::vector<ErrorNorms> levels;
    for (int n : {16, 32, 64}) {
      const PolytopicMesh<2> mesh = agglomerated_square(n, p);
      const std::vector<double> u_h = l2_project(mesh, smooth);
      levels.push_back(compute_error_norms(mesh, BoundaryConditions::all_dirichlet(), data, u_h,
                                           smooth, smooth_gradient));
    }
    for (std::size_t k = 1; k < levels.size(); ++k) {
      const double l2_rate = std::log2(levels[k - 1].l2 / levels[k].l2);
      const double h1_rate = std::log2(levels[k - 1].h1_seminorm / levels[k].h1_seminorm);
      const double dg_rate = std::log2(levels[k - 1].dg / levels[k].dg);
      BOOST_TEST_MESSAGE("p = " << p << ", level " << k << ": L2 rate " << l2_rate << ", H1 rate "
                                << h1_rate << ", DG rate " << dg_rate);
      BOOST_CHECK_GE(l2_rate, p + 1 - 0.3);
      BOOST_CHECK_GE(h1_rate, p - 0.3);
      // The penalty ~ p²/h on jumps of size h^{p+1}: |||u − Π u||| ~ h^p as well.
      BOOST_CHECK_GE(dg_rate, p - 0.3);
    }
  }
}

BOOST_AUTO_TEST_CASE(zero_error_has_zero_norms) {
  const PolytopicMesh<2> mesh = agglomerated_square(6, 2);
  const std::vector<double> zero(l2_project(mesh, [](const Point<2>&) { return 0.0; }).size());
  const ErrorNorms norms = compute_error_norms(
      mesh, BoundaryConditions::all_dirichlet(), full_coefficients(), zero,
      [](const Point<2>&) { return 0.0; }, [](const Point<2>&) { return Point<2>{}; });
  BOOST_CHECK_EQUAL(norms.l2, 0.0);
  BOOST_CHECK_EQUAL(norms.h1_seminorm, 0.0);
  BOOST_CHECK_EQUAL(norms.dg, 0.0);
}

// The unit square cut into two right triangles (legs 1, area ½), p = 1, u = 1 and u_h = 0 on
// element 0, u_h = 1 on element 1: v = u − u_h is 1 on element 0 and 0 on element 1.
// By hand, with C_σ = 10, b = (1, 0), c = 1 and A = I:
//   volume:    ∫ c v² = ½                    (∇v = 0)
//   advection: ½ ∫ |b·n| [[v]]² = ½ · (1/√2) · √2 = ½ on the diagonal F (|F| = √2), and
//              ½ ∫ |b·n| v² = ½ on element 0's vertical leg (b·n = ±1)
//   penalty, [Dong2021]'s polytopic_cap: |κ| = |K_F| = ½, ā = 1, so σ = 10 · √2 / ½ = 20√2 on F
//              (∫ σ [[v]]² = 40) and σ = 10 · 1 / ½ = 20 on each leg (Dirichlet: 20 + 20);
//   penalty, element_trace (the default): p = 1, so T_κ = |Γ_κ|_w / (3 |κ|), the interface
//              counted ½, and σ = 10 T_κ on every facet: with Dirichlet tags |Γ_κ|_w = 2 + √2/2,
//              σ = 20 (2 + √2/2) / 3 = 10 (4 + √2) / 3, and ∫ σ v² over F and both legs is
//              σ (2 + √2); with Neumann tags |Γ_κ|_w = √2/2, σ = 10√2 / 3, ∫_F σ [[v]]² = 20 / 3.
// So |||v|||² = 1.5 + 80 (seed, Dirichlet), 1.5 + 40 (seed, Neumann),
// 1.5 + 10 (4 + √2)(2 + √2) / 3 and 1.5 + 20 / 3 (default), and 1.5 without diffusion.
BOOST_AUTO_TEST_CASE(dg_norm_of_a_jump_by_hand) {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(1));
  BOOST_REQUIRE_EQUAL(fine->cell_count(), 2);
  const std::vector<Index> partition{0, 1};
  const PolytopicMesh<2> mesh(fine, partition, 1);
  std::vector<double> u_h = l2_project(mesh, [](const Point<2>&) { return 1.0; });
  BOOST_REQUIRE_EQUAL(u_h.size(), 6u);
  for (int k = 0; k < 3; ++k) u_h[k] = 0;  // element 0's coefficients
  const auto u = [](const Point<2>&) { return 1.0; };
  const auto grad_u = [](const Point<2>&) { return Point<2>{}; };

  const auto advection_reaction =
      make_coefficients<2>().with_advection({1.0, 0.0}).with_reaction(1.0);
  const auto with_diffusion = advection_reaction.with_diffusion(1.0);
  const BoundaryConditions neumann(BoundaryKind::neumann);
  const double root2 = std::sqrt(2.0);
  const double dirichlet_penalty_terms = (4 + root2) * (2 + root2) / 3;  // × C_σ

  const ErrorNorms dirichlet_norms = compute_error_norms(mesh, BoundaryConditions::all_dirichlet(),
                                                         with_diffusion, u_h, u, grad_u);
  BOOST_CHECK_CLOSE_FRACTION(dirichlet_norms.l2, std::sqrt(0.5), 1e-13);
  BOOST_CHECK_SMALL(dirichlet_norms.h1_seminorm, 1e-13);
  BOOST_CHECK_CLOSE_FRACTION(dirichlet_norms.dg, std::sqrt(1.5 + 10 * dirichlet_penalty_terms),
                             1e-13);
  BOOST_CHECK_CLOSE_FRACTION(compute_error_norms(mesh, neumann, with_diffusion, u_h, u, grad_u).dg,
                             std::sqrt(1.5 + 20.0 / 3), 1e-13);
  BOOST_CHECK_CLOSE_FRACTION(
      compute_error_norms(mesh, neumann, advection_reaction, u_h, u, grad_u).dg, std::sqrt(1.5),
      1e-13);
  // Only max(c, 0) counts: c = −1 drops the volume term.
  BOOST_CHECK_CLOSE_FRACTION(
      compute_error_norms(mesh, neumann, advection_reaction.with_reaction(-1.0), u_h, u, grad_u).dg,
      1.0, 1e-13);
  // A different C_σ scales the penalty terms.
  ErrorNormOptions options;
  options.penalty_constant = 2;
  BOOST_CHECK_CLOSE_FRACTION(compute_error_norms(mesh, BoundaryConditions::all_dirichlet(),
                                                 with_diffusion, u_h, u, grad_u, options)
                                 .dg,
                             std::sqrt(1.5 + 2 * dirichlet_penalty_terms), 1e-13);
  // [Dong2021]'s formula, by the options: ½ + 40 + ½ + 40 + ½, and ½ + 40 + ½ + ½ with Neumann.
  options.penalty_constant = 10;
  options.penalty_scaling = PenaltyScaling::polytopic_cap;
  BOOST_CHECK_CLOSE_FRACTION(compute_error_norms(mesh, BoundaryConditions::all_dirichlet(),
                                                 with_diffusion, u_h, u, grad_u, options)
                                 .dg,
                             std::sqrt(81.5), 1e-13);
  BOOST_CHECK_CLOSE_FRACTION(
      compute_error_norms(mesh, neumann, with_diffusion, u_h, u, grad_u, options).dg,
      std::sqrt(41.5), 1e-13);
}

BOOST_AUTO_TEST_CASE(non_finite_values_name_the_element) {
  // Unperturbed 2×2 squares: every triangle lies in one quadrant of the unit square.
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(2));
  std::vector<Index> partition(fine->cell_count());
  for (Index c = 0; c < fine->cell_count(); ++c) partition[c] = c;
  const PolytopicMesh<2> mesh(fine, partition, 2);
  const auto data = full_coefficients();
  const auto all_dirichlet = BoundaryConditions::all_dirichlet();
  const std::vector<double> u_h = l2_project(mesh, smooth);
  const double nan = std::numeric_limits<double>::quiet_NaN();

  std::vector<double> broken = u_h;
  broken[3 * 6 + 1] = nan;  // element 3 (6 coefficients each at p = 2)
  try {
    compute_error_norms(mesh, all_dirichlet, data, broken, smooth, smooth_gradient);
    BOOST_ERROR("a NaN coefficient was accepted");
  } catch (const Error& error) {
    BOOST_CHECK(message_contains(error, "of element 3 "));
  }

  // u is NaN right of x = ½: the first element there is named.
  Index first_right = -1;
  for (Index e = 0; e < mesh.element_count() && first_right < 0; ++e)
    if (mesh.element_box(e).lower[0] >= 0.5) first_right = e;
  BOOST_REQUIRE_GE(first_right, 0);
  const auto broken_u = [&](const Point<2>& x) { return x[0] > 0.5 ? nan : smooth(x); };
  try {
    compute_error_norms(mesh, all_dirichlet, data, u_h, broken_u, smooth_gradient);
    BOOST_ERROR("a NaN exact solution was accepted");
  } catch (const Error& error) {
    BOOST_CHECK(message_ends_with(error, "element " + std::to_string(first_right)));
    BOOST_CHECK(message_contains(error, "exact solution is not finite"));
  }
  const auto broken_gradient = [&](const Point<2>& x) {
    return x[0] > 0.5 ? Point<2>{nan, 0.0} : smooth_gradient(x);
  };
  try {
    compute_error_norms(mesh, all_dirichlet, data, u_h, smooth, broken_gradient);
    BOOST_ERROR("a NaN exact gradient was accepted");
  } catch (const Error& error) {
    BOOST_CHECK(message_ends_with(error, "element " + std::to_string(first_right)));
    BOOST_CHECK(message_contains(error, "exact gradient is not finite ((nan, 0)) at x = ("));
  }
  try {
    l2_project(mesh, broken_u);
    BOOST_ERROR("l2_project accepted a NaN function");
  } catch (const Error& error) {
    BOOST_CHECK(message_ends_with(error, "element " + std::to_string(first_right)));
  }
  try {
    l2_norm(mesh, std::span<const double>(broken));
    BOOST_ERROR("l2_norm accepted a NaN coefficient");
  } catch (const Error& error) {
    BOOST_CHECK(message_contains(error, "of element 3 "));
  }
  // Wrong length.
  const std::vector<double> short_solution(u_h.size() - 1);
  try {
    compute_error_norms(mesh, all_dirichlet, data, short_solution, smooth, smooth_gradient);
    BOOST_ERROR("a DG function of the wrong length was accepted");
  } catch (const Error& error) {
    BOOST_CHECK(message_contains(error, "error norms: the DG function has " +
                                            std::to_string(short_solution.size()) +
                                            " coefficients"));
    BOOST_CHECK(message_contains(error, std::to_string(u_h.size())));
  }
}
