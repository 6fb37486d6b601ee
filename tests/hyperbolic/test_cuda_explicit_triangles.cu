// The GPU backend of the explicit modal DG solver on triangles
// (polydg/cuda/device_explicit_dg.cuh) against the CPU reference (ExplicitTriangleDG,
// TimeStepper; docs/theory.md, "Explicit path for conservation laws"):
//  * the rotating hill (linear advection, exact boundary data), p = 1..3, RK4 and SSP-RK3: one
//    residual and its facet fluxes, then about 100 steps of advance, equal to the CPU's to
//    1e-12 (max relative difference), in the same number of steps; also p = 2 on the generic
//    kernels by request and p = 5, where they are the fallback;
//  * the supersonic vortex (Euler, curved reflecting walls, exact inflow and outflow states),
//    p = 1, 2, SSP-RK3, from a perturbed state so that the walls and fluxes do work: the same;
//  * the double Mach reflection (Euler, p = 1, 1,152 triangles) with the device Barth–Jespersen
//    limiter and positivity fix (polydg/cuda/device_stage_limiters.cuh) as DeviceTimeStepper's
//    stage limiter, SSP-RK2: each on the projected shock, then about 100 steps of advance, equal
//    to the CPU's to 1e-12, with positive density and pressure at the vertices; an inadmissible
//    mean is reported as the CPU reports it; the two in one kernel (DeviceLimiterAndPositivityFix)
//    give the bits of the two kernels in turn and the CPU's limiter then fix to 1e-14 in one
//    pass, at p = 1, 2 (modes in registers) and p = 5 (in place); passed to the stepper as they
//    are (deferred: no wait per stage, the wave speed in the limiter's kernel) they give the
//    bits of the limiters called as functions, and a failure is named as the CPU names it;
//    an observer stops advance where it says;
//  * two runs give the same bits (the reductions and the stage updates are deterministic), on
//    each kernel path; a stage limiter that does nothing changes no bit;
//  * a state that is not physical (NaN, negative density) is a polydg::Error naming the element
//    and the point — the same point as the CPU's, also for a NaN that appears during advance —
//    and wrong vector sizes are refused.
// Exits 77 (ctest: Skipped) without a device.
#define BOOST_TEST_MODULE cuda_explicit_triangles
#include "gpu_test_main.hpp"
// (first: error_message.hpp includes Boost.Test, which would define a main)
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "device_cpu_comparison.hpp"
#include "error_message.hpp"
#include "gpu_test_support.hpp"
#include "max_relative_difference.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/cuda/device_stage_limiters.cuh"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"
#include "polydg/hyperbolic/supersonic_vortex.hpp"
#include "polydg/mesh/generators.hpp"

using namespace polydg;
using namespace polydg::hyperbolic;
using testing::compare_advance;
using testing::compare_residual;
using testing::error_message;
using testing::error_names;
using testing::max_relative_difference;

namespace {

constexpr double pi = std::numbers::pi;
constexpr double tolerance = 1e-12;
/// One pass of the stage limiters, GPU against CPU: the only differences are the contractions
/// into fused multiply-adds, in a few sums per point.
constexpr double one_pass_tolerance = 1e-14;

/// The rotating hill's exact solution: a Gaussian of radius 0.15 at (0.2, 0) turned by 2πt.
struct RotatingHill {
  POLYDG_HD State<1> operator()(const Point<2>& x, double t) const {
    const double c = cos(2 * pi * t), s = sin(2 * pi * t);
    const double dx = x[0] * c + x[1] * s - 0.2;
    const double dy = -x[0] * s + x[1] * c;
    return State<1>{{exp(-(dx * dx + dy * dy) / (2 * 0.15 * 0.15))}};
  }
};

using HillLaw = LinearAdvection<RotatingVelocity>;
const HillLaw hill_law{RotatingVelocity{{0.0, 0.0}, 2 * pi}};

/// The supersonic vortex's ghost states, or from t = poison_time on a NaN state on every
/// boundary facet: the NaN then enters the boundary elements during a step (one boundary type
/// for the comparison and the error cases, so the kernels compile once for Euler).
struct VortexBoundary {
  SupersonicVortexBoundary walls{};
  double poison_time = std::numeric_limits<double>::infinity();
  POLYDG_HD State<4> operator()(const State<4>& u, const Point<2>& x, const Point<2>& n, double t,
                                int tag) const {
    if (t >= poison_time) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      return State<4>{{nan, nan, nan, nan}};
    }
    return walls(u, x, n, t, tag);
  }
};

