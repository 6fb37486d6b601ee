#include "polydg/fem/tensor_quadrature.hpp"

#include <algorithm>

#include "polydg/fem/simplex_quadrature.hpp"

namespace polydg {
namespace {

/// The product rule of `first` (coordinates 0..A−1) and `second` (coordinates A..A+B−1); the
/// second rule's index runs fastest.
template <int A, int B>
QuadratureRule<A + B> tensor_product(const QuadratureRule<A>& first,
                                     const QuadratureRule<B>& second) {
  QuadratureRule<A + B> rule;
  rule.points.reserve(first.size() * second.size());
  rule.weights.reserve(first.size() * second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    for (std::size_t j = 0; j < second.size(); ++j) {
      Point<A + B> x;
      for (int k = 0; k < A; ++k) x[k] = first.points[i][k];
      for (int k = 0; k < B; ++k) x[A + k] = second.points[j][k];
      rule.points.push_back(x);
      rule.weights.push_back(first.weights[i] * second.weights[j]);
    }
  }
  return rule;
}

template <int Dim>
QuadratureRule<Dim> cube_product(const QuadratureRule<1>& segment) {
  if constexpr (Dim == 1) {
    return segment;
  } else {
    return tensor_product(cube_product<Dim - 1>(segment), segment);
  }
}

}  // namespace

template <int Dim>
QuadratureRule<Dim> make_cube_rule(int degree) {
  require_quadrature_degree(degree, "cube quadrature rule");
  // The 1-simplex is [0, 1]: its rule is Gauss–Legendre mapped there.
  QuadratureRule<Dim> rule = cube_product<Dim>(make_simplex_rule<1>(degree));
  rule.degree = degree;
  rule.domain = ReferenceDomain::unit_cube;
  return rule;
}

template <int Dim>
QuadratureRule<Dim> make_prism_rule(int space_degree, int time_degree) {
  static_assert(Dim >= 2 && Dim <= 4, "prisms exist for Dim = 2..4");
  require_quadrature_degree(space_degree, "prism quadrature rule (space degree)");
  require_quadrature_degree(time_degree, "prism quadrature rule (time degree)");
  QuadratureRule<Dim> rule =
      tensor_product(make_simplex_rule<Dim - 1>(space_degree), make_simplex_rule<1>(time_degree));
  rule.degree = std::min(space_degree, time_degree);
  rule.domain = ReferenceDomain::prism;
  return rule;
}

template QuadratureRule<1> make_cube_rule<1>(int);
template QuadratureRule<2> make_cube_rule<2>(int);
template QuadratureRule<3> make_cube_rule<3>(int);
template QuadratureRule<4> make_cube_rule<4>(int);
template QuadratureRule<2> make_prism_rule<2>(int, int);
template QuadratureRule<3> make_prism_rule<3>(int, int);
template QuadratureRule<4> make_prism_rule<4>(int, int);

}  // namespace polydg
