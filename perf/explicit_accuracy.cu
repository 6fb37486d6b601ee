// Accuracy study of the explicit modal DG solver on the GPU: L2 errors and convergence rates of
// examples/euler.cpp's two smooth cases at meshes the CPU reference cannot reach in time,
// marched on the device (DeviceExplicitTriangleDG, DeviceTimeStepper;
// polydg/cuda/device_explicit_dg.cuh) and measured on the host (ExplicitTriangleDG::l2_errors
// of the downloaded coefficients):
//   rotating_hill      linear advection on [−1, 1]² (rotating_hill.hpp), 2 (8 · 2^L)² triangles,
//                      exact boundary data, RK4 over one rotation (t = 1); the scalar's L2 error;
//   supersonic_vortex  Euler on the quarter annulus (supersonic_vortex.hpp), 180 · 4^L
//                      triangles, SSP-RK3 from the exact solution's projection to the discrete
//                      steady state (max |R| ≤ 1e-4 of its start, checked every 20 steps) or
//                      t = 20; the density's L2 error.
// Everything as euler runs these cases (mesh, exact solution, boundary data, scheme, CFL 0.9,
// stopping rule), step for step: Δt = cfl h_min / (λ_max (2p + 1)) from the current state
// every step, the hill's last step shortened to land on t = 1 (TimeStepper::advance's loop),
// the vortex's loop march_to_steady_state's with max |R| reduced on the device. The GPU thus
// takes the CPU's steps, and the two errors agree to rounding: at the first level of each p the
// CPU march runs too where triangles · steps ≤ --cpu-check, and the table gives
// |error_GPU − error_CPU| / error_CPU.
//
// The marches call DeviceTimeStepper::step and DeviceExplicitTriangleDG::stable_time_step each
// step rather than DeviceTimeStepper::advance: --max-seconds needs control between steps, and
// advance lands on a given end time, which the steady march has not. The cost is the wave-speed
// kernel that advance would fuse into the last stage where the update is fused (Euler p = 1,
// the scalar law p ≤ 3): one short kernel more per step.
//
// Rates: log(e_{L−1} / e_L) / log(sqrt(n_L / n_{L−1})), n the triangle count (h halves per
// level). --max-seconds S: a march that has run S seconds, or is projected to need more (the
// hill: its remaining steps at the measured seconds per step; the vortex: up to the steady time
// of the previous level, whose pseudo-time to converge is about the same), stops and is reported
// as not finished, without an error; the finer levels of that p are then skipped. The JSON is
// rewritten after every row, so a run cut short keeps the rows it finished.
//
// --triangles-per-polygon K: the same cases on polygons, each level's triangles agglomerated by
// METIS into about triangles / K polygons (ExplicitPolygonDG, DeviceExplicitPolygonDG); the
// "triangles" column then counts the polygons (the elements), and rates use their counts.
//
//   explicit_accuracy --case rotating_hill|supersonic_vortex [--p 1,2,3,4] [--levels 0..3]
//                     [--cfl 0.9] [--max-seconds S] [--cpu-check 2e6]
//                     [--triangles-per-polygon K] [--json FILE]
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cuda_event_timing.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/cuda/device_explicit_polygon_dg.cuh"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/core/thrust_allocator.cuh"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/rotating_hill.hpp"
#include "polydg/hyperbolic/supersonic_vortex.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace {

using namespace polydg;
using namespace polydg::hyperbolic;
using Clock = std::chrono::steady_clock;
using DeviceVector = device::DeviceBuffer<double>;

// examples/euler.cpp's stopping rules.
constexpr double hill_end_time = 1.0;  // one rotation
constexpr double steady_tolerance = 1e-4;
constexpr double steady_max_time = 20.0;
constexpr long steady_check_every = 20;  // march_to_steady_state's default

/// The largest |error_GPU − error_CPU| / error_CPU taken for rounding. The coefficients differ
/// by rounding (nvcc contracts a·b + c into fused multiply-adds; 4e-15 after ~100 steps,
/// docs/performance.md, "Explicit DG steps"), which can grow over thousands of steps, while the
/// errors at the first levels go down to ~3e-7 (the vortex at p = 4). A different step count or
/// stopping check moves the error by more.
constexpr double rounding_difference = 1e-6;

