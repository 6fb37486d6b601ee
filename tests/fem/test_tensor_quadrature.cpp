#define BOOST_TEST_MODULE fem_tensor_quadrature
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <vector>

#include "error_message.hpp"
#include "exact_integrals.hpp"
#include "polydg/core/error.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/fem/tensor_quadrature.hpp"

using namespace polydg;
using polydg::test::factorial_value;
using polydg::test::PowerTable;
using polydg::testing::error_names;

namespace {

/// Calls visit(a) for every multi-index with a_i ≤ limits[i] (a box of exponents).
template <int Dim, class Visit>
void for_each_exponent_box(const int (&limits)[Dim], Visit visit) {
  int count = 1;
  for (int i = 0; i < Dim; ++i) count *= limits[i] + 1;
  for (int flat = 0; flat < count; ++flat) {
    MultiIndex<Dim> a;
    for (int i = 0, rest = flat; i < Dim; rest /= limits[i] + 1, ++i) a[i] = rest % (limits[i] + 1);
    visit(flat, a);
  }
}

/// Worst relative error over x^a, a_i ≤ limits[i] and (a_0 + … + a_{S−1}) ≤ simplex_degree for
/// the first S coordinates (S = 0: a pure tensor box), against exact(a).
template <int Dim, class Exact>
double worst_error(const QuadratureRule<Dim>& rule, const int (&limits)[Dim], int S,
                   int simplex_degree, Exact exact) {
  const int max_power = *std::max_element(limits, limits + Dim);
  auto included = [&](const MultiIndex<Dim>& a) {
    int sum = 0;
    for (int i = 0; i < S; ++i) sum += a[i];
    return sum <= simplex_degree;
  };
  std::vector<MultiIndex<Dim>> exponents;
  for_each_exponent_box<Dim>(limits, [&](int, const MultiIndex<Dim>& a) {
    if (included(a)) exponents.push_back(a);
  });
  std::vector<long double> sums(exponents.size(), 0.0L);  // extended: no rounding of the test's own
  for (std::size_t q = 0; q < rule.size(); ++q) {
    const PowerTable<Dim> powers(rule.points[q], max_power);
    for (std::size_t m = 0; m < exponents.size(); ++m)
      sums[m] += rule.weights[q] * powers.monomial(exponents[m]);
  }
  double worst = 0;
  for (std::size_t m = 0; m < exponents.size(); ++m) {
    const double exact_value = exact(exponents[m]);
    worst = std::max(worst, std::fabs(static_cast<double>(sums[m]) - exact_value) / exact_value);
  }
  return worst;
}

template <int Dim>
void check_cube(int degree) {
  const QuadratureRule<Dim>& rule = cube_rule<Dim>(degree);
  BOOST_TEST((rule.domain == ReferenceDomain::unit_cube));
  BOOST_TEST(rule.degree == degree);
  BOOST_TEST(static_cast<int>(rule.size()) == static_cast<int>(std::pow(degree / 2 + 1, Dim)));
  int limits[Dim];
  std::fill(limits, limits + Dim, degree);  // degree q in every variable (Q_q)
  const double worst = worst_error(rule, limits, 0, 0, [](const MultiIndex<Dim>& a) {
    double value = 1;
    for (int i = 0; i < Dim; ++i) value /= a[i] + 1;
    return value;
  });
  BOOST_TEST(worst < 1e-13, "cube Dim " << Dim << " degree " << degree << ": " << worst);
}

/// Prism rule: exact for x^a t^c, |a| ≤ space degree, c ≤ time degree; the exact value is
/// Π a_i! / (|a| + Dim − 1)! · 1/(c + 1).
template <int Dim>
void check_prism(int space_degree, int time_degree) {
  const QuadratureRule<Dim>& rule = prism_rule<Dim>(space_degree, time_degree);
  BOOST_TEST((rule.domain == ReferenceDomain::prism));
  BOOST_TEST(rule.degree == std::min(space_degree, time_degree));
  double volume = 0;
  for (double w : rule.weights) volume += w;
  BOOST_TEST(volume == 1 / factorial_value(Dim - 1), boost::test_tools::tolerance(1e-14));
  int limits[Dim];
  std::fill(limits, limits + Dim, space_degree);
  limits[Dim - 1] = time_degree;
  const double worst =
      worst_error(rule, limits, Dim - 1, space_degree, [](const MultiIndex<Dim>& a) {
        double value = 1;
        int space_total = 0;
        for (int i = 0; i < Dim - 1; ++i) {
          value *= factorial_value(a[i]);
          space_total += a[i];
        }
        return value / factorial_value(space_total + Dim - 1) / (a[Dim - 1] + 1);
      });
  BOOST_TEST(worst < 1e-13, "prism Dim " << Dim << " degrees " << space_degree << ", "
                                         << time_degree << ": " << worst);
}

}  // namespace

