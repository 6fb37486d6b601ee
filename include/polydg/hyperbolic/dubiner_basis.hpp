#pragma once
/// The orthonormal Dubiner basis of P_p on the reference triangle T = {(r, s): r, s ≥ 0,
/// r + s ≤ 1} (docs/theory.md, "Explicit path for conservation laws"), for host and device: the
/// modal basis of the explicit DG solver.
///
///   φ_{k,j}(r, s) = √(2(k+1)(2j+1)) · P_{k−j}^{(0,2j+1)}(1 − 2r) · (1 − r)^j P_j(1 − 2s/(1 − r)),
///   0 ≤ j ≤ k ≤ p,
///
/// P^{(α,β)} the Jacobi polynomials (weight (1 − x)^α (1 + x)^β on [−1, 1]), P_j Legendre.
/// φ_{k,j} has total degree k; the Legendre factor has degree j in (r, s).
///
/// Normalisation: ∫_T φ_a φ_b d(r, s) = δ_ab on the reference triangle itself (area 1/2), so on a
/// triangle x = x0 + J (r, s) the mass matrix is |det J| · I and the modal update needs no solve.
/// Hence the constant is φ_{0,0} = √2; the linears are φ_{1,0} = 2 − 6r and
/// φ_{1,1} = 2√3 (1 − r − 2s) (the sign convention, checked by the tests).
///
/// Numbering (hierarchical): index(k, j) = k(k+1)/2 + j, i.e. by total degree k, then by j, so
/// the first dubiner_index(q + 1, 0) = (q+1)(q+2)/2 functions span P_q for every q ≤ p.
///
/// The collapsed coordinate has no singularity here: (1 − r)^j P_j(a), a = 1 − 2s/(1 − r), is
/// computed as Q_j, the Legendre recurrence multiplied through by (1 − r)^{j+1},
///   (j+1) Q_{j+1} = (2j+1) (1 − r − 2s) Q_j − j (1 − r)² Q_{j−1},   Q_0 = 1, Q_1 = 1 − r − 2s,
/// a polynomial recurrence with no division, differentiated term by term. Values and gradients
/// are exact polynomials (up to rounding) everywhere, the vertex (1, 0) and the edges included,
/// and also outside T (the polynomials are simply extended).
///
/// Contract of the evaluators (not checked: device code cannot throw; host code calls
/// dubiner_basis_size or require_dubiner_degree first): 0 ≤ degree ≤ max_dubiner_degree, and
/// `values` (and `gradients`) hold dubiner_index(degree + 1, 0) entries. No allocation.
/// Real is float or double.
#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/fem/legendre_1d.hpp"

