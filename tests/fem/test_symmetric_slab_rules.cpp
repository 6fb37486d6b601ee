#define BOOST_TEST_MODULE fem_symmetric_slab_rules
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <string>

#include "error_message.hpp"
#include "exact_integrals.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/fem/symmetric_slab_rules.hpp"
#include "polydg/fem/tensor_quadrature.hpp"

using namespace polydg;
using polydg::test::factorial_value;
using polydg::test::for_each_monomial;
using polydg::test::PowerTable;
using polydg::testing::error_names;

namespace {

/// Worst relative error of `rule` over the monomials of total degree ≤ degree.
template <int Dim, class Exact>
double worst_monomial_error(const QuadratureRule<Dim>& rule, int degree, Exact exact) {
  double worst = 0;
  for_each_monomial<Dim>(degree, [&](int, const MultiIndex<Dim>& a) {
    long double sum = 0;  // extended: no rounding of the test's own
    for (std::size_t q = 0; q < rule.size(); ++q)
      sum += rule.weights[q] * PowerTable<Dim>(rule.points[q], degree).monomial(a);
    worst = std::max(worst, std::fabs(double(sum) - exact(a)) / exact(a));
  });
  return worst;
}

/// ∫ over conv{0, e_1, e_2} × [0, 1] of x^a y^b t^c = a! b! / (a + b + 2)! / (c + 1).
double prism_monomial(const MultiIndex<3>& a) {
  return factorial_value(a[0]) * factorial_value(a[1]) / factorial_value(a[0] + a[1] + 2) /
         (a[2] + 1);
}

double square_monomial(const MultiIndex<2>& a) { return 1.0 / ((a[0] + 1) * (a[1] + 1)); }

/// The rule of `degree` on its reference domain: that degree, exact to it, positive weights,
/// every point inside (`inside`).
template <int Dim, class Exact, class Inside>
void check_rule(const QuadratureRule<Dim>& rule, int degree, ReferenceDomain domain, Exact exact,
                Inside inside, const char* name) {
  BOOST_TEST((rule.domain == domain));
  BOOST_TEST(rule.degree == degree);
  const double worst = worst_monomial_error(rule, degree, exact);
  BOOST_TEST(worst < 1e-13, name << " degree " << degree << ": " << worst);
  for (std::size_t q = 0; q < rule.size(); ++q) {
    BOOST_TEST(rule.weights[q] > 0);
    BOOST_TEST(inside(rule.points[q]),
               name << " degree " << degree << ": point " << q << " outside");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(prism_rules_are_exact_to_their_total_degree_positive_and_inside) {
  for (int degree = 0; degree <= 16; ++degree)
    check_rule(
        total_degree_prism_rule(degree), degree, ReferenceDomain::prism, prism_monomial,
        [](const Point<3>& x) {
          return x[0] >= 0 && x[1] >= 0 && x[0] + x[1] <= 1 && x[2] >= 0 && x[2] <= 1;
        },
        "prism");
}

BOOST_AUTO_TEST_CASE(square_rules_are_exact_to_their_total_degree_positive_and_inside) {
  for (int degree = 0; degree <= 16; ++degree)
    check_rule(
        total_degree_square_rule(degree), degree, ReferenceDomain::unit_cube, square_monomial,
        [](const Point<2>& x) { return x[0] > 0 && x[0] < 1 && x[1] > 0 && x[1] < 1; }, "square");
}

BOOST_AUTO_TEST_CASE(symmetric_rules_are_taken_only_where_they_have_fewer_points) {
  // Degree → points of the symmetric rule (0: the tensor rule is kept).
  const int prism_points[] = {0, 0, 0, 0, 11, 16, 28, 35, 46, 60, 85, 97, 128, 0, 0};
  for (int degree = 0; degree < 15; ++degree) {
    const auto symmetric = make_symmetric_prism_rule(degree);
    const std::size_t tensor = make_prism_rule<3>(degree, degree).size();
    BOOST_TEST(int(symmetric ? symmetric->size() : 0) == prism_points[degree],
               "prism degree " << degree);
    if (symmetric) BOOST_TEST(symmetric->size() < tensor);
    BOOST_TEST(total_degree_prism_rule(degree).size() == (symmetric ? symmetric->size() : tensor));
  }
  // Degree 4, 6, 8, 10, 12 (the matrices of P_2..P_6 with exact quadrature): 1.6–1.8× fewer.
  BOOST_TEST(make_prism_rule<3>(4, 4).size() == 18u);
  BOOST_TEST(make_prism_rule<3>(10, 10).size() == 150u);
  const int square_points[] = {0, 0, 3, 0, 6, 8, 12, 12, 20, 20, 28, 28, 37, 37, 0};
  for (int degree = 0; degree < 15; ++degree) {
    const auto symmetric = make_symmetric_square_rule(degree);
    BOOST_TEST(int(symmetric ? symmetric->size() : 0) == square_points[degree],
               "square degree " << degree);
    if (symmetric) BOOST_TEST(symmetric->size() < make_cube_rule<2>(degree).size());
  }
}

BOOST_AUTO_TEST_CASE(tensor_exactness_is_what_pq_spaces_need) {
  // x^4 t^4 (degree 8) is a product of two PQ_2 functions' terms: the tensor rule of degree 4
  // integrates it, the symmetric rule of total degree 4 does not — so PQ keeps tensor rules.
  const MultiIndex<3> a{4, 0, 4};
  const auto integrate = [&](const QuadratureRule<3>& rule) {
    long double sum = 0;
    for (std::size_t q = 0; q < rule.size(); ++q)
      sum += rule.weights[q] * PowerTable<3>(rule.points[q], 4).monomial(a);
    return double(sum);
  };
  BOOST_TEST(integrate(prism_rule<3>(4, 4)) == prism_monomial(a),
             boost::test_tools::tolerance(1e-13));
  BOOST_TEST(std::fabs(integrate(total_degree_prism_rule(4)) - prism_monomial(a)) >
             1e-6 * prism_monomial(a));
  BOOST_TEST((slab_rules_for(BasisSpace::total_degree_times_last, SlabRules::total_degree) ==
              SlabRules::tensor));
  BOOST_TEST((slab_rules_for(BasisSpace::total_degree, SlabRules::total_degree) ==
              SlabRules::total_degree));
  BOOST_TEST(&element_piece_rule<3>(QuadraturePieces::slab_prisms, SlabRules::total_degree, 6) ==
             &total_degree_prism_rule(6));
  BOOST_TEST(&interface_piece_rule<3>(QuadraturePieces::slab_prisms, SlabRules::total_degree, 6) ==
             &total_degree_square_rule(6));
  BOOST_TEST(&element_piece_rule<3>(QuadraturePieces::simplices, SlabRules::total_degree, 6) ==
             &tetrahedron_rule(6));
}

BOOST_AUTO_TEST_CASE(bad_degrees_throw) {
  const std::string range = " is outside the supported range 0..30";
  BOOST_TEST(error_names([] { make_symmetric_prism_rule(-1); },
                         {"prism quadrature rule", "quadrature degree -1" + range}));
  BOOST_TEST(error_names([] { make_symmetric_square_rule(31); },
                         {"cube quadrature rule", "quadrature degree 31" + range}));
  BOOST_TEST(error_names([] { total_degree_prism_rule(-2); },
                         {"prism quadrature rule", "quadrature degree -2" + range}));
}
