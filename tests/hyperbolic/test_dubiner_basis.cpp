#define BOOST_TEST_MODULE dubiner_basis
// The Dubiner basis on the reference triangle: sizes and numbering, the degree check, agreement
// with the defining formula, orthonormality, the hierarchy (the first (q+1)(q+2)/2 functions
// span P_q), and gradients at interior points, on the edges and at the vertices.
//
// Tolerances are rounding bounds, not observed errors. The model: a basis value at a point comes
// out of at most p steps of the two three-term recurrences, each of fewer than 8 roundings on
// terms no larger than the largest basis value S at that point (forward recurrences of
// orthogonal polynomials in their interval are stable: errors add up, they do not grow), so it
// is within 8(p+1) u S of the exact value; a gradient entry has about twice the terms per step,
// so 16(p+1) u G with G the largest |φ| or gradient entry there. Quadrature sums and dot
// products add n u Σ|terms|. Each test sums these over the actual terms (a running error bound).
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "error_message.hpp"
#include "polydg/fem/gauss_jacobi.hpp"
#include "polydg/fem/simplex_quadrature.hpp"
#include "polydg/hyperbolic/dubiner_basis.hpp"

using namespace polydg;
using namespace polydg::hyperbolic;
using polydg::testing::error_names;

namespace {

constexpr double unit_roundoff = std::numeric_limits<double>::epsilon() / 2;
constexpr int largest_size = (max_dubiner_degree + 1) * (max_dubiner_degree + 2) / 2;

double value_error(int p, double scale) { return 8.0 * (p + 1) * unit_roundoff * scale; }
double gradient_error(int p, double scale) { return 16.0 * (p + 1) * unit_roundoff * scale; }

double largest_magnitude(const double* values, int count) {
  double largest = 0;
  for (int i = 0; i < count; ++i) largest = std::max(largest, std::abs(values[i]));
  return largest;
}

/// Values and gradients of all functions of degree ≤ p at one point.
struct Evaluation {
  std::array<double, largest_size> values{};
  double gradients[largest_size][2]{};

  Evaluation(int p, const Point<2>& x) {
    evaluate_dubiner_basis_gradients(p, x, values.data(), gradients);
  }
  double value_scale(int p) const {
    return largest_magnitude(values.data(), dubiner_index(p + 1, 0));
  }
  double gradient_scale(int p) const {
    return std::max(value_scale(p),
                    largest_magnitude(&gradients[0][0], 2 * dubiner_index(p + 1, 0)));
  }
};

/// The three vertices, points on each edge (ends excluded) and interior points, among them
/// points within 1e-9 of the collapsed vertex (1, 0), where 2s / (1 − r) is ill-conditioned.
std::vector<Point<2>> test_points() {
  std::vector<Point<2>> points = {{{0.0, 0.0}}, {{1.0, 0.0}}, {{0.0, 1.0}}};
  for (double t : {0.0625, 0.21, 0.5, 0.83, 0.96875}) {
    points.push_back({{t, 0.0}});      // s = 0
    points.push_back({{0.0, t}});      // r = 0
    points.push_back({{t, 1.0 - t}});  // r + s = 1 (t and 1 − t are both exact here)
  }
  points.push_back({{1.0 - 1e-9, 0.0}});
  points.push_back({{1.0 - 1e-9, 5e-10}});
  points.push_back({{1.0 - 1e-9, 1e-9}});
  std::mt19937 generator(20240611);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 12; ++i) {
    double r = unit(generator), s = unit(generator);
    if (r + s > 1) r = 1 - r, s = 1 - s;
    points.push_back({{r, s}});
  }
  return points;
}

/// The collapsed Gauss–Jacobi rule of degree `degree` on T, built here from the 1D rules (as
/// make_simplex_rule builds it where it has no symmetric rule): exact to rounding for every
/// degree. make_simplex_rule<2> returns Dunavant's symmetric rules at degrees 2, 4–6, 8, 10–12,
/// checked against the same bound in dunavant_rules_integrate_the_basis below.
QuadratureRule<2> collapsed_triangle_rule(int degree) {
  const int n = degree / 2 + 1;
  const QuadratureRule<1> radial = make_gauss_jacobi(n, 1.0, 0.0);  // weight (1 − t): the collapse
  const QuadratureRule<1> along = make_gauss_legendre(n);
  QuadratureRule<2> rule;
  rule.degree = degree;
  rule.domain = ReferenceDomain::simplex;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double u = 0.5 * (1 + radial.points[i][0]), v = 0.5 * (1 + along.points[j][0]);
      rule.points.push_back({{u, (1 - u) * v}});
      rule.weights.push_back(radial.weights[i] * along.weights[j] / 8);  // (1/4)(1/2)
    }
  return rule;
}