BOOST_AUTO_TEST_CASE(cube_rules_are_exact_in_each_variable) {
  for (int degree : {0, 1, 2, 7, 16, 30}) check_cube<1>(degree);
  for (int degree : {0, 1, 4, 11, 30}) check_cube<2>(degree);
  for (int degree : {0, 3, 8, 17}) check_cube<3>(degree);
  for (int degree : {0, 2, 9}) check_cube<4>(degree);
}

BOOST_AUTO_TEST_CASE(prism_rules_are_exact_in_space_and_time) {
  check_prism<2>(5, 7);
  check_prism<2>(30, 0);
  for (auto [space, time] : {std::pair{0, 0}, {1, 3}, {3, 5}, {10, 2}, {2, 10}, {30, 4}, {4, 30}})
    check_prism<3>(space, time);
  for (auto [space, time] : {std::pair{0, 0}, {4, 6}, {12, 12}}) check_prism<4>(space, time);
}

BOOST_AUTO_TEST_CASE(prism_points_are_triangle_times_segment) {
  const QuadratureRule<3> prism = make_prism_rule<3>(6, 3);
  const QuadratureRule<2>& triangle = triangle_rule(6);
  const QuadratureRule<1>& segment = segment_rule(3);
  BOOST_TEST(prism.size() == triangle.size() * segment.size());
  for (std::size_t i = 0; i < triangle.size(); ++i)
    for (std::size_t j = 0; j < segment.size(); ++j) {
      const std::size_t q = i * segment.size() + j;
      BOOST_TEST(prism.points[q][0] == triangle.points[i][0]);
      BOOST_TEST(prism.points[q][1] == triangle.points[i][1]);
      BOOST_TEST(prism.points[q][2] == segment.points[j][0]);
      BOOST_TEST(prism.weights[q] == triangle.weights[i] * segment.weights[j]);
    }
}

BOOST_AUTO_TEST_CASE(unsupported_degrees_throw) {
  const std::string range = " is outside the supported range 0..30";
  const std::string space = "prism quadrature rule (space degree): quadrature degree ";
  const std::string time = "prism quadrature rule (time degree): quadrature degree ";
  BOOST_TEST(error_names([] { make_cube_rule<2>(-1); },
                         {"cube quadrature rule: quadrature degree -1" + range}));
  BOOST_TEST(error_names([] { make_cube_rule<3>(31); },
                         {"cube quadrature rule: quadrature degree 31" + range}));
  BOOST_TEST(error_names([] { make_prism_rule<3>(31, 2); }, {space + "31" + range}));
  BOOST_TEST(error_names([] { make_prism_rule<3>(2, -1); }, {time + "-1" + range}));
  BOOST_TEST(error_names([] { prism_rule<4>(-1, 0); }, {space + "-1" + range}));
  BOOST_TEST(error_names([] { make_prism_rule<3>(3, 40); }, {time + "40" + range}));
}
