#define BOOST_TEST_MODULE fem_gauss_jacobi
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <numbers>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/fem/gauss_jacobi.hpp"
#include "polydg/fem/quadrature_cache.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

/// ∫_{−1}^{1} (1 − x)^α (1 + x)^β (1 + x)^k dx = 2^{α+β+k+1} B(α+1, β+k+1), with the Beta
/// function built from B(α+1, β+1) (small Γ arguments) by B(a, b+1) = B(a, b) b / (a + b), so
/// the reference value keeps full relative accuracy for large k.
double jacobi_moment_one_plus_x(double alpha, double beta, int k) {
  double a = alpha + 1, b = beta + 1;
  double beta_function = std::tgamma(a) * std::tgamma(b) / std::tgamma(a + b);
  for (int j = 0; j < k; ++j, b += 1) beta_function *= b / (a + b);
  return std::exp2(alpha + beta + k + 1) * beta_function;
}

/// Relative error of the rule on (1 + x)^k and on (1 − x)^k (both positive integrands).
double worst_moment_error(const QuadratureRule<1>& rule, double alpha, double beta, int k) {
  double plus = 0, minus = 0;
  for (std::size_t q = 0; q < rule.size(); ++q) {
    plus += rule.weights[q] * std::pow(1 + rule.points[q][0], k);
    minus += rule.weights[q] * std::pow(1 - rule.points[q][0], k);
  }
  const double exact_plus = jacobi_moment_one_plus_x(alpha, beta, k);
  const double exact_minus = jacobi_moment_one_plus_x(beta, alpha, k);  // x → −x swaps α, β
  return std::max(std::fabs(plus - exact_plus) / exact_plus,
                  std::fabs(minus - exact_minus) / exact_minus);
}

