#define BOOST_TEST_MODULE fem_legendre_basis
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/fem/legendre_basis.hpp"
#include "polydg/fem/mapped_quadrature.hpp"
#include "polydg/fem/quadrature_cache.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

/// A non-unit box in each dimension: extents 2, 0.5, 3, 0.25, off the origin.
template <int Dim>
Box<Dim> test_box() {
  const double lower[4] = {-0.3, 2.0, -4.0, 0.1};
  const double upper[4] = {1.7, 2.5, -1.0, 0.35};
  Box<Dim> box;
  for (int i = 0; i < Dim; ++i) {
    box.lower[i] = lower[i];
    box.upper[i] = upper[i];
  }
  return box;
}

template <int Dim>
Point<Dim> random_point_in(const Box<Dim>& box, std::mt19937& generator) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Point<Dim> x;
  for (int i = 0; i < Dim; ++i) x[i] = box.lower[i] + box.extent(i) * unit(generator);
  return x;
}

double legendre_p_by_formula(int k, double x) {
  switch (k) {
    case 0:
      return 1.0;
    case 1:
      return x;
    case 2:
      return 0.5 * (3 * x * x - 1);
    case 3:
      return 0.5 * (5 * x * x * x - 3 * x);
    case 4:
      return (35 * std::pow(x, 4) - 30 * x * x + 3) / 8;
    default:
      return NAN;
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(one_dimensional_table_matches_closed_forms) {
  const int p = max_basis_degree;
  double values[p + 1], values2[p + 1], derivatives[p + 1];
  for (double xi : {-1.0, -0.7, -0.1, 0.0, 0.3, 0.95, 1.0}) {
    orthonormal_legendre(p, xi, values);
    orthonormal_legendre_with_derivatives(p, xi, values2, derivatives);
    for (int k = 0; k <= p; ++k) {
      const double norm = std::sqrt((2 * k + 1) / 2.0);
      BOOST_TEST(values[k] == values2[k]);  // the two routines are the same recurrence
      if (k <= 4) {
        BOOST_TEST(values[k] == norm * legendre_p_by_formula(k, xi),
                   boost::test_tools::tolerance(1e-14));
      }
    }
  }
  // End-point values: P_k(±1) = (±1)^k, P'_k(±1) = (±1)^{k+1} k(k+1)/2.
  for (double xi : {-1.0, 1.0}) {
    orthonormal_legendre_with_derivatives(p, xi, values, derivatives);
    for (int k = 0; k <= p; ++k) {
      const double norm = std::sqrt((2 * k + 1) / 2.0);
      BOOST_TEST(values[k] == norm * std::pow(xi, k), boost::test_tools::tolerance(1e-14));
      BOOST_TEST(derivatives[k] == norm * std::pow(xi, k + 1) * k * (k + 1) / 2.0,
                 boost::test_tools::tolerance(1e-13));
    }
  }
}

namespace {

/// The recurrences as they were written before their factors became constants: a division per
/// step and a square root per entry at run time.
template <class Real>
void legendre_with_runtime_factors(int p, Real xi, Real* values, Real* derivatives) {
  values[0] = Real(1);
  derivatives[0] = Real(0);
  if (p >= 1) {
    values[1] = xi;
    derivatives[1] = Real(1);
  }
  for (int k = 1; k < p; ++k) {
    const Real a = Real(2 * k + 1) / Real(k + 1);
    const Real b = Real(k) / Real(k + 1);
    values[k + 1] = std::fma(a * xi, values[k], -b * values[k - 1]);
    derivatives[k + 1] = std::fma(Real(2 * k + 1), values[k], derivatives[k - 1]);
  }
  for (int k = 0; k <= p; ++k) {
    const Real scale = std::sqrt(Real(2 * k + 1) / Real(2));
    values[k] *= scale;
    derivatives[k] *= scale;
  }
}

template <class Real>
void check_tables_equal_runtime_factors() {
  constexpr int n = max_basis_degree + 1;
  for (int p = 0; p <= max_basis_degree; ++p)
    for (Real xi : {Real(-1), Real(-0.73), Real(-0.1), Real(0), Real(0.31), Real(0.999), Real(1)}) {
      Real values[n], derivatives[n], values_only[n], expected[n], expected_derivatives[n];
      orthonormal_legendre_with_derivatives(p, xi, values, derivatives);
      orthonormal_legendre(p, xi, values_only);
      legendre_with_runtime_factors(p, xi, expected, expected_derivatives);
      for (int k = 0; k <= p; ++k) {
        BOOST_TEST(values[k] == expected[k]);
        BOOST_TEST(values_only[k] == expected[k]);
        BOOST_TEST(derivatives[k] == expected_derivatives[k]);
      }
    }
}

}  // namespace

// The constant factors are the correctly rounded quotients and square roots, so the tables keep
// their bits: in double, and in float (a double square root rounded to float is the float one).
BOOST_AUTO_TEST_CASE(normalisation_constants_are_the_correctly_rounded_square_roots) {
  for (int k = 0; k <= max_legendre_table_degree; ++k) {
    BOOST_TEST(legendre_normalisation(k) == std::sqrt(double(2 * k + 1) / 2.0));
    BOOST_TEST(float(legendre_normalisation(k)) == std::sqrt(float(2 * k + 1) / 2.0f));
  }
  check_tables_equal_runtime_factors<double>();
  check_tables_equal_runtime_factors<float>();
}

BOOST_AUTO_TEST_CASE(basis_size_is_the_binomial_coefficient) {
  // Count multi-indices with |α| ≤ p by brute force.
  for (int dim = 1; dim <= 4; ++dim) {
    for (int p = 0; p <= max_basis_degree; ++p) {
      int count = 0;
      const int n = p + 1;
      int total = 1;
      for (int i = 0; i < dim; ++i) total *= n;
      for (int flat = 0; flat < total; ++flat) {
        int sum = 0;
        for (int i = 0, rest = flat; i < dim; ++i, rest /= n) sum += rest % n;
        if (sum <= p) ++count;
      }
      BOOST_TEST(basis_size(dim, p) == count, "dim " << dim << " p " << p);
    }
  }
  BOOST_TEST(basis_size(2, -1) == 0);
  const int two_d[] = {3, 6, 10, 15, 21}, three_d[] = {4, 10, 20, 35, 56};
  for (int p = 1; p <= 5; ++p) {
    BOOST_TEST(basis_size(2, p) == two_d[p - 1]);
    BOOST_TEST(basis_size(3, p) == three_d[p - 1]);
  }
  static_assert(basis_size(4, 10) == 1001);
}

namespace {

template <int Dim>
void check_ordering() {
  const int size = basis_size(Dim, max_basis_degree);
  MultiIndex<Dim> alpha{};
  MultiIndex<Dim> previous{};
  for (int k = 0; k < size; ++k) {
    const int q = alpha.total_degree();
    BOOST_TEST(q <= max_basis_degree);
    for (int i = 0; i < Dim; ++i) BOOST_TEST(alpha[i] >= 0);
    // Hierarchical: functions basis_size(q−1) .. basis_size(q)−1 have total degree q.
    BOOST_TEST(k >= basis_size(Dim, q - 1));
    BOOST_TEST(k < basis_size(Dim, q));
    if (k > 0 && previous.total_degree() == q) {
      // Strictly descending lexicographic within the degree (so no repeats).
      int i = 0;
      while (i < Dim && previous[i] == alpha[i]) ++i;
      BOOST_TEST((i < Dim && previous[i] > alpha[i]), "order broken at k = " << k);
    }
    BOOST_TEST((basis_multi_index<Dim>(k) == alpha), "k = " << k);
    BOOST_TEST(basis_index(alpha) == k);
    previous = alpha;
    advance_multi_index(alpha);
  }
  // Degree 1 functions are linear in x_1, …, x_Dim in that order.
  for (int i = 0; i < Dim; ++i) BOOST_TEST(basis_multi_index<Dim>(1 + i)[i] == 1);
}

}  // namespace

BOOST_AUTO_TEST_CASE(hierarchical_descending_lexicographic_order) {
  check_ordering<1>();
  check_ordering<2>();
  check_ordering<3>();
  check_ordering<4>();
  const MultiIndex<2> expected[] = {{{0, 0}}, {{1, 0}}, {{0, 1}}, {{2, 0}}, {{1, 1}}, {{0, 2}}};
  for (int k = 0; k < 6; ++k) BOOST_TEST((basis_multi_index<2>(k) == expected[k]));
}

namespace {

template <int Dim>
void check_prefix_and_product_form() {
  const Box<Dim> box = test_box<Dim>();
  std::mt19937 generator(7 + Dim);
  const int full = basis_size(Dim, max_basis_degree);
  std::vector<double> all(full), part(full), all_values(full);
  auto all_gradients = std::make_unique<double[][Dim]>(full);
  auto part_gradients = std::make_unique<double[][Dim]>(full);
  for (int trial = 0; trial < 5; ++trial) {
    const Point<Dim> x = random_point_in(box, generator);
    evaluate_basis(max_basis_degree, box, x, all.data());
    evaluate_basis_gradients(max_basis_degree, box, x, all_values.data(), all_gradients.get());
    const Point<Dim> xi = box_coordinates(box, x);
    double table[Dim][max_basis_degree + 1];
    for (int i = 0; i < Dim; ++i) orthonormal_legendre(max_basis_degree, xi[i], table[i]);
    for (int k = 0; k < full; ++k) {
      // φ_k is the product of the 1D factors its multi-index names.
      const MultiIndex<Dim> alpha = basis_multi_index<Dim>(k);
      double product = 1;
      for (int i = 0; i < Dim; ++i) product *= table[i][alpha[i]];
      BOOST_TEST(all[k] == product, boost::test_tools::tolerance(1e-14));
      BOOST_TEST(all_values[k] == all[k]);
    }
    for (int q = 0; q < max_basis_degree; ++q) {
      evaluate_basis(q, box, x, part.data());
      evaluate_basis_gradients(q, box, x, part.data(), part_gradients.get());
      for (int k = 0; k < basis_size(Dim, q); ++k) {
        BOOST_TEST(part[k] == all[k]);  // bit for bit: P_q is a prefix of P_p
        for (int i = 0; i < Dim; ++i) BOOST_TEST(part_gradients[k][i] == all_gradients[k][i]);
      }
    }
  }
  // The box's corners map to ±1.
  const Point<Dim> lower = box_coordinates(box, box.lower), upper = box_coordinates(box, box.upper);
  for (int i = 0; i < Dim; ++i) {
    BOOST_TEST(lower[i] == -1.0);
    BOOST_TEST(upper[i] == 1.0);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(lower_degree_basis_is_a_prefix) {
  check_prefix_and_product_form<1>();
  check_prefix_and_product_form<2>();
  check_prefix_and_product_form<3>();
  check_prefix_and_product_form<4>();
}

namespace {

/// ∫_B φ_α φ_β = δ_αβ Π (b_i − a_i)/2, by a tensor Gauss rule exact for degree 2p per variable.
template <int Dim>
void check_orthonormality(int p) {
  const Box<Dim> box = test_box<Dim>();
  const QuadratureRule<Dim> rule = map_to_box(cube_rule<Dim>(2 * p), box);
  const int n = basis_size(Dim, p);
  std::vector<double> values(n), mass(n * n, 0.0);
  for (std::size_t q = 0; q < rule.size(); ++q) {
    evaluate_basis(p, box, rule.points[q], values.data());
    for (int i = 0; i < n; ++i) {
      const double wi = rule.weights[q] * values[i];
      for (int j = 0; j <= i; ++j) mass[i * n + j] += wi * values[j];
    }
  }
  const double scale = box.measure() / std::pow(2.0, Dim);
  double worst = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      worst = std::max(worst, std::fabs(mass[i * n + j] - (i == j ? scale : 0.0)) / scale);
  BOOST_TEST(worst < 1e-12, "Dim " << Dim << " p " << p << ": worst relative error " << worst);
}

}  // namespace

BOOST_AUTO_TEST_CASE(orthonormal_on_a_non_unit_box) {
  for (int p : {0, 1, 2, 5, 10}) check_orthonormality<1>(p);
  for (int p : {0, 1, 3, 6, 10}) check_orthonormality<2>(p);
  for (int p : {1, 4, 7, 10}) check_orthonormality<3>(p);
  for (int p : {1, 3, 6}) check_orthonormality<4>(p);
}

namespace {

/// Gradients against fourth-order central differences, step h = 5e-4 of the box extent: the
/// truncation error h⁴/30 · φ^(5) stays near 1e-9 of |∇φ| even for p = 10 at the box's corners,
/// and the rounding error ε|φ|/h near 1e-11.
template <int Dim>
void check_gradients(int p) {
  const Box<Dim> box = test_box<Dim>();
  std::mt19937 generator(11 + Dim + p);
  const int n = basis_size(Dim, p);
  std::vector<double> values(n), plus(n), minus(n), plus2(n), minus2(n);
  auto gradients = std::make_unique<double[][Dim]>(n);
  double worst = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const Point<Dim> x = random_point_in(box, generator);
    evaluate_basis_gradients(p, box, x, values.data(), gradients.get());
    for (int i = 0; i < Dim; ++i) {
      const double h = 5e-4 * box.extent(i);
      Point<Dim> xp = x, xm = x, xpp = x, xmm = x;
      xp[i] += h;
      xm[i] -= h;
      xpp[i] += 2 * h;
      xmm[i] -= 2 * h;
      evaluate_basis(p, box, xp, plus.data());
      evaluate_basis(p, box, xm, minus.data());
      evaluate_basis(p, box, xpp, plus2.data());
      evaluate_basis(p, box, xmm, minus2.data());
      for (int k = 0; k < n; ++k) {
        double size = 1.0 / box.extent(i);  // scale of a derivative of an O(1) function
        for (int j = 0; j < Dim; ++j) size = std::max(size, std::fabs(gradients[k][j]));
        const double difference = (8 * (plus[k] - minus[k]) - (plus2[k] - minus2[k])) / (12 * h);
        worst = std::max(worst, std::fabs(difference - gradients[k][i]) / size);
      }
    }
  }
  BOOST_TEST(worst < 1e-7, "Dim " << Dim << " p " << p << ": worst relative error " << worst);
}

}  // namespace

BOOST_AUTO_TEST_CASE(gradients_match_finite_differences) {
  for (int p : {1, 4, 10}) {
    check_gradients<1>(p);
    check_gradients<2>(p);
    check_gradients<3>(p);
    check_gradients<4>(p);
  }
}

namespace {

template <int Dim>
void check_float_against_double() {
  const int p = max_basis_degree;
  const Box<Dim> box = test_box<Dim>();
  Box<Dim, float> box_f;
  for (int i = 0; i < Dim; ++i) {
    box_f.lower[i] = static_cast<float>(box.lower[i]);
    box_f.upper[i] = static_cast<float>(box.upper[i]);
  }
  std::mt19937 generator(23 + Dim);
  const int n = basis_size(Dim, p);
  std::vector<double> values(n);
  std::vector<float> values_f(n);
  auto gradients = std::make_unique<double[][Dim]>(n);
  auto gradients_f = std::make_unique<float[][Dim]>(n);
  double worst = 0;
  for (int trial = 0; trial < 10; ++trial) {
    Point<Dim> x = random_point_in(box, generator);
    Point<Dim, float> x_f;
    for (int i = 0; i < Dim; ++i) {
      x_f[i] = static_cast<float>(x[i]);
      x[i] = x_f[i];  // the same point in both precisions
    }
    // Evaluate double on the float-rounded box too, so only arithmetic differs.
    Box<Dim> box_d;
    for (int i = 0; i < Dim; ++i) {
      box_d.lower[i] = box_f.lower[i];
      box_d.upper[i] = box_f.upper[i];
    }
    evaluate_basis_gradients(p, box_d, x, values.data(), gradients.get());
    evaluate_basis_gradients(p, box_f, x_f, values_f.data(), gradients_f.get());
    double value_scale = 0, gradient_scale = 0;
    for (int k = 0; k < n; ++k) {
      value_scale = std::max(value_scale, std::fabs(values[k]));
      for (int i = 0; i < Dim; ++i)
        gradient_scale = std::max(gradient_scale, std::fabs(gradients[k][i]));
    }
    for (int k = 0; k < n; ++k) {
      worst = std::max(worst, std::fabs(values[k] - values_f[k]) / value_scale);
      for (int i = 0; i < Dim; ++i)
        worst = std::max(worst, std::fabs(gradients[k][i] - gradients_f[k][i]) / gradient_scale);
    }
  }
  BOOST_TEST(worst < 1e-5, "Dim " << Dim << ": worst float/double difference " << worst);
}

}  // namespace

BOOST_AUTO_TEST_CASE(float_agrees_with_double) {
  check_float_against_double<1>();
  check_float_against_double<2>();
  check_float_against_double<3>();
  check_float_against_double<4>();
}

namespace {

// The tables from the box's inverse extents (the GPU kernels' form: multiplications) against
// those from the divisions: within a few roundings of the largest entry of each axis's table.
template <int Dim>
void check_inverse_extent_tables() {
  const int p = max_basis_degree, stride = p + 1;
  const Box<Dim> box = test_box<Dim>();
  const Point<Dim> inverse = inverse_extents(box);
  std::mt19937 generator(41 + Dim);
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Point<Dim> x = trial == 0 ? box.upper : random_point_in(box, generator);
    std::vector<double> table(Dim * stride), derivatives(Dim * stride);
    std::vector<double> scaled_table(Dim * stride), scaled_derivatives(Dim * stride);
    evaluate_basis_tables<Dim, double>(p, box, x, table.data(), derivatives.data(), stride);
    evaluate_basis_tables<Dim, double>(p, box, inverse, x, scaled_table.data(),
                                       scaled_derivatives.data(), stride);
    for (int i = 0; i < Dim; ++i) {
      double value_scale = 0, derivative_scale = 0;
      for (int k = 0; k <= p; ++k) {
        value_scale = std::max(value_scale, std::fabs(table[i * stride + k]));
        derivative_scale = std::max(derivative_scale, std::fabs(derivatives[i * stride + k]));
      }
      for (int k = 0; k <= p; ++k) {
        const int m = i * stride + k;
        worst = std::max(worst, std::fabs(table[m] - scaled_table[m]) / value_scale);
        worst =
            std::max(worst, std::fabs(derivatives[m] - scaled_derivatives[m]) / derivative_scale);
      }
    }
  }
  BOOST_TEST(worst < 1e-13, "Dim " << Dim << ": worst difference " << worst);
}

}  // namespace

BOOST_AUTO_TEST_CASE(inverse_extent_tables_agree_with_the_divisions) {
  check_inverse_extent_tables<1>();
  check_inverse_extent_tables<2>();
  check_inverse_extent_tables<3>();
}

BOOST_AUTO_TEST_CASE(degree_check_throws_outside_the_supported_range) {
  BOOST_CHECK_NO_THROW(require_basis_degree(0));
  BOOST_CHECK_NO_THROW(require_basis_degree(max_basis_degree));
  BOOST_TEST(error_names([] { require_basis_degree(-1); },
                         {"polynomial degree p = -1 is outside the supported range 0..10"}));
  BOOST_TEST(error_names([] { require_basis_degree(max_basis_degree + 1); },
                         {"polynomial degree p = 11 is outside the supported range 0..10"}));
}