double binomial(int n, int k) {
  double result = 1;
  for (int i = 0; i < k; ++i) result = result * (n - i) / (i + 1);
  return result;
}

/// P_n^{(α,β)}(x) by the explicit sum Σ_m C(n+α, n−m) C(n+β, m) ((x−1)/2)^m ((x+1)/2)^{n−m}
/// (independent of the recurrence); `magnitude` receives Σ|terms|.
double jacobi_by_sum(int n, int alpha, int beta, double x, double& magnitude) {
  double sum = 0;
  magnitude = 0;
  for (int m = 0; m <= n; ++m) {
    const double term = binomial(n + alpha, n - m) * binomial(n + beta, m) *
                        std::pow((x - 1) / 2, m) * std::pow((x + 1) / 2, n - m);
    sum += term;
    magnitude += std::abs(term);
  }
  return sum;
}

/// The coefficients of f = Σ_{a+b≤degree} c_ab r^a s^b, in a fixed pseudo-random order.
struct Polynomial {
  int degree;
  std::vector<double> coefficients;  // c_ab at a(2·degree + 3 − a)/2 + b

  double coefficient(int a, int b) const { return coefficients[a * (2 * degree + 3 - a) / 2 + b]; }

  /// f(x), ∇f(x), and the sums of |terms| of each (for the rounding bounds).
  void evaluate(const Point<2>& x, double& value, double gradient[2], double& magnitude,
                double gradient_magnitude[2]) const {
    value = magnitude = 0;
    gradient[0] = gradient[1] = gradient_magnitude[0] = gradient_magnitude[1] = 0;
    for (int a = 0; a <= degree; ++a)
      for (int b = 0; a + b <= degree; ++b) {
        const double c = coefficient(a, b);
        const double term = c * std::pow(x[0], a) * std::pow(x[1], b);
        value += term;
        magnitude += std::abs(term);
        if (a > 0) {
          const double d = c * a * std::pow(x[0], a - 1) * std::pow(x[1], b);
          gradient[0] += d;
          gradient_magnitude[0] += std::abs(d);
        }
        if (b > 0) {
          const double d = c * b * std::pow(x[0], a) * std::pow(x[1], b - 1);
          gradient[1] += d;
          gradient_magnitude[1] += std::abs(d);
        }
      }
  }
};

/// L2 projection of f onto the first (q+1)(q+2)/2 functions by the collapsed degree-2q rule
/// (exact when the functions have degree ≤ q), with a bound on each coefficient's rounding error.
struct Projection {
  int q;
  std::vector<double> coefficients, errors;

  Projection(const Polynomial& f, int q_) : q(q_) {
    const int n = dubiner_basis_size(q);
    const QuadratureRule<2> rule = collapsed_triangle_rule(2 * q);
    const double points = double(rule.size());
    coefficients.assign(n, 0.0);
    errors.assign(n, 0.0);
    for (std::size_t k = 0; k < rule.size(); ++k) {
      double value, gradient[2], magnitude, gradient_magnitude[2];
      f.evaluate(rule.points[k], value, gradient, magnitude, gradient_magnitude);
      double phi[largest_size];
      evaluate_dubiner_basis(q, rule.points[k], phi);
      const double scale = largest_magnitude(phi, n);
      const double w = rule.weights[k];
      for (int i = 0; i < n; ++i) {
        coefficients[i] += w * value * phi[i];
        // f to (2 degree + 4) u Σ|terms| (pow to an ulp), φ_i to value_error, the sum to
        // (points + 2) u Σ|terms|.
        errors[i] +=
            w * ((points + 2 + 2 * f.degree + 4) * unit_roundoff * magnitude * std::abs(phi[i]) +
                 magnitude * value_error(q, scale));
      }
    }
  }

