#define BOOST_TEST_MODULE core_small_determinant
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>

#include "laplace_determinant.hpp"
#include "polydg/core/small_determinant.hpp"

using namespace polydg;
using polydg::test::laplace_determinant;

namespace {

template <int N>
double determinant_of_copy(const double (&m)[N][N]) {
  double copy[N][N];
  std::copy(&m[0][0], &m[0][0] + N * N, &copy[0][0]);
  return small_determinant<N>(copy);
}

}  // namespace

BOOST_AUTO_TEST_CASE(permutation_matrices_give_their_sign) {
  // Every pivot search swaps here: the sign must follow the permutation's parity.
  std::array<int, 4> permutation{0, 1, 2, 3};
  int count = 0;
  do {
    double m[4][4] = {};
    for (int i = 0; i < 4; ++i) m[i][permutation[std::size_t(i)]] = 1;
    int inversions = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j)
        inversions += permutation[std::size_t(i)] > permutation[std::size_t(j)];
    BOOST_TEST(determinant_of_copy<4>(m) == (inversions % 2 == 0 ? 1.0 : -1.0));
    ++count;
  } while (std::next_permutation(permutation.begin(), permutation.end()));
  BOOST_TEST(count == 24);
}

BOOST_AUTO_TEST_CASE(a_zero_leading_entry_is_pivoted_away) {
  const double m[2][2] = {{0, 2}, {3, 4}};
  BOOST_TEST(determinant_of_copy<2>(m) == -6.0);
  const double n[3][3] = {{0, 0, 1}, {0, 2, 0}, {5, 0, 0}};
  BOOST_TEST(determinant_of_copy<3>(n) == -10.0);
}

BOOST_AUTO_TEST_CASE(a_singular_matrix_gives_exactly_zero) {
  const double m[3][3] = {{1, 2, 3}, {2, 4, 6}, {1, 1, 1}};  // row 2 = 2 · row 1
  BOOST_TEST(determinant_of_copy<3>(m) == 0.0);
  const double flat[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 0}};  // a degenerate element's map
  BOOST_TEST(determinant_of_copy<3>(flat) == 0.0);
}

BOOST_AUTO_TEST_CASE(random_matrices_agree_with_cofactor_expansion) {
  std::mt19937 generator(7);
  std::uniform_real_distribution<double> value(-2, 2);
  for (int trial = 0; trial < 200; ++trial) {
    double m3[3][3], m4[4][4];
    for (auto& row : m3)
      for (double& x : row) x = value(generator);
    for (auto& row : m4)
      for (double& x : row) x = value(generator);
    const double reference3 = laplace_determinant<3>(m3);
    const double reference4 = laplace_determinant<4>(m4);
    BOOST_TEST(std::abs(determinant_of_copy<3>(m3) - reference3) <=
               1e-12 * std::max(1.0, std::abs(reference3)));
    BOOST_TEST(std::abs(determinant_of_copy<4>(m4) - reference4) <=
               1e-12 * std::max(1.0, std::abs(reference4)));
  }
}

BOOST_AUTO_TEST_CASE(single_precision_works_too) {
  float m[3][3] = {{0, 1, 2}, {3, 0, 1}, {1, 2, 0}};  // det = 0·(0−2) − 1·(0−1) + 2·(6−0) = 13
  BOOST_TEST(small_determinant<3>(m) == 13.0f);
}

BOOST_AUTO_TEST_CASE(cofactor_determinant_agrees_with_elimination) {
  std::mt19937 generator(11);
  std::uniform_real_distribution<double> value(-2, 2);
  for (int trial = 0; trial < 200; ++trial) {
    double m1[1][1], m2[2][2], m3[3][3];
    m1[0][0] = value(generator);
    for (auto& row : m2)
      for (double& x : row) x = value(generator);
    for (auto& row : m3)
      for (double& x : row) x = value(generator);
    BOOST_TEST(cofactor_determinant<1>(m1) == m1[0][0]);
    const double scale2 = std::max(1.0, std::abs(laplace_determinant<2>(m2)));
    const double scale3 = std::max(1.0, std::abs(laplace_determinant<3>(m3)));
    BOOST_TEST(std::abs(cofactor_determinant<2>(m2) - determinant_of_copy<2>(m2)) <=
               1e-14 * scale2);
    BOOST_TEST(std::abs(cofactor_determinant<3>(m3) - determinant_of_copy<3>(m3)) <=
               1e-13 * scale3);
  }
  // A zero column (a repeated vertex of a simplex) gives exactly zero, as elimination does.
  const double repeated[3][3] = {{1, 0, 2}, {3, 0, 1}, {1, 0, 5}};
  BOOST_TEST(cofactor_determinant<3>(repeated) == 0.0);
  const double m[3][3] = {{0, 1, 2}, {3, 0, 1}, {1, 2, 0}};
  BOOST_TEST(cofactor_determinant<3>(m) == 13.0);
}

BOOST_AUTO_TEST_CASE(determinant_takes_cofactors_up_to_three_and_elimination_above) {
  double m3[3][3] = {{0, 1, 2}, {3, 0, 1}, {1, 2, 0}};
  const double expected3 = cofactor_determinant<3>(m3);
  BOOST_TEST(determinant<3>(m3) == expected3);
  BOOST_TEST(m3[0][0] == 0.0);  // cofactors leave the matrix as it was
  const double m4[4][4] = {{2, 1, 0, 3}, {1, 4, 1, 0}, {0, 2, 5, 1}, {3, 0, 1, 6}};
  double copy[4][4];
  std::copy(&m4[0][0], &m4[0][0] + 16, &copy[0][0]);
  BOOST_TEST(determinant<4>(copy) == determinant_of_copy<4>(m4));
  BOOST_TEST(std::abs(determinant_of_copy<4>(m4) - laplace_determinant<4>(m4)) <=
             1e-13 * std::abs(laplace_determinant<4>(m4)));
}