/// The vortex with a bump in density and pressure near (0.8, 0.7), r ≈ 1.06: the state moves.
std::vector<double> perturbed_vortex(const ExplicitTriangleDG<Euler>& dg,
                                     const SupersonicVortex& vortex) {
  return dg.project([&](const Point<2>& x) {
    Euler::Primitive w = vortex.primitive(x);
    const double bump =
        std::exp(-200 * ((x[0] - 0.8) * (x[0] - 0.8) + (x[1] - 0.7) * (x[1] - 0.7)));
    w.density *= 1 + 0.1 * bump;
    w.pressure *= 1 + 0.2 * bump;
    return vortex.gas.conserved(w);
  });
}

}  // namespace

// (a) The rotating hill, p = 1..3 (the fixed-degree kernels), RK4 and SSP-RK3; p = 2 on the
// generic kernels by request, p = 5 on them as the fallback.
BOOST_AUTO_TEST_CASE(rotating_hill_matches_the_cpu) {
  const SimplexMesh<2> mesh = square_mesh(8, -1.0, 1.0, 0.2, 7);
  const auto boundary = exact_boundary(RotatingHill{});
  struct Case {
    int p;
    DeviceResidualKernels kernels;
  };
  const std::vector<Case> cases = testing::small_run()
                                      ? std::vector<Case>{{1, DeviceResidualKernels::fixed_degree}}
                                      : std::vector<Case>{{1, DeviceResidualKernels::fixed_degree},
                                                          {2, DeviceResidualKernels::fixed_degree},
                                                          {3, DeviceResidualKernels::fixed_degree},
                                                          {2, DeviceResidualKernels::generic},
                                                          {5, DeviceResidualKernels::fixed_degree}};
  for (const Case& c : cases) {
    ExplicitTriangleDG dg(mesh, c.p, hill_law);
    DeviceExplicitTriangleDG device_dg(dg, c.kernels);
    const bool generic = device_dg.kernels() == DeviceResidualKernels::generic;
    BOOST_TEST(generic == (c.p > 4 || c.kernels == DeviceResidualKernels::generic));
    const std::string label = "rotating hill p = " + std::to_string(c.p) +
                              (generic ? " (generic kernels)" : " (fixed-degree kernels)");
    const auto u = dg.project([](const Point<2>& x) { return RotatingHill{}(x, 0.0); });
    compare_residual(dg, device_dg, u, boundary, tolerance, label);
    for (TimeScheme scheme : {TimeScheme::rk4, TimeScheme::ssp_rk3})
      compare_advance(dg, device_dg, u, boundary, scheme, 0.9, 100, tolerance, label);
  }
}

// (b) The supersonic vortex, Euler, p = 1, 2, SSP-RK3 (and SSP-RK2 once), 720 triangles.
BOOST_AUTO_TEST_CASE(supersonic_vortex_matches_the_cpu) {
  const SupersonicVortex vortex;
  const SimplexMesh<2> mesh = supersonic_vortex_mesh(1, vortex);
  const VortexBoundary boundary{SupersonicVortexBoundary{vortex}};
  for (int p : testing::small_run() ? std::vector<int>{1} : std::vector<int>{1, 2}) {
    ExplicitTriangleDG dg(mesh, p, vortex.gas);
    DeviceExplicitTriangleDG device_dg(dg);
    const std::string label = "supersonic vortex p = " + std::to_string(p);
    const auto u = perturbed_vortex(dg, vortex);
    compare_residual(dg, device_dg, u, boundary, tolerance, label);
    compare_advance(dg, device_dg, u, boundary, TimeScheme::ssp_rk3, 0.5, 100, tolerance, label);
    if (p == 1)
      compare_advance(dg, device_dg, u, boundary, TimeScheme::ssp_rk2, 0.5, 50, tolerance, label);
  }
}