  /// Σ c_i φ_i(x) and its gradient, with rounding bounds.
  void reconstruct(const Evaluation& at, double& value, double gradient[2], double& value_bound,
                   double gradient_bound[2]) const {
    const int n = int(coefficients.size());
    value = gradient[0] = gradient[1] = 0;
    double value_terms = 0, gradient_terms[2] = {0, 0};
    value_bound = gradient_bound[0] = gradient_bound[1] = 0;
    for (int i = 0; i < n; ++i) {
      const double c = coefficients[i];
      value += c * at.values[i];
      value_terms += std::abs(c * at.values[i]);
      value_bound +=
          errors[i] * std::abs(at.values[i]) + std::abs(c) * value_error(q, at.value_scale(q));
      for (int d = 0; d < 2; ++d) {
        gradient[d] += c * at.gradients[i][d];
        gradient_terms[d] += std::abs(c * at.gradients[i][d]);
        gradient_bound[d] += errors[i] * std::abs(at.gradients[i][d]) +
                             std::abs(c) * gradient_error(q, at.gradient_scale(q));
      }
    }
    value_bound += (n + 1) * unit_roundoff * value_terms;
    for (int d = 0; d < 2; ++d) gradient_bound[d] += (n + 1) * unit_roundoff * gradient_terms[d];
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(sizes_and_numbering) {
  for (int p = 0; p <= max_dubiner_degree; ++p) {
    BOOST_TEST(dubiner_basis_size(p) == (p + 1) * (p + 2) / 2);
    // index(k, j) visits 0, 1, 2, … in the order k = 0..p, j = 0..k.
    int next = 0;
    for (int k = 0; k <= p; ++k)
      for (int j = 0; j <= k; ++j) BOOST_TEST(dubiner_index(k, j) == next++);
    BOOST_TEST(next == dubiner_basis_size(p));
  }
  static_assert(dubiner_index(max_dubiner_degree + 1, 0) == largest_size);
}

BOOST_AUTO_TEST_CASE(a_degree_out_of_range_is_refused) {
  BOOST_TEST(error_names([] { dubiner_basis_size(-1); },
                         {"Dubiner basis degree p = -1", "supported range 0..10"}));
  BOOST_TEST(error_names([] { dubiner_basis_size(max_dubiner_degree + 1); },
                         {"Dubiner basis degree p = 11", "supported range 0..10"}));
  BOOST_TEST(error_names([] { require_dubiner_degree(-3); }, {"p = -3"}));
}

BOOST_AUTO_TEST_CASE(normalisation_constants_are_rounded_square_roots) {
  for (int m = 1; m <= max_dubiner_degree + 1; ++m)
    BOOST_TEST(hyperbolic::detail::square_root_of_small_integer(m) == std::sqrt(double(m)));
  // Two correctly rounded factors and one rounded product (the 2 is exact): three roundings.
  for (int k = 0; k <= max_dubiner_degree; ++k)
    for (int j = 0; j <= k; ++j) {
      const double exact = std::sqrt(2.0 * (k + 1) * (2 * j + 1));
      BOOST_TEST(std::abs(dubiner_normalisation(k, j) - exact) <= 4 * unit_roundoff * exact);
    }
}

// φ_{0,0} = √2, φ_{1,0} = 2 − 6r, φ_{1,1} = 2√3 (1 − r − 2s): the sign conventions the header
// states, with their gradients, at every test point.
BOOST_AUTO_TEST_CASE(low_degree_closed_forms) {
  for (const Point<2>& x : test_points()) {
    const Evaluation at(1, x);
    const double r = x[0], s = x[1], root3 = std::sqrt(3.0);
    const double bound = gradient_error(1, 8.0);  // |φ|, |∇φ| ≤ 4√3 < 8 on T
    BOOST_TEST(std::abs(at.values[0] - std::sqrt(2.0)) <= bound);
    BOOST_TEST(std::abs(at.values[1] - (2 - 6 * r)) <= bound);
    BOOST_TEST(std::abs(at.values[2] - 2 * root3 * (1 - r - 2 * s)) <= bound);
    const double gradients[3][2] = {{0, 0}, {-6, 0}, {-2 * root3, -4 * root3}};
    for (int i = 0; i < 3; ++i)
      for (int d = 0; d < 2; ++d)
        BOOST_TEST(std::abs(at.gradients[i][d] - gradients[i][d]) <= bound);
  }
}

// Away from the vertex (1, 0) the defining formula with the division can be evaluated
// directly: √(2(k+1)(2j+1)) P_{k−j}^{(0,2j+1)}(1 − 2r) (1 − r)^j P_j(1 − 2s/(1 − r)).
BOOST_AUTO_TEST_CASE(agrees_with_the_collapsed_coordinate_formula) {
  const int p = max_dubiner_degree;
  for (const Point<2>& x : test_points()) {
    const double r = x[0], s = x[1];
    if (r > 0.9) continue;  // 1/(1 − r) ≤ 10: the formula's own rounding stays small
    double values[largest_size];
    evaluate_dubiner_basis(p, x, values);
    const double scale = largest_magnitude(values, dubiner_basis_size(p));
    for (int k = 0; k <= p; ++k)
      for (int j = 0; j <= k; ++j) {
        double jacobi_magnitude, legendre_magnitude;
        const double jacobi = jacobi_by_sum(k - j, 0, 2 * j + 1, 1 - 2 * r, jacobi_magnitude);
        const double legendre = jacobi_by_sum(j, 0, 0, 1 - 2 * s / (1 - r), legendre_magnitude);
        const double c = std::sqrt(2.0 * (k + 1) * (2 * j + 1));
        const double collapse = std::pow(1 - r, j);
        const double expected = c * jacobi * collapse * legendre;
        // The sums: (2p + 8) u Σ|terms| each; the argument of P_j carries 3u relative error
        // (relative to |a| ≤ 10 here), amplified by |P_j'| ≤ j(j+1)/2 ≤ p² (Markov), and the
        // division by 1 − r adds the same near r = 0.9.
        const double reference_error =
            c * collapse *
            ((2 * p + 8) * unit_roundoff * jacobi_magnitude * legendre_magnitude +
             jacobi_magnitude * p * p * 3 * unit_roundoff * 10);
        BOOST_TEST(std::abs(values[dubiner_index(k, j)] - expected) <=
                       value_error(p, scale) + reference_error,
                   "k " << k << " j " << j << " at (" << r << ", " << s << ")");
      }
  }
}

namespace {

/// Σ_q w_q φ_a φ_b against δ_ab, to its rounding bound and to 1e-13, with the rule's weights
/// summing to the area 1/2.
void check_orthonormal(const QuadratureRule<2>& rule, int p) {
  const int n = dubiner_basis_size(p);
  const double points = double(rule.size());
  double weight_sum = 0;
  for (double w : rule.weights) weight_sum += w;
  BOOST_TEST(std::abs(weight_sum - 0.5) <= points * unit_roundoff, "p " << p);
  std::vector<double> gram(std::size_t(n) * n, 0.0), bound(std::size_t(n) * n, 0.0);
  for (std::size_t q = 0; q < rule.size(); ++q) {
    double phi[largest_size];
    evaluate_dubiner_basis(p, rule.points[q], phi);
    const double w = rule.weights[q];
    const double error = value_error(p, largest_magnitude(phi, n));
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        gram[a * n + b] += w * phi[a] * phi[b];
        // The weights are rounded too (the 1D rules to about an ulp, one product): + 2 u.
        bound[a * n + b] += w * (error * (std::abs(phi[a]) + std::abs(phi[b])) +
                                 (points + 4) * unit_roundoff * std::abs(phi[a] * phi[b]));
      }
  }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const double deviation = std::abs(gram[a * n + b] - (a == b ? 1.0 : 0.0));
      BOOST_TEST(deviation <= bound[a * n + b], "p " << p << " (" << a << ", " << b << ")");
      BOOST_TEST(deviation <= 1e-13, "p " << p << " (" << a << ", " << b << ")");
    }
}

}  // namespace

