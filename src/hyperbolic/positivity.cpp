// The positivity fix's host side (include/polydg/hyperbolic/positivity.hpp).
#include "polydg/hyperbolic/positivity.hpp"

#include <algorithm>
#include <limits>

#include "polydg/core/error.hpp"
#include "polydg/hyperbolic/dubiner_basis.hpp"

namespace polydg::hyperbolic {

PositivityFix::PositivityFix(const ExplicitTriangleDG<Euler>& dg, double epsilon)
    : dg_(dg), epsilon_(epsilon) {
  require(epsilon > 0 && std::isfinite(epsilon), "PositivityFix: epsilon = ", epsilon,
          " is not a positive number");
  const int n = dg.basis_size();
  const Point<2> corner[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
  vertex_values_.resize(3 * std::size_t(n));
  for (int k = 0; k < 3; ++k)
    evaluate_dubiner_basis(dg.degree(), corner[k], vertex_values_.data() + std::size_t(k) * n);
}

std::array<double, 2> PositivityFix::smallest_at_vertices(std::span<const double> u) const {
  require(u.size() == dg_.coefficient_count(), "PositivityFix::smallest_at_vertices: ", u.size(),
          " coefficients, expected ", dg_.coefficient_count());
  const int n = dg_.basis_size();
  double density = std::numeric_limits<double>::infinity(), pressure = density;
#pragma omp parallel for schedule(static) reduction(min : density, pressure)
  for (Index c = 0; c < dg_.element_count(); ++c)
    for (int k = 0; k < 3; ++k) {
      State<4> w{};
      for (int v = 0; v < 4; ++v)
        for (int i = 0; i < n; ++i)
          w[v] += u[dg_.coefficient_index(c, v, i)] * vertex_values_[std::size_t(k) * n + i];
      density = std::min(density, w[0]);
      pressure = std::min(pressure, dg_.law().pressure(w));
    }
  return {density, pressure};
}

void PositivityFix::operator()(std::span<double> u) const {
  require(u.size() == dg_.coefficient_count(), "PositivityFix: ", u.size(),
          " coefficients, expected ", dg_.coefficient_count());
  const ResidualView g = dg_.view();
  const Euler gas = dg_.law();
  const double* vertices = vertex_values_.data();
  const double epsilon = epsilon_;
  double* data = u.data();
  Index bad = std::numeric_limits<Index>::max();
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (Index c = 0; c < g.elements; ++c)
    if (!positivity_fix_kernel(g, gas, vertices, epsilon, c, data)) bad = std::min(bad, c);
  if (bad != std::numeric_limits<Index>::max()) {
    State<4> mean;
    for (int v = 0; v < 4; ++v) mean[v] = 1.4142135623730951 * u[g.coefficient(bad, v, 0)];
    raise("PositivityFix: the mean state of element ", bad, " has density ", mean[0],
          " and pressure ", gas.pressure(mean),
          ": not admissible, so no scaling toward it is; the time step was too large for this "
          "flow (reduce the CFL number) or the data is not physical");
  }
}

}  // namespace polydg::hyperbolic