// (c) The double Mach reflection as examples/euler.cpp runs it (p = 1, the Barth–Jespersen
// limiter and the positivity fix after every stage, SSP-RK2, CFL 0.5), on 1,152 triangles.
BOOST_AUTO_TEST_CASE(limited_double_mach_reflection_matches_the_cpu) {
  const DoubleMachReflection problem;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(12, problem);
  ExplicitTriangleDG dg(mesh, 1, problem.gas);
  BOOST_TEST(dg.element_count() == 1152);
  const BarthJespersenLimiter limiter(dg);
  const PositivityFix positivity(dg);
  DeviceExplicitTriangleDG device_dg(dg);
  const DeviceBarthJespersenLimiter device_limiter(device_dg, limiter);
  const DevicePositivityFix device_positivity(device_dg, positivity);
  const auto boundary = double_mach_reflection_boundary(problem);
  const auto projected = dg.project([&](const Point<2>& x) { return problem.initial_state(x); });

  // Each on the projected shock, which overshoots: the CPU's changes, to rounding.
  std::vector<double> u = projected;
  limiter(u);
  BOOST_TEST(!testing::same_bits(u, projected));  // not vacuous
  auto device_u = device_dg.upload(projected);
  device_limiter(device_u);
  BOOST_TEST(max_relative_difference(device_dg.download(device_u), u) <= tolerance);
  positivity(u);
  device_positivity(device_u);
  BOOST_TEST(max_relative_difference(device_dg.download(device_u), u) <= tolerance);
  // Both in one kernel: the bits of the two in turn, and the CPU's limiter then fix.
  const DeviceLimiterAndPositivityFix device_both(device_limiter, device_positivity);
  auto fused_u = device_dg.upload(projected);
  device_both(fused_u);
  const std::vector<double> fused = device_dg.download(fused_u);
  BOOST_TEST(testing::same_bits(fused, device_dg.download(device_u)));
  BOOST_TEST(max_relative_difference(fused, u) <= one_pass_tolerance);

  // About 100 steps from the CPU's limited start.
  const auto limit = [&](std::span<double> v) {
    limiter(v);
    positivity(v);
  };
  const auto device_limit = [&](device::DeviceBuffer<double>& v) { device_both(v); };
  device_dg.upload(u, device_u);
  const std::vector<double> initial = u;
  const double cfl = 0.5;
  const double t_end = 100 * dg.stable_time_step(u, 0.0, cfl);
  const TimeSteppingStatistics cpu =
      TimeStepper(dg, TimeScheme::ssp_rk2, limit).advance(u, 0.0, t_end, boundary, cfl);
  const TimeSteppingStatistics gpu = DeviceTimeStepper(device_dg, TimeScheme::ssp_rk2, device_limit)
                                         .advance(device_u, 0.0, t_end, boundary, cfl);
  const std::vector<double> result = device_dg.download(device_u);
  // The fused limiter passed as it is (DeviceDeferredStageLimiter): no wait per stage, the
  // next wave speed in its kernel; the same bits as the limiter called as a function.
  auto deferred_u = device_dg.upload(initial);
  const TimeSteppingStatistics deferred =
      DeviceTimeStepper(device_dg, TimeScheme::ssp_rk2, device_both)
          .advance(deferred_u, 0.0, t_end, boundary, cfl);
  BOOST_TEST(deferred.steps == gpu.steps);
  BOOST_TEST(testing::same_bits(device_dg.download(deferred_u), result));
  // An observer that stops after three steps: the march to where it stopped.
  {
    auto stopped_u = device_dg.upload(initial), to_there = device_dg.upload(initial);
    DeviceTimeStepper stepper(device_dg, TimeScheme::ssp_rk2, device_both);
    long reports = 0;
    const TimeSteppingStatistics stopped =
        stepper.advance(stopped_u, 0.0, t_end, boundary, cfl, [&](const StepReport& report) {
          ++reports;
          return report.step < 3;
        });
    BOOST_TEST(stopped.steps == 3);
    BOOST_TEST(reports == 3);
    BOOST_TEST(stopped.final_time < t_end);
    const TimeSteppingStatistics again =
        stepper.advance(to_there, 0.0, stopped.final_time, boundary, cfl);
    BOOST_TEST(again.steps == 3);
    // The last step lands on final_time: its Δt may differ from the stopped march's in the last
    // bit.
    BOOST_TEST(max_relative_difference(device_dg.download(to_there),
                                       device_dg.download(stopped_u)) <= tolerance);
  }
  // The limiter alone, both ways, a few steps: the same bits.
  {
    const auto limiter_only = [&](device::DeviceBuffer<double>& v) { device_limiter(v); };
    auto called = device_dg.upload(initial), passed = device_dg.upload(initial);
    const double t_few = 10 * dg.stable_time_step(initial, 0.0, cfl);
    DeviceTimeStepper(device_dg, TimeScheme::ssp_rk2, limiter_only)
        .advance(called, 0.0, t_few, boundary, cfl);
    DeviceTimeStepper(device_dg, TimeScheme::ssp_rk2, device_limiter)
        .advance(passed, 0.0, t_few, boundary, cfl);
    BOOST_TEST(testing::same_bits(device_dg.download(passed), device_dg.download(called)));
  }
  const double difference = max_relative_difference(result, u);
  std::cout << "double Mach reflection, limited SSP-RK2: " << gpu.steps << " steps (CPU "
            << cpu.steps << "), max relative difference " << difference << std::endl;
  BOOST_TEST(gpu.steps == cpu.steps);
  BOOST_TEST(gpu.final_time == cpu.final_time);
  BOOST_TEST(difference <= tolerance);
  BOOST_TEST(max_relative_difference(u, initial) > 1e-3);

  // Density and pressure positive at the vertices, where a p = 1 field takes its minimum
  // (positivity.hpp).
  const auto [density, pressure] = positivity.smallest_at_vertices(result);
  BOOST_TEST(density > 0);
  BOOST_TEST(pressure > 0);

  // Two elements with a negative mean density: the least is named, in the CPU's words.
  std::vector<double> bad = projected;
  bad[dg.coefficient_index(300, 0, 0)] = -1.0;
  bad[dg.coefficient_index(7, 0, 0)] = -1.0;
  device_dg.upload(bad, device_u);
  const std::string cpu_message = error_message([&] { positivity(bad); });
  const std::string gpu_message = error_message([&] { device_positivity(device_u); });
  BOOST_TEST(testing::contains(gpu_message, "element 7 "), gpu_message);
  BOOST_TEST(gpu_message == cpu_message);
  // The same, deferred: launch records, check throws it once and clears it.
  device_dg.upload(bad, device_u);
  device_positivity.launch(device_u, {});
  device_positivity.launch(device_u, {});  // a later call keeps the first failure's record
  POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
  BOOST_TEST(error_message([&] { device_positivity.check(); }) == cpu_message);
  BOOST_CHECK_NO_THROW(device_positivity.check());

  // A step from the bad state: its first stage's fluxes are not finite, so the stage limiter
  // fails there. The deferred stepper reports it after the step, naming the element the CPU
  // stepper names when it throws at that stage (the means' printed NaNs may differ in sign).
  const auto before_density = [](const std::string& message) {
    return message.substr(0, message.find(" has density"));
  };
  std::vector<double> cpu_bad = bad;
  const double dt = dg.stable_time_step(projected, 0.0, cfl);
  const std::string cpu_step_message = error_message(
      [&] { TimeStepper(dg, TimeScheme::ssp_rk2, limit).step(cpu_bad, 0.0, dt, boundary); });
  device_dg.upload(bad, device_u);
  DeviceTimeStepper deferred_stepper(device_dg, TimeScheme::ssp_rk2, device_both);
  const std::string gpu_step_message =
      error_message([&] { deferred_stepper.step(device_u, 0.0, dt, boundary); });
  BOOST_TEST(testing::contains(cpu_step_message, "PositivityFix"), cpu_step_message);
  BOOST_TEST(before_density(gpu_step_message) == before_density(cpu_step_message));
  // And then on: the object is clear again.
  device_dg.upload(initial, device_u);
  BOOST_CHECK_NO_THROW(deferred_stepper.step(device_u, 0.0, dt, boundary));
}

