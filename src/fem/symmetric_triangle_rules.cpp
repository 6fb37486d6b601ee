#include "polydg/fem/symmetric_triangle_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"
#include "triangle_orbit.hpp"

namespace polydg {

namespace {

/// An orbit of the triangle's symmetry group in barycentric coordinates: the centroid
/// (1 point), (a, a, 1 − 2a) and its permutations (3 points), or (a, b, 1 − a − b) and its
/// permutations (6 points). The weight is the orbit's per-point weight on a triangle of area 1.
struct Orbit {
  int points;  ///< 1, 3 or 6
  double a, b, weight;
};

struct TabulatedRule {
  int degree;
  std::vector<Orbit> orbits;
};

// Dunavant (1985), Table I: orbit parameters and weights (15 digits, refined below). Degrees
// ascending; the highest is max_tabulated_degree.
const std::vector<TabulatedRule>& tabulated_rules() {
  static const std::vector<TabulatedRule> rules = {
      {2, {{3, 1.0 / 6.0, 0, 1.0 / 3.0}}},
      {4,
       {{3, 0.445948490915965, 0, 0.223381589678011},
        {3, 0.091576213509771, 0, 0.109951743655322}}},
      {5,
       {{1, 0, 0, 0.225},
        {3, 0.470142064105115, 0, 0.132394152788506},
        {3, 0.101286507323456, 0, 0.125939180544827}}},
      {6,
       {{3, 0.249286745170910, 0, 0.116786275726379},
        {3, 0.063089014491502, 0, 0.050844906370207},
        {6, 0.053145049844816, 0.310352451033785, 0.082851075618374}}},
      {8,
       {{1, 0, 0, 0.144315607677787},
        {3, 0.459292588292723, 0, 0.095091634267285},
        {3, 0.170569307751760, 0, 0.103217370534718},
        {3, 0.050547228317031, 0, 0.032458497623198},
        {6, 0.008394777409958, 0.263112829634638, 0.027230314174435}}},
      {10,
       {{1, 0, 0, 0.090817990382754},
        {3, 0.485577633383657, 0, 0.036725957756467},
        {3, 0.109481575485037, 0, 0.045321059435528},
        {6, 0.141707219414880, 0.307939838764121, 0.072757916845420},
        {6, 0.025003534762686, 0.246672560639903, 0.028327242531057},
        {6, 0.009540815400299, 0.066803251012200, 0.009421666963733}}},
      {12,
       {{3, 0.488217389773805, 0, 0.025731066440455},
        {3, 0.439724392294460, 0, 0.043692544538038},
        {3, 0.271210385012116, 0, 0.062858224217885},
        {3, 0.127576145541586, 0, 0.034796112930709},
        {3, 0.021317350453210, 0, 0.006166261051559},
        {6, 0.115343494534698, 0.275713269685514, 0.040371557766381},
        {6, 0.022838332222257, 0.281325580989940, 0.022356773202303},
        {6, 0.025734050548330, 0.116251915907597, 0.017316231108659}}},
  };
  return rules;
}

using Extended = long double;

constexpr int max_tabulated_degree = 12;
constexpr int max_basis_size = (max_tabulated_degree + 1) * (max_tabulated_degree + 2) / 2;

/// φ_{k,j} and ∇φ_{k,j}, 0 ≤ j ≤ k ≤ degree, at (r, s), at index k(k+1)/2 + j: the orthonormal
/// Dubiner basis of polydg/hyperbolic/dubiner_basis.hpp by the same recurrences (no division,
/// stable on all of T), here in extended precision, to degree 12 (that evaluator stops at 10), and
/// with the normalisations √(2(k+1)(2j+1)) computed in extended precision.
void evaluate_orthonormal_basis(int degree, Extended r, Extended s, Extended* values,
                                Extended (*gradients)[2]) {
  const Extended t = 1 - r, t_squared = t * t, e = t - 2 * s, b = 1 - 2 * r;
  // Q_j = (1 − r)^j P_j(1 − 2s/(1 − r)) and its derivatives in r and s.
  Extended q[max_tabulated_degree + 1], q_r[max_tabulated_degree + 1],
      q_s[max_tabulated_degree + 1];
  q[0] = 1, q_r[0] = 0, q_s[0] = 0;
  if (degree >= 1) q[1] = e, q_r[1] = -1, q_s[1] = -2;
  for (int j = 1; j < degree; ++j) {
    const Extended a = Extended(2 * j + 1) / Extended(j + 1), c = Extended(j) / Extended(j + 1);
    q[j + 1] = a * e * q[j] - c * t_squared * q[j - 1];
    q_r[j + 1] = a * (e * q_r[j] - q[j]) - c * (t_squared * q_r[j - 1] - 2 * t * q[j - 1]);
    q_s[j + 1] = a * (e * q_s[j] - 2 * q[j]) - c * t_squared * q_s[j - 1];
  }
  for (int j = 0; j <= degree; ++j) {
    // P_n^{(0,β)}(b), β = 2j + 1, and its derivative in b by the three-term recurrence.
    const int beta = 2 * j + 1;
    Extended jacobi = 1, jacobi_previous = 0, derivative = 0, derivative_previous = 0;
    for (int n = 0; n + j <= degree; ++n) {
      const int k = n + j, index = k * (k + 1) / 2 + j;
      const Extended scale = std::sqrt(Extended(2 * (k + 1) * beta));
      values[index] = scale * jacobi * q[j];
      gradients[index][0] = scale * (jacobi * q_r[j] - 2 * derivative * q[j]);  // d/dr = −2 d/db
      gradients[index][1] = scale * jacobi * q_s[j];
      const int sum = 2 * n + beta, denominator = 2 * (n + 1) * (n + beta + 1);
      const Extended alpha_n = Extended((sum + 1) * (sum + 2)) / Extended(denominator);
      const Extended beta_n = -Extended((sum + 1) * beta * beta) / Extended(denominator * sum);
      const Extended gamma_n =
          Extended(2 * n * (n + beta) * (sum + 2)) / Extended(denominator * sum);
      const Extended linear = alpha_n * b + beta_n;
      const Extended jacobi_next = linear * jacobi - gamma_n * jacobi_previous;
      const Extended derivative_next =
          alpha_n * jacobi + linear * derivative - gamma_n * derivative_previous;
      jacobi_previous = jacobi, jacobi = jacobi_next;
      derivative_previous = derivative, derivative = derivative_next;
    }
  }
}

/// An orbit as above, its parameters in extended precision while they are refined.
struct ExtendedOrbit {
  int points;
  Extended a, b, weight;
};

/// A point (x, y) of an orbit with its derivatives in the orbit's parameters a and b.
struct OrbitPoint {
  Extended x, y, x_a, y_a, x_b, y_b;
};

/// The orbit's points in the order of for_each_triangle_orbit_point. They are affine in (a, b),
/// so the differences of unit steps in a and in b are their derivatives.
std::vector<OrbitPoint> orbit_points(const ExtendedOrbit& o) {
  std::vector<OrbitPoint> points;
  detail::for_each_triangle_orbit_point(o.points, o.a, o.b, [&](Extended x, Extended y) {
    points.push_back({x, y, 0, 0, 0, 0});
  });
  std::size_t i = 0;
  detail::for_each_triangle_orbit_point(o.points, o.a + 1, o.b, [&](Extended x, Extended y) {
    points[i].x_a = x - points[i].x, points[i].y_a = y - points[i].y, ++i;
  });
  i = 0;
  detail::for_each_triangle_orbit_point(o.points, o.a, o.b + 1, [&](Extended x, Extended y) {
    points[i].x_b = x - points[i].x, points[i].y_b = y - points[i].y, ++i;
  });
  return points;
}

/// The moment equations of a rule of `degree` in the orthonormal basis: with the orbits' weights
/// (per point, on a triangle of area 1: they sum to 1), R_i = Σ_points w φ_i(x) − δ_{i0} φ_0, the
/// rule's mean of φ_i minus the exact one (zero for i > 0, φ_i being orthogonal to the constant
/// φ_0), for every φ_i of degree ≤ `degree`. Orthonormal functions make these equations well
/// conditioned (monomial moments are not). `jacobian` receives ∂R/∂(unknowns) by columns, the
/// unknowns being each orbit's a (3 and 6 points), b (6 points) and weight, in this order.
/// Returns max_i |R_i|.
Extended moment_equations(const std::vector<ExtendedOrbit>& orbits, int degree,
                          std::vector<Extended>& residual,
                          std::vector<std::vector<Extended>>& jacobian) {
  const int functions = (degree + 1) * (degree + 2) / 2;
  residual.assign(functions, 0);
  jacobian.clear();
  Extended values[max_basis_size], gradients[max_basis_size][2];
  for (const ExtendedOrbit& o : orbits) {
    std::vector<Extended> by_a(functions, 0), by_b(functions, 0), by_weight(functions, 0);
    for (const OrbitPoint& p : orbit_points(o)) {
      evaluate_orthonormal_basis(degree, p.x, p.y, values, gradients);
      for (int i = 0; i < functions; ++i) {
        residual[i] += o.weight * values[i];
        by_weight[i] += values[i];
        by_a[i] += o.weight * (gradients[i][0] * p.x_a + gradients[i][1] * p.y_a);
        by_b[i] += o.weight * (gradients[i][0] * p.x_b + gradients[i][1] * p.y_b);
      }
    }
    if (o.points >= 3) jacobian.push_back(std::move(by_a));
    if (o.points == 6) jacobian.push_back(std::move(by_b));
    jacobian.push_back(std::move(by_weight));
  }
  evaluate_orthonormal_basis(0, 0, 0, values, gradients);
  residual[0] -= values[0];
  Extended largest = 0;
  for (Extended r : residual) largest = std::max(largest, std::fabs(r));
  return largest;
}

/// The least-squares solution of Σ_c columns[c] δ_c = rhs by Householder QR (columns has full
/// rank; the rows of the non-invariant functions are zero for symmetric rules).
std::vector<Extended> least_squares(std::vector<std::vector<Extended>> columns,
                                    std::vector<Extended> rhs, int degree) {
  const std::size_t n = columns.size(), m = rhs.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::vector<Extended>& v = columns[c];
    Extended whole = 0, below = 0;  // |column|² from row 0 and from row c
    for (std::size_t i = 0; i < m; ++i) (i < c ? whole : below) += v[i] * v[i];
    whole += below;
    // Relative to the column, what is left below the diagonal: near rounding only if the
    // unknowns are dependent.
    require(below > 1e-20 * whole, "symmetric triangle rule of degree ", degree,
            ": singular refinement system");
    const Extended norm = std::sqrt(below), alpha = v[c] > 0 ? -norm : norm;
    v[c] -= alpha;  // v[c..m) is now the Householder vector
    Extended v_squared = 0;
    for (std::size_t i = c; i < m; ++i) v_squared += v[i] * v[i];
    const auto reflect = [&](std::vector<Extended>& target) {
      Extended dot = 0;
      for (std::size_t i = c; i < m; ++i) dot += v[i] * target[i];
      const Extended f = 2 * dot / v_squared;
      for (std::size_t i = c; i < m; ++i) target[i] -= f * v[i];
    };
    for (std::size_t l = c + 1; l < n; ++l) reflect(columns[l]);
    reflect(rhs);
    v[c] = alpha;  // R's diagonal
  }
  std::vector<Extended> solution(n);
  for (std::size_t c = n; c-- > 0;) {
    Extended sum = rhs[c];
    for (std::size_t l = c + 1; l < n; ++l) sum -= columns[l][c] * solution[l];
    solution[c] = sum / columns[c][c];
  }
  return solution;
}

/// Gauss–Newton on the moment equations in extended precision, from the 15-digit tables until a
/// step no longer halves the residual, keeping the best iterate (from residuals of about 1e-14,
/// one step reaches extended-precision rounding, 5e-19 at most; the whole table takes ~2 ms).
/// Throws polydg::Error unless the residual reached extended-precision rounding and the rule kept
/// positive weights and interior points.
std::vector<ExtendedOrbit> refine(const TabulatedRule& tabulated) {
  std::vector<ExtendedOrbit> orbits;
  for (const Orbit& o : tabulated.orbits) orbits.push_back({o.points, o.a, o.b, o.weight});
  std::vector<ExtendedOrbit> best = orbits;
  Extended best_residual = std::numeric_limits<Extended>::infinity();
  std::vector<Extended> residual;
  std::vector<std::vector<Extended>> jacobian;
  for (int step = 0; step < 8; ++step) {
    const Extended size = moment_equations(orbits, tabulated.degree, residual, jacobian);
    const bool halved = size <= best_residual / 2;
    if (size < best_residual) best = orbits, best_residual = size;
    if (!halved) break;
    for (Extended& r : residual) r = -r;
    const std::vector<Extended> step_by =
        least_squares(std::move(jacobian), std::move(residual), tabulated.degree);
    std::size_t k = 0;
    for (ExtendedOrbit& o : orbits) {
      if (o.points >= 3) o.a += step_by[k++];
      if (o.points == 6) o.b += step_by[k++];
      o.weight += step_by[k++];
    }
  }
  require(best_residual <= 1000 * std::numeric_limits<Extended>::epsilon(),
          "symmetric triangle rule of degree ", tabulated.degree,
          ": the refinement did not converge (moment residual ", double(best_residual), ")");
  for (const ExtendedOrbit& o : best) {
    const Extended c = o.points == 3 ? 1 - 2 * o.a : 1 - o.a - o.b;
    require(o.weight > 0 && (o.points == 1 || (o.a > 0 && c > 0 && (o.points == 3 || o.b > 0))),
            "symmetric triangle rule of degree ", tabulated.degree,
            ": the refinement left a negative weight or an exterior point");
  }
  return best;
}

/// The orbits' points (x, y) = (λ_1, λ_2) and weights on the reference triangle (area 1/2),
/// each rounded once from its extended-precision value.
QuadratureRule<2> expand(const std::vector<ExtendedOrbit>& orbits) {
  QuadratureRule<2> rule;
  rule.domain = ReferenceDomain::simplex;
  for (const ExtendedOrbit& o : orbits)
    detail::for_each_triangle_orbit_point(o.points, o.a, o.b, [&](Extended x, Extended y) {
      rule.points.push_back(Point<2>{{double(x), double(y)}});
      rule.weights.push_back(double(o.weight / 2));
    });
  return rule;
}

/// Every tabulated rule, refined and expanded once per process (thread-safe initialisation of
/// the static), with its own degree.
const std::vector<QuadratureRule<2>>& refined_rules() {
  static const std::vector<QuadratureRule<2>> rules = [] {
    std::vector<QuadratureRule<2>> refined;
    for (const TabulatedRule& tabulated : tabulated_rules()) {
      refined.push_back(expand(refine(tabulated)));
      refined.back().degree = tabulated.degree;
    }
    return refined;
  }();
  return rules;
}

}  // namespace

std::optional<QuadratureRule<2>> make_symmetric_triangle_rule(int degree) {
  const std::size_t collapsed_points = (degree / 2 + 1) * (degree / 2 + 1);
  for (const QuadratureRule<2>& refined : refined_rules()) {
    if (refined.degree < degree) continue;
    if (refined.size() >= collapsed_points) return std::nullopt;
    QuadratureRule<2> rule = refined;
    rule.degree = degree;
    return rule;
  }
  return std::nullopt;
}

}  // namespace polydg