constexpr const char* usage = R"(Usage: explicit_accuracy --case NAME [options]
L2 errors and convergence rates of the explicit DG solver's smooth cases (examples/euler.cpp),
marched on the GPU (DeviceTimeStepper) for each degree and mesh level; at the first level of
each degree the CPU march too, as a consistency check.
  --case NAME        rotating_hill (RK4, one rotation, 2 (8 * 2^L)^2 triangles) or
                     supersonic_vortex (SSP-RK3 to max|R| <= 1e-4 of its start or t = 20,
                     180 * 4^L triangles)
  --p P[,P...]       degrees, 0..10 (default 1,2,3,4)
  --levels A..B      mesh levels A to B, 0 <= A <= B <= 8; or one level A (default 0..3)
  --cfl C            CFL number, > 0: dt = C h_min / (lambda_max (2p + 1)) (default 0.9)
  --max-seconds S    stop a march that has run S seconds or is projected to need more, report
                     it as not finished and skip the finer levels of its degree (default 0: no
                     limit)
  --cpu-check N      run the CPU march at the first level where triangles * steps <= N
                     (default 2e6; 0: never)
  --triangles-per-polygon K
                     on METIS polygons of about K triangles of each level's mesh (default 0:
                     the triangles)
  --json FILE        provenance and one row per degree and level, rewritten after every row
  --help             this text
)";

struct Options {
  std::string case_name;
  std::vector<int> degrees = {1, 2, 3, 4};
  int first_level = 0, last_level = 3;
  double cfl = 0.9;
  double max_seconds = 0;  ///< 0: no limit
  double cpu_check_limit = 2e6;
  int triangles_per_polygon = 0;  ///< 0: triangles
  std::string json;
};

/// "A..B" or "A".
std::pair<int, int> parse_levels(const std::string& flag, const std::string& value) {
  const std::size_t dots = value.find("..");
  const int first = parse_integer(flag, value.substr(0, dots));
  const int last = dots == std::string::npos ? first : parse_integer(flag, value.substr(dots + 2));
  require(first >= 0 && first <= last && last <= 8, "option ", flag, ": '", value,
          "': expected A..B with 0 <= A <= B <= 8");
  return {first, last};
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::fputs(usage, stdout);
      std::exit(0);
    }
    const bool known = flag == "--case" || flag == "--p" || flag == "--levels" || flag == "--cfl" ||
                       flag == "--max-seconds" || flag == "--cpu-check" || flag == "--json" ||
                       flag == "--triangles-per-polygon";
    require(known, "unknown option ", flag, " (see --help)");
    require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
    const std::string value = argv[i + 1];
    if (flag == "--case") {
      require(value == "rotating_hill" || value == "supersonic_vortex", "option --case: '", value,
              "': use rotating_hill or supersonic_vortex");
      options.case_name = value;
    } else if (flag == "--p") {
      options.degrees = parse_integer_list(flag, value);
    } else if (flag == "--levels") {
      std::tie(options.first_level, options.last_level) = parse_levels(flag, value);
    } else if (flag == "--cfl") {
      options.cfl = parse_number(flag, value);
      require(options.cfl > 0, "option --cfl: ", value, " is not positive");
    } else if (flag == "--max-seconds") {
      options.max_seconds = parse_number(flag, value);
      require(options.max_seconds >= 0, "option --max-seconds: ", value, " is negative");
    } else if (flag == "--triangles-per-polygon") {
      options.triangles_per_polygon = parse_integer(flag, value);
      require(options.triangles_per_polygon >= 0, "option --triangles-per-polygon: ", value,
              " is negative");
    } else if (flag == "--cpu-check") {
      options.cpu_check_limit = parse_number(flag, value);
      require(options.cpu_check_limit >= 0, "option --cpu-check: ", value, " is negative");
    } else {
      options.json = value;
    }
  }
  require(!options.case_name.empty(),
          "--case is required: rotating_hill or supersonic_vortex (see --help)");
  for (const int p : options.degrees)
    require(p >= 0 && p <= max_dubiner_degree, "option --p: degree ", p, " is outside 0..",
            max_dubiner_degree);
  return options;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string fixed(double value, int digits) {
  std::ostringstream text;
  text.precision(digits);
  text << std::fixed << value;
  return text.str();
}