// (c') The fused stage limiter (DeviceLimiterAndPositivityFix) on Euler data with a jump and
// steep slopes, so that the positivity fix has work after the limiter, at p = 1, 2 (modes in
// registers) and p = 5 (in place, the fallback above p = 4), on the double Mach reflection's
// mesh (288 triangles): the CPU's limiter then fix, to rounding; the two device kernels in turn,
// bit for bit.
BOOST_AUTO_TEST_CASE(fused_stage_limiter_matches_the_cpu) {
  const DoubleMachReflection problem;
  const Euler& gas = problem.gas;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(6, problem);
  for (int p : {1, 2, 5}) {
    ExplicitTriangleDG dg(mesh, p, gas);
    auto u = dg.project([&](const Point<2>& x) {
      const double wave = std::sin(9 * x[0] + 4 * x[1]);
      const bool behind = x[0] + 0.4 * x[1] < 0.55;
      return gas.conserved(
          {(behind ? 3.0 : 1.0) + 0.5 * wave, {3.0 * wave, -2.0 * x[0]}, 1.0 + 0.5 * wave});
    });
    for (Index c = 0; c < dg.element_count(); ++c)
      for (int v = 0; v < 4; ++v)
        for (int i = 1; i < dg.basis_size(); ++i) u[dg.coefficient_index(c, v, i)] *= 6.0;
    const BarthJespersenLimiter limiter(dg);
    const PositivityFix positivity(dg);
    DeviceExplicitTriangleDG device_dg(dg);
    const DeviceBarthJespersenLimiter device_limiter(device_dg, limiter);
    const DevicePositivityFix device_positivity(device_dg, positivity);
    const DeviceLimiterAndPositivityFix device_both(device_limiter, device_positivity);
    std::vector<double> cpu = u;
    limiter(cpu);
    const std::vector<double> limited = cpu;
    positivity(cpu);
    auto separate_u = device_dg.upload(u);
    device_limiter(separate_u);
    device_positivity(separate_u);
    auto fused_u = device_dg.upload(u);
    device_both(fused_u);
    const std::vector<double> fused = device_dg.download(fused_u);
    const double difference = max_relative_difference(fused, cpu);
    std::cout << "fused stage limiter, p = " << p << ": max relative difference " << difference
              << std::endl;
    const std::string label = "p = " + std::to_string(p);
    BOOST_TEST(!testing::same_bits(limited, u), label);    // the limiter acted
    BOOST_TEST(!testing::same_bits(cpu, limited), label);  // and so did the fix
    BOOST_TEST(difference <= one_pass_tolerance, label);
    BOOST_TEST(testing::same_bits(fused, device_dg.download(separate_u)), label);
  }
}

