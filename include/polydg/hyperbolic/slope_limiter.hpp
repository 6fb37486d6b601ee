#pragma once
/// The Barth–Jespersen slope limiter of the explicit DG path (docs/theory.md, "Explicit path for
/// conservation laws", limiting), applied per variable after every Runge–Kutta stage
/// (TimeStepper's stage limiter, explicit_time_stepping.hpp).
///
///   BarthJespersenLimiter limiter(dg);                 // at the edges' Gauss points
///   PositivityFix positivity(dg);                      // Euler only (positivity.hpp)
///   auto limit = [&](std::span<double> v) { limiter(v); positivity(v); };
///   limit(u);                                          // the projected initial data
///   TimeStepper stepper(dg, TimeScheme::ssp_rk2, limit);
///
/// For each element K and variable v, with ū the mean of u_h on K and ū_min, ū_max the smallest
/// and largest of the means of K and of its (up to three) facet neighbours, the slope is scaled
/// by α = min_k α_k over the limiter's points x_k of K,
///   α_k = min(1, (ū_max − ū) / d_k) if d_k > 0,  min(1, (ū_min − ū) / d_k) if d_k < 0,  else 1,
/// d_k = u_h(x_k) − ū, so the limited u_h lies within [ū_min, ū_max] at every x_k.
///  * Points (LimiterPoints): the Gauss points of the three edges by default — where the facet
///    fluxes read the traces, as in the reference implementation docs/theory.md follows; or the
///    vertices, which for a linear u_h bound every point of K (its extremes are at vertices) but
///    flatten even more linear data (the neighbours' centroids seldom surround the vertices).
///  * Boundary facets add no neighbour: K's own mean stands in for the missing one. A ghost
///    state depends on the point, the time and the trace, so it has no single mean, and the
///    inflow data is not where new extrema come from.
///  * The means are the modes 0 (ū = √2 u_0, φ_0 = √2) and the limiter changes only modes ≥ 1:
///    the means are kept exactly (not even rounded), and elements can be limited in place, in
///    any order (each reads its neighbours' modes 0 and writes its own modes ≥ 1: no races on
///    the GPU either). Where α = 1 nothing is written: data within the bounds is kept bit for
///    bit.
///  * p > 1: the linear part (modes 1, 2: with the hierarchical orthonormal basis, the L2
///    projection onto P_1 minus the mean) is limited as above; where that changes it (α < 1)
///    the modes of degree ≥ 2 of that variable are dropped, elsewhere kept (the usual rule for
///    limiting higher-order DG with a P_1 limiter): elements whose linear part is within the
///    bounds keep their order, limited ones fall to a limited P_1, as at p = 1. (On triangles
///    this stencil limits even smooth data in many elements, docs/theory.md, so at p > 1 it is a
///    shock-capturing device, not an accurate one.) p = 0 has no slope: nothing is done.
///
/// Data layout: the solver's element-fastest coefficients (explicit_dg.hpp); the per-element
/// work is barth_jespersen_modes, a POLYDG_HD function over the solver's ResidualView, one small
/// table and the element's modes: for p ≤ largest_local_modes_degree (explicit_dg.hpp) copied
/// into a fixed-size local array once and written back once where changed
/// (barth_jespersen_local_kernel: registers on the GPU), above in place (barth_jespersen_kernel).
/// The CPU loops over the elements with it; the GPU runs it with one thread per element
/// (device_stage_limiters.cuh), alone or followed by the positivity fix in the same thread.
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/triangle_geometry.hpp"

