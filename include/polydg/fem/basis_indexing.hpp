#pragma once
/// Numbering of the bounding-box Legendre basis of P_p in Dim variables (docs/theory.md,
/// "Basis"), for host and device.
///
/// Basis function k is φ_α with α = basis_multi_index<Dim>(k). The order is hierarchical: all
/// multi-indices of total degree 0, then all of total degree 1, and so on, so the first
/// basis_size(Dim, q) functions of P_p are exactly the basis of P_q (q ≤ p). Within one total
/// degree the order is *descending lexicographic*: α_1 largest first, ties broken by α_2 largest
/// first, and so on. For example in 2D: (0,0) | (1,0) (0,1) | (2,0) (1,1) (0,2) | (3,0) … and in
/// 3D, degree 1: (1,0,0) (0,1,0) (0,0,1), i.e. function 1 + i is linear in x_{i+1}.
#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"

namespace polydg {

/// Largest polynomial degree the basis evaluators support (sizes of their stack tables).
constexpr int max_basis_degree = 10;

/// Binomial coefficient C(n, k) for small non-negative arguments (0 when k < 0 or k > n).
POLYDG_HD constexpr int binomial_coefficient(int n, int k) {
  if (k < 0 || n < 0 || k > n) return 0;
  int result = 1;
  // result * (n − i) is divisible by i + 1 at every step, so the division is exact.
  for (int i = 0; i < k; ++i) result = result * (n - i) / (i + 1);
  return result;
}

/// N_p = dim P_p(R^dim) = C(p + dim, dim); 0 for p < 0, so basis_size(dim, q − 1) is the index
/// of the first basis function of total degree q.
POLYDG_HD constexpr int basis_size(int dim, int p) {
  return p < 0 ? 0 : binomial_coefficient(p + dim, dim);
}

/// A multi-index α = (α_1, …, α_Dim) of a basis function φ_α = Π_i L̂_{α_i}(ξ_i).
template <int Dim>
struct MultiIndex {
  int a[Dim];

  POLYDG_HD constexpr int& operator[](int i) { return a[i]; }
  POLYDG_HD constexpr const int& operator[](int i) const { return a[i]; }
  POLYDG_HD constexpr int total_degree() const {
    int sum = 0;
    for (int i = 0; i < Dim; ++i) sum += a[i];
    return sum;
  }
  POLYDG_HD friend constexpr bool operator==(const MultiIndex& x, const MultiIndex& y) {
    for (int i = 0; i < Dim; ++i)
      if (x.a[i] != y.a[i]) return false;
    return true;
  }
};

/// Replaces α by the multi-index of the next basis function in the hierarchical order.
/// Walking from (0, …, 0) with this visits basis functions 0, 1, 2, … without any search.
template <int Dim>
POLYDG_HD constexpr void advance_multi_index(MultiIndex<Dim>& alpha) {
  // Descending lexicographic successor within the total degree: move one unit from the last
  // non-zero entry before the final slot one place to the right, and gather everything behind
  // it there. When only the final slot is non-zero, the degree is exhausted: start the next.
  int j = Dim - 2;
  while (j >= 0 && alpha[j] == 0) --j;
  if (j < 0) {
    const int next_degree = alpha[Dim - 1] + 1;
    for (int i = 0; i < Dim; ++i) alpha[i] = 0;
    alpha[0] = next_degree;
    return;
  }
  int tail = 1;
  for (int i = j + 1; i < Dim; ++i) {
    tail += alpha[i];
    alpha[i] = 0;
  }
  alpha[j] -= 1;
  alpha[j + 1] = tail;
}

/// Index k of the basis function φ_α (the inverse of basis_multi_index).
template <int Dim>
POLYDG_HD constexpr int basis_index(const MultiIndex<Dim>& alpha) {
  const int q = alpha.total_degree();
  int index = basis_size(Dim, q - 1);
  int remaining = q;
  for (int i = 0; i + 1 < Dim; ++i) {
    // Multi-indices with the same α_1..α_{i−1} and a larger α_i come first; there are
    // Σ_{v > α_i} C(remaining − v + r, r) of them, r = Dim − i − 2 (hockey-stick identity).
    index += binomial_coefficient(remaining - alpha[i] + Dim - i - 2, Dim - i - 1);
    remaining -= alpha[i];
  }
  return index;
}

/// Multi-index α of basis function k (0 ≤ k; any k, not bounded by max_basis_degree).
template <int Dim>
POLYDG_HD constexpr MultiIndex<Dim> basis_multi_index(int k) {
  MultiIndex<Dim> alpha{};
  int q = 0;
  while (basis_size(Dim, q) <= k) ++q;
  int rank = k - basis_size(Dim, q - 1);  // position within total degree q
  int remaining = q;
  for (int i = 0; i + 1 < Dim; ++i) {
    int value = remaining;
    // C(remaining − value + r, r) multi-indices share this prefix and α_i = value.
    for (;;) {
      const int count = binomial_coefficient(remaining - value + Dim - i - 2, Dim - i - 2);
      if (rank < count) break;
      rank -= count;
      --value;
    }
    alpha[i] = value;
    remaining -= value;
  }
  alpha[Dim - 1] = remaining;
  return alpha;
}

/// Host-side check before any evaluation: throws polydg::Error unless 0 ≤ p ≤ max_basis_degree.
inline void require_basis_degree(int p) {
  require(p >= 0 && p <= max_basis_degree, "polynomial degree p = ", p,
          " is outside the supported range 0..", max_basis_degree);
}

}  // namespace polydg