// A stage limiter that does nothing changes no bit: the stages launch the same kernels; with a
// limiter advance reduces the next wave speed in a kernel of its own after the last stage
// instead of in the fused element kernel (Euler p = 1), the same operations on the same values.
// p = 2: the wave speed has a kernel of its own either way.
BOOST_AUTO_TEST_CASE(a_stage_limiter_that_does_nothing_changes_no_bit) {
  const SupersonicVortex vortex;
  const SimplexMesh<2> mesh = supersonic_vortex_mesh(1, vortex);
  const VortexBoundary boundary{SupersonicVortexBoundary{vortex}};
  const auto nothing = [](device::DeviceBuffer<double>&) {};
  for (int p : {1, 2}) {
    ExplicitTriangleDG dg(mesh, p, vortex.gas);
    const auto u = perturbed_vortex(dg, vortex);
    DeviceExplicitTriangleDG device_dg(dg);
    const double t_end = 20 * dg.stable_time_step(u, 0.0, 0.5);
    for (TimeScheme scheme : {TimeScheme::ssp_rk2, TimeScheme::ssp_rk3, TimeScheme::rk4}) {
      auto plain = device_dg.upload(u);
      auto limited = device_dg.upload(u);
      const TimeSteppingStatistics without =
          DeviceTimeStepper(device_dg, scheme).advance(plain, 0.0, t_end, boundary, 0.5);
      const TimeSteppingStatistics with =
          DeviceTimeStepper(device_dg, scheme, nothing).advance(limited, 0.0, t_end, boundary, 0.5);
      BOOST_TEST(with.steps == without.steps);
      BOOST_TEST(testing::same_bits(device_dg.download(limited), device_dg.download(plain)),
                 "p = " << p << ", " << testing::scheme_name(scheme));
    }
  }
}

