// Benchmark of the explicit modal DG solver's GPU backend (DeviceExplicitTriangleDG,
// DeviceTimeStepper; polydg/cuda/device_explicit_dg.cuh) against its CPU reference
// (ExplicitTriangleDG, TimeStepper, OpenMP): seconds per element-step, one whole Runge–Kutta step
// — every stage's facet and element kernels, the stage updates, the next Δt's wave-speed
// reduction and its copy to the host — per element, on
//   euler      the supersonic vortex (Euler, curved reflecting walls, exact inflow / outflow):
//              supersonic_vortex_mesh(level), 180 · 4^level triangles (level 7: 2,949,120);
//   advection  the rotating hill (linear advection, exact boundary data) on [−1, 1]² with
//              8 · 2^level squares per side, 2 triangles each (level 7: 2,097,152);
// for p = 1..4 (--p). GPU: --steps steps of DeviceTimeStepper::advance after --warmup steps,
// between CUDA events (its per-step wait for Δt included); the residual alone (facet and element
// kernels, R into a vector) and the stand-alone wave-speed reduction, medians of 10, per
// element. CPU: the same problem on the mesh of --cpu-level (default 4: 46,080 and 32,768
// triangles), TimeStepper::advance over --cpu-steps steps after one, host clock.
// The targets (H200, FP64, Euler, p = 1..4): 1.3e-9, 2.4e-9, 4.0e-9, 6.5e-9 s per element-step.
//
// --case double_mach: instead of the tables, the double Mach reflection as examples/euler.cpp
// runs it (double_mach_reflection.hpp: p = 1, the Barth–Jespersen limiter and the positivity fix
// after every stage, SSP-RK2, CFL --cfl, to t = 0.2), marched on the GPU with the device
// limiters (polydg/cuda/device_stage_limiters.cuh) on double_mach_reflection_mesh(--resolution),
// about 8 · resolution² triangles (347: 963,272, docs/theory.md's finest reference mesh). It
// reports the march's wall-clock seconds (every kernel and wait of the steps, the set-up left
// out) against the target of 30 s on an H200, and the smallest density and pressure at the
// vertices. The march is DeviceTimeStepper::advance with the fused limiter passed as it is (one
// wait per step, the wave speed reduced in the last stage's limiter kernel), whose observer
// stops a march that has run --max-seconds S seconds or is projected to need more; it is then
// reported as not finished.
//
// Work model (per element and step; the "floor" columns; estimates, see work_per_element_step):
// m variables, N = (p+1)(p+2)/2 modes, Q = p + 1 edge points, V volume points (the degree-2p
// rule), φ = facets / elements (≈ 1.5), s stages (RK4 4, SSP-RK3 3, SSP-RK2 2), x = 1 where
// the law reads the point (advection: the velocity field), 0 for Euler.
//  Bytes, the least DRAM traffic of the fused kernels (every array once per kernel; an element's
//  coefficients gathered by its facets, and a facet's flux by its elements, from L2 after the
//  first read; the element kernel re-reads u, which no longer sits in L2 at these sizes):
//    facet kernel, per stage     8mN (u) + φ(12 + 16 + 32x) (elements, edges, orientations,
//                                normal, [origin, tangent]) + 8φmQ (flux written)
//    element kernel, per stage   8mN (u) + 40 (J⁻¹, |det J|) + 48x (x_0, J) + 42 (three facets'
//                                index, side, orientation, length) + 8φmQ (flux read)
//    stage updates, per step     RK4 13 · 8mN (stage 1 writes stage and sum; 2 and 3 read y
//                                and sum, write sum and stage; 4 reads y and sum, writes y),
//                                SSP-RK3 5 · 8mN, SSP-RK2 3 · 8mN
//  FLOPs (a fused multiply-add counts 2; F, S the law's flux and wave speed, Euler 26 and 14,
//  advection 6 and 8):
//    volume, per point           2mN (u_h) + F + 8m (J⁻¹F, weight) + 4mN (gradients)
//    surface, per element        3Q(2 + m(1 + 4N))
//    facet, per facet            4mNQ (two traces) + Q(2F + 2S + 11m) (LLF)
//    update, per stage 4mN;  wave speed, per step V(2mN + 4S)
//  Euler, RK4, φ = 1.5: p = 1..4 move 3.3, 5.7, 8.8 and 12.5 kB and take 5.4, 13, 31 and
//  56 kFLOP per element-step. At 4.0 TB/s (H200, achievable) the memory floors are 0.82, 1.42,
//  2.19 and 3.12e-9 s; at 34 TFLOP/s (FP64 without tensor cores, which these kernels do not
//  use; about 60 with them) the arithmetic takes 0.16, 0.40, 0.92 and 1.65e-9 s: memory-bound
//  at every p, the targets 1.6, 1.7, 1.8 and 2.1 times the memory floors. (SSP-RK3: 2.0, 3.3,
//  5.0 and 7.1 kB.)
//
//   bench_explicit [--p 1,2,3,4] [--level 7] [--cpu-level 4] [--steps 50] [--warmup 5]
//                  [--cpu-steps 5] [--scheme rk4] [--cfl 0.5] [--laws euler,advection]
//                  [--kernels fixed_degree] [--json FILE]
//   bench_explicit --case double_mach [--resolution 347] [--cfl 0.5] [--max-seconds 120]
//                  [--json FILE]
#include <cuda_runtime.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cuda_event_timing.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/cuda/device_stage_limiters.cuh"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/rotating_hill.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"
#include "polydg/hyperbolic/supersonic_vortex.hpp"

