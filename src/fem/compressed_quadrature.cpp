#include "polydg/fem/compressed_quadrature.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "polydg/fem/basis_indexing.hpp"
#include "polydg/fem/legendre_basis.hpp"

namespace polydg {

namespace {

// Relative error of the moments that the compressed rule must not exceed (about 100 roundings
// of the sums involved).
constexpr double moment_tolerance = 1e-12;

// The trailing n − m columns of Q in A = Q R (Householder QR of the n × m column-major matrix
// a, n > m): an orthonormal basis of the vectors orthogonal to a's columns, column-major
// n × (n − m). a is overwritten.
std::vector<double> orthogonal_complement(std::vector<double>& a, std::size_t n, std::size_t m) {
  std::vector<std::vector<double>> reflectors;  // v_j, applied as H_j = I − 2 v vᵀ / (vᵀ v)
  for (std::size_t j = 0; j < m; ++j) {
    double* column = a.data() + j * n;
    double norm = 0;
    for (std::size_t i = j; i < n; ++i) norm += column[i] * column[i];
    norm = std::sqrt(norm);
    std::vector<double> v(n, 0.0);
    for (std::size_t i = j; i < n; ++i) v[i] = column[i];
    v[j] += column[j] >= 0 ? norm : -norm;
    double vv = 0;
    for (std::size_t i = j; i < n; ++i) vv += v[i] * v[i];
    if (vv > 0)
      for (std::size_t l = j; l < m; ++l) {
        double* target = a.data() + l * n;
        double dot = 0;
        for (std::size_t i = j; i < n; ++i) dot += v[i] * target[i];
        const double scale = 2 * dot / vv;
        for (std::size_t i = j; i < n; ++i) target[i] -= scale * v[i];
      }
    reflectors.push_back(std::move(v));
  }
  // Q e_c for c = m..n−1: the reflectors applied in reverse order.
  const std::size_t columns = n - m;
  std::vector<double> q(n * columns, 0.0);
  for (std::size_t c = 0; c < columns; ++c) {
    double* e = q.data() + c * n;
    e[m + c] = 1;
    for (std::size_t j = m; j-- > 0;) {
      const std::vector<double>& v = reflectors[j];
      double vv = 0, dot = 0;
      for (std::size_t i = j; i < n; ++i) {
        vv += v[i] * v[i];
        dot += v[i] * e[i];
      }
      if (vv > 0)
        for (std::size_t i = j; i < n; ++i) e[i] -= 2 * dot / vv * v[i];
    }
  }
  return q;
}

}  // namespace

bool compress_positive_rule(const Box<2>& box, int degree, std::vector<Point<2>>& points,
                            std::vector<double>& weights) {
  const std::size_t n = points.size();
  if (degree < 0 || degree > max_basis_degree || weights.size() != n) return false;
  const std::size_t m = std::size_t(basis_size(2, degree));
  if (n <= m) return false;
  for (double w : weights)
    if (!(w > 0)) return false;

  // The moment matrix, column-major n × m: a[j * n + k] = ψ_j(x_k); its columns span the
  // polynomials of degree ≤ d restricted to the points, so the rule's null directions are the
  // vectors z with Σ_k z_k ψ_j(x_k) = 0 for all j: the orthogonal complement of its columns.
  std::vector<double> a(n * m);
  std::vector<double> moments(m, 0.0);
  std::vector<double> values(m);
  for (std::size_t k = 0; k < n; ++k) {
    evaluate_basis<2, double>(degree, box, points[k], values.data());
    for (std::size_t j = 0; j < m; ++j) {
      a[j * n + k] = values[j];
      moments[j] += weights[k] * values[j];
    }
  }
  const std::vector<double> basis_values = a;
  std::vector<double> null = orthogonal_complement(a, n, m);
  std::size_t null_count = n - m;

  // Carathéodory: move w along a null vector z until its first weight reaches 0, drop that
  // point, and keep the other null vectors null and zero there (eliminate its entry with z).
  std::vector<double> w = weights;
  std::vector<bool> active(n, true);
  while (null_count > 0) {
    // The null vector with the largest entry (pivot) among the active points: the most stable.
    std::size_t best = 0;
    double best_size = -1;
    for (std::size_t c = 0; c < null_count; ++c)
      for (std::size_t k = 0; k < n; ++k)
        if (active[k] && std::abs(null[c * n + k]) > best_size) {
          best_size = std::abs(null[c * n + k]);
          best = c;
        }
    if (!(best_size > 0)) break;
    std::vector<double> z(null.begin() + best * n, null.begin() + (best + 1) * n);
    double largest_positive = 0;
    for (std::size_t k = 0; k < n; ++k)
      if (active[k]) largest_positive = std::max(largest_positive, z[k]);
    if (!(largest_positive > 0))
      for (double& x : z) x = -x;  // Σ z ψ_0 = 0 with ψ_0 > 0: z has entries of both signs
    std::size_t removed = n;
    double step = 0;
    for (std::size_t k = 0; k < n; ++k)
      if (active[k] && z[k] > 0 && (removed == n || w[k] / z[k] < step)) {
        step = w[k] / z[k];
        removed = k;
      }
    if (removed == n) break;
    for (std::size_t k = 0; k < n; ++k)
      if (active[k]) w[k] -= step * z[k];
    w[removed] = 0;
    active[removed] = false;
    // The other null vectors: zero at `removed`, still null.
    std::size_t kept = 0;
    for (std::size_t c = 0; c < null_count; ++c) {
      if (c == best) continue;
      double* column = null.data() + c * n;
      const double factor = column[removed] / z[removed];
      for (std::size_t k = 0; k < n; ++k) column[k] -= factor * z[k];
      column[removed] = 0;
      if (kept != c) std::copy(column, column + n, null.data() + kept * n);
      ++kept;
    }
    null_count = kept;
  }

  // Keep the compressed rule only where it is positive and reproduces the moments.
  std::vector<Point<2>> kept_points;
  std::vector<double> kept_weights;
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < n; ++k)
    if (active[k]) kept.push_back(k);
  if (kept.size() > m) return false;
  for (std::size_t k : kept) {
    if (!(w[k] > 0)) return false;
    kept_points.push_back(points[k]);
    kept_weights.push_back(w[k]);
  }
  double moment_norm = 0, error_norm = 0;
  for (std::size_t j = 0; j < m; ++j) {
    double sum = 0;
    for (std::size_t k = 0; k < n; ++k)
      if (active[k]) sum += w[k] * basis_values[j * n + k];
    error_norm = std::max(error_norm, std::abs(sum - moments[j]));
    moment_norm = std::max(moment_norm, std::abs(moments[j]));
  }
  if (!(error_norm <= moment_tolerance * moment_norm)) return false;
  points = std::move(kept_points);
  weights = std::move(kept_weights);
  return true;
}

}  // namespace polydg
