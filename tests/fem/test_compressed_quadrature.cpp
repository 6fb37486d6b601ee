// compress_positive_rule (polydg/fem/compressed_quadrature.hpp): a positive rule on an
// L-shaped hexagon made of k triangles with the simplex rule of degree d on each is compressed
// to at most dim P_d = (d + 1)(d + 2) / 2 of its own points with positive weights, and the
// compressed rule integrates every monomial x^a y^b, a + b ≤ d, as the original does — exactly,
// since both are exact there: checked against the monomials' exact integrals over the
// triangles (independent of the Legendre moments the compression uses). Cases where no
// compression is possible leave the rule as it is.
#define BOOST_TEST_MODULE fem_compressed_quadrature
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <vector>

#include "polydg/fem/basis_indexing.hpp"
#include "polydg/fem/compressed_quadrature.hpp"
#include "polydg/fem/simplex_quadrature.hpp"

using namespace polydg;

namespace {

using Triangle = std::array<Point<2>, 3>;

/// The L-shaped region [0, 2] x [0, 1] ∪ [0, 1] x [1, 2], each unit square cut into `cuts`² small
/// squares of two triangles each (k = 6 cuts² triangles).
std::vector<Triangle> l_shape(int cuts) {
  std::vector<Triangle> triangles;
  const double h = 1.0 / cuts;
  for (const Point<2> corner : {Point<2>{0, 0}, Point<2>{1, 0}, Point<2>{0, 1}})
    for (int i = 0; i < cuts; ++i)
      for (int j = 0; j < cuts; ++j) {
        const Point<2> a{corner[0] + i * h, corner[1] + j * h};
        const Point<2> b{a[0] + h, a[1]}, c{a[0] + h, a[1] + h}, d{a[0], a[1] + h};
        triangles.push_back({a, b, c});
        triangles.push_back({a, c, d});
      }
  return triangles;
}

/// The simplex rule of degree `degree` on every triangle, as one rule.
void triangle_rules(const std::vector<Triangle>& triangles, int degree,
                    std::vector<Point<2>>& points, std::vector<double>& weights) {
  const QuadratureRule<2> rule = make_simplex_rule<2>(degree);
  for (const Triangle& t : triangles) {
    const Point<2> e1 = t[1] - t[0], e2 = t[2] - t[0];
    const double area2 = std::abs(e1[0] * e2[1] - e1[1] * e2[0]);
    for (std::size_t q = 0; q < rule.size(); ++q) {
      const double r = rule.points[q][0], s = rule.points[q][1];
      points.push_back({t[0][0] + r * e1[0] + s * e2[0], t[0][1] + r * e1[1] + s * e2[1]});
      weights.push_back(rule.weights[q] * area2);
    }
  }
}

/// ∫ x^a y^b over the L shape: the unit squares' integrals, exact.
double l_shape_monomial(int a, int b) {
  const auto interval = [](double lower, double upper, int k) {
    return (std::pow(upper, k + 1) - std::pow(lower, k + 1)) / (k + 1);
  };
  return interval(0, 1, a) * interval(0, 1, b) + interval(1, 2, a) * interval(0, 1, b) +
         interval(0, 1, a) * interval(1, 2, b);
}

const Box<2> l_box{{0.0, 0.0}, {2.0, 2.0}};

}  // namespace

BOOST_AUTO_TEST_CASE(compressed_rules_are_positive_small_and_exact) {
  for (int cuts : {1, 2, 4})
    for (int degree : {2, 4, 6, 8}) {
      if (cuts == 4 && degree > 4) continue;  // the cost grows like the cube of the points
      std::vector<Point<2>> points;
      std::vector<double> weights;
      triangle_rules(l_shape(cuts), degree, points, weights);
      const std::vector<Point<2>> original = points;
      const std::size_t dimension = std::size_t(basis_size(2, degree));
      BOOST_TEST_CONTEXT("cuts " << cuts << ", degree " << degree << ": " << original.size()
                                 << " points") {
        const bool compressed = compress_positive_rule(l_box, degree, points, weights);
        BOOST_TEST(compressed == (original.size() > dimension));
        BOOST_TEST(points.size() <= std::max(dimension, original.size()));
        if (compressed) BOOST_TEST(points.size() <= dimension);
        BOOST_TEST(points.size() == weights.size());
        for (double w : weights) BOOST_TEST(w > 0);
        // A subset of the original points.
        for (const Point<2>& x : points)
          BOOST_TEST(std::any_of(original.begin(), original.end(),
                                 [&](const Point<2>& y) { return x[0] == y[0] && x[1] == y[1]; }));
        // Every monomial of degree ≤ d, against its exact integral; the monomials reach 2^d on
        // the L shape, so the error is measured against that scale.
        double worst = 0;
        for (int a = 0; a <= degree; ++a)
          for (int b = 0; a + b <= degree; ++b) {
            double sum = 0;
            for (std::size_t k = 0; k < points.size(); ++k)
              sum += weights[k] * std::pow(points[k][0], a) * std::pow(points[k][1], b);
            const double exact = l_shape_monomial(a, b);
            worst = std::max(worst, std::abs(sum - exact) / std::max(1.0, std::abs(exact)));
          }
        BOOST_TEST(worst <= 1e-12, "worst relative monomial error " << worst);
      }
    }
}

BOOST_AUTO_TEST_CASE(rules_that_cannot_be_compressed_are_left_as_they_are) {
  std::vector<Point<2>> points;
  std::vector<double> weights;
  triangle_rules(l_shape(1), 2, points, weights);  // 6 triangles x 3 points = 18 > dim P_2 = 6
  const std::vector<Point<2>> original_points = points;
  const std::vector<double> original_weights = weights;
  const auto unchanged = [&] {
    return points.size() == original_points.size() && weights == original_weights;
  };
  // A degree above the Legendre tables.
  BOOST_TEST(!compress_positive_rule(l_box, max_basis_degree + 1, points, weights));
  BOOST_TEST(unchanged());
  // No more points than dim P_d (d = 4: 15 < 18; d = 5: 21 > 18).
  BOOST_TEST(!compress_positive_rule(l_box, 5, points, weights));
  BOOST_TEST(unchanged());
  // A weight that is not positive.
  weights[3] = 0;
  BOOST_TEST(!compress_positive_rule(l_box, 2, points, weights));
  BOOST_TEST(points.size() == original_points.size());
  // Sizes that do not match.
  weights.pop_back();
  BOOST_TEST(!compress_positive_rule(l_box, 2, points, weights));
}