namespace {

using namespace polydg;
using namespace polydg::hyperbolic;

/// Achievable HBM bandwidth of an H200 (B/s) and its FP64 rate without tensor cores (FLOP/s):
/// the floors' denominators.
constexpr double achievable_bandwidth = 4.0e12;
constexpr double fp64_rate = 34e12;

constexpr const char* usage = R"(Usage: bench_explicit [options]
Seconds per element-step of the explicit DG solver on triangles: DeviceTimeStepper (GPU) on
meshes of over a million triangles against TimeStepper (CPU, OpenMP) on a smaller one, for the
supersonic vortex (Euler) and the rotating hill (linear advection).
  --p P[,P...]        degrees (default 1,2,3,4)
  --level L           GPU meshes: vortex 180 * 4^L triangles, square 2 * (8 * 2^L)^2 (default 7)
  --cpu-level L       CPU meshes, the same families (default 4)
  --steps N           timed GPU steps (default 50)
  --warmup N          GPU steps before them (default 5)
  --cpu-steps N       timed CPU steps, after one; 0: no CPU rows (default 5)
  --scheme S          rk4, ssp_rk3 or ssp_rk2 (default rk4)
  --cfl C             CFL number (default 0.5)
  --laws L[,L...]     euler, advection (default both)
  --kernels K[,K...]  fixed_degree, generic: the GPU residual kernels (default fixed_degree)
  --json FILE         also write every row as JSON
  --help              this text
  --case double_mach  instead: the double Mach reflection (p = 1, Barth-Jespersen limiter and
                      positivity fix, SSP-RK2, CFL --cfl) to t = 0.2 on the GPU, its wall time
                      (target 30 s on an H200) and smallest density and pressure; with
      --resolution R  about 8 R^2 triangles (default 347: 963,272)
      --max-seconds S stop the march after S s or when projected to need more (default 120;
                      0: no limit)
)";

struct Options {
  std::vector<int> degrees = {1, 2, 3, 4};
  int level = 7, cpu_level = 4, steps = 50, warmup = 5, cpu_steps = 5;
  TimeScheme scheme = TimeScheme::rk4;
  double cfl = 0.5;
  std::vector<std::string> laws = {"euler", "advection"};
  std::vector<std::string> kernels = {"fixed_degree"};
  std::string json;
  // --case double_mach
  bool double_mach = false;
  int resolution = 347;
  double max_seconds = 120;  ///< 0: no limit
};

int openmp_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

const char* scheme_name(TimeScheme scheme) {
  return scheme == TimeScheme::rk4 ? "rk4" : scheme == TimeScheme::ssp_rk3 ? "ssp_rk3" : "ssp_rk2";
}
int stage_count(TimeScheme scheme) {
  return scheme == TimeScheme::rk4 ? 4 : scheme == TimeScheme::ssp_rk3 ? 3 : 2;
}