// Each value is written by one thread in a fixed order, the reductions are max / min: two runs
// of advance give the same bits, on each path (fixed-degree kernels with the stage update fused,
// p = 1, and not, p = 2; the generic kernels).
BOOST_AUTO_TEST_CASE(runs_are_bitwise_reproducible) {
  const SupersonicVortex vortex;
  const SimplexMesh<2> mesh = supersonic_vortex_mesh(1, vortex);
  const VortexBoundary boundary{SupersonicVortexBoundary{vortex}};
  struct Case {
    int p;
    DeviceResidualKernels kernels;
  };
  for (const Case c :
       {Case{1, DeviceResidualKernels::fixed_degree}, Case{2, DeviceResidualKernels::fixed_degree},
        Case{2, DeviceResidualKernels::generic}}) {
    ExplicitTriangleDG dg(mesh, c.p, vortex.gas);
    const auto u = perturbed_vortex(dg, vortex);
    DeviceExplicitTriangleDG device_dg(dg, c.kernels);
    const double t_end = 40 * dg.stable_time_step(u, 0.0, 0.5);
    std::vector<std::vector<double>> runs;
    for (int run = 0; run < 2; ++run) {
      auto device_u = device_dg.upload(u);
      DeviceTimeStepper(device_dg, TimeScheme::rk4).advance(device_u, 0.0, t_end, boundary, 0.5);
      runs.push_back(device_dg.download(device_u));
    }
    BOOST_TEST(testing::same_bits(runs[0], runs[1]),
               "p = " << c.p << ", fused update " << device_dg.fuses_stage_update());
  }
}