/// --max-seconds for one march (the file comment).
class MarchBudget {
 public:
  explicit MarchBudget(double limit) : limit_(limit) {}

  double elapsed() const { return seconds_since(start_); }

  /// Called after each step but the last: why the march must stop, or "" to go on.
  /// remaining_steps: about how many steps are left; negative where that is unknown.
  std::string check(long steps, double remaining_steps) {
    const double now = elapsed();
    // The first step loads the kernels (lazy module loading): left out of the seconds per step.
    if (steps == 1) first_step_end_ = now;
    if (limit_ <= 0) return {};
    if (now > limit_)
      return "stopped at step " + std::to_string(steps) + " after " + fixed(now, 1) +
             " s (--max-seconds " + fixed(limit_, 1) + ")";
    // Ten steps: enough for a steady seconds-per-step after the first.
    if (remaining_steps >= 0 && steps > 10) {
      const double projected = now + remaining_steps * (now - first_step_end_) / double(steps - 1);
      if (projected > limit_)
        return "stopped at step " + std::to_string(steps) + ": projected " + fixed(projected, 1) +
               " s > --max-seconds " + fixed(limit_, 1);
    }
    return {};
  }

 private:
  double limit_;
  Clock::time_point start_ = Clock::now();
  double first_step_end_ = 0;
};

/// How one march went.
struct March {
  long steps = 0;
  double time = 0;     ///< t reached
  double seconds = 0;  ///< wall clock of the march, its device work included
  /// Why --max-seconds stopped it ("" where it finished).
  std::string stopped;
  /// The steady march: max |R| at the start and at the last check, and whether it reached
  /// steady_tolerance (else t = steady_max_time).
  double initial_residual = 0, final_residual = 0;
  bool steady = false;
};

/// |v|, and the larger of two: max |R| as a device reduction (fmax, as the CPU's std::fmax).
struct Magnitude {
  POLYDG_HD double operator()(double v) const { return fabs(v); }
};
struct Larger {
  POLYDG_HD double operator()(double a, double b) const { return fmax(a, b); }
};

/// max_i |r_i| of a device vector (waits for the device).
double largest_magnitude(const DeviceVector& r) {
  device::ThrustAllocator allocator;
  return thrust::transform_reduce(thrust::cuda::par(allocator), r.data(), r.data() + r.size(),
                                  Magnitude{}, 0.0, Larger{});
}
/// The same on the host. Unused by main: with these two the loops below also run on the CPU
/// (ExplicitTriangleDG, TimeStepper), where they take the steps of TimeStepper::advance and
/// march_to_steady_state bit for bit; that is how the loops are checked without a GPU.
[[maybe_unused]] double largest_magnitude(const std::vector<double>& r) {
  double largest = 0;
  for (const double v : r) largest = std::fmax(largest, std::abs(v));
  return largest;
}
void wait_for_device(const DeviceVector&) { POLYDG_CUDA_CHECK(cudaDeviceSynchronize()); }
[[maybe_unused]] void wait_for_device(const std::vector<double>&) {}

/// The hill's march: TimeStepper::advance's loop from t = 0 to `end`, stopped by --max-seconds.
template <class Dg, class Stepper, class Vector, class Boundary>
March march_to_end(Dg& dg, Stepper& stepper, Vector& u, const Boundary& boundary, double end,
                   double cfl, double max_seconds) {
  MarchBudget budget(max_seconds);
  March march;
  double t = 0;
  while (t < end) {
    double dt = dg.stable_time_step(u, t, cfl);  // on the GPU, waits for the device
    if (t + 1.0000001 * dt >= end) dt = end - t;
    stepper.step(u, t, dt, boundary);
    t = t + dt >= end ? end : t + dt;
    ++march.steps;
    // The wave speed of linear advection does not depend on u: Δt is the same every step.
    if (t < end) march.stopped = budget.check(march.steps, (end - t) / dt);
    if (!march.stopped.empty()) break;
  }
  wait_for_device(u);
  march.time = t;
  march.seconds = budget.elapsed();
  return march;
}