// ∫_T φ_a φ_b = δ_ab with the collapsed rule of degree 2p, exact for these products.
BOOST_AUTO_TEST_CASE(orthonormal_on_the_reference_triangle) {
  for (int p = 0; p <= max_dubiner_degree; ++p)
    check_orthonormal(collapsed_triangle_rule(2 * p), p);
  // The library's reference simplex rules have the area 1/2 as total weight.
  for (int p = 0; p <= 8; ++p) {
    const QuadratureRule<2> rule = make_simplex_rule<2>(2 * p);
    double weight_sum = 0;
    for (double w : rule.weights) weight_sum += w;
    BOOST_TEST(std::abs(weight_sum - 0.5) <= double(rule.size()) * 2 * unit_roundoff);
  }
}

// The same with make_simplex_rule<2>(2p), which returns Dunavant's symmetric rules at degrees
// 2, 4–6, 8, 10 and 12 (p = 1–3, 4, 5, 6) and the collapsed rules above: ∫_T φ_a φ_b = δ_ab to
// the rounding bound of check_orthonormal (and 1e-13), with positive weights and points inside
// T. The symmetric rules are refined on the moment equations in this basis, in extended
// precision; refined on monomial moments they erred here by 3e-14, 2e-13 and 3e-11 at p = 4, 5,
// 6.
BOOST_AUTO_TEST_CASE(dunavant_rules_integrate_the_basis) {
  for (int p = 0; p <= 8; ++p) {
    const QuadratureRule<2> rule = make_simplex_rule<2>(2 * p);
    for (std::size_t q = 0; q < rule.size(); ++q) {
      const double r = rule.points[q][0], s = rule.points[q][1];
      BOOST_TEST(rule.weights[q] > 0, "p " << p << " point " << q);
      BOOST_TEST((r > 0 && s > 0 && r + s < 1), "p " << p << " point " << q);
    }
    check_orthonormal(rule, p);
  }
}