void check_structure(const QuadratureRule<1>& rule, int n) {
  BOOST_TEST(static_cast<int>(rule.size()) == n);
  BOOST_TEST(rule.degree == 2 * n - 1);
  BOOST_TEST((rule.domain == ReferenceDomain::interval));
  for (int i = 0; i < n; ++i) {
    BOOST_TEST(rule.weights[i] > 0);
    BOOST_TEST(rule.points[i][0] > -1.0);
    BOOST_TEST(rule.points[i][0] < 1.0);
    if (i > 0) BOOST_TEST(rule.points[i][0] > rule.points[i - 1][0]);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(gauss_legendre_small_rules_match_closed_forms) {
  const QuadratureRule<1> two = make_gauss_legendre(2);
  BOOST_TEST(two.points[1][0] == 1 / std::sqrt(3.0), boost::test_tools::tolerance(1e-15));
  BOOST_TEST(two.points[0][0] == -two.points[1][0]);
  BOOST_TEST(two.weights[0] == 1.0, boost::test_tools::tolerance(1e-15));
  const QuadratureRule<1> three = make_gauss_legendre(3);
  BOOST_TEST(three.points[1][0] == 0.0);
  BOOST_TEST(three.points[2][0] == std::sqrt(0.6), boost::test_tools::tolerance(1e-15));
  BOOST_TEST(three.weights[1] == 8.0 / 9.0, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(three.weights[2] == 5.0 / 9.0, boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(gauss_legendre_is_exact_to_degree_2n_minus_1) {
  for (int n :
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 20, 25, 31, 32, 40, 50, 63, 64, 100, 200}) {
    const QuadratureRule<1> rule = make_gauss_legendre(n);
    check_structure(rule, n);
    for (int i = 0; i < n; ++i) {  // exactly symmetric
      BOOST_TEST(rule.points[i][0] == -rule.points[n - 1 - i][0]);
      BOOST_TEST(rule.weights[i] == rule.weights[n - 1 - i]);
    }
    double worst = 0;
    for (int k = 0; k <= 2 * n - 1; ++k) {
      worst = std::max(worst, worst_moment_error(rule, 0, 0, k));
      // Monomials: ∫ x^k = 2/(k+1) for even k, 0 for odd k (absolute against Σ|w x^k|).
      double sum = 0, size = 0;
      for (int q = 0; q < n; ++q) {
        const double term = rule.weights[q] * std::pow(rule.points[q][0], k);
        sum += term;
        size += std::fabs(term);
      }
      const double exact = k % 2 == 0 ? 2.0 / (k + 1) : 0.0;
      worst = std::max(worst, std::fabs(sum - exact) / size);
    }
    BOOST_TEST(worst < 1e-13, "n = " << n << ": worst relative error " << worst);
    // ... and not exact one degree higher: the claimed degree is the true one. (The error on
    // x^{2n} is about πn/4^n relative, so this is only visible for small n.)
    if (n <= 12) {
      double sum = 0;
      for (int q = 0; q < n; ++q) sum += rule.weights[q] * std::pow(rule.points[q][0], 2 * n);
      BOOST_TEST(std::fabs(sum - 2.0 / (2 * n + 1)) > 1e-9 * (2.0 / (2 * n + 1)));
    }
  }
}

BOOST_AUTO_TEST_CASE(gauss_jacobi_is_exact_to_degree_2n_minus_1) {
  const double exponents[][2] = {{1, 0},     {2, 0},    {3, 0},       {0, 2}, {0.5, -0.5},
                                 {2.5, 1.3}, {-0.7, 4}, {-0.9, -0.9}, {5, 5}, {-0.5, -0.5}};
  for (const auto& [alpha, beta] : exponents) {
    for (int n : {1, 2, 3, 5, 8, 13, 16, 32, 47, 64}) {
      const QuadratureRule<1> rule = make_gauss_jacobi(n, alpha, beta);
      check_structure(rule, n);
      double worst = 0;
      for (int k = 0; k <= 2 * n - 1; ++k)
        worst = std::max(worst, worst_moment_error(rule, alpha, beta, k));
      BOOST_TEST(worst < 1e-13, "alpha " << alpha << " beta " << beta << " n " << n
                                         << ": worst relative error " << worst);
    }
  }
}

BOOST_AUTO_TEST_CASE(chebyshev_rules_match_their_closed_forms) {
  using std::numbers::pi;
  for (int n : {1, 2, 7, 16, 64, 129}) {
    // First kind, weight (1 − x²)^{−1/2}: x_i = cos((2i − 1)π / 2n), w_i = π / n.
    const QuadratureRule<1> first = make_gauss_jacobi(n, -0.5, -0.5);
    // Second kind, weight (1 − x²)^{1/2}: x_i = cos(iπ / (n + 1)), w_i = π/(n+1) sin²(iπ/(n+1)).
    const QuadratureRule<1> second = make_gauss_jacobi(n, 0.5, 0.5);
    double worst_first = 0, worst_second = 0;
    for (int i = 1; i <= n; ++i) {
      const int q = n - i;  // nodes are ascending, the closed forms descending
      worst_first = std::max(worst_first,
                             std::fabs(first.points[q][0] - std::cos((2 * i - 1) * pi / (2 * n))));
      worst_first = std::max(worst_first, std::fabs(first.weights[q] - pi / n) / (pi / n));
      const double angle = i * pi / (n + 1);
      // sin(θ) = sin(π − θ): take the smaller angle, else rounding of θ near π spoils the
      // reference value itself (relative 1e-14 for n = 129).
      const double sine = std::sin(std::min(i, n + 1 - i) * pi / (n + 1));
      const double w = pi / (n + 1) * sine * sine;
      worst_second = std::max(worst_second, std::fabs(second.points[q][0] - std::cos(angle)));
      worst_second = std::max(worst_second, std::fabs(second.weights[q] - w) / w);
    }
    BOOST_TEST(worst_first < 1e-14, "n = " << n << ": " << worst_first);
    BOOST_TEST(worst_second < 1e-14, "n = " << n << ": " << worst_second);
  }
}

BOOST_AUTO_TEST_CASE(bad_input_throws) {
  const std::string range = " is outside the supported range 1..1000";
  BOOST_TEST(error_names([] { make_gauss_legendre(0); }, {"Gauss-Jacobi rule", "n = 0" + range}));
  BOOST_TEST(error_names([] { make_gauss_legendre(-3); }, {"n = -3" + range}));
  BOOST_TEST(error_names([] { make_gauss_legendre(max_gauss_points + 1); }, {"n = 1001" + range}));
  BOOST_TEST(error_names([] { make_gauss_jacobi(4, -1.0, 0.0); },
                         {"exponents alpha = -1 and beta = 0", "greater than -1"}));
  BOOST_TEST(error_names([] { make_gauss_jacobi(4, 0.0, -1.5); },
                         {"exponents alpha = 0 and beta = -1.5", "greater than -1"}));
  BOOST_TEST(error_names([] { gauss_legendre_rule(0); }, {"n = 0" + range}));
  BOOST_TEST(error_names([] { make_gauss_jacobi(0, 0, 0); }, {"n = 0" + range}));
}

BOOST_AUTO_TEST_CASE(cached_rule_is_shared) {
  const QuadratureRule<1>& first = gauss_legendre_rule(9);
  BOOST_TEST(&first == &gauss_legendre_rule(9));
  BOOST_TEST(first.size() == 9u);
}