/// The vortex's march: march_to_steady_state's loop (supersonic_vortex.hpp), stopped by
/// --max-seconds; r: scratch of u's size for R(u). expected_time: the pseudo-time the previous
/// level took to converge, for the projection (0: unknown).
template <class Dg, class Stepper, class Vector, class Boundary>
March march_to_steady_state_within(Dg& dg, Stepper& stepper, Vector& u, Vector& r,
                                   const Boundary& boundary, double cfl, double expected_time,
                                   double max_seconds) {
  const auto residual_norm = [&](double t) {
    dg.residual(u, t, boundary, r);
    return largest_magnitude(r);
  };
  MarchBudget budget(max_seconds);
  March march;
  march.initial_residual = march.final_residual = residual_norm(0.0);
  const auto going = [&](double t) {
    return t < steady_max_time && march.final_residual > steady_tolerance * march.initial_residual;
  };
  double t = 0;
  while (going(t)) {
    const double dt = dg.stable_time_step(u, t, cfl);
    stepper.step(u, t, dt, boundary);
    t += dt;
    ++march.steps;
    if (march.steps % steady_check_every == 0 || t >= steady_max_time)
      march.final_residual = residual_norm(t);
    if (going(t)) {
      const double remaining = t < expected_time ? (expected_time - t) / dt : -1.0;
      march.stopped = budget.check(march.steps, remaining);
      if (!march.stopped.empty()) break;
    }
  }
  wait_for_device(u);
  march.time = t;
  march.seconds = budget.elapsed();
  march.steady = march.final_residual <= steady_tolerance * march.initial_residual;
  return march;
}

/// One degree and level.
struct Row {
  int p = 0, level = 0;
  long long triangles = 0;
  std::size_t dofs = 0;
  March march;
  double setup_seconds = 0;        ///< mesh, DG set-up, projection, upload
  std::optional<double> l2_error;  ///< none: the march did not finish
  std::optional<double> rate;
  /// Why there is no error: not run (a coarser level did not finish) or a polydg::Error.
  std::string failure;
  struct CpuCheck {
    long steps = 0;
    double time = 0, l2_error = 0, seconds = 0, relative_difference = 0;
    bool steady = true;
  };
  std::optional<CpuCheck> cpu;

  bool finished() const { return l2_error.has_value(); }
  bool cpu_agrees() const {
    return !cpu || (cpu->steps == march.steps && cpu->relative_difference <= rounding_difference);
  }
};

/// The rotating hill as euler's rotating_hill case sets it up.
struct RotatingHillCase {
  static constexpr TimeScheme scheme = TimeScheme::rk4;
  static constexpr const char* scheme_name = "rk4";
  static constexpr const char* error_name = "scalar";

  SimplexMesh<2> mesh(int level) const { return rotating_hill_mesh(level); }
  LinearAdvection<RotatingVelocity> law() const { return rotating_hill_law(); }
  ExactBoundary<RotatingHill> boundary() const { return exact_boundary(RotatingHill{}); }
  State<1> initial(const Point<2>& x) const { return RotatingHill{}(x, 0.0); }
  template <class Dg>
  double l2_error(const Dg& dg, const std::vector<double>& u, double t) const {
    return dg.l2_errors(u, RotatingHill{}, t)[0];
  }
  template <class DeviceDg>
  March march_on_device(DeviceDg& dg, DeviceVector& u, const Options& options, const Row*) const {
    DeviceTimeStepper stepper(dg, scheme);
    return march_to_end(dg, stepper, u, boundary(), hill_end_time, options.cfl,
                        options.max_seconds);
  }
  template <class Dg>
  Row::CpuCheck march_on_cpu(Dg& dg, std::vector<double>& u, double cfl) const {
    TimeStepper stepper(dg, scheme);
    const TimeSteppingStatistics stats = stepper.advance(u, 0.0, hill_end_time, boundary(), cfl);
    Row::CpuCheck check;
    check.steps = stats.steps;
    check.time = stats.final_time;
    return check;
  }
};