// The first (q+1)(q+2)/2 functions span P_q: projecting every monomial r^a s^b, a + b ≤ q, onto
// them by the collapsed degree-2q rule reproduces it everywhere (also off the rule's points), which
// holds only if the span contains P_q, and then equals it (same dimension, the functions
// orthonormal). The gradient of the projection is the monomial's gradient, on edges and at vertices
// too.
BOOST_AUTO_TEST_CASE(hierarchical_prefixes_span_p_q) {
  const std::vector<Point<2>> points = test_points();
  for (int q = 0; q <= max_dubiner_degree; ++q)
    for (int a = 0; a <= q; ++a)
      for (int b = 0; a + b <= q; ++b) {
        Polynomial monomial{q, std::vector<double>(dubiner_basis_size(q), 0.0)};
        monomial.coefficients[a * (2 * q + 3 - a) / 2 + b] = 1.0;
        const Projection projection(monomial, q);
        for (const Point<2>& x : points) {
          const Evaluation at(q, x);
          double value, gradient[2], value_bound, gradient_bound[2];
          projection.reconstruct(at, value, gradient, value_bound, gradient_bound);
          double expected, expected_gradient[2], magnitude, gradient_magnitude[2];
          monomial.evaluate(x, expected, expected_gradient, magnitude, gradient_magnitude);
          BOOST_TEST(
              std::abs(value - expected) <= value_bound + 4 * unit_roundoff * magnitude,
              "q " << q << " r^" << a << " s^" << b << " at (" << x[0] << ", " << x[1] << ")");
          BOOST_TEST(std::abs(value - expected) <= 1e-12);
          for (int d = 0; d < 2; ++d)
            BOOST_TEST(std::abs(gradient[d] - expected_gradient[d]) <=
                           gradient_bound[d] + 4 * unit_roundoff * gradient_magnitude[d],
                       "q " << q << " r^" << a << " s^" << b << " d" << d << " at (" << x[0] << ", "
                            << x[1] << ")");
        }
      }
}

// A polynomial of full degree p with pseudo-random coefficients, reproduced in the basis: its
// analytic gradient equals Σ c_i ∇φ_i at every test point.
BOOST_AUTO_TEST_CASE(gradient_of_a_reproduced_polynomial) {
  std::mt19937 generator(7);
  std::uniform_real_distribution<double> coefficient(-1.0, 1.0);
  for (int p = 1; p <= max_dubiner_degree; ++p) {
    Polynomial f{p, std::vector<double>(dubiner_basis_size(p))};
    for (double& c : f.coefficients) c = coefficient(generator);
    const Projection projection(f, p);
    for (const Point<2>& x : test_points()) {
      const Evaluation at(p, x);
      double value, gradient[2], value_bound, gradient_bound[2];
      projection.reconstruct(at, value, gradient, value_bound, gradient_bound);
      double expected, expected_gradient[2], magnitude, gradient_magnitude[2];
      f.evaluate(x, expected, expected_gradient, magnitude, gradient_magnitude);
      BOOST_TEST(std::abs(value - expected) <=
                 value_bound + (2 * p + 6) * unit_roundoff * magnitude);
      for (int d = 0; d < 2; ++d)
        BOOST_TEST(std::abs(gradient[d] - expected_gradient[d]) <=
                       gradient_bound[d] + (2 * p + 6) * unit_roundoff * gradient_magnitude[d],
                   "p " << p << " d" << d << " at (" << x[0] << ", " << x[1] << ")");
    }
  }
}

