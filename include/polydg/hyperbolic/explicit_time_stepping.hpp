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
#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"

namespace polydg::hyperbolic {

enum class TimeScheme { ssp_rk2, ssp_rk3, rk4 };

struct TimeSteppingStatistics {
  long steps = 0;
  double final_time = 0;
  double smallest_step = 0;
  double largest_step = 0;
};

template <ConservationLaw Law>
class TimeStepper {
 public:
  TimeStepper(ExplicitTriangleDG<Law>& dg, TimeScheme scheme) : dg_(dg), scheme_(scheme) {
    const std::size_t n = dg.coefficient_count();
    stage_.resize(n);
    rate_.resize(n);
    if (scheme == TimeScheme::rk4) accumulated_.resize(n);
  }

  /// One step of size dt from (u, t), in place.
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
        dg_.residual(stage_, t + dt, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) y[i] = 0.5 * y[i] + 0.5 * (stage[i] + dt * rate[i]);
        break;
      case TimeScheme::ssp_rk3:
        dg_.residual(u, t, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) stage[i] = y[i] + dt * rate[i];
        dg_.residual(stage_, t + dt, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) stage[i] = 0.75 * y[i] + 0.25 * (stage[i] + dt * rate[i]);
        dg_.residual(stage_, t + 0.5 * dt, boundary, rate_);
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i)
          y[i] = (1.0 / 3.0) * y[i] + (2.0 / 3.0) * (stage[i] + dt * rate[i]);
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
        dg_.residual(stage_, t + half, boundary, rate_);  // k2
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) {
          sum[i] += 2.0 * rate[i];
          stage[i] = y[i] + half * rate[i];
        }
        dg_.residual(stage_, t + half, boundary, rate_);  // k3
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) {
          sum[i] += 2.0 * rate[i];
          stage[i] = y[i] + dt * rate[i];
        }
        dg_.residual(stage_, t + dt, boundary, rate_);  // k4
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) y[i] += (dt / 6.0) * (sum[i] + rate[i]);
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
  ExplicitTriangleDG<Law>& dg_;
  TimeScheme scheme_;
  std::vector<double> stage_, rate_, accumulated_;
};

}  // namespace polydg::hyperbolic
