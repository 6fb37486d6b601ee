#pragma once
/// Closed-form integrals the fem quadrature tests compare against, and a monomial walker.
#include <cmath>

#include "polydg/fem/basis_indexing.hpp"

namespace polydg::test {

/// n! in double (exact to 22!, correctly rounded products beyond).
inline double factorial_value(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

/// ∫ over the reference Dim-simplex of Π x_i^{a_i} = Π a_i! / (|a| + Dim)!.
template <int Dim>
double simplex_monomial_integral(const MultiIndex<Dim>& a) {
  double numerator = 1;
  for (int i = 0; i < Dim; ++i) numerator *= factorial_value(a[i]);
  return numerator / factorial_value(a.total_degree() + Dim);
}

/// Powers x_i^k, k = 0..max_power ≤ 30, of each coordinate of one point: monomials then cost
/// one product per factor instead of a pow call.
template <int Dim>
struct PowerTable {
  static constexpr int capacity = 31;
  double powers[Dim][capacity];

  template <class PointType>
  PowerTable(const PointType& x, int max_power) {
    for (int i = 0; i < Dim; ++i) {
      powers[i][0] = 1;
      for (int k = 1; k <= max_power && k < capacity; ++k) powers[i][k] = powers[i][k - 1] * x[i];
    }
  }
  double monomial(const MultiIndex<Dim>& a) const {
    double value = 1;
    for (int i = 0; i < Dim; ++i) value *= powers[i][a[i]];
    return value;
  }
};

/// Calls visit(k, a) for all multi-indices a with |a| ≤ degree, in the basis order.
template <int Dim, class Visit>
void for_each_monomial(int degree, Visit visit) {
  MultiIndex<Dim> a{};
  for (int k = 0; k < basis_size(Dim, degree); ++k, advance_multi_index(a)) visit(k, a);
}

}  // namespace polydg::test
