#define BOOST_TEST_MODULE fem_simplex_quadrature
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "error_message.hpp"
#include "exact_integrals.hpp"
#include "polydg/core/error.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/fem/simplex_quadrature.hpp"

using namespace polydg;
using polydg::test::for_each_monomial;
using polydg::test::PowerTable;
using polydg::test::simplex_monomial_integral;
using polydg::testing::error_names;

namespace {

/// Worst relative error of `rule` over the monomials x^a with |a| ≤ max_degree for which
/// `selected(k)` holds (all monomials are positive on the simplex: no cancellation).
template <int Dim, class Selected>
double worst_monomial_error(const QuadratureRule<Dim>& rule, int max_degree, Selected selected) {
  std::vector<MultiIndex<Dim>> monomials;
  for_each_monomial<Dim>(max_degree, [&](int k, const MultiIndex<Dim>& a) {
    if (selected(k)) monomials.push_back(a);
  });
  std::vector<long double> sums(monomials.size(),
                                0.0L);  // extended: the test adds no rounding of its own
  for (std::size_t q = 0; q < rule.size(); ++q) {
    const PowerTable<Dim> powers(rule.points[q], max_degree);
    for (std::size_t m = 0; m < monomials.size(); ++m)
      sums[m] += rule.weights[q] * powers.monomial(monomials[m]);
  }
  double worst = 0;
  for (std::size_t m = 0; m < monomials.size(); ++m) {
    const double exact = simplex_monomial_integral(monomials[m]);
    worst = std::max(worst, std::fabs(static_cast<double>(sums[m]) - exact) / exact);
  }
  return worst;
}

/// Points of the triangle rule of `degree`: Dunavant's symmetric rule where it has fewer points
/// than the collapsed one (degree 11 takes the degree-12 rule), else ⌈(q+1)/2⌉².
int triangle_rule_size(int degree) {
  switch (degree) {
    case 2:
      return 3;
    case 4:
      return 6;
    case 5:
      return 7;
    case 6:
      return 12;
    case 8:
      return 16;
    case 10:
      return 25;
    case 11:
    case 12:
      return 33;
    default:
      return (degree / 2 + 1) * (degree / 2 + 1);
  }
}

template <int Dim>
void check_structure(const QuadratureRule<Dim>& rule, int degree) {
  int expected_size = 1;
  for (int i = 0; i < Dim; ++i) expected_size *= degree / 2 + 1;
  if (Dim == 2) expected_size = triangle_rule_size(degree);
  BOOST_TEST(static_cast<int>(rule.size()) == expected_size, "Dim " << Dim << " degree " << degree);
  BOOST_TEST(rule.degree == degree);
  BOOST_TEST((rule.domain == ReferenceDomain::simplex));
  long double volume = 0;  // extended: 65536 terms in double would add ~1e-14 of rounding
  bool positive_weights = true, interior_points = true;
  for (std::size_t q = 0; q < rule.size(); ++q) {
    positive_weights = positive_weights && rule.weights[q] > 0;
    double sum = 0;
    for (int i = 0; i < Dim; ++i) {
      interior_points = interior_points && rule.points[q][i] > 0;
      sum += rule.points[q][i];
    }
    interior_points = interior_points && sum < 1;
    volume += rule.weights[q];
  }
  BOOST_TEST(positive_weights);
  BOOST_TEST(interior_points);
  BOOST_TEST(static_cast<double>(volume) == 1 / test::factorial_value(Dim),
             boost::test_tools::tolerance(1e-14));
}

/// The rule of this degree against every monomial it claims to integrate.
template <int Dim>
void check_all_monomials(int degree) {
  const QuadratureRule<Dim>& rule = simplex_rule<Dim>(degree);
  check_structure(rule, degree);
  const double worst = worst_monomial_error(rule, degree, [](int) { return true; });
  BOOST_TEST(worst < 1e-13, "Dim " << Dim << " degree " << degree << ": " << worst);
}

template <int Dim>
void check_all_monomials_up_to(int max_rule_degree) {
  for (int degree = 0; degree <= max_rule_degree; ++degree) check_all_monomials<Dim>(degree);
}

/// P_0(t), …, P_n(t) (Legendre, |P_k| ≤ 1 on [−1, 1]) and their derivatives, by the three-term
/// recurrence and P'_{k+1} = P'_{k−1} + (2k+1) P_k, in extended precision.
void legendre_with_derivatives(int n, long double t, long double* values,
                               long double* derivatives) {
  values[0] = 1, derivatives[0] = 0;
  if (n >= 1) values[1] = t, derivatives[1] = 1;
  for (int k = 1; k < n; ++k) {
    values[k + 1] = ((2 * k + 1) * t * values[k] - k * values[k - 1]) / (k + 1);
    derivatives[k + 1] = derivatives[k - 1] + (2 * k + 1) * values[k];
  }
}

/// ∫_T P_i(2x − 1) P_j(2y − 1) by `rule` (sums in extended precision) for i + j ≤ degree ≤ 30:
/// a well-conditioned basis of P_degree, bounded by 1 on T (monomials are not: their moments
/// hide errors of 1e-11 at degree 12). `bounds` receives, per entry, the effect of rounding the
/// rule's weights (2u relative) and coordinates (3u relative, as in the collapsed rules'
/// x_2 = (1 − u_1) u_2): 4u Σ_q w_q (|f| + |x ∂f/∂x| + |y ∂f/∂y|).
void legendre_box_integrals(const QuadratureRule<2>& rule, int degree,
                            std::vector<long double>& integrals, std::vector<double>& bounds) {
  constexpr double unit_roundoff = std::numeric_limits<double>::epsilon() / 2;
  integrals.assign(std::size_t(degree + 1) * (degree + 1), 0.0L);
  bounds.assign(integrals.size(), 0.0);
  for (std::size_t q = 0; q < rule.size(); ++q) {
    const long double x = rule.points[q][0], y = rule.points[q][1], w = rule.weights[q];
    long double px[31], dx[31], py[31], dy[31];
    legendre_with_derivatives(degree, 2 * x - 1, px, dx);
    legendre_with_derivatives(degree, 2 * y - 1, py, dy);
    for (int i = 0; i <= degree; ++i)
      for (int j = 0; i + j <= degree; ++j) {
        const long double f = px[i] * py[j];
        integrals[i * (degree + 1) + j] += w * f;
        bounds[i * (degree + 1) + j] += static_cast<double>(
            4 * unit_roundoff * w *
            (std::fabs(f) + 2 * x * std::fabs(dx[i] * py[j]) + 2 * y * std::fabs(px[i] * dy[j])));
      }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(segment_rules_are_exact_to_degree_30) { check_all_monomials_up_to<1>(30); }
BOOST_AUTO_TEST_CASE(triangle_rules_are_exact_to_degree_30) { check_all_monomials_up_to<2>(30); }
BOOST_AUTO_TEST_CASE(tetrahedron_rules_are_exact_to_degree_30) {
  // Every degree to 16, then a few up to 30: the construction is the same for every degree, and
  // the sanitizer build of CI must stay fast.
  check_all_monomials_up_to<3>(16);
  for (int degree : {19, 22, 25, 29, 30}) check_all_monomials<3>(degree);
}

BOOST_AUTO_TEST_CASE(four_simplex_rules_are_exact) {
  check_all_monomials_up_to<4>(10);
  // Degree 30 (65536 points): every 151st monomial of degree ≤ 30, which covers all degrees.
  const QuadratureRule<4>& rule = simplex_rule<4>(30);
  check_structure(rule, 30);
  const double worst = worst_monomial_error(rule, 30, [](int k) { return k % 151 == 0; });
  BOOST_TEST(worst < 1e-13, "Dim 4 degree 30: " << worst);
}

BOOST_AUTO_TEST_CASE(symmetric_triangle_rules_are_symmetric_and_exact_to_rounding) {
  // Invariant under the triangle's symmetries: (x, y) → (y, x) and → (1 − x − y, x) map the
  // point set onto itself with equal weights.
  for (int degree : {2, 4, 5, 6, 8, 10, 11, 12}) {
    const QuadratureRule<2>& rule = triangle_rule(degree);
    const auto has = [&](double x, double y, double weight) {
      for (std::size_t q = 0; q < rule.size(); ++q)
        if (std::fabs(rule.points[q][0] - x) < 1e-14 && std::fabs(rule.points[q][1] - y) < 1e-14 &&
            std::fabs(rule.weights[q] - weight) < 1e-15)
          return true;
      return false;
    };
    bool symmetric = true;
    for (std::size_t q = 0; q < rule.size(); ++q) {
      const double x = rule.points[q][0], y = rule.points[q][1];
      symmetric = symmetric && has(y, x, rule.weights[q]) && has(1 - x - y, x, rule.weights[q]);
    }
    BOOST_TEST(symmetric, "degree " << degree);
    // The refined tables: exact to rounding on every monomial of the rule's own degree.
    const double worst = worst_monomial_error(rule, degree, [](int) { return true; });
    BOOST_TEST(worst < 2e-15, "degree " << degree << ": " << worst);
    // And in a well-conditioned basis, against the collapsed rule of degree 13 (7² points, no
    // symmetric rule there): equal to the rounding bounds of both rules, every P_i(2x − 1)
    // P_j(2y − 1) with i + j ≤ degree. Refined on monomial moments, the degree-8 to 12 rules
    // missed these by 3 to 330 times the bound (2e-15 to 2e-13).
    std::vector<long double> integrals, reference;
    std::vector<double> bounds, reference_bounds;
    legendre_box_integrals(rule, degree, integrals, bounds);
    legendre_box_integrals(triangle_rule(13), degree, reference, reference_bounds);
    for (int i = 0; i <= degree; ++i)
      for (int j = 0; i + j <= degree; ++j) {
        const std::size_t k = i * (degree + 1) + j;
        BOOST_TEST(std::fabs(static_cast<double>(integrals[k] - reference[k])) <=
                       bounds[k] + reference_bounds[k],
                   "degree " << degree << ": P_" << i << " P_" << j);
      }
  }
}

BOOST_AUTO_TEST_CASE(named_rules_are_the_simplex_rules) {
  BOOST_TEST(&segment_rule(4) == &simplex_rule<1>(4));
  BOOST_TEST(&triangle_rule(7) == &simplex_rule<2>(7));
  BOOST_TEST(&tetrahedron_rule(9) == &simplex_rule<3>(9));
  const QuadratureRule<2> fresh = make_simplex_rule<2>(7);
  BOOST_TEST(fresh.size() == triangle_rule(7).size());
  for (std::size_t q = 0; q < fresh.size(); ++q) {
    BOOST_TEST(fresh.weights[q] == triangle_rule(7).weights[q]);
    BOOST_TEST((fresh.points[q] == triangle_rule(7).points[q]));
  }
}

BOOST_AUTO_TEST_CASE(unsupported_degrees_throw) {
  const std::string what = "simplex quadrature rule: quadrature degree ";
  const std::string range = " is outside the supported range 0..30";
  BOOST_TEST(error_names([] { make_simplex_rule<2>(-1); }, {what + "-1" + range}));
  BOOST_TEST(
      error_names([] { make_simplex_rule<3>(max_quadrature_degree + 1); }, {what + "31" + range}));
  BOOST_TEST(error_names([] { triangle_rule(31); }, {what + "31" + range}));
  BOOST_TEST(error_names([] { simplex_rule<4>(-2); }, {what + "-2" + range}));
  BOOST_TEST(error_names([] { tetrahedron_rule(31); }, {what + "31" + range}));
}

BOOST_AUTO_TEST_CASE(cache_is_thread_safe_and_stable) {
  // Several threads ask for the same, not yet built rules at once (prism rules: nothing else in
  // this program uses them); everyone must get the same objects.
  constexpr int threads = 8, degrees = 31;
  std::vector<const QuadratureRule<3>*> seen(threads * degrees);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([t, &seen] {
      for (int i = 0; i < degrees; ++i) {
        const int degree = (i * 7 + t) % degrees;
        seen[t * degrees + degree] = &prism_rule<3>(degree, degree % 5);
      }
    });
  for (std::thread& worker : workers) worker.join();
  for (int degree = 0; degree < degrees; ++degree) {
    const QuadratureRule<3>* expected = &prism_rule<3>(degree, degree % 5);
    for (int t = 0; t < threads; ++t) BOOST_TEST(seen[t * degrees + degree] == expected);
    BOOST_TEST(expected->degree == std::min(degree, degree % 5));
  }
}