/// The supersonic vortex as euler's supersonic_vortex case sets it up.
struct SupersonicVortexCase {
  static constexpr TimeScheme scheme = TimeScheme::ssp_rk3;
  static constexpr const char* scheme_name = "ssp_rk3";
  static constexpr const char* error_name = "density";
  SupersonicVortex vortex{};

  SimplexMesh<2> mesh(int level) const { return supersonic_vortex_mesh(level, vortex); }
  Euler law() const { return vortex.gas; }
  SupersonicVortexBoundary boundary() const { return SupersonicVortexBoundary{vortex}; }
  State<4> initial(const Point<2>& x) const { return vortex.exact(x); }
  template <class Dg>
  double l2_error(const Dg& dg, const std::vector<double>& u, double) const {
    return dg.l2_errors(u, vortex, 0.0)[0];
  }
  template <class DeviceDg>
  March march_on_device(DeviceDg& dg, DeviceVector& u, const Options& options,
                        const Row* previous) const {
    const double expected_time =
        previous && previous->finished() && previous->march.steady ? previous->march.time : 0.0;
    DeviceTimeStepper stepper(dg, scheme);
    DeviceVector r = dg.make_vector();
    return march_to_steady_state_within(dg, stepper, u, r, boundary(), options.cfl, expected_time,
                                        options.max_seconds);
  }
  template <class Dg>
  Row::CpuCheck march_on_cpu(Dg& dg, std::vector<double>& u, double cfl) const {
    const SteadyStateMarch march =
        march_to_steady_state(dg, scheme, u, boundary(), cfl, steady_tolerance, steady_max_time);
    Row::CpuCheck check;
    check.steps = march.steps;
    check.time = march.time;
    check.steady = march.converged;
    return check;
  }
};

/// The device solver of a CPU solver (returned by guaranteed elision: neither is moved).
template <class Law>
DeviceExplicitTriangleDG<Law> device_solver(const ExplicitTriangleDG<Law>& dg) {
  return DeviceExplicitTriangleDG<Law>(dg);
}
template <class Law>
DeviceExplicitPolygonDG<Law> device_solver(const ExplicitPolygonDG<Law>& dg) {
  return DeviceExplicitPolygonDG<Law>(dg);
}

/// One degree and level on the solver dg (set up from setup_start on): the GPU march, the
/// error, and (first level, when cheap) the CPU march. previous: the coarser level of the same
/// degree, if it ran.
template <class Case, class Dg>
Row run_level_on(const Case& accuracy_case, Dg& dg, int p, int level, const Options& options,
                 const Row* previous, Clock::time_point setup_start) {
  Row row;
  row.p = p;
  row.level = level;
  const auto initial = [&](const Point<2>& x) { return accuracy_case.initial(x); };
  row.triangles = dg.element_count();
  row.dofs = dg.coefficient_count();
  auto device_dg = device_solver(dg);
  DeviceVector u = device_dg.upload(dg.project(initial));
  row.setup_seconds = seconds_since(setup_start);

  row.march = accuracy_case.march_on_device(device_dg, u, options, previous);
  if (!row.march.stopped.empty()) return row;
  const std::vector<double> result = device_dg.download(u);
  row.l2_error = accuracy_case.l2_error(dg, result, row.march.time);
  if (previous && previous->finished() && previous->level == level - 1)
    row.rate = std::log(*previous->l2_error / *row.l2_error) /
               std::log(std::sqrt(double(row.triangles) / double(previous->triangles)));

  const bool cheap = double(row.triangles) * double(row.march.steps) <= options.cpu_check_limit;
  if (level == options.first_level && cheap) {
    std::vector<double> cpu_u = dg.project(initial);
    const auto cpu_start = Clock::now();
    Row::CpuCheck check = accuracy_case.march_on_cpu(dg, cpu_u, options.cfl);
    check.seconds = seconds_since(cpu_start);
    check.l2_error = accuracy_case.l2_error(dg, cpu_u, check.time);
    check.relative_difference = std::abs(*row.l2_error - check.l2_error) / check.l2_error;
    row.cpu = check;
  }
  return row;
}

