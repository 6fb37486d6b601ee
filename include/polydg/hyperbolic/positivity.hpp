#pragma once
/// The positivity fix of the explicit DG path for the Euler equations (docs/theory.md,
/// "Explicit path for conservation laws", limiting): after the slope limiter, each element's
/// u_h is pulled toward its mean ū just enough that density and pressure are at least ε at
/// every check point, the Zhang–Shu scaling.
///
///   PositivityFix positivity(dg, 1e-10);          // dg: ExplicitTriangleDG<Euler>
///   positivity(u);                                // in place; throws if a mean is inadmissible
///
/// Per element K, with ε_K = min(ε, ρ̄, p(ū)) (so that ū itself qualifies):
///  1. density: θ_ρ = min(1, (ρ̄ − ε_K) / (ρ̄ − min_k ρ_h(x_k))); ρ's modes ≥ 1 are scaled by θ_ρ;
///  2. pressure: with w_k the state at x_k after step 1, θ_p = min(1, min over the points with
///     p(w_k) < ε_K of (p(ū) − ε_K) / (p(ū) − p(w_k))); every variable's modes ≥ 1 are scaled
///     by θ_p. p is concave in u where ρ > 0, so p(ū + θ(w_k − ū)) ≥ (1 − θ) p(ū) + θ p(w_k)
///     ≥ ε_K: one bound per point, no root finding. (Scaling toward ū keeps ρ ≥ ε_K.)
/// The means (modes 0) are never changed. Elements where nothing is below ε_K are not written.
///
/// Check points x_k: the volume rule's points, the Gauss points of the three edges (the points
/// at which the residual evaluates u_h) and the three vertices. At p = 1 the vertices make the
/// bound hold on all of K: ρ_h is linear, and p(u_h(x)) is concave in x (a concave function of
/// an affine one), so both take their minimum over K at a vertex. At p > 1 the bound holds at
/// the check points only.
///
/// What it cannot do: make an element whose MEAN is inadmissible (ρ̄ ≤ 0 or p(ū) ≤ 0, or not
/// finite) admissible — no scaling toward ū can. The kernel leaves such an element untouched
/// and reports it; PositivityFix throws polydg::Error naming it. Means stay admissible under a
/// small enough time step (docs/theory.md); a failure says the CFL number is too large for
/// this problem or the data is not physical.
///
/// The per-element work is positivity_fix_modes, a POLYDG_HD function over one table (the basis
/// at the check points, check_point_values) and the element's modes: for p ≤
/// largest_local_modes_degree (explicit_dg.hpp) copied into a fixed-size local array once and
/// written back once where changed (positivity_fix_local_kernel: registers on the GPU), above in
/// place (positivity_fix_kernel). The CPU loops over the elements with it; the GPU runs it with one
/// thread per element, after the slope limiter in the same thread (device_stage_limiters.cuh).
#include <array>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "polydg/core/macros.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"

