#pragma once
/// SlabMarch: the time bookkeeping of a slab-by-slab march, shared by SlabSolver (CPU assembly)
/// and DeviceSlabSolver (GPU assembly). It knows the interval the slab's quadrature mesh is on,
/// the previous slab's interval (on which the previous solution's basis lives), the step count
/// and the last time step, and from them what a step must do:
///
///   const polydg::SlabMarch::Step step = march.next(t_end, coefficients_depend_on_time);
///   assembler.map_last_coordinate(step.from_begin, step.from_end, step.t_begin, step.t_end);
///   if (step.assemble_matrix) ... else ...;           // step.first: the coupling term is u_0
///   ...                                               // solve
///   march.finish(step);                               // time() = step.t_end
#include <cmath>

#include "polydg/core/error.hpp"

namespace polydg {

class SlabMarch {
 public:
  /// What step n does: map the mesh from [from_begin, from_end] onto [t_begin, t_end], and
  /// assemble the matrix (first step, coefficients depending on t, or a new time step) or only
  /// the rhs.
  struct Step {
    int n = 0;
    double t_begin = 0, t_end = 0;
    double from_begin = 0, from_end = 1;
    bool assemble_matrix = true;
    bool first = true;  ///< the coupling term comes from the initial condition
  };

  /// (Re)starts the march at t0; the mesh stays where it is.
  void start(double t0) {
    time_ = t0;
    step_count_ = 0;
  }

  /// The next step, to t_end (> time(); throws polydg::Error naming both otherwise).
  Step next(double t_end, bool coefficients_depend_on_time) {
    require(t_end > time_, "slab step: t_end = ", t_end, " is not after t = ", time_);
    Step step;
    step.n = ++step_count_;
    step.first = step.n == 1;
    step.t_begin = time_;
    step.t_end = t_end;
    step.from_begin = mapped_begin_;
    step.from_end = mapped_end_;
    previous_begin_ = mapped_begin_;
    previous_end_ = mapped_end_;
    mapped_begin_ = time_;
    mapped_end_ = t_end;
    const double tau = t_end - time_;
    // Steps computed as t_n = n·T/N differ by a few ulps; that is the same time step.
    const bool same_step = std::abs(tau - last_tau_) <= 1e-12 * tau;
    step.assemble_matrix = step.first || coefficients_depend_on_time || !same_step;
    if (step.assemble_matrix) last_tau_ = tau;
    return step;
  }

  /// The step is done: time() becomes its end.
  void finish(const Step& step) { time_ = step.t_end; }

  double time() const { return time_; }
  /// The interval of the slab before the current one (the previous solution's time box).
  double previous_begin() const { return previous_begin_; }
  double previous_end() const { return previous_end_; }

 private:
  double time_ = 0, last_tau_ = 0;
  double mapped_begin_ = 0, mapped_end_ = 1;  // the interval the quadrature mesh is on now
  double previous_begin_ = 0, previous_end_ = 1;
  int step_count_ = 0;
};

}  // namespace polydg