// A NaN or a negative density is reported by the wave-speed reduction, naming the element and
// the point (the same point as the CPU's message), and the step is not taken; a NaN that the
// boundary brings in during advance is reported after the step that made it, at the element
// and point where the CPU's next time step reports it. p = 1 (the check in the element kernel)
// and p = 2 (in a wave-speed kernel of its own).
BOOST_AUTO_TEST_CASE(non_physical_states_are_reported) {
  const SupersonicVortex vortex;
  const SimplexMesh<2> mesh = supersonic_vortex_mesh(0, vortex);
  // From " at x = " on, the messages name the point and the element the same way.
  const auto where = [](const std::string& message) {
    const std::size_t at = message.find(" at x = ");
    return at == std::string::npos ? message : message.substr(at);
  };
  for (int p : {1, 2}) {
    ExplicitTriangleDG dg(mesh, p, vortex.gas);
    DeviceExplicitTriangleDG device_dg(dg);
    BOOST_TEST(device_dg.fuses_stage_update() == (p == 1));
    const auto good = dg.project([&](const Point<2>& x) { return vortex.exact(x); });

    auto u = good;
    u[dg.coefficient_index(5, 0, 0)] = std::numeric_limits<double>::quiet_NaN();
    auto device_u = device_dg.upload(u);
    BOOST_TEST(error_names([&] { (void)device_dg.max_wave_speed(device_u, 0.25); },
                           {"t = 0.25", "element 5", "nan", "not physical"}));
    const std::string cpu_nan = error_message([&] { (void)dg.max_wave_speed(u, 0.25); });
    const std::string gpu_nan =
        error_message([&] { (void)device_dg.stable_time_step(device_u, 0.25, 0.5); });
    BOOST_TEST(where(gpu_nan) == where(cpu_nan), gpu_nan << " | CPU: " << cpu_nan);

    u = good;
    u[dg.coefficient_index(3, 0, 0)] = -1.0;
    device_dg.upload(u, device_u);
    const VortexBoundary boundary{SupersonicVortexBoundary{vortex}};
    DeviceTimeStepper stepper(device_dg, TimeScheme::ssp_rk3);
    const std::string gpu_negative =
        error_message([&] { stepper.advance(device_u, 0.0, 1.0, boundary, 0.5); });
    const std::string cpu_negative = error_message([&] { (void)dg.max_wave_speed(u, 0.0); });
    BOOST_TEST(testing::contains(gpu_negative, "element 3"), gpu_negative);
    BOOST_TEST(where(gpu_negative) == where(cpu_negative),
               gpu_negative << " | CPU: " << cpu_negative);
    // advance refused before the first step: u is as uploaded.
    BOOST_TEST(testing::same_bits(device_dg.download(device_u), u));

    // The boundary turns NaN at 2.7 Δt: step 3's second stage brings it into the boundary
    // elements, and the check after step 3 (on the GPU with the last stage, on the CPU in step
    // 4's stable_time_step) reports the least of them.
    const double dt = dg.stable_time_step(good, 0.0, 0.5);
    const VortexBoundary poisoned{SupersonicVortexBoundary{vortex}, 2.7 * dt};
    u = good;
    const std::string cpu_poisoned = error_message(
        [&] { TimeStepper(dg, TimeScheme::ssp_rk3).advance(u, 0.0, 1.0, poisoned, 0.5); });
    device_dg.upload(good, device_u);
    const std::string gpu_poisoned =
        error_message([&] { stepper.advance(device_u, 0.0, 1.0, poisoned, 0.5); });
    BOOST_TEST(testing::contains(gpu_poisoned, "not physical"), gpu_poisoned);
    BOOST_TEST(where(gpu_poisoned) == where(cpu_poisoned),
               "p = " << p << ": " << gpu_poisoned << " | CPU: " << cpu_poisoned);
  }
}

BOOST_AUTO_TEST_CASE(wrong_sizes_are_reported) {
  const SimplexMesh<2> mesh = square_mesh(2, 0.0, 1.0, 0.0, 7);
  ExplicitTriangleDG dg(mesh, 1, hill_law);
  DeviceExplicitTriangleDG device_dg(dg);
  const std::vector<double> wrong(5);
  BOOST_TEST(error_names([&] { (void)device_dg.upload(wrong); }, {"upload", "5 coefficients"}));
  auto u = device_dg.make_vector();
  device::DeviceBuffer<double> small(5);
  const auto boundary = exact_boundary(RotatingHill{});
  BOOST_TEST(error_names([&] { device_dg.residual(u, 0.0, boundary, small); },
                         {"residual", "5 coefficients"}));
  DeviceTimeStepper stepper(device_dg, TimeScheme::rk4);
  BOOST_TEST(error_names([&] { stepper.step(small, 0.0, 0.1, boundary); }, {"step", "5"}));
  BOOST_TEST(error_names([&] { stepper.advance(u, 1.0, 0.5, boundary, 0.5); }, {"t_end = 0.5"}));
  BOOST_TEST(error_names([&] { stepper.advance(u, 0.0, 0.5, boundary, -1.0); }, {"CFL number -1"}));
}