/// One degree and level, on the level's triangles or (--triangles-per-polygon) its polygons.
template <class Case>
Row run_level(const Case& accuracy_case, int p, int level, const Options& options,
              const Row* previous) {
  const auto setup_start = Clock::now();
  auto mesh = std::make_shared<const SimplexMesh<2>>(accuracy_case.mesh(level));
  if (options.triangles_per_polygon == 0) {
    ExplicitTriangleDG dg(*mesh, p, accuracy_case.law());
    return run_level_on(accuracy_case, dg, p, level, options, previous, setup_start);
  }
  const Index parts = std::max<Index>(1, mesh->cell_count() / options.triangles_per_polygon);
  const PolytopicMesh<2> polygons(mesh, agglomerate(*mesh, parts).element_of_cell, 1);
  ExplicitPolygonDG dg(polygons, p, accuracy_case.law());
  return run_level_on(accuracy_case, dg, p, level, options, previous, setup_start);
}

void print_header(bool steady) {
  std::printf("%2s %5s %9s %10s %7s %9s %13s %6s %9s %11s  %s\n", "p", "level", "triangles", "DoFs",
              "steps", steady ? "t steady" : "t", "L2 error", "rate", "seconds", "ns/el-step",
              "status");
  std::fflush(stdout);
}

void print(const Row& row, bool steady_case) {
  std::string error = "-", rate = "-", status;
  if (row.l2_error) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6e", *row.l2_error);
    error = text;
  }
  if (row.rate) rate = fixed(*row.rate, 2);
  if (!row.failure.empty()) {
    status = row.failure;
  } else if (!row.march.stopped.empty()) {
    status = "NOT FINISHED: " + row.march.stopped;
  } else if (steady_case) {
    std::ostringstream text;
    text.precision(2);
    text << (row.march.steady ? "steady" : "t = 20, NOT steady")
         << ": max|R| / max|R0| = " << std::scientific
         << row.march.final_residual / row.march.initial_residual;
    status = text.str();
  } else {
    status = "t = 1";
  }
  const double element_steps = double(row.triangles) * double(row.march.steps);
  const std::string per_element_step =
      element_steps > 0 ? fixed(row.march.seconds / element_steps * 1e9, 2) : "-";
  std::printf("%2d %5d %9lld %10zu %7ld %9.4f %13s %6s %9.3f %11s  %s\n", row.p, row.level,
              row.triangles, row.dofs, row.march.steps, row.march.time, error.c_str(), rate.c_str(),
              row.march.seconds, per_element_step.c_str(), status.c_str());
  if (row.cpu)
    std::printf(
        "   CPU check: %ld steps, t = %.4f, L2 error %.6e, %.2f s; |GPU - CPU| / CPU = "
        "%.2e%s\n",
        row.cpu->steps, row.cpu->time, row.cpu->l2_error, row.cpu->seconds,
        row.cpu->relative_difference,
        row.cpu_agrees() ? " (rounding)" : "  MISMATCH: more than rounding");
  std::fflush(stdout);
}

/// A double as JSON (null where absent or not finite).
std::string json_number(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return "null";
  std::ostringstream text;
  text.precision(17);
  text << *value;
  return text.str();
}

std::string json_row(const Row& row, bool steady_case) {
  std::ostringstream out;
  out << "{\"p\": " << row.p << ", \"level\": " << row.level << ", \"triangles\": " << row.triangles
      << ", \"dofs\": " << row.dofs << ", \"steps\": " << row.march.steps
      << ", \"time\": " << json_number(row.march.time)
      << ", \"finished\": " << (row.finished() ? "true" : "false") << ", \"not_finished_because\": "
      << (row.finished()
              ? "null"
              : bench::json_string(row.failure.empty() ? row.march.stopped : row.failure));
  if (steady_case)
    out << ", \"steady\": " << (row.march.steady ? "true" : "false")
        << ", \"initial_residual\": " << json_number(row.march.initial_residual)
        << ", \"final_residual\": " << json_number(row.march.final_residual);
  const double element_steps = double(row.triangles) * double(row.march.steps);
  out << ", \"l2_error\": " << json_number(row.l2_error) << ", \"rate\": " << json_number(row.rate)
      << ", \"seconds\": " << json_number(row.march.seconds) << ", \"seconds_per_element_step\": "
      << json_number(element_steps > 0 ? std::optional(row.march.seconds / element_steps)
                                       : std::nullopt)
      << ", \"setup_seconds\": " << json_number(row.setup_seconds) << ", \"cpu_check\": ";
  if (row.cpu)
    out << "{\"steps\": " << row.cpu->steps << ", \"time\": " << json_number(row.cpu->time)
        << ", \"l2_error\": " << json_number(row.cpu->l2_error)
        << ", \"seconds\": " << json_number(row.cpu->seconds)
        << ", \"relative_difference\": " << json_number(row.cpu->relative_difference)
        << ", \"agrees\": " << (row.cpu_agrees() ? "true" : "false") << "}";
  else
    out << "null";
  out << "}";
  return out.str();
}