// Central differences with 2m + 1 points are exact for polynomials of degree ≤ 2m, and every φ
// restricted to a coordinate line is a polynomial of degree ≤ p: with m = ⌈p/2⌉ the difference
// quotient is the derivative up to rounding, whatever the step. The stencil leaves the triangle
// at edges and vertices, where the polynomials are simply extended.
BOOST_AUTO_TEST_CASE(gradients_match_exact_central_differences) {
  const double h = 1.0 / 16;  // a power of two: the stencil points x ± i h are exact
  for (int p = 0; p <= max_dubiner_degree; ++p) {
    const int m = std::max(1, (p + 1) / 2);
    const int n = dubiner_basis_size(p);
    // f'(x) = Σ_i w_i (f(x + ih) − f(x − ih)) / h, w_i = (−1)^{i+1} (m!)² / (i (m−i)! (m+i)!).
    std::vector<double> stencil_weights(m + 1, 0.0);
    double weight_magnitude = 0;
    for (int i = 1; i <= m; ++i) {
      stencil_weights[i] = (i % 2 ? 1.0 : -1.0) * std::tgamma(m + 1) * std::tgamma(m + 1) /
                           (i * std::tgamma(m - i + 1) * std::tgamma(m + i + 1));
      weight_magnitude += std::abs(stencil_weights[i]);
    }
    for (const Point<2>& x : test_points()) {
      const Evaluation at(p, x);
      for (int d = 0; d < 2; ++d) {
        std::vector<double> difference(n, 0.0), terms(n, 0.0);
        double stencil_scale = 0;
        for (int i = 1; i <= m; ++i) {
          Point<2> forward = x, backward = x;
          forward[d] += i * h;
          backward[d] -= i * h;
          double plus[largest_size], minus[largest_size];
          evaluate_dubiner_basis(p, forward, plus);
          evaluate_dubiner_basis(p, backward, minus);
          stencil_scale =
              std::max({stencil_scale, largest_magnitude(plus, n), largest_magnitude(minus, n)});
          for (int k = 0; k < n; ++k) {
            difference[k] += stencil_weights[i] * (plus[k] - minus[k]) / h;
            terms[k] += std::abs(stencil_weights[i] * (plus[k] - minus[k]) / h);
          }
        }
        for (int k = 0; k < n; ++k) {
          // Each stencil value to value_error, times Σ 2|w_i| / h; the weights (tgamma is exact
          // on these small integers, one division) and the sum add (m + 4) u Σ|terms|.
          const double bound = 2 * weight_magnitude / h * value_error(p, stencil_scale) +
                               (m + 4) * unit_roundoff * terms[k] +
                               gradient_error(p, at.gradient_scale(p));
          BOOST_TEST(std::abs(at.gradients[k][d] - difference[k]) <= bound,
                     "p " << p << " function " << k << " d" << d << " at (" << x[0] << ", " << x[1]
                          << ")");
        }
      }
    }
  }
}

// The values-only evaluator runs the same value recurrences as the one with gradients.
BOOST_AUTO_TEST_CASE(values_only_agree_with_values_and_gradients) {
  const int p = max_dubiner_degree;
  for (const Point<2>& x : test_points()) {
    const Evaluation at(p, x);
    double values[largest_size];
    evaluate_dubiner_basis(p, x, values);
    for (int k = 0; k < dubiner_basis_size(p); ++k)
      BOOST_TEST(std::abs(values[k] - at.values[k]) <= 2 * value_error(p, at.value_scale(p)));
  }
}

// Single precision runs the same code: at the same (float) point, within the rounding bound of
// the float evaluation plus that of the double one.
BOOST_AUTO_TEST_CASE(single_precision_agrees_with_double) {
  const double float_roundoff = std::numeric_limits<float>::epsilon() / 2;
  const int p = max_dubiner_degree;
  for (const Point<2>& x : test_points()) {
    const Point<2, float> x_float = convert<float>(x);
    const Point<2> x_rounded = convert<double>(x_float);
    const Evaluation at(p, x_rounded);
    float values[largest_size], gradients[largest_size][2];
    evaluate_dubiner_basis_gradients(p, x_float, values, gradients);
    const double value_scale = at.value_scale(p), gradient_scale = at.gradient_scale(p);
    for (int k = 0; k < dubiner_basis_size(p); ++k) {
      BOOST_TEST(std::abs(values[k] - at.values[k]) <=
                 8.0 * (p + 1) * float_roundoff * value_scale + value_error(p, value_scale));
      for (int d = 0; d < 2; ++d)
        BOOST_TEST(std::abs(gradients[k][d] - at.gradients[k][d]) <=
                   16.0 * (p + 1) * float_roundoff * gradient_scale +
                       gradient_error(p, gradient_scale));
    }
  }
}
