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
  // The check points' basis values: the solver's own tables (the volume rule's points, the
  // edges' Gauss points along orientation 0), copied, then the vertices.
  const ResidualView g = dg.view();
  const std::size_t n = std::size_t(dg.basis_size());
  const auto append = [&](const double* phi) {
    check_point_values_.insert(check_point_values_.end(), phi, phi + n);
  };
  for (int q = 0; q < g.volume_points; ++q) append(g.volume_values + q * n);
  for (int e = 0; e < 3; ++e)
    for (int q = 0; q < g.edge_points; ++q)
      append(g.edge_values + ((std::size_t(e) * 2 + 0) * g.edge_points + q) * n);
  const Point<2> corner[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
  std::vector<double> phi(n);
  for (const Point<2>& x : corner) {
    evaluate_dubiner_basis(dg.degree(), x, phi.data());
    append(phi.data());
  }
  check_point_count_ = int(check_point_values_.size() / n);
}

std::array<double, 2> PositivityFix::smallest_at_vertices(std::span<const double> u) const {
  require(u.size() == dg_.coefficient_count(), "PositivityFix::smallest_at_vertices: ", u.size(),
          " coefficients, expected ", dg_.coefficient_count());
  const int n = dg_.basis_size();
  const std::span<const double> vertices = vertex_values();
  double density = std::numeric_limits<double>::infinity(), pressure = density;
#pragma omp parallel for schedule(static) reduction(min : density, pressure)
  for (Index c = 0; c < dg_.element_count(); ++c)
    for (int k = 0; k < 3; ++k) {
      State<4> w{};
      for (int v = 0; v < 4; ++v)
        for (int i = 0; i < n; ++i)
          w[v] += u[dg_.coefficient_index(c, v, i)] * vertices[std::size_t(k) * n + i];
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
  const double* points = check_point_values_.data();
  const int point_count = check_point_count_;
  const double epsilon = epsilon_;
  double* data = u.data();
  Index bad = std::numeric_limits<Index>::max();
  // Each element's modes in a fixed-size local array up to largest_local_modes_degree, in place
  // above: the same loop body either way.
  const bool local = with_local_modes_size(g.basis_size, [&](auto size) {
    constexpr int n = decltype(size)::value;
    Index least = std::numeric_limits<Index>::max();
#pragma omp parallel for schedule(static) reduction(min : least)
    for (Index c = 0; c < g.elements; ++c)
      if (!positivity_fix_local_kernel<n>(g, gas, points, point_count, epsilon, c, data))
        least = std::min(least, c);
    bad = least;
  });
  if (!local) {
#pragma omp parallel for schedule(static) reduction(min : bad)
    for (Index c = 0; c < g.elements; ++c)
      if (!positivity_fix_kernel(g, gas, points, point_count, epsilon, c, data))
        bad = std::min(bad, c);
  }
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
