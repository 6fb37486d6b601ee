#pragma once
/// Explicit Runge–Kutta time stepping of the DG semi-discretisation du/dt = R(u, t)
/// (explicit_dg.hpp; docs/theory.md, "Explicit path for conservation laws"), with the CFL step
/// Δt = cfl · min_K h_K / (λ_max (2p + 1)) recomputed every step from the current state.
///
///   TimeStepper stepper(dg, TimeScheme::rk4);
///   auto stats = stepper.advance(u, 0.0, 1.0, boundary, 0.5);
///
/// Schemes: ssp_rk2 (Heun), ssp_rk3 (Shu–Osher), rk4 (classical). The stage updates are
/// pointwise on the flat coefficient vector (OpenMP, layout-agnostic, bitwise reproducible);
/// the last step is shortened to land on t_end exactly.
///
/// Stage limiter (optional): a callable limiter(std::span<double> u) applied in place to the
/// result of every stage — each intermediate stage and the new solution — as nonlinear
/// solvers with slope limiters need (docs/theory.md, "Explicit path for conservation laws",
/// limiting):
///   TimeStepper stepper(dg, TimeScheme::ssp_rk2, [&](std::span<double> v) { limiter(v); });
/// The limiter is a template argument; the default, NoStageLimiter, is skipped at compile time,
/// so without a limiter the steps are the same operations, bit for bit, as before the hook
/// existed. The data given to step / advance is not limited first: limit the initial data once
/// yourself (e.g. after ExplicitTriangleDG::project).
#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/hyperbolic/explicit_discretisation.hpp"

namespace polydg::hyperbolic {

enum class TimeScheme { ssp_rk2, ssp_rk3, rk4 };

struct TimeSteppingStatistics {
  long steps = 0;
  double final_time = 0;
  double smallest_step = 0;
  double largest_step = 0;
};

/// Post-processes a stage's coefficients in place (the file comment).
template <class Limiter>
concept StageLimiter = std::invocable<Limiter&, std::span<double>>;

/// The default stage limiter: nothing (and no code).
struct NoStageLimiter {
  void operator()(std::span<double>) const {}
};

/// Runge–Kutta steps of any ExplicitDiscretisation (triangles: ExplicitTriangleDG, polygons:
/// ExplicitPolygonDG).
template <ExplicitDiscretisation Discretisation, StageLimiter Limiter = NoStageLimiter>
class TimeStepper {
 public:
  using Law = discretisation_law<Discretisation>;

  TimeStepper(Discretisation& dg, TimeScheme scheme, Limiter limiter = {})
      : dg_(dg), scheme_(scheme), limiter_(std::move(limiter)) {
    const std::size_t n = dg.coefficient_count();
    stage_.resize(n);
    rate_.resize(n);
    if (scheme == TimeScheme::rk4) accumulated_.resize(n);
  }

  const Limiter& stage_limiter() const { return limiter_; }

  /// One step of size dt from (u, t), in place; the stage limiter is applied to each stage and
  /// to the new u.
  template <BoundaryCondition<Law> Boundary>
  void step(std::vector<double>& u, double t, double dt, const Boundary& boundary) {
    require(u.size() == dg_.coefficient_count(), "TimeStepper::step: ", u.size(),
            " coefficients, expected ", dg_.coefficient_count());
    const long n = long(u.size());
    double* y = u.data();
    double* stage = stage_.data();
    double* rate = rate_.data();
    switch (scheme_) {
      case TimeScheme::ssp_rk2:
        dg_.residual(u, t, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) stage[i] = y[i] + dt * rate[i];
        limit(stage_);
        dg_.residual(stage_, t + dt, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) y[i] = 0.5 * y[i] + 0.5 * (stage[i] + dt * rate[i]);
        limit(u);
        break;
      case TimeScheme::ssp_rk3:
        dg_.residual(u, t, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) stage[i] = y[i] + dt * rate[i];
        limit(stage_);
        dg_.residual(stage_, t + dt, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) stage[i] = 0.75 * y[i] + 0.25 * (stage[i] + dt * rate[i]);
        limit(stage_);
        dg_.residual(stage_, t + 0.5 * dt, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i)
          y[i] = (1.0 / 3.0) * y[i] + (2.0 / 3.0) * (stage[i] + dt * rate[i]);
        limit(u);
        break;
      case TimeScheme::rk4: {
        double* sum = accumulated_.data();
        const double half = 0.5 * dt;
        dg_.residual(u, t, boundary, rate_);  // k1
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) {
          sum[i] = rate[i];
          stage[i] = y[i] + half * rate[i];
        }
        limit(stage_);
        dg_.residual(stage_, t + half, boundary, rate_);  // k2
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) {
          sum[i] += 2.0 * rate[i];
          stage[i] = y[i] + half * rate[i];
        }
        limit(stage_);
        dg_.residual(stage_, t + half, boundary, rate_);  // k3
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) {
          sum[i] += 2.0 * rate[i];
          stage[i] = y[i] + dt * rate[i];
        }
        limit(stage_);
        dg_.residual(stage_, t + dt, boundary, rate_);  // k4
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) y[i] += (dt / 6.0) * (sum[i] + rate[i]);
        limit(u);
        break;
      }
    }
  }

  /// Steps from t_start to t_end with the CFL step of number `cfl` (checked each step, which
  /// also reports a non-physical state: ExplicitTriangleDG::max_wave_speed).
  template <BoundaryCondition<Law> Boundary>
  TimeSteppingStatistics advance(std::vector<double>& u, double t_start, double t_end,
                                 const Boundary& boundary, double cfl) {
    require(t_end >= t_start, "TimeStepper::advance: t_end = ", t_end, " < t_start = ", t_start);
    TimeSteppingStatistics stats;
    stats.smallest_step = std::numeric_limits<double>::infinity();
    double t = t_start;
    while (t < t_end) {
      double dt = dg_.stable_time_step(u, t, cfl);
      // Avoid a last sliver step: land on t_end exactly.
      if (t + 1.0000001 * dt >= t_end) dt = t_end - t;
      step(u, t, dt, boundary);
      t = (t + dt >= t_end) ? t_end : t + dt;
      ++stats.steps;
      stats.smallest_step = std::min(stats.smallest_step, dt);
      stats.largest_step = std::max(stats.largest_step, dt);
    }
    stats.final_time = t;
    return stats;
  }

 private:
  void limit(std::span<double> v) {
    if constexpr (!std::is_same_v<Limiter, NoStageLimiter>) std::invoke(limiter_, v);
  }

  Discretisation& dg_;
  TimeScheme scheme_;
  Limiter limiter_;
  std::vector<double> stage_, rate_, accumulated_;
};

}  // namespace polydg::hyperbolic
