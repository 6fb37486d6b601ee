#include "polydg/fem/simplex_quadrature.hpp"

#include <cmath>
#include <utility>

#include "polydg/core/error.hpp"
#include "polydg/fem/gauss_jacobi.hpp"
#include "polydg/fem/symmetric_triangle_rules.hpp"

namespace polydg {

void require_quadrature_degree(int degree, const char* what) {
  require(degree >= 0 && degree <= max_quadrature_degree, what, ": quadrature degree ", degree,
          " is outside the supported range 0..", max_quadrature_degree);
}

template <int Dim>
QuadratureRule<Dim> make_simplex_rule(int degree) {
  require_quadrature_degree(degree, "simplex quadrature rule");
  if constexpr (Dim == 2)
    if (auto symmetric = make_symmetric_triangle_rule(degree)) return std::move(*symmetric);
  const int n = degree / 2 + 1;  // ⌈(degree + 1) / 2⌉ Gauss points per axis

  // Axis i: ∫_0^1 g(u) (1 − u)^{Dim−1−i} du. With u = (1 + t)/2 this is
  // 2^{−(α+1)} ∫_{−1}^{1} g (1 − t)^α dt, α = Dim − 1 − i.
  QuadratureRule<1> axis[Dim];
  for (int i = 0; i < Dim; ++i) {
    const int alpha = Dim - 1 - i;
    axis[i] = make_gauss_jacobi(n, alpha, 0.0);
    const double scale = std::ldexp(1.0, -(alpha + 1));
    for (int q = 0; q < n; ++q) {
      axis[i].points[q][0] = 0.5 * (1.0 + axis[i].points[q][0]);
      axis[i].weights[q] *= scale;
    }
  }

  int total = 1;
  for (int i = 0; i < Dim; ++i) total *= n;
  QuadratureRule<Dim> rule;
  rule.degree = degree;
  rule.domain = ReferenceDomain::simplex;
  rule.points.resize(total);
  rule.weights.resize(total);
  for (int flat = 0; flat < total; ++flat) {
    // flat = Σ_i index[i] n^{Dim−1−i}: the last axis runs fastest.
    int index[Dim];
    for (int i = Dim - 1, rest = flat; i >= 0; --i, rest /= n) index[i] = rest % n;
    double remaining = 1.0;  // Π_{j<i} (1 − u_j): the part of the simplex not yet used
    double weight = 1.0;
    for (int i = 0; i < Dim; ++i) {
      const double u = axis[i].points[index[i]][0];
      rule.points[flat][i] = remaining * u;
      remaining *= 1.0 - u;
      weight *= axis[i].weights[index[i]];
    }
    rule.weights[flat] = weight;
  }
  return rule;
}

template QuadratureRule<1> make_simplex_rule<1>(int);
template QuadratureRule<2> make_simplex_rule<2>(int);
template QuadratureRule<3> make_simplex_rule<3>(int);
template QuadratureRule<4> make_simplex_rule<4>(int);

}  // namespace polydg
