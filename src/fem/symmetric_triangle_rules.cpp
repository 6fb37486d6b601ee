#include "polydg/fem/symmetric_triangle_rules.hpp"

#include <array>
#include <cmath>
#include <span>
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

// Dunavant (1985), Table I: orbit parameters and weights (15 digits, refined below).
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

/// The orbits' points (x, y) = (λ_1, λ_2) and weights on the reference triangle (area 1/2).
QuadratureRule<2> expand(std::span<const Orbit> orbits) {
  QuadratureRule<2> rule;
  rule.domain = ReferenceDomain::simplex;
  const auto add = [&](double l1, double l2, double weight) {
    rule.points.push_back(Point<2>{{l1, l2}});
    rule.weights.push_back(0.5 * weight);
  };
  for (const Orbit& o : orbits)
    detail::for_each_triangle_orbit_point(o.points, o.a, o.b,
                                          [&](double x, double y) { add(x, y, o.weight); });
  return rule;
}

/// Σ w x^i y^j − i! j! / (i + j + 2)! for i + j ≤ degree.
std::vector<long double> moment_residuals(const QuadratureRule<2>& rule, int degree) {
  std::vector<long double> residuals;
  for (int total = 0; total <= degree; ++total)
    for (int i = 0; i <= total; ++i) {
      const int j = total - i;
      long double sum = 0;
      for (std::size_t q = 0; q < rule.size(); ++q)
        sum += rule.weights[q] * std::pow((long double)rule.points[q][0], i) *
               std::pow((long double)rule.points[q][1], j);
      long double exact = 1;  // i! j! / (i + j + 2)!
      for (int k = 1; k <= i; ++k) exact *= k;
      for (int k = 1; k <= j; ++k) exact *= k;
      for (int k = 1; k <= i + j + 2; ++k) exact /= k;
      residuals.push_back(sum - exact);
    }
  return residuals;
}

/// The orbits' free parameters (a, b where free, weight), in order.
std::vector<double*> parameters(std::vector<Orbit>& orbits) {
  std::vector<double*> p;
  for (Orbit& o : orbits) {
    if (o.points >= 3) p.push_back(&o.a);
    if (o.points == 6) p.push_back(&o.b);
    p.push_back(&o.weight);
  }
  return p;
}

/// Two Gauss–Newton steps on the moment equations (central-difference Jacobian, normal
/// equations in long double): from 15-digit tables to exact to rounding.
void refine(std::vector<Orbit>& orbits, int degree) {
  const std::vector<double*> unknowns = parameters(orbits);
  const std::size_t n = unknowns.size();
  for (int step = 0; step < 2; ++step) {
    const std::vector<long double> r = moment_residuals(expand(orbits), degree);
    std::vector<std::vector<long double>> jacobian(n);
    for (std::size_t k = 0; k < n; ++k) {
      const double saved = *unknowns[k], h = 1e-6;
      *unknowns[k] = saved + h;
      const std::vector<long double> plus = moment_residuals(expand(orbits), degree);
      *unknowns[k] = saved - h;
      const std::vector<long double> minus = moment_residuals(expand(orbits), degree);
      *unknowns[k] = saved;
      jacobian[k].resize(r.size());
      for (std::size_t m = 0; m < r.size(); ++m) jacobian[k][m] = (plus[m] - minus[m]) / (2 * h);
    }
    // (JᵀJ) δ = −Jᵀ r by Gaussian elimination with partial pivoting.
    std::vector<std::vector<long double>> system(n, std::vector<long double>(n + 1, 0));
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t l = 0; l < n; ++l)
        for (std::size_t m = 0; m < r.size(); ++m) system[k][l] += jacobian[k][m] * jacobian[l][m];
      for (std::size_t m = 0; m < r.size(); ++m) system[k][n] -= jacobian[k][m] * r[m];
    }
    for (std::size_t c = 0; c < n; ++c) {
      std::size_t pivot = c;
      for (std::size_t k = c + 1; k < n; ++k)
        if (std::fabs(system[k][c]) > std::fabs(system[pivot][c])) pivot = k;
      std::swap(system[c], system[pivot]);
      require(system[c][c] != 0, "symmetric triangle rule of degree ", degree,
              ": singular refinement system");
      for (std::size_t k = c + 1; k < n; ++k) {
        const long double f = system[k][c] / system[c][c];
        for (std::size_t l = c; l <= n; ++l) system[k][l] -= f * system[c][l];
      }
    }
    for (std::size_t c = n; c-- > 0;) {
      long double sum = system[c][n];
      for (std::size_t l = c + 1; l < n; ++l) sum -= system[c][l] * system[l][n];
      system[c][n] = sum / system[c][c];
      *unknowns[c] += double(system[c][n]);
    }
  }
}

}  // namespace

std::optional<QuadratureRule<2>> make_symmetric_triangle_rule(int degree) {
  const int collapsed_points = (degree / 2 + 1) * (degree / 2 + 1);
  for (const TabulatedRule& tabulated : tabulated_rules()) {
    if (tabulated.degree < degree) continue;
    int points = 0;
    for (const Orbit& o : tabulated.orbits) points += o.points;
    if (points >= collapsed_points) return std::nullopt;
    std::vector<Orbit> orbits = tabulated.orbits;
    refine(orbits, tabulated.degree);
    QuadratureRule<2> rule = expand(orbits);
    rule.degree = degree;
    return rule;
  }
  return std::nullopt;
}

}  // namespace polydg