namespace polydg::hyperbolic {

/// The positivity fix of one element (file comment) in `modes` (ElementModes or
/// LocalElementModes, explicit_dg.hpp). `point_values` holds the basis at the `point_count`
/// check points, [k · basis_size + i] (PositivityFix::check_point_values). Returns false,
/// changing nothing, when the element's mean is not admissible.
template <class Modes>
POLYDG_HD bool positivity_fix_modes(const Euler& gas, const double* point_values, int point_count,
                                    double epsilon, Modes& modes) {
  constexpr double sqrt2 = 1.4142135623730951;
  const int n = modes.size();
  State<4> mean;
  POLYDG_UNROLL
  for (int v = 0; v < 4; ++v) mean[v] = sqrt2 * modes.get(v, 0);
  const double mean_pressure = gas.pressure(mean);
  // Written so that NaN fails: !(x > 0) rather than x <= 0.
  if (!(mean[0] > 0) || !(mean_pressure > 0) || !std::isfinite(mean_pressure)) return false;
  const double floor = std::fmin(epsilon, std::fmin(mean[0], mean_pressure));

  // 1. Density.
  double lowest_density = mean[0];
  for (int k = 0; k < point_count; ++k) {
    const double* phi = point_values + k * n;
    double density = 0;
    POLYDG_UNROLL
    for (int i = 0; i < n; ++i) density += modes.get(0, i) * phi[i];
    lowest_density = density < lowest_density ? density : lowest_density;
  }
  if (lowest_density < floor) {
    const double theta = (mean[0] - floor) / (mean[0] - lowest_density);
    POLYDG_UNROLL
    for (int i = 1; i < n; ++i) modes.set(0, i, modes.get(0, i) * theta);
  }

  // 2. Pressure, at the states after step 1.
  double theta = 1.0;
  for (int k = 0; k < point_count; ++k) {
    const double* phi = point_values + k * n;
    State<4> w;
    POLYDG_UNROLL
    for (int v = 0; v < 4; ++v) {
      double sum = 0;
      POLYDG_UNROLL
      for (int i = 0; i < n; ++i) sum += modes.get(v, i) * phi[i];
      w[v] = sum;
    }
    const double pressure = gas.pressure(w);
    if (pressure < floor) {
      const double bound = (mean_pressure - floor) / (mean_pressure - pressure);
      theta = bound < theta ? bound : theta;
    }
  }
  if (theta < 1.0) {
    POLYDG_UNROLL
    for (int v = 0; v < 4; ++v) {
      POLYDG_UNROLL
      for (int i = 1; i < n; ++i) modes.set(v, i, modes.get(v, i) * theta);
    }
  }
  return true;
}

/// The positivity fix of element c in place in u (file comment), reading and writing u at every
/// use: any basis size (the fallback above largest_local_modes_degree, explicit_dg.hpp).
POLYDG_HD inline bool positivity_fix_kernel(const ResidualView& g, const Euler& gas,
                                            const double* point_values, int point_count,
                                            double epsilon, Index c, double* u) {
  ElementModes modes(g, u, c);
  return positivity_fix_modes(gas, point_values, point_count, epsilon, modes);
}

/// As positivity_fix_kernel, for a basis size N = g.basis_size known at compile time: element
/// c's modes loaded once into a LocalElementModes, fixed there, and the variables the fix
/// changed written back. The same arithmetic in the same order, so the same bits.
template <int N>
POLYDG_HD bool positivity_fix_local_kernel(const ResidualView& g, const Euler& gas,
                                           const double* point_values, int point_count,
                                           double epsilon, Index c, double* u) {
  LocalElementModes<4, N> modes;
  modes.load(g, u, c);
  const bool admissible = positivity_fix_modes(gas, point_values, point_count, epsilon, modes);
  modes.store_changes(g, u, c);
  return admissible;
}

/// The positivity fix of one Euler solver (it keeps a reference to `dg`, which must outlive
/// it), callable as a TimeStepper stage limiter (after the slope limiter).
class PositivityFix {
 public:
  /// Throws polydg::Error unless epsilon > 0 and finite.
  explicit PositivityFix(const ExplicitTriangleDG<Euler>& dg, double epsilon = 1e-10);

  double epsilon() const { return epsilon_; }
  /// The basis at the check points (file comment), in their order — the volume rule's points,
  /// the edges' Gauss points (edge by edge, each along its reference direction), the vertices
  /// V_0, V_1, V_2 — as [k · basis_size + i]: copies of the solver's tables, one contiguous
  /// table for the kernels.
  std::span<const double> check_point_values() const { return check_point_values_; }
  int check_point_count() const { return check_point_count_; }
  /// The basis at the reference vertices (the last three check points): [k · basis_size + i].
  std::span<const double> vertex_values() const {
    return std::span<const double>(check_point_values_).last(3 * std::size_t(dg_.basis_size()));
  }

  /// The smallest density and pressure of u_h at the triangles' vertices — where a p = 1 field
  /// takes its minimum over each element (file comment) — as {density, pressure}; a check of a
  /// limited run. Throws polydg::Error for a wrong size.
  std::array<double, 2> smallest_at_vertices(std::span<const double> u) const;

  /// Fixes u in place (file comment); deterministic. Throws polydg::Error for a wrong size, and
  /// naming the first element (lowest index) whose mean is not admissible, after fixing all
  /// the others.
  void operator()(std::span<double> u) const;

 private:
  const ExplicitTriangleDG<Euler>& dg_;
  double epsilon_;
  std::vector<double> check_point_values_;
  int check_point_count_;
};

}  // namespace polydg::hyperbolic