namespace polydg::hyperbolic {

/// Where the limiter bounds u_h (file comment).
enum class LimiterPoints { edge_gauss_points, vertices };

/// φ_1, φ_2 (the linear modes) at the limiter's points on the reference triangle:
/// [2 k + j] is φ_{1+j} at point k. Edge Gauss points are those of `tables` (edge by edge, each
/// along its reference direction); vertices are V_0, V_1, V_2.
std::vector<double> make_limiter_point_values(const ReferenceTables& tables, LimiterPoints points);

/// Limits the slopes of every variable of one element (file comment) in `modes` (ElementModes
/// or LocalElementModes, explicit_dg.hpp); its neighbours' means are read from u. Nothing at
/// p = 0 (one mode: no slope).
template <int M, class Modes>
POLYDG_HD void barth_jespersen_modes(const ResidualView& g, const double* linear_values,
                                     int point_count, Index c, const double* u, Modes& modes) {
  constexpr double sqrt2 = 1.4142135623730951;
  if (modes.size() < 3) return;  // a compile-time constant for LocalElementModes
  const std::size_t k = std::size_t(g.elements);
  const std::size_t fc = std::size_t(g.facets);
  Index neighbour[3];
  POLYDG_UNROLL
  for (int e = 0; e < 3; ++e) {
    const Index f = g.element_facet[e * k + c];
    const int other_side = 1 - g.element_facet_side[e * k + c];
    neighbour[e] = g.facet_element[other_side * fc + f];  // −1 on the boundary
  }
  POLYDG_UNROLL
  for (int v = 0; v < M; ++v) {
    const double own = modes.get(v, 0);
    double lowest = own, highest = own;
    POLYDG_UNROLL
    for (int e = 0; e < 3; ++e)
      if (neighbour[e] >= 0) {
        const double other = u[g.coefficient(neighbour[e], v, 0)];
        lowest = other < lowest ? other : lowest;
        highest = other > highest ? other : highest;
      }
    // Room above and below the mean ū = √2 u_0.
    const double room_above = sqrt2 * (highest - own);
    const double room_below = sqrt2 * (lowest - own);
    const double slope_1 = modes.get(v, 1);
    const double slope_2 = modes.get(v, 2);
    double alpha = 1.0;
    for (int q = 0; q < point_count; ++q) {
      // u_h(x_q) − ū of the linear part, from the slopes alone: no cancellation against ū.
      const double deviation = slope_1 * linear_values[2 * q] + slope_2 * linear_values[2 * q + 1];
      if (deviation > 0 && room_above < alpha * deviation) alpha = room_above / deviation;
      if (deviation < 0 && room_below > alpha * deviation) alpha = room_below / deviation;
    }
    if (alpha < 1.0) {
      modes.set(v, 1, alpha * slope_1);
      modes.set(v, 2, alpha * slope_2);
      POLYDG_UNROLL
      for (int i = 3; i < modes.size(); ++i) modes.set(v, i, 0.0);
    }
  }
}

/// Limits the slopes of every variable of element c in place in u (file comment), reading and
/// writing u at every use: any basis size (the fallback above largest_local_modes_degree).
/// `linear_values` is make_limiter_point_values' table of `point_count` points.
template <int M>
POLYDG_HD void barth_jespersen_kernel(const ResidualView& g, const double* linear_values,
                                      int point_count, Index c, double* u) {
  ElementModes modes(g, u, c);
  barth_jespersen_modes<M>(g, linear_values, point_count, c, u, modes);
}

/// As barth_jespersen_kernel, for a basis size N = g.basis_size known at compile time: element
/// c's modes loaded once into a LocalElementModes, limited there, and the variables the limiter
/// changed written back. The same arithmetic in the same order, so the same bits.
template <int M, int N>
POLYDG_HD void barth_jespersen_local_kernel(const ResidualView& g, const double* linear_values,
                                            int point_count, Index c, double* u) {
  LocalElementModes<M, N> modes;
  modes.load(g, u, c);
  barth_jespersen_modes<M>(g, linear_values, point_count, c, u, modes);
  modes.store_changes(g, u, c);
}

/// The limiter of one solver (it keeps a reference to `dg`, which must outlive it), callable
/// as a TimeStepper stage limiter.
template <ConservationLaw Law>
class BarthJespersenLimiter {
 public:
  explicit BarthJespersenLimiter(const ExplicitTriangleDG<Law>& dg,
                                 LimiterPoints points = LimiterPoints::edge_gauss_points)
      : dg_(dg),
        points_(points),
        linear_values_(make_limiter_point_values(dg.tables(), points)),
        point_count_(int(linear_values_.size() / 2)) {}

  LimiterPoints points() const { return points_; }
  /// The limiter's points' linear-mode values (make_limiter_point_values).
  std::span<const double> point_values() const { return linear_values_; }

  /// Limits u (the solver's coefficient layout) in place. Deterministic: each element's result
  /// depends on its own and its neighbours' modes 0 only. Throws polydg::Error for a wrong size.
  void operator()(std::span<double> u) const {
    require(u.size() == dg_.coefficient_count(), "BarthJespersenLimiter: ", u.size(),
            " coefficients, expected ", dg_.coefficient_count());
    if (dg_.degree() == 0) return;
    const ResidualView g = dg_.view();
    const double* values = linear_values_.data();
    const int count = point_count_;
    double* data = u.data();
    constexpr int m = Law::variables;
    // Each element's modes in a fixed-size local array up to largest_local_modes_degree, in
    // place above: the same loop body either way.
    const bool local = with_local_modes_size(g.basis_size, [&](auto size) {
      constexpr int n = decltype(size)::value;
#pragma omp parallel for schedule(static)
      for (Index c = 0; c < g.elements; ++c)
        barth_jespersen_local_kernel<m, n>(g, values, count, c, data);
    });
    if (local) return;
#pragma omp parallel for schedule(static)
    for (Index c = 0; c < g.elements; ++c) barth_jespersen_kernel<m>(g, values, count, c, data);
  }

 private:
  const ExplicitTriangleDG<Law>& dg_;
  LimiterPoints points_;
  std::vector<double> linear_values_;
  int point_count_;
};

}  // namespace polydg::hyperbolic