/// What the work model needs of a law: m, FLOPs of one flux F and one wave speed S, and
/// whether it reads the point x.
struct LawCost {
  int variables;
  double flux_flops, speed_flops;
  bool reads_point;
};
constexpr LawCost euler_cost{4, 26, 14, false};
constexpr LawCost advection_cost{1, 6, 8, true};

struct Work {
  double bytes = 0, flops = 0;
};

/// The file comment's model, per element and step.
Work work_per_element_step(const LawCost& law, int p, int volume_points, double facets_per_element,
                           TimeScheme scheme) {
  const double m = law.variables, n = (p + 1) * (p + 2) / 2, q = p + 1, v = volume_points;
  const double phi = facets_per_element, x = law.reads_point ? 1 : 0;
  const double f = law.flux_flops, s = law.speed_flops;
  const int stages = stage_count(scheme);
  const double update_vectors = scheme == TimeScheme::rk4       ? 13
                                : scheme == TimeScheme::ssp_rk3 ? 5
                                                                : 3;
  Work work;
  const double facet_bytes = 8 * m * n + phi * (12 + 16 + 32 * x) + 8 * phi * m * q;
  const double element_bytes = 8 * m * n + 40 + 48 * x + 42 + 8 * phi * m * q;
  work.bytes = stages * (facet_bytes + element_bytes) + update_vectors * 8 * m * n;
  const double volume = v * (2 * m * n + f + 8 * m + 4 * m * n);
  const double surface = 3 * q * (2 + m * (1 + 4 * n));
  const double facet = phi * (4 * m * n * q + q * (2 * f + 2 * s + 11 * m));
  work.flops = stages * (volume + surface + facet + 4 * m * n) + v * (2 * m * n + 4 * s);
  return work;
}

/// The target for Euler at degree p (s per element-step); 0 where there is none.
double euler_target(int p) {
  constexpr double targets[] = {0, 1.3e-9, 2.4e-9, 4.0e-9, 6.5e-9};
  return p >= 1 && p <= 4 ? targets[p] : 0;
}

struct Row {
  std::string law, backend, kernels;
  int p = 0;
  long long elements = 0, facets = 0;
  long steps = 0;
  double seconds_per_element_step = 0;
  double residual_seconds = 0, wave_speed_seconds = 0;  // per element, GPU only
  double bytes = 0, flops = 0;                          // model, per element-step
  double target = 0;
};

/// The GPU rows of one law, mesh and degree.
template <class Law, class Boundary, class Initial>
Row run_gpu(const std::string& law_name, const LawCost& cost, const SimplexMesh<2>& mesh, int p,
            const Law& law, const Boundary& boundary, const Initial& initial,
            DeviceResidualKernels kernels, const Options& options) {
  ExplicitTriangleDG dg(mesh, p, law);
  DeviceExplicitTriangleDG device_dg(dg, kernels);
  auto u = device_dg.upload(dg.project(initial));
  DeviceTimeStepper stepper(device_dg, options.scheme);
  const double dt = device_dg.stable_time_step(u, 0.0, options.cfl);
  double t = 0;
  // Warm-up: module loading, clocks, the memory pool.
  stepper.advance(u, t, t + options.warmup * dt, boundary, options.cfl);
  t += options.warmup * dt;
  cudaEvent_t start, stop;
  POLYDG_CUDA_CHECK(cudaEventCreate(&start));
  POLYDG_CUDA_CHECK(cudaEventCreate(&stop));
  POLYDG_CUDA_CHECK(cudaEventRecord(start));
  const TimeSteppingStatistics stats =
      stepper.advance(u, t, t + options.steps * dt, boundary, options.cfl);
  POLYDG_CUDA_CHECK(cudaEventRecord(stop));
  POLYDG_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  POLYDG_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  t = stats.final_time;

  Row row;
  row.law = law_name;
  row.backend = "gpu";
  // fixed_fused: the element kernel applies the stage update (fuses_stage_update()).
  row.kernels = device_dg.kernels() == DeviceResidualKernels::generic ? "generic"
                : device_dg.fuses_stage_update()                      ? "fixed_fused"
                                                                      : "fixed_degree";
  row.p = p;
  row.elements = device_dg.element_count();
  row.facets = device_dg.facet_count();
  row.steps = stats.steps;
  const double elements = double(row.elements);
  row.seconds_per_element_step = ms * 1e-3 / (double(stats.steps) * elements);
  auto r = device_dg.make_vector();
  row.residual_seconds =
      bench::median_event_ms(10, [&] { device_dg.residual(u, t, boundary, r); }) * 1e-3 / elements;
  row.wave_speed_seconds =
      bench::median_event_ms(10, [&] { (void)device_dg.max_wave_speed(u, t); }) * 1e-3 / elements;
  const Work work = work_per_element_step(cost, p, dg.tables().volume_point_count,
                                          double(row.facets) / elements, options.scheme);
  row.bytes = work.bytes;
  row.flops = work.flops;
  row.target = law_name == "euler" ? euler_target(p) : 0;
  return row;
}

