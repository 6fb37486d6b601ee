#define BOOST_TEST_MODULE fem_basis_space
// PQ_p (total degree in space tensor degree in time): sizes, orthonormality on the box,
// gradients against finite differences, and the total-degree space unchanged.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <vector>

#include "polydg/fem/basis_space.hpp"
#include "polydg/fem/quadrature_cache.hpp"

using namespace polydg;

BOOST_AUTO_TEST_CASE(sizes) {
  for (int p = 0; p <= max_basis_degree; ++p) {
    BOOST_TEST(space_basis_size(BasisSpace::total_degree, 3, p) == basis_size(3, p));
    BOOST_TEST(space_basis_size(BasisSpace::total_degree_times_last, 3, p) ==
               basis_size(2, p) * (p + 1));
  }
  BOOST_TEST(max_space_basis_size(3) == 66 * 11);
}

BOOST_AUTO_TEST_CASE(pq_basis_is_orthonormal_on_the_box_and_has_the_right_gradients) {
  const Box<3> box{{{-0.5, 1.0, 2.0}}, {{0.25, 1.5, 2.1}}};
  const double scale = box.extent(0) * box.extent(1) * box.extent(2) / 8;
  for (int p = 0; p <= 4; ++p) {
    const int n = space_basis_size(BasisSpace::total_degree_times_last, 3, p);
    const auto& rule = cube_rule<3>(2 * p);  // on [0, 1]^3
    std::vector<double> gram(std::size_t(n) * n, 0.0), values(n);
    for (std::size_t q = 0; q < rule.size(); ++q) {
      Point<3> x;
      for (int i = 0; i < 3; ++i) x[i] = box.lower[i] + rule.points[q][i] * box.extent(i);
      evaluate_space_basis<3, double>(BasisSpace::total_degree_times_last, p, box, x,
                                      values.data());
      const double w = rule.weights[q] * box.measure();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) gram[i * n + j] += w * values[i] * values[j];
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        BOOST_TEST(std::abs(gram[i * n + j] - (i == j ? scale : 0.0)) < 1e-13);

    // Gradients against central differences at a point inside the box.
    const Point<3> x{{-0.1, 1.2, 2.07}};
    std::vector<double> v(n), plus(n), minus(n);
    std::vector<double[3]> gradients(n);
    evaluate_space_basis_gradients<3, double>(BasisSpace::total_degree_times_last, p, box, x,
                                              v.data(), gradients.data());
    for (int d = 0; d < 3; ++d) {
      const double step = 1e-6 * box.extent(d);
      Point<3> xp = x, xm = x;
      xp[d] += step;
      xm[d] -= step;
      evaluate_space_basis<3, double>(BasisSpace::total_degree_times_last, p, box, xp, plus.data());
      evaluate_space_basis<3, double>(BasisSpace::total_degree_times_last, p, box, xm,
                                      minus.data());
      for (int k = 0; k < n; ++k) {
        const double difference = (plus[k] - minus[k]) / (2 * step);
        BOOST_TEST(std::abs(difference - gradients[k][d]) <= 1e-5 * (1 + std::abs(difference)));
      }
    }
  }
}
