#include "polydg/fem/gauss_jacobi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "polydg/core/error.hpp"

namespace polydg {
namespace {

/// Extended precision for the polishing stage. A node error δx changes the weight near an end
/// point by about n² δx relative (the Christoffel function varies fast there), so nodes and
/// weights are polished in long double (64-bit mantissa on x86-64, 113-bit on AArch64) and
/// rounded to double at the end: both are then correct to about one ulp for any n. Where long
/// double is double, the accuracy degrades gracefully to ~n² ε near the end points.
using Extended = long double;

/// The Jacobi matrix of the weight (1 − x)^α (1 + x)^β: the recurrence x p_k = b_{k+1} p_{k+1}
/// + a_k p_k + b_k p_{k−1} of the orthonormal polynomials p_k.
struct JacobiRecurrence {
  std::vector<Extended> diagonal;      // a_0 .. a_{n−1}
  std::vector<Extended> off_diagonal;  // b_1 .. b_n (off_diagonal[k] = b_{k+1})
  Extended p0 = 0;                     // p_0 = 1 / sqrt(μ0), μ0 = ∫ weight
};

JacobiRecurrence jacobi_recurrence(int n, Extended alpha, Extended beta) {
  JacobiRecurrence r;
  r.diagonal.resize(n);
  r.off_diagonal.resize(n);
  const Extended ab = alpha + beta;
  for (int k = 0; k < n; ++k) {
    const Extended s = 2.0L * k + ab;
    // k = 0 is written separately: the general formula is 0/0 when α + β = 0.
    r.diagonal[k] =
        k == 0 ? (beta - alpha) / (ab + 2) : (beta * beta - alpha * alpha) / (s * (s + 2));
  }
  for (int k = 1; k <= n; ++k) {
    const Extended s = 2.0L * k + ab;
    // k = 1 with the factor (k + α + β) / (s − 1) cancelled (0/0 when α + β = −1).
    const Extended b2 =
        k == 1 ? 4 * (1 + alpha) * (1 + beta) / ((2 + ab) * (2 + ab) * (3 + ab))
               : 4 * k * (k + alpha) * (k + beta) * (k + ab) / (s * s * (s + 1) * (s - 1));
    r.off_diagonal[k - 1] = std::sqrt(b2);
  }
  const Extended mu0 =
      std::exp2(ab + 1) * std::tgamma(alpha + 1) * std::tgamma(beta + 1) / std::tgamma(ab + 2);
  r.p0 = 1 / std::sqrt(mu0);
  return r;
}

/// Eigenvalues of the symmetric tridiagonal matrix with diagonal d and off-diagonal e (e[i]
/// couples rows i and i + 1; e has d.size() entries, the last ignored), by the implicit QL
/// algorithm with Wilkinson shifts (the classic tqli, eigenvalues only). Not sorted.
std::vector<double> tridiagonal_eigenvalues(std::vector<double> d, std::vector<double> e) {
  const int n = static_cast<int>(d.size());
  e[n - 1] = 0.0;
  constexpr double eps = std::numeric_limits<double>::epsilon();
  for (int l = 0; l < n; ++l) {
    int iterations = 0;
    int m;
    do {
      // Find a negligible off-diagonal element: the block l..m splits off.
      for (m = l; m < n - 1; ++m) {
        const double dd = std::fabs(d[m]) + std::fabs(d[m + 1]);
        if (std::fabs(e[m]) <= eps * dd) break;
      }
      if (m != l) {
        require(iterations++ < 60, "tridiagonal eigenvalue iteration did not converge");
        double g = (d[l + 1] - d[l]) / (2.0 * e[l]);
        double r = std::hypot(g, 1.0);
        g = d[m] - d[l] + e[l] / (g + std::copysign(r, g));  // Wilkinson shift
        double s = 1.0, c = 1.0, p = 0.0;
        int i;
        for (i = m - 1; i >= l; --i) {
          const double f = s * e[i];
          const double b = c * e[i];
          r = std::hypot(f, g);
          e[i + 1] = r;
          if (r == 0.0) {  // underflow: deflate and restart
            d[i + 1] -= p;
            e[m] = 0.0;
            break;
          }
          s = f / r;
          c = g / r;
          g = d[i + 1] - p;
          r = (d[i] - g) * s + 2.0 * c * b;
          p = s * r;
          d[i + 1] = g + p;
          g = c * r - b;
        }
        if (r == 0.0 && i >= l) continue;
        d[l] -= p;
        e[l] = g;
        e[m] = 0.0;
      }
    } while (m != l);
  }
  return d;
}

/// p_n(x) and p_n'(x) by the orthonormal recurrence; also Σ_{k<n} p_k(x)² for the weight.
struct RecurrenceValues {
  Extended pn = 0, dpn = 0, sum_of_squares = 0;
};

RecurrenceValues evaluate_recurrence(const JacobiRecurrence& r, int n, Extended x) {
  Extended previous = 0, current = r.p0;   // p_{k−1}, p_k
  Extended d_previous = 0, d_current = 0;  // their derivatives
  Extended b_previous = 0;                 // b_k
  RecurrenceValues out;
  for (int k = 0; k < n; ++k) {
    out.sum_of_squares += current * current;
    const Extended b_next = r.off_diagonal[k];  // b_{k+1}
    const Extended next = ((x - r.diagonal[k]) * current - b_previous * previous) / b_next;
    const Extended d_next =
        (current + (x - r.diagonal[k]) * d_current - b_previous * d_previous) / b_next;
    previous = current;
    current = next;
    d_previous = d_current;
    d_current = d_next;
    b_previous = b_next;
  }
  out.pn = current;
  out.dpn = d_current;
  return out;
}

}  // namespace

QuadratureRule<1> make_gauss_jacobi(int n, double alpha, double beta) {
  require(n >= 1 && n <= max_gauss_points, "Gauss-Jacobi rule: number of points n = ", n,
          " is outside the supported range 1..", max_gauss_points);
  require(alpha > -1.0 && beta > -1.0, "Gauss-Jacobi rule: exponents alpha = ", alpha,
          " and beta = ", beta, " must both be greater than -1");

  const JacobiRecurrence recurrence = jacobi_recurrence(n, alpha, beta);
  // Golub–Welsch: the nodes are the eigenvalues of the Jacobi matrix (double is plenty for a
  // starting guess: absolute error ~ε, far below the node spacing ~1/n²).
  std::vector<double> diagonal(n), off_diagonal(n);
  for (int k = 0; k < n; ++k) {
    diagonal[k] = static_cast<double>(recurrence.diagonal[k]);
    off_diagonal[k] = static_cast<double>(recurrence.off_diagonal[k]);
  }
  std::vector<double> nodes = tridiagonal_eigenvalues(diagonal, off_diagonal);
  std::sort(nodes.begin(), nodes.end());

  QuadratureRule<1> rule;
  rule.degree = 2 * n - 1;
  rule.domain = ReferenceDomain::interval;
  rule.points.resize(n);
  rule.weights.resize(n);
  constexpr Extended tolerance = 4 * std::numeric_limits<Extended>::epsilon();
  for (int i = 0; i < n; ++i) {
    // Newton on p_n converges quadratically from there: two or three steps.
    Extended x = nodes[i];
    for (int step = 0; step < 10; ++step) {
      const RecurrenceValues v = evaluate_recurrence(recurrence, n, x);
      if (v.dpn == 0) break;
      const Extended dx = v.pn / v.dpn;
      x -= dx;
      if (std::fabs(dx) <= tolerance * std::fabs(x) || std::fabs(dx) <= tolerance * tolerance)
        break;
    }
    rule.points[i][0] = static_cast<double>(x);
    rule.weights[i] = static_cast<double>(1 / evaluate_recurrence(recurrence, n, x).sum_of_squares);
  }

  if (alpha == beta) {
    // Symmetric weight: make the rule exactly symmetric (x_i = −x_{n−1−i}, equal weights).
    for (int i = 0; i < n / 2; ++i) {
      const int j = n - 1 - i;
      const double x = 0.5 * (rule.points[j][0] - rule.points[i][0]);
      const double w = 0.5 * (rule.weights[i] + rule.weights[j]);
      rule.points[i][0] = -x;
      rule.points[j][0] = x;
      rule.weights[i] = rule.weights[j] = w;
    }
    if (n % 2 == 1) rule.points[n / 2][0] = 0.0;
  }
  return rule;
}

QuadratureRule<1> make_gauss_legendre(int n) { return make_gauss_jacobi(n, 0.0, 0.0); }

}  // namespace polydg