/// The CPU row of one law, mesh and degree.
template <class Law, class Boundary, class Initial>
Row run_cpu(const std::string& law_name, const LawCost& cost, const SimplexMesh<2>& mesh, int p,
            const Law& law, const Boundary& boundary, const Initial& initial,
            const Options& options) {
  ExplicitTriangleDG dg(mesh, p, law);
  auto u = dg.project(initial);
  TimeStepper stepper(dg, options.scheme);
  const double dt = dg.stable_time_step(u, 0.0, options.cfl);
  stepper.advance(u, 0.0, dt, boundary, options.cfl);  // warm-up: one step
  const auto start = std::chrono::steady_clock::now();
  const TimeSteppingStatistics stats =
      stepper.advance(u, dt, dt + options.cpu_steps * dt, boundary, options.cfl);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Row row;
  row.law = law_name;
  row.backend = "cpu";
  row.kernels = "openmp";
  row.p = p;
  row.elements = dg.element_count();
  row.facets = dg.geometry().facet_count;
  row.steps = stats.steps;
  const double elements = double(row.elements);
  row.seconds_per_element_step = seconds / (double(stats.steps) * elements);
  const Work work = work_per_element_step(cost, p, dg.tables().volume_point_count,
                                          double(row.facets) / elements, options.scheme);
  row.bytes = work.bytes;
  row.flops = work.flops;
  row.target = 0;
  return row;
}

void print_header() {
  std::printf("%-9s %-4s %-12s %s %9s %5s | %9s %9s %5s | %8s %9s %5s | %9s %9s | %8s\n", "law", "",
              "kernels", "p", "elements", "steps", "s/el-step", "target", "met", "B/el-st",
              "mem floor", "%flr", "residual", "wave spd", "GFLOP/s");
}

void print(const Row& r) {
  const double floor = r.bytes / achievable_bandwidth;
  const std::string target =
      r.target > 0
          ? (std::ostringstream() << std::scientific << std::setprecision(2) << r.target).str()
          : "-";
  const char* met = r.target > 0 ? (r.seconds_per_element_step <= r.target ? "yes" : "NO") : "-";
  std::printf(
      "%-9s %-4s %-12s %d %9lld %5ld | %9.3e %9s %5s | %8.0f %9.3e %4.0f%% | %9.3e %9.3e | %8.1f\n",
      r.law.c_str(), r.backend.c_str(), r.kernels.c_str(), r.p, r.elements, r.steps,
      r.seconds_per_element_step, target.c_str(), met, r.bytes, floor,
      100 * floor / r.seconds_per_element_step, r.residual_seconds, r.wave_speed_seconds,
      r.flops / r.seconds_per_element_step * 1e-9);
  std::fflush(stdout);
}

std::string json_row(const Row& r) {
  std::ostringstream out;
  out.precision(6);
  out << "{\"law\": \"" << r.law << "\", \"backend\": \"" << r.backend << "\", \"kernels\": \""
      << r.kernels << "\", \"p\": " << r.p << ", \"elements\": " << r.elements
      << ", \"facets\": " << r.facets << ", \"steps\": " << r.steps
      << ", \"seconds_per_element_step\": " << r.seconds_per_element_step
      << ", \"residual_seconds_per_element\": " << r.residual_seconds
      << ", \"wave_speed_seconds_per_element\": " << r.wave_speed_seconds
      << ", \"model_bytes_per_element_step\": " << r.bytes
      << ", \"model_flops_per_element_step\": " << r.flops
      << ", \"memory_floor_seconds\": " << r.bytes / achievable_bandwidth
      << ", \"flop_seconds\": " << r.flops / fp64_rate << ", \"target\": ";
  if (r.target > 0)
    out << r.target
        << ", \"target_met\": " << (r.seconds_per_element_step <= r.target ? "true" : "false");
  else
    out << "null, \"target_met\": null";
  out << "}";
  return out.str();
}