namespace polydg::hyperbolic {

/// Largest degree of the evaluators (the size of their stack tables).
inline constexpr int max_dubiner_degree = 10;
static_assert(max_dubiner_degree <= max_legendre_table_degree,
              "the Legendre normalisation table covers every j of the Dubiner basis");

/// Position of φ_{k,j} (0 ≤ j ≤ k) in the hierarchical numbering: k(k+1)/2 + j. Also the size
/// of P_{k−1} for j = 0, which is what device code uses as the basis size (no checks there).
POLYDG_HD constexpr int dubiner_index(int k, int j) { return k * (k + 1) / 2 + j; }

/// Host-side check before any evaluation: throws polydg::Error unless
/// 0 ≤ degree ≤ max_dubiner_degree.
inline void require_dubiner_degree(int degree) {
  require(degree >= 0 && degree <= max_dubiner_degree, "Dubiner basis degree p = ", degree,
          " is outside the supported range 0..", max_dubiner_degree);
}

/// dim P_p = (p+1)(p+2)/2. Throws polydg::Error unless 0 ≤ degree ≤ max_dubiner_degree.
inline int dubiner_basis_size(int degree) {
  require_dubiner_degree(degree);
  return dubiner_index(degree + 1, 0);
}

namespace detail {

/// √m for m = 1..max_dubiner_degree + 1, the correctly rounded values (a test checks them
/// against std::sqrt) as literals: kernels evaluate the basis at every quadrature point, where a
/// square root per function would be a long chain of dependent FP64 operations.
POLYDG_HD constexpr double square_root_of_small_integer(int m) {
  switch (m) {
    case 1:
      return 1.0;
    case 2:
      return 1.4142135623730951;
    case 3:
      return 1.7320508075688772;
    case 4:
      return 2.0;
    case 5:
      return 2.23606797749979;
    case 6:
      return 2.449489742783178;
    case 7:
      return 2.6457513110645907;
    case 8:
      return 2.8284271247461903;
    case 9:
      return 3.0;
    case 10:
      return 3.1622776601683795;
    default:
      return 3.3166247903554;  // m = 11
  }
}

}  // namespace detail

/// √(2(k+1)(2j+1)), the factor of φ_{k,j}, as 2 √(k+1) · √((2j+1)/2): a product of two
/// correctly rounded table entries (the 2 is exact), so within three roundings of the root.
POLYDG_HD constexpr double dubiner_normalisation(int k, int j) {
  return 2.0 * detail::square_root_of_small_integer(k + 1) * legendre_normalisation(j);
}

namespace detail {

/// The one loop behind evaluate_dubiner_basis and evaluate_dubiner_basis_gradients.
template <bool with_gradients, class Real>
POLYDG_HD inline void evaluate_dubiner(int degree, const Point<2, Real>& x, Real* values,
                                       Real (*gradients)[2]) {
  const Real r = x[0];
  const Real s = x[1];
  const Real t = Real(1) - r;
  const Real t_squared = t * t;
  const Real e = t - Real(2) * s;  // (1 − r) a: the Legendre argument times its collapse factor
  const Real b = Real(1) - Real(2) * r;

  // Q_j, ∂Q_j/∂r, ∂Q_j/∂s for j = 0..degree (∂e/∂r = −1, ∂e/∂s = −2, ∂t²/∂r = −2t).
  Real q[max_dubiner_degree + 1];
  Real q_r[max_dubiner_degree + 1];
  Real q_s[max_dubiner_degree + 1];
  q[0] = Real(1);
  q_r[0] = Real(0);
  q_s[0] = Real(0);
  if (degree >= 1) {
    q[1] = e;
    q_r[1] = Real(-1);
    q_s[1] = Real(-2);
  }
  // Unrolled to the largest degree with an exit at `degree` (as in legendre_1d.hpp), so that the
  // recurrence coefficients are constants in device code.
  POLYDG_UNROLL
  for (int j = 1; j < max_dubiner_degree; ++j) {
    if (j >= degree) break;
    const Real a = Real(2 * j + 1) / Real(j + 1);
    const Real c = Real(j) / Real(j + 1);
    q[j + 1] = a * e * q[j] - c * t_squared * q[j - 1];
    if constexpr (with_gradients) {
      q_r[j + 1] = a * (e * q_r[j] - q[j]) - c * (t_squared * q_r[j - 1] - Real(2) * t * q[j - 1]);
      q_s[j + 1] = a * (e * q_s[j] - Real(2) * q[j]) - c * t_squared * q_s[j - 1];
    }
  }

  POLYDG_UNROLL
  for (int j = 0; j <= max_dubiner_degree; ++j) {
    if (j > degree) break;
    // P_n^{(0,β)}(b) and its derivative in b, n = 0, 1, …, by the three-term recurrence
    //   P_{n+1} = (α_n b + β_n) P_n − γ_n P_{n−1}
    // (which with P_{−1} = 0 also gives P_1 = ((β + 2) b − β) / 2), differentiated term by term.
    const int beta = 2 * j + 1;
    Real jacobi = Real(1);
    Real jacobi_previous = Real(0);
    Real derivative = Real(0);
    Real derivative_previous = Real(0);
    POLYDG_UNROLL
    for (int n = 0; n + j <= max_dubiner_degree; ++n) {
      const int k = n + j;
      if (k > degree) break;
      const int index = dubiner_index(k, j);
      const Real scale = Real(dubiner_normalisation(k, j));
      values[index] = scale * jacobi * q[j];
      if constexpr (with_gradients) {
        // d/dr = −2 d/db on the Jacobi factor.
        gradients[index][0] = scale * (jacobi * q_r[j] - Real(2) * derivative * q[j]);
        gradients[index][1] = scale * jacobi * q_s[j];
      }
      if (k == degree) break;
      const int sum = 2 * n + beta;
      const int denominator = 2 * (n + 1) * (n + beta + 1);
      const Real alpha_n = Real((sum + 1) * (sum + 2)) / Real(denominator);
      const Real beta_n = -Real((sum + 1) * beta * beta) / Real(denominator * sum);
      const Real gamma_n = Real(2 * n * (n + beta) * (sum + 2)) / Real(denominator * sum);
      const Real linear = alpha_n * b + beta_n;
      const Real jacobi_next = linear * jacobi - gamma_n * jacobi_previous;
      if constexpr (with_gradients) {
        const Real derivative_next =
            alpha_n * jacobi + linear * derivative - gamma_n * derivative_previous;
        derivative_previous = derivative;
        derivative = derivative_next;
      }
      jacobi_previous = jacobi;
      jacobi = jacobi_next;
    }
  }
}

}  // namespace detail

/// values[dubiner_index(k, j)] = φ_{k,j}(x) for 0 ≤ j ≤ k ≤ degree; x = (r, s).
template <class Real>
POLYDG_HD inline void evaluate_dubiner_basis(int degree, const Point<2, Real>& x, Real* values) {
  detail::evaluate_dubiner<false, Real>(degree, x, values, nullptr);
}

/// values as above, and gradients[i][0] = ∂φ_i/∂r, gradients[i][1] = ∂φ_i/∂s (reference
/// coordinates; physical gradients are J^{−T} times these).
template <class Real>
POLYDG_HD inline void evaluate_dubiner_basis_gradients(int degree, const Point<2, Real>& x,
                                                       Real* values, Real (*gradients)[2]) {
  detail::evaluate_dubiner<true, Real>(degree, x, values, gradients);
}

}  // namespace polydg::hyperbolic
