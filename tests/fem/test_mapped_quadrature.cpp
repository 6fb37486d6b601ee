#define BOOST_TEST_MODULE fem_mapped_quadrature
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "error_message.hpp"
#include "exact_integrals.hpp"
#include "laplace_determinant.hpp"
#include "polydg/core/error.hpp"
#include "polydg/fem/mapped_quadrature.hpp"
#include "polydg/fem/quadrature_cache.hpp"

using namespace polydg;
using polydg::test::factorial_value;
using polydg::test::for_each_monomial;
using polydg::test::laplace_determinant;
using polydg::testing::error_names;

namespace {

/// Solves the small system A y = b by Gaussian elimination with partial pivoting.
template <int N, class Real>
std::array<Real, N> solve(Real (&a)[N][N], std::array<Real, N> b) {
  for (int col = 0; col < N; ++col) {
    int pivot = col;
    for (int row = col + 1; row < N; ++row)
      if (std::fabs(a[row][col]) > std::fabs(a[pivot][col])) pivot = row;
    for (int k = 0; k < N; ++k) std::swap(a[col][k], a[pivot][k]);
    std::swap(b[col], b[pivot]);
    for (int row = col + 1; row < N; ++row) {
      const Real factor = a[row][col] / a[col][col];
      for (int k = col; k < N; ++k) a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  std::array<Real, N> y;
  for (int row = N - 1; row >= 0; --row) {
    Real s = b[row];
    for (int k = row + 1; k < N; ++k) s -= a[row][k] * y[k];
    y[row] = s / a[row][row];
  }
  return y;
}

/// The K + 1 barycentric coordinates of x on the K-simplex v[0..K] in R^Dim, through the normal
/// equations (exact when x lies on the simplex's plane). They square the condition number, so
/// they run in long double: the test then sees the rule's errors, not its own.
template <int K, int Dim>
std::array<double, K + 1> barycentric(const Point<Dim>* v, const Point<Dim>& x) {
  using Extended = long double;
  Extended gram[K][K];
  std::array<Extended, K> rhs;
  for (int i = 0; i < K; ++i) {
    rhs[i] = 0;
    for (int c = 0; c < Dim; ++c)
      rhs[i] += (Extended(v[i + 1][c]) - v[0][c]) * (Extended(x[c]) - v[0][c]);
    for (int j = 0; j < K; ++j) {
      gram[i][j] = 0;
      for (int c = 0; c < Dim; ++c)
        gram[i][j] += (Extended(v[i + 1][c]) - v[0][c]) * (Extended(v[j + 1][c]) - v[0][c]);
    }
  }
  const std::array<Extended, K> y = solve<K>(gram, rhs);
  std::array<double, K + 1> lambda;
  Extended lambda0 = 1;
  for (int i = 0; i < K; ++i) {
    lambda[i + 1] = static_cast<double>(y[i]);
    lambda0 -= y[i];
  }
  lambda[0] = static_cast<double>(lambda0);
  return lambda;
}

/// K-measure of the simplex v[0..K] in R^Dim: sqrt(det Gram) / K! with a Laplace determinant.
template <int K, int Dim>
double measure(const Point<Dim>* v) {
  double gram[K][K];
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) gram[i][j] = dot(v[i + 1] - v[0], v[j + 1] - v[0]);
  return std::sqrt(laplace_determinant<K>(gram)) / factorial_value(K);
}

template <int Dim, std::size_t N>
std::array<Point<Dim>, N> random_vertices(std::mt19937& generator) {
  std::uniform_real_distribution<double> coordinate(-1.0, 2.0);
  std::array<Point<Dim>, N> v;
  for (auto& vertex : v)
    for (int i = 0; i < Dim; ++i) vertex[i] = coordinate(generator);
  return v;
}

/// ∫ over the K-simplex of Π_i λ_i^{a_i} = K! |S| Π a_i! / (|a| + K)!, for all |a| ≤ degree,
/// with the λ_i recomputed from the mapped physical points.
template <int K, int Dim>
void check_barycentric_moments(const QuadratureRule<Dim>& rule, const Point<Dim>* v, int degree) {
  const double size = measure<K, Dim>(v);
  std::vector<long double> sums(basis_size(K + 1, degree),
                                0.0L);  // extended: the test adds no rounding of its own
  for (std::size_t q = 0; q < rule.size(); ++q) {
    const std::array<double, K + 1> lambda = barycentric<K, Dim>(v, rule.points[q]);
    for (int i = 0; i <= K; ++i) BOOST_TEST(lambda[i] > -1e-12);  // the point is on S
    const test::PowerTable<K + 1> powers(lambda, degree);
    for_each_monomial<K + 1>(degree, [&](int k, const MultiIndex<K + 1>& a) {
      sums[k] += rule.weights[q] * powers.monomial(a);
    });
  }
  double worst = 0;
  for_each_monomial<K + 1>(degree, [&](int k, const MultiIndex<K + 1>& a) {
    double exact = factorial_value(K) * size / factorial_value(a.total_degree() + K);
    for (int i = 0; i <= K; ++i) exact *= factorial_value(a[i]);
    worst = std::max(worst, std::fabs(static_cast<double>(sums[k]) - exact) / exact);
  });
  BOOST_TEST(worst < 1e-13, "K " << K << " in R^" << Dim << " degree " << degree << ": " << worst);
}

/// ∫_T x_i x_j = |T| / ((d+1)(d+2)) (Σ_k v_ki v_kj + (Σ_k v_ki)(Σ_k v_kj)) and ∫_T x_i = |T|
/// times the centroid: physical-coordinate polynomials by a second route.
template <int Dim>
void check_physical_moments(const QuadratureRule<Dim>& rule, const Point<Dim>* v) {
  const double size = measure<Dim, Dim>(v);
  for (int i = 0; i < Dim; ++i) {
    double sum_i = 0;
    for (int k = 0; k <= Dim; ++k) sum_i += v[k][i];
    double first = 0;
    for (std::size_t q = 0; q < rule.size(); ++q) first += rule.weights[q] * rule.points[q][i];
    BOOST_TEST(first == size * sum_i / (Dim + 1), boost::test_tools::tolerance(1e-13));
    for (int j = 0; j < Dim; ++j) {
      double sum_j = 0, sum_ij = 0;
      for (int k = 0; k <= Dim; ++k) {
        sum_j += v[k][j];
        sum_ij += v[k][i] * v[k][j];
      }
      const double exact = size / ((Dim + 1) * (Dim + 2)) * (sum_ij + sum_i * sum_j);
      double second = 0;
      for (std::size_t q = 0; q < rule.size(); ++q)
        second += rule.weights[q] * rule.points[q][i] * rule.points[q][j];
      double scale = 0;  // ∫ |x_i x_j|: the size to compare an error with (exact may be ~0)
      for (std::size_t q = 0; q < rule.size(); ++q)
        scale += rule.weights[q] * std::fabs(rule.points[q][i] * rule.points[q][j]);
      BOOST_TEST(std::fabs(second - exact) <= 1e-13 * scale);
    }
  }
}

template <int Dim>
void check_simplices(int degree) {
  std::mt19937 generator(100 + Dim);
  for (int trial = 0; trial < 3; ++trial) {
    std::array<Point<Dim>, Dim + 1> v = random_vertices<Dim, Dim + 1>(generator);
    // Keep shapes that are not close to degenerate (the tolerance is about conditioning).
    double longest = 0;
    for (int k = 1; k <= Dim; ++k)
      longest = std::max(longest, std::sqrt(dot(v[k] - v[0], v[k] - v[0])));
    if (measure<Dim, Dim>(v.data()) < 0.05 * std::pow(longest, Dim) / factorial_value(Dim)) {
      --trial;
      continue;
    }
    const QuadratureRule<Dim> rule = map_to_simplex(simplex_rule<Dim>(degree), v);
    BOOST_TEST((rule.domain == ReferenceDomain::physical));
    BOOST_TEST(rule.degree == degree);
    check_barycentric_moments<Dim, Dim>(rule, v.data(), degree);
    check_physical_moments<Dim>(rule, v.data());
    // Reversing the orientation changes nothing but the order of the vertices.
    std::swap(v[0], v[1]);
    const QuadratureRule<Dim> flipped = map_to_simplex(simplex_rule<Dim>(degree), v);
    check_barycentric_moments<Dim, Dim>(flipped, v.data(), degree);
  }
}

template <int Dim>
void check_facets(int degree) {
  std::mt19937 generator(200 + Dim);
  for (int trial = 0; trial < 3; ++trial) {
    const std::array<Point<Dim>, Dim> v = random_vertices<Dim, Dim>(generator);
    const QuadratureRule<Dim> rule = map_to_facet(simplex_rule<Dim - 1>(degree), v);
    BOOST_TEST(rule.degree == degree);
    double total = 0;
    for (double w : rule.weights) total += w;
    BOOST_TEST(total == (measure<Dim - 1, Dim>(v.data())), boost::test_tools::tolerance(1e-13));
    // The points lie on the facet's plane: the least-squares residual vanishes.
    for (const Point<Dim>& x : rule.points) {
      const std::array<double, Dim> lambda = barycentric<Dim - 1, Dim>(v.data(), x);
      Point<Dim> back{};
      for (int k = 0; k < Dim; ++k) back += lambda[k] * v[k];
      const Point<Dim> residual = back - x;
      BOOST_TEST(std::sqrt(dot(residual, residual)) < 1e-13);
    }
    check_barycentric_moments<Dim - 1, Dim>(rule, v.data(), degree);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(rules_on_physical_simplices) {
  check_simplices<1>(20);
  check_simplices<2>(14);
  check_simplices<3>(10);
  check_simplices<4>(6);
}

BOOST_AUTO_TEST_CASE(rules_on_facets) {
  check_facets<2>(20);  // segments in the plane
  check_facets<3>(14);  // triangles in space
  check_facets<4>(8);   // tetrahedra in space-time
}

BOOST_AUTO_TEST_CASE(rules_on_physical_prisms) {
  // ∫_{K × [t0, t1]} λ^a t^c = 2|K| a0! a1! a2! / (|a| + 2)! · (t1^{c+1} − t0^{c+1}) / (c + 1).
  const std::array<Point<2>, 3> triangle{{{{0.2, -0.1}}, {{1.3, 0.4}}, {{0.5, 1.1}}}};
  const double t0 = 0.75, t1 = 1.0;
  const int space_degree = 8, time_degree = 5;
  const QuadratureRule<3> rule =
      map_to_prism(prism_rule<3>(space_degree, time_degree), triangle, t0, t1);
  const double area = measure<2, 2>(triangle.data());
  double worst = 0;
  for (int c = 0; c <= time_degree; ++c) {
    std::vector<long double> sums(basis_size(3, space_degree),
                                  0.0L);  // extended: the test adds no rounding of its own
    for (std::size_t q = 0; q < rule.size(); ++q) {
      const Point<2> x{{rule.points[q][0], rule.points[q][1]}};
      const std::array<double, 3> lambda = barycentric<2, 2>(triangle.data(), x);
      const test::PowerTable<3> powers(lambda, space_degree);
      for_each_monomial<3>(space_degree, [&](int k, const MultiIndex<3>& a) {
        sums[k] += rule.weights[q] * powers.monomial(a) * std::pow(rule.points[q][2], c);
      });
    }
    for_each_monomial<3>(space_degree, [&](int k, const MultiIndex<3>& a) {
      const double exact = 2 * area * factorial_value(a[0]) * factorial_value(a[1]) *
                           factorial_value(a[2]) / factorial_value(a.total_degree() + 2) *
                           (std::pow(t1, c + 1) - std::pow(t0, c + 1)) / (c + 1);
      worst = std::max(worst, std::fabs(static_cast<double>(sums[k]) - exact) / exact);
    });
  }
  BOOST_TEST(worst < 1e-13, "prism: " << worst);
}

BOOST_AUTO_TEST_CASE(rules_on_boxes) {
  const Box<3> box{{{0.5, 1.0, 2.0}}, {{2.0, 1.5, 2.25}}};
  const int degree = 9;
  const QuadratureRule<3> rule = map_to_box(cube_rule<3>(degree), box);
  double worst = 0;
  for (int a = 0; a <= degree; ++a)
    for (int b = 0; b <= degree; ++b)
      for (int c = 0; c <= degree; ++c) {
        double sum = 0;
        for (std::size_t q = 0; q < rule.size(); ++q)
          sum += rule.weights[q] * std::pow(rule.points[q][0], a) * std::pow(rule.points[q][1], b) *
                 std::pow(rule.points[q][2], c);
        double exact = 1;
        const int power[3] = {a, b, c};
        for (int i = 0; i < 3; ++i)
          exact *= (std::pow(box.upper[i], power[i] + 1) - std::pow(box.lower[i], power[i] + 1)) /
                   (power[i] + 1);
        worst = std::max(worst, std::fabs(sum - exact) / exact);
      }
  BOOST_TEST(worst < 1e-13, "box: " << worst);
}

// A prism or cube rule through the affine map of a simplex record integrates over the affine
// prism / parallelogram it spans (QuadratureMesh's slab pieces): Σ w = |det J| · |reference|,
// and x^a t^b exactly.
BOOST_AUTO_TEST_CASE(prism_and_cube_rules_through_affine_maps) {
  // The prism over the triangle (0,0),(2,0),(0.5,1) between t = 1 and t = 1.5, as (a, b, c, a').
  const std::array<Point<3>, 4> prism{{{{0, 0, 1}}, {{2, 0, 1}}, {{0.5, 1, 1}}, {{0, 0, 1.5}}}};
  const QuadratureRule<3> rule = map_to_simplex(prism_rule<3>(6, 6), prism);
  double volume = 0, moment = 0;
  for (std::size_t q = 0; q < rule.size(); ++q) {
    volume += rule.weights[q];
    moment += rule.weights[q] * rule.points[q][1] * rule.points[q][1] * rule.points[q][2];
  }
  BOOST_TEST(std::fabs(volume - 0.5) < 1e-14, volume);  // triangle area 1 × 0.5
  // ∫_T y² dA = 1/6 for this triangle (base 2, height 1: ∫_0^1 y² · 2(1 − y) dy); ∫ t dt = 0.625.
  BOOST_TEST(std::fabs(moment - 1.0 / 6.0 * 0.625) < 1e-14, moment);
  // The lateral rectangle (0,0,0)-(2,0,0) × [0, 3] as (p, q, p'): area 6.
  const std::array<Point<3>, 3> rectangle{{{{0, 0, 0}}, {{2, 0, 0}}, {{0, 0, 3}}}};
  const QuadratureRule<3> face = map_to_facet(cube_rule<2>(4), rectangle);
  double area = 0, xt = 0;
  for (std::size_t q = 0; q < face.size(); ++q) {
    area += face.weights[q];
    xt += face.weights[q] * face.points[q][0] * face.points[q][2];
  }
  BOOST_TEST(std::fabs(area - 6) < 1e-14, area);
  BOOST_TEST(std::fabs(xt - 2 * 4.5) < 1e-13, xt);  // ∫_0^2 x dx · ∫_0^3 t dt
}

BOOST_AUTO_TEST_CASE(bad_input_throws) {
  // Degenerate simplices: collinear triangle, coplanar tetrahedron, repeated facet vertex.
  // Degenerate simplices (collinear triangle, coplanar tetrahedron, repeated facet vertex): the
  // message names the vertices.
  const std::array<Point<2>, 3> collinear{{{{0, 0}}, {{1, 1}}, {{2, 2}}}};
  BOOST_TEST(error_names([&] { map_to_simplex(triangle_rule(3), collinear); },
                         {"map_to_simplex: the simplex with vertices (0, 0), (1, 1), (2, 2) is "
                          "degenerate (measure ratio 0"}));
  const std::array<Point<3>, 4> flat{{{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{1, 1, 0}}}};
  BOOST_TEST(error_names([&] { map_to_simplex(tetrahedron_rule(3), flat); },
                         {"map_to_simplex: the simplex with vertices (0, 0, 0), (1, 0, 0), "
                          "(0, 1, 0), (1, 1, 0) is degenerate"}));
  const std::array<Point<3>, 3> point_facet{{{{1, 2, 3}}, {{1, 2, 3}}, {{0, 1, 0}}}};
  BOOST_TEST(error_names(
      [&] { map_to_facet(triangle_rule(3), point_facet); },
      {"map_to_facet: the simplex with vertices (1, 2, 3), (1, 2, 3), (0, 1, 0) is degenerate"}));
  // Rules on the wrong reference domain: both domains are named.
  const std::array<Point<2>, 3> triangle{{{{0, 0}}, {{1, 0}}, {{0, 1}}}};
  BOOST_TEST(error_names(
      [] {
        map_to_simplex(gauss_legendre_rule(3), std::array<Point<1>, 2>{{{{0}}, {{1}}}});
      },
      {"map_to_simplex: the rule must live on the reference simplex, prism or cube, but it "
       "lives on [-1, 1]"}));
  BOOST_TEST(error_names(
      [] {
        map_to_box(triangle_rule(3), Box<2>{{{0, 0}}, {{1, 1}}});
      },
      {"map_to_box: the rule must live on [0, 1]^d, but it lives on the "
       "reference simplex"}));
  BOOST_TEST(error_names([] { map_to_facet(gauss_legendre_rule(3), std::array<Point<2>, 2>{}); },
                         {"map_to_facet: the rule must live on the reference simplex, prism or "
                          "cube, but it lives on [-1, 1]"}));
  BOOST_TEST(error_names(
      [] {
        map_to_prism(triangle_rule(2), std::array<Point<1>, 2>{{{{0}}, {{1}}}}, 0, 1);
      },
      {"map_to_prism: the rule must live on the reference prism, but it lives on the reference "
       "simplex"}));
  // Empty time interval, empty box: the interval and the axis are named.
  BOOST_TEST(error_names([&] { map_to_prism(prism_rule<3>(2, 2), triangle, 1.0, 1.0); },
                         {"map_to_prism: the time interval [1, 1] is empty"}));
  BOOST_TEST(error_names(
      [] {
        map_to_box(cube_rule<2>(3), Box<2>{{{0, 0}}, {{1, 0}}});
      },
      {"map_to_box: the box has extent 0 on axis 1"}));
}