/// The double Mach reflection's target: the march to t = 0.2 on 963,272 triangles, H200.
constexpr double double_mach_target_seconds = 30;

/// --case double_mach (the file comment). Returns the exit status: 1 where the march failed or
/// density or pressure is not positive at the end.
int run_double_mach(const Options& options, int argc, char** argv, const std::string& started) {
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  const double end = 0.2;
  const auto setup_start = Clock::now();
  const DoubleMachReflection problem;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(options.resolution, problem);
  ExplicitTriangleDG dg(mesh, 1, problem.gas);
  const BarthJespersenLimiter limiter(dg);
  const PositivityFix positivity(dg);
  DeviceExplicitTriangleDG device_dg(dg);
  const DeviceBarthJespersenLimiter device_limiter(device_dg, limiter);
  const DevicePositivityFix device_positivity(device_dg, positivity);
  // Both in one kernel (device_stage_limiters.cuh): the same results, one pass over u. Passed
  // to the stepper as it is, not wrapped: the stepper then waits once per step, not per stage,
  // and the last stage's limiter kernel reduces the next wave speed.
  const DeviceLimiterAndPositivityFix device_limit(device_limiter, device_positivity);
  auto u =
      device_dg.upload(dg.project([&](const Point<2>& x) { return problem.initial_state(x); }));
  device_limit(u);  // the projected shock overshoots (examples/euler.cpp)
  DeviceTimeStepper stepper(device_dg, TimeScheme::ssp_rk2, device_limit);
  const auto boundary = double_mach_reflection_boundary(problem);
  POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
  const double setup_seconds = seconds_since(setup_start);
  std::printf(
      "%s; double Mach reflection, p = 1, limiter and positivity fix, SSP-RK2, CFL %g, "
      "t = %g: resolution %d, %d triangles, %zu DoFs (set-up %.1f s)\n",
      bench::device_name().c_str(), options.cfl, end, options.resolution, int(dg.element_count()),
      dg.coefficient_count(), setup_seconds);
  std::fflush(stdout);

  // DeviceTimeStepper::advance, its observer watching the wall clock (the file comment).
  std::string stopped, failure;
  long steps = 0;
  double t = 0;
  const auto start = Clock::now();
  double first_step_end = 0;  // the first step loads the kernels: left out of the projection
  const auto watch = [&](const StepReport& report) {
    steps = report.step;
    t = report.time;
    const double now = seconds_since(start);
    if (steps == 1) first_step_end = now;
    if (t >= end || options.max_seconds <= 0) return true;
    // Ten steps: enough for a steady seconds-per-step after the first.
    const double projected =
        steps > 10 ? now + (end - t) / report.step_size * (now - first_step_end) / double(steps - 1)
                   : 0.0;
    if (now <= options.max_seconds && projected <= options.max_seconds) return true;
    char why[160];
    if (now > options.max_seconds)
      std::snprintf(why, sizeof why, "stopped at step %ld, t = %.4f, after %.1f s > %s %.1f", steps,
                    t, now, "--max-seconds", options.max_seconds);
    else
      std::snprintf(why, sizeof why, "stopped at step %ld, t = %.4f: projected %.1f s > %s %.1f",
                    steps, t, projected, "--max-seconds", options.max_seconds);
    stopped = why;
    return false;
  };
  try {
    stepper.advance(u, 0.0, end, boundary, options.cfl, watch);
  } catch (const Error& error) {
    failure = error.what();
  }
  POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
  const double seconds = seconds_since(start);
  const auto [density, pressure] = positivity.smallest_at_vertices(device_dg.download(u));
  const bool finished = failure.empty() && stopped.empty();
  const bool positive = density > 0 && pressure > 0;
  const double element_steps = double(dg.element_count()) * double(steps);
  std::printf("%ld steps to t = %.6f in %.2f s (%.3e s per element-step); target %.0f s: %s\n",
              steps, t, seconds, element_steps > 0 ? seconds / element_steps : 0.0,
              double_mach_target_seconds,
              !finished                               ? "-"
              : seconds <= double_mach_target_seconds ? "met"
                                                      : "NOT MET");
  std::printf("min density %.6e, min pressure %.6e at the vertices%s\n", density, pressure,
              positive ? "" : "  NOT POSITIVE");
  if (!stopped.empty()) std::printf("NOT FINISHED: %s\n", stopped.c_str());
  if (!failure.empty()) std::printf("FAILED: %s\n", failure.c_str());

  if (!options.json.empty()) {
    std::ofstream json(options.json);
    require(bool(json), "bench_explicit: cannot write ", options.json);
    json.precision(17);
    json << "{" << bench::provenance_json(argc, argv, started, bench::device_json())
         << ", \"case\": \"double_mach\", \"scheme\": \"ssp_rk2\", \"p\": 1, \"cfl\": "
         << options.cfl << ", \"end_time\": " << end << ", \"resolution\": " << options.resolution
         << ", \"triangles\": " << dg.element_count() << ", \"steps\": " << steps
         << ", \"time\": " << t << ", \"finished\": " << (finished ? "true" : "false")
         << ", \"not_finished_because\": "
         << (finished ? "null" : bench::json_string(failure.empty() ? stopped : failure))
         << ", \"seconds\": " << seconds << ", \"setup_seconds\": " << setup_seconds
         << ", \"seconds_per_element_step\": "
         << (element_steps > 0 ? seconds / element_steps : 0.0)
         << ", \"target_seconds\": " << double_mach_target_seconds << ", \"target_met\": "
         << (finished && seconds <= double_mach_target_seconds ? "true" : "false")
         << ", \"min_density\": " << density << ", \"min_pressure\": " << pressure
         << ", \"max_seconds\": " << options.max_seconds << "}\n";
    require(bool(json), "bench_explicit: cannot write ", options.json);
  }
  return failure.empty() && positive ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  Options options;
  try {
    for (int i = 1; i < argc; i += 2) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        std::fputs(usage, stdout);
        return 0;
      }
      const bool known = flag == "--p" || flag == "--level" || flag == "--cpu-level" ||
                         flag == "--steps" || flag == "--warmup" || flag == "--cpu-steps" ||
                         flag == "--scheme" || flag == "--cfl" || flag == "--laws" ||
                         flag == "--kernels" || flag == "--json" || flag == "--case" ||
                         flag == "--resolution" || flag == "--max-seconds";
      require(known, "unknown option ", flag, " (see --help)");
      require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[i + 1];
      if (flag == "--p") {
        options.degrees = parse_integer_list(flag, value);
      } else if (flag == "--level") {
        options.level = parse_integer(flag, value);
      } else if (flag == "--cpu-level") {
        options.cpu_level = parse_integer(flag, value);
      } else if (flag == "--steps") {
        options.steps = parse_integer(flag, value);
      } else if (flag == "--warmup") {
        options.warmup = parse_integer(flag, value);
      } else if (flag == "--cpu-steps") {
        options.cpu_steps = parse_integer(flag, value);
      } else if (flag == "--scheme") {
        const std::string scheme = parse_choice_list(flag, value, {"rk4", "ssp_rk3", "ssp_rk2"})[0];
        options.scheme = scheme == "rk4"       ? TimeScheme::rk4
                         : scheme == "ssp_rk3" ? TimeScheme::ssp_rk3
                                               : TimeScheme::ssp_rk2;
      } else if (flag == "--cfl") {
        options.cfl = parse_number(flag, value);
      } else if (flag == "--laws") {
        options.laws = parse_choice_list(flag, value, {"euler", "advection"});
      } else if (flag == "--kernels") {
        options.kernels = parse_choice_list(flag, value, {"fixed_degree", "generic"});
      } else if (flag == "--case") {
        options.double_mach = parse_choice_list(flag, value, {"double_mach"})[0] == "double_mach";
      } else if (flag == "--resolution") {
        options.resolution = parse_integer(flag, value);
      } else if (flag == "--max-seconds") {
        options.max_seconds = parse_number(flag, value);
      } else {
        options.json = value;
      }
    }
    require(options.level >= 0 && options.level <= 8 && options.cpu_level >= 0 &&
                options.cpu_level <= 8,
            "--level and --cpu-level must be in 0..8");
    require(options.steps >= 1 && options.warmup >= 0 && options.cpu_steps >= 0,
            "--steps must be positive, --warmup and --cpu-steps not negative");
    for (int p : options.degrees)
      require(p >= 0 && p <= max_dubiner_degree, "--p: degree ", p, " is outside 0..",
              max_dubiner_degree);
    require(options.cfl > 0 && options.max_seconds >= 0,
            "--cfl must be positive, --max-seconds not negative");
    if (options.double_mach) return run_double_mach(options, argc, argv, started);

    const std::string device = bench::device_name();
    std::printf(
        "%s; %s, CFL %g; GPU: %d steps after %d; CPU (%d OpenMP threads): %d steps after 1; "
        "floors at %.1f TB/s; GFLOP/s from the model\n",
        device.c_str(), scheme_name(options.scheme), options.cfl, options.steps, options.warmup,
        openmp_threads(), options.cpu_steps, achievable_bandwidth * 1e-12);
    print_header();
    std::vector<Row> rows;
    const auto record = [&](const Row& row) {
      print(row);
      rows.push_back(row);
    };
    for (const std::string& law : options.laws) {
      if (law == "euler") {
        const SupersonicVortex vortex;
        const SupersonicVortexBoundary boundary{vortex};
        const auto initial = [&](const Point<2>& x) { return vortex.exact(x); };
        const SimplexMesh<2> mesh = supersonic_vortex_mesh(options.level, vortex);
        const SimplexMesh<2> cpu_mesh = supersonic_vortex_mesh(options.cpu_level, vortex);
        for (int p : options.degrees) {
          for (const std::string& kernels : options.kernels)
            record(run_gpu(law, euler_cost, mesh, p, vortex.gas, boundary, initial,
                           kernels == "generic" ? DeviceResidualKernels::generic
                                                : DeviceResidualKernels::fixed_degree,
                           options));
          if (options.cpu_steps > 0)
            record(run_cpu(law, euler_cost, cpu_mesh, p, vortex.gas, boundary, initial, options));
        }
      } else {
        const auto hill = rotating_hill_law();
        const auto boundary = exact_boundary(RotatingHill{});
        const auto initial = [](const Point<2>& x) { return RotatingHill{}(x, 0.0); };
        const SimplexMesh<2> mesh = rotating_hill_mesh(options.level);
        const SimplexMesh<2> cpu_mesh = rotating_hill_mesh(options.cpu_level);
        for (int p : options.degrees) {
          for (const std::string& kernels : options.kernels)
            record(run_gpu(law, advection_cost, mesh, p, hill, boundary, initial,
                           kernels == "generic" ? DeviceResidualKernels::generic
                                                : DeviceResidualKernels::fixed_degree,
                           options));
          if (options.cpu_steps > 0)
            record(run_cpu(law, advection_cost, cpu_mesh, p, hill, boundary, initial, options));
        }
      }
    }

    if (!options.json.empty()) {
      std::ofstream json(options.json);
      require(bool(json), "bench_explicit: cannot write ", options.json);
      json << "{" << bench::provenance_json(argc, argv, started, bench::device_json())
           << ", \"scheme\": \"" << scheme_name(options.scheme) << "\", \"cfl\": " << options.cfl
           << ", \"level\": " << options.level << ", \"cpu_level\": " << options.cpu_level
           << ", \"steps\": " << options.steps << ", \"warmup\": " << options.warmup
           << ", \"cpu_steps\": " << options.cpu_steps
           << ", \"achievable_bandwidth\": " << achievable_bandwidth
           << ", \"fp64_rate\": " << fp64_rate << ", \"rows\": [";
      for (std::size_t i = 0; i < rows.size(); ++i) json << (i ? ", " : "") << json_row(rows[i]);
      json << "]}\n";
    }
  } catch (const Error& error) {
    std::cerr << "bench_explicit: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