void write_json(const std::string& path, const std::string& provenance, const Options& options,
                const char* scheme_name, const std::vector<Row>& rows) {
  std::ofstream json(path);
  require(bool(json), "cannot write ", path);
  const bool steady_case = options.case_name == "supersonic_vortex";
  json << "{" << provenance << ", \"case\": \"" << options.case_name << "\", \"scheme\": \""
       << scheme_name << "\", \"cfl\": " << json_number(options.cfl) << ", \"degrees\": [";
  for (std::size_t i = 0; i < options.degrees.size(); ++i)
    json << (i ? ", " : "") << options.degrees[i];
  json << "], \"levels\": [" << options.first_level << ", " << options.last_level
       << "], \"max_seconds\": "
       << json_number(options.max_seconds > 0 ? std::optional(options.max_seconds) : std::nullopt)
       << ", \"cpu_check\": " << json_number(options.cpu_check_limit)
       << ", \"triangles_per_polygon\": " << options.triangles_per_polygon << ", \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i)
    json << (i ? ",\n  " : "\n  ") << json_row(rows[i], steady_case);
  json << "]}\n";
  require(bool(json), "cannot write ", path);
}

/// Every degree and level of one case; returns the exit status (1 where a march failed or the
/// CPU check found more than rounding).
template <class Case>
int run_case(const Case& accuracy_case, const Options& options, const std::string& provenance) {
  const bool steady_case = options.case_name == "supersonic_vortex";
  std::printf("%s; %s, %s, CFL %g; %s L2 errors; rates against the previous level\n",
              bench::device_name().c_str(), options.case_name.c_str(), Case::scheme_name,
              options.cfl, Case::error_name);
  print_header(steady_case);
  std::vector<Row> rows;
  int status = 0;
  for (const int p : options.degrees) {
    std::optional<std::size_t> previous;  // index in rows of the coarser level of this p
    for (int level = options.first_level; level <= options.last_level; ++level) {
      Row row;
      if (previous && !rows[*previous].finished()) {
        // A finer level takes longer than the one that did not finish, or fails the same way.
        row.p = p;
        row.level = level;
        row.failure = "not run: level " + std::to_string(level - 1) + " did not finish";
      } else {
        try {
          row = run_level(accuracy_case, p, level, options, previous ? &rows[*previous] : nullptr);
        } catch (const Error& error) {
          row.p = p;
          row.level = level;
          row.failure = std::string("FAILED: ") + error.what();
          status = 1;
        }
      }
      if (!row.cpu_agrees()) status = 1;
      print(row, steady_case);
      rows.push_back(row);
      previous = rows.size() - 1;
      if (!options.json.empty())
        write_json(options.json, provenance, options, Case::scheme_name, rows);
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string started = bench::utc_now();
  try {
    const Options options = parse_options(argc, argv);
    if (device::device_count() == 0) {
      // ctest's SKIPPED: the program is fine, the machine has nothing to run it on.
      std::cerr << "explicit_accuracy: no CUDA-capable device is visible: nothing to run\n";
      return 77;
    }
    const std::string provenance =
        bench::provenance_json(argc, argv, started, bench::device_json());
    return options.case_name == "rotating_hill"
               ? run_case(RotatingHillCase{}, options, provenance)
               : run_case(SupersonicVortexCase{}, options, provenance);
  } catch (const Error& error) {
    std::cerr << "explicit_accuracy: " << error.what() << '\n';
    return 1;
  }
}
