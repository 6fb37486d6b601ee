//                      libpolydg example: euler
//
// Compile:  part of the libpolydg build.
//
// Sample runs:
//   build/bin/euler
//   build/bin/euler --case supersonic_vortex --p 2 --level 1 --json vortex.json --progress 500
//   build/bin/euler --case rotating_hill --p 3 --level 2 --cfl 0.9
//   build/bin/euler --case double_mach --level 2 --progress 200 --vtk dmr --vtk-every 100
//   build/bin/euler --case double_mach --level 2 --stop-after-steps 1000 --save-restart dmr.restart
//   build/bin/euler --case double_mach --level 2 --restart dmr.restart
//   build/bin/euler --case double_mach --level 5 --backend gpu --progress 2000
//   mpiexec -n 4 build/bin/euler --case double_mach --level 2   (each rank its part of the mesh)
//   mpiexec -n 2 build/bin/euler --case double_mach --level 5 --backend gpu   (one GPU per rank)
//   build/bin/euler --case double_mach --level 5 --write-parts dmr_parts --ranks 8
//   mpiexec -n 8 build/bin/euler --case double_mach --level 5 --read-parts dmr_parts
//
// Description: the explicit modal DG path for conservation laws (docs/theory.md, "Explicit path
// for conservation laws") on its two smooth tests, with RK time steps at a CFL number:
//  * rotating_hill: u_t − 2πy u_x + 2πx u_y = 0 on [−1, 1]², a Gaussian of radius 0.15 at
//    (0.2, 0), exact data on the boundary, one rotation (T = 1) with RK4; an 8 · 2^L square
//    grid of 2 (8 · 2^L)² triangles; the error is the scalar's L2 error at T.
//  * supersonic_vortex: the Euler equations on the quarter annulus (supersonic_vortex.hpp),
//    180 · 4^L triangles, marched with SSP-RK3 from the exact solution's projection to the
//    discrete steady state (max |R| ≤ 1e-4 of its start, or t = 20); the error is the
//    density's L2 error against the exact solution.
//  * double_mach: a Mach 10 shock reflected by a 30° wedge (double_mach_reflection.hpp) on
//    [0, 4] × [0, 1], 8 (12 · 2^L)² triangles, p = 1 with the Barth–Jespersen limiter and the
//    positivity fix after every stage, SSP-RK2, to t = 0.2 (CFL 0.5 unless --cfl); no exact
//    solution: the run reports the smallest density and pressure at its points instead, and
//    fails if they are not positive.
// Output (hyperbolic/explicit_output.hpp): --vtk writes a ParaView series of u_h sampled on
// sub-triangles; --stop-after-steps with --save-restart stops a time-dependent march and saves
// (u, t, step), which --restart resumes bit for bit: the resumed run's final coefficients, and
// so its JSON, are those of the run that was never stopped (the steps depend only on (u, t):
// TimeStepper, the limiter and the positivity fix keep no state between steps). The steady
// march of supersonic_vortex is not resumable (parse_options says why).
// Under mpiexec -n R: rotating_hill and double_mach on R ranks, each its part of the mesh, the
// ghosts' coefficients exchanged every stage (DistributedExplicitDG, or with --backend gpu
// DistributedDeviceExplicitDG, one GPU per rank); the same steps, errors and smallest values as
// one rank. The options of output, restart and progress, and supersonic_vortex, run on one rank
// only, and are refused on more. --write-parts DIR --ranks R writes the case's mesh as R rank
// part files (polydg/mesh/rank_part_file.hpp), once, on one rank; --read-parts DIR then runs
// the case under mpiexec -n R with each rank reading its own part only: no rank builds the
// whole mesh (the distributed read), and the results are those of the ranks that do.
// --backend gpu (a build with CUDA): the same cases marched by DeviceTimeStepper
// (polydg/cuda/device_explicit_dg.cuh, the device limiters for double_mach) with u on the GPU,
// copied back for the progress lines, the --vtk files, a restart file and the end; the results
// equal the CPU's to rounding, and a GPU run resumes bit for bit from its own restart file.
#include "polydg/hyperbolic/euler.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/hyperbolic/distributed_explicit_dg.hpp"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_output.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/rotating_hill.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"
#include "polydg/hyperbolic/supersonic_vortex.hpp"
#include "polydg/io/pvd_writer.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/rank_part_file.hpp"
#include "polydg/mesh/rank_submesh.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/petsc/world.hpp"
#include "rank_part_options.hpp"
#if POLYDG_CUDA
#include "polydg/core/device_buffer.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/cuda/device_stage_limiters.cuh"
#include "polydg/cuda/distributed_device_explicit_dg.cuh"
#endif

namespace {

using namespace polydg;
using namespace polydg::hyperbolic;

struct Options : examples::RankPartOptions {
  std::string name = "rotating_hill";
  int p = -1;  ///< -1: the case's default (2; double_mach 1)
  int level = 0;
  double cfl = 0;  ///< 0: the case's default (0.9; double_mach 0.5)
  long progress = 0;
  std::string json_path;
  std::string vtk_directory;  ///< empty: no VTU series
  long vtk_every = 0;         ///< 0: only the first and the last state
  long stop_after_steps = 0;  ///< 0: march to the case's end
  std::string save_restart_path;
  std::string restart_path;
  std::string backend = "cpu";  ///< cpu or gpu
};

const char* help_text = R"(Usage: euler [options]
  --case NAME      rotating_hill (default), supersonic_vortex or double_mach
  --p P            polynomial degree, 0..10 (default 2; double_mach: 1, the only one)
  --level L        mesh level, 0..5: rotating_hill 2 (8 * 2^L)^2 triangles, supersonic_vortex
                   180 * 4^L triangles, double_mach 8 (12 * 2^L)^2 triangles (default 0)
  --cfl C          CFL number, > 0 (default 0.9; double_mach 0.5):
                   dt = C h_min / (lambda_max (2p + 1))
  --progress N     a line every N steps: step, t, dt, seconds per step, and min density and
                   pressure (Euler) or min / max of the scalar (default 0: none)
  --json FILE      {"case", "p", "level", "elements", "dofs", "steps", "first_step", "time",
                    "l2_error", "seconds", "seconds_per_element_step"}; double_mach:
                    "min_density", "min_pressure" instead of "l2_error". steps: the step count
                    at the end (a resumed run's included), first_step: where this run began,
                    time: the time reached; seconds: this run's steps, the output left out
  --vtk DIR        a ParaView series DIR/<case>.pvd of DIR/<case>_NNNN.vtu (NNNN: the step):
                   the first state, every --vtk-every steps, the last state; u_h sampled on
                   r^2 sub-triangles per triangle, r = max(1, p): density, momentum_x,
                   momentum_y, energy and pressure (Euler) or u (rotating_hill)
  --vtk-every N    also every N steps (default 0: the first and the last state only)
  --stop-after-steps N
                   stop after N steps of this run, before the case's end time (default 0: run
                   to the end); l2_error is then the error at the time reached
  --save-restart FILE
                   write the state where the run stops (u, t, step; binary, atomic)
  --restart FILE   resume from a --save-restart file of the same case, --p and --level (checked):
                   with the same --cfl and --backend, the run ends bit for bit as if it had
                   never stopped. Not for supersonic_vortex (nor --stop-after-steps,
                   --save-restart): its steady march stops on a residual test whose state a
                   restart file does not hold
  --backend B      cpu (default; OpenMP) or gpu (a build with CUDA and a visible device): the
                   steps on the GPU, the output copied back
  --write-parts DIR
                   with --ranks R (rotating_hill, double_mach; on one rank): partition the
                   case's mesh for R ranks and write DIR/part_<r>_of_<R>.polydg, then stop
  --ranks R        the rank count --write-parts writes parts for
  --read-parts DIR under mpiexec -n R: each rank reads its part from DIR (written for the same
                   --case, --level and R, checked) instead of building the whole mesh
  --help           this text
Under mpiexec -n R: rotating_hill and double_mach, each rank its part of the mesh (with
--backend gpu, one GPU per rank; the one-rank results); --vtk, --progress, --stop-after-steps,
--save-restart, --restart and supersonic_vortex run on one rank only (and not with
--read-parts).
)";

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::cout << help_text;
      std::exit(0);
    }
    require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
    const std::string value = argv[++i];
    if (flag == "--case")
      o.name = value;
    else if (flag == "--p")
      o.p = parse_integer(flag, value);
    else if (flag == "--level")
      o.level = parse_integer(flag, value);
    else if (flag == "--cfl") {
      o.cfl = parse_number(flag, value);
      require(o.cfl > 0, "--cfl ", value, ": must be positive");
    } else if (flag == "--progress")
      o.progress = parse_integer(flag, value);
    else if (flag == "--json")
      o.json_path = value;
    else if (flag == "--vtk")
      o.vtk_directory = value;
    else if (flag == "--vtk-every")
      o.vtk_every = parse_integer(flag, value);
    else if (flag == "--stop-after-steps")
      o.stop_after_steps = parse_integer(flag, value);
    else if (flag == "--save-restart")
      o.save_restart_path = value;
    else if (flag == "--restart")
      o.restart_path = value;
    else if (flag == "--backend")
      o.backend = value;
    else if (!o.take_rank_part_option(flag, value))
      raise("unknown option '", flag, "' (see --help)");
  }
  require(o.name == "rotating_hill" || o.name == "supersonic_vortex" || o.name == "double_mach",
          "--case ", o.name, ": use rotating_hill, supersonic_vortex or double_mach");
  require(o.backend == "cpu" || o.backend == "gpu", "--backend ", o.backend, ": use cpu or gpu");
#if POLYDG_CUDA
  require(o.backend == "cpu" || device::device_count() > 0,
          "--backend gpu: no CUDA-capable device is visible");
#else
  require(o.backend == "cpu", "--backend gpu: this build of libpolydg has no CUDA");
#endif
  const bool double_mach = o.name == "double_mach";
  if (o.p < 0) o.p = double_mach ? 1 : 2;
  if (o.cfl == 0) o.cfl = double_mach ? 0.5 : 0.9;
  require(!double_mach || o.p == 1, "--p ", o.p,
          ": double_mach runs at p = 1 (the Barth-Jespersen limiter's degree)");
  require(o.p >= 0 && o.p <= max_dubiner_degree, "--p ", o.p,
          " is outside the supported degrees [0, ", max_dubiner_degree, "]");
  require(o.level >= 0 && o.level <= 5, "--level ", o.level, ": use 0..5");
  require(o.cfl > 0, "--cfl ", o.cfl, ": must be positive");
  require(o.progress >= 0, "--progress ", o.progress, ": must be at least 0");
  require(o.vtk_every >= 0, "--vtk-every ", o.vtk_every, ": must be at least 0");
  require(o.vtk_every == 0 || !o.vtk_directory.empty(), "--vtk-every ", o.vtk_every,
          ": needs --vtk DIR");
  require(o.stop_after_steps >= 0, "--stop-after-steps ", o.stop_after_steps,
          ": must be at least 0");
  // march_to_steady_state stops when max |R| at a check (every 20 steps) is below 1e-4 of its
  // value at the projection: state that a restart file (u, t, step) does not hold, so a resumed
  // march could stop at another step than the uninterrupted one; it would also need a stop
  // after N steps that the march does not have. Refused rather than resumed approximately.
  if (o.name == "supersonic_vortex")
    for (const auto& [flag, given] : {std::pair{"--stop-after-steps", o.stop_after_steps > 0},
                                      std::pair{"--save-restart", !o.save_restart_path.empty()},
                                      std::pair{"--restart", !o.restart_path.empty()}})
      require(!given, flag,
              ": not for supersonic_vortex, whose march to a steady state stops on a residual "
              "test (max |R| against its value at the start, every 20 steps) that a restart "
              "file does not hold");
  o.check_rank_part_options();
  // Several ranks (mpiexec -n R), or parts read from files: the march of rotating_hill and
  // double_mach, each rank its part of the mesh (march_on_ranks); the rest is one rank's, from
  // the whole mesh, for now.
  const bool parts_given = !o.write_parts.empty() || !o.read_parts.empty();
  if (petsc::world_rank_count() > 1 || parts_given) {
    require(o.name != "supersonic_vortex",
            "--case supersonic_vortex: runs on one rank, from the whole mesh (its steady "
            "march's residual test is not reduced over ranks yet)");
    const std::string here = !o.read_parts.empty() ? std::string("not with --read-parts")
                             : !o.write_parts.empty()
                                 ? std::string("not with --write-parts")
                                 : std::to_string(petsc::world_rank_count()) + " ranks here";
    for (const auto& [flag, given] :
         {std::pair{"--vtk", !o.vtk_directory.empty()}, std::pair{"--progress", o.progress > 0},
          std::pair{"--stop-after-steps", o.stop_after_steps > 0},
          std::pair{"--save-restart", !o.save_restart_path.empty()},
          std::pair{"--restart", !o.restart_path.empty()}})
      require(!given, flag, ": runs on one rank for now (", here, ")");
  }
  return o;
}

/// Prints a progress line every o.progress steps.
template <class Dg>
struct Progress {
  const Options& o;
  const Dg& dg;
  const std::vector<double>& u;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  void operator()(long step, double t, double dt) {
    if (o.progress == 0 || step % o.progress != 0) return;
    const auto now = std::chrono::steady_clock::now();
    const double per_step = std::chrono::duration<double>(now - last).count() / o.progress;
    last = now;
    // Minimum of the cell averages (mode 0 times φ_0 = √2).
    double low = std::numeric_limits<double>::infinity(), high = -low, low_pressure = low;
    for (Index c = 0; c < dg.element_count(); ++c) {
      State<Dg::variables> mean;
      for (int v = 0; v < Dg::variables; ++v)
        mean[v] = std::numbers::sqrt2 * u[dg.coefficient_index(c, v, 0)];
      low = std::min(low, mean[0]);
      high = std::max(high, mean[0]);
      if constexpr (Dg::variables == 4)
        low_pressure = std::min(low_pressure, dg.law().pressure(mean));
    }
    std::printf("step %ld  t = %.6f  dt = %.3e  %.3e s/step  ", step, t, dt, per_step);
    if constexpr (Dg::variables == 4)
      std::printf("min density %.6f  min pressure %.6f (cell averages)\n", low, low_pressure);
    else
      std::printf("min %.6f  max %.6f (cell averages)\n", low, high);
    std::fflush(stdout);
  }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// --vtk: the series DIR/<case>.pvd of DIR/<case>_NNNN.vtu, NNNN the step (so a resumed run
/// continues the numbering and the --vtk-every cadence). Nothing without --vtk.
class SolutionSeries {
 public:
  explicit SolutionSeries(const Options& o) : o_(o) {
    if (o.vtk_directory.empty()) return;
    std::error_code error;
    std::filesystem::create_directories(o.vtk_directory, error);
    require(!error, "--vtk ", o.vtk_directory, ": cannot create the folder: ", error.message());
    pvd_.emplace(std::filesystem::path(o.vtk_directory) / (o.name + ".pvd"));
  }

  /// The state after `step` steps at time t, unless that step was the last one written (the
  /// last state of a march that ended on a --vtk-every step).
  template <class Dg>
  void write(const Dg& dg, std::span<const double> u, double t, long step) {
    if (!pvd_ || step == last_step_) return;
    const auto start = std::chrono::steady_clock::now();
    char name[64];
    std::snprintf(name, sizeof name, "_%04ld.vtu", step);
    const std::filesystem::path file = std::filesystem::path(o_.vtk_directory) / (o_.name + name);
    if constexpr (Dg::variables == 4)
      write_explicit_solution_vtu(
          file, dg, u, {"density", "momentum_x", "momentum_y", "energy"}, 0,
          {{"pressure", [&](const State<4>& w) { return dg.law().pressure(w); }}});
    else
      write_explicit_solution_vtu(file, dg, u, {"u"});
    pvd_->add(t, file);
    last_step_ = step;
    ++files_;
    seconds_ += seconds_since(start);
  }
  /// After step `step`: every --vtk-every steps.
  template <class Dg>
  void after_step(const Dg& dg, std::span<const double> u, double t, long step) {
    if (o_.vtk_every > 0 && step % o_.vtk_every == 0) write(dg, u, t, step);
  }
  /// The time spent writing so far: left out of the runs' timings.
  double seconds() const { return seconds_; }
  void report() const {
    if (pvd_)
      std::printf("wrote %s (%ld files, %.3f s)\n", pvd_->path().string().c_str(), files_,
                  seconds_);
  }

 private:
  const Options& o_;
  std::optional<PvdWriter> pvd_;
  long last_step_ = -1;
  long files_ = 0;
  double seconds_ = 0;
};

/// Where a time-dependent march is: the coefficients, the time and the step count.
struct MarchState {
  std::vector<double> u;
  double t = 0;
  long step = 0;
  long first_step = 0;  ///< where this run began: 0, or the --restart file's step
};

/// The state the march begins from: the --restart file's (the same case, p and level, checked
/// by load_explicit_restart through the solver's shape and mesh fingerprint; t ≤ end), or
/// initial() at t = 0.
template <class Dg, class Initial>
MarchState starting_state(const Options& o, const Dg& dg, double end, const Initial& initial) {
  if (o.restart_path.empty()) return {initial(), 0.0, 0, 0};
  ExplicitRestart restart;
  try {
    restart = load_explicit_restart(o.restart_path, dg);
  } catch (const Error& error) {
    raise("--restart: ", error.what(), " (resume with the --case, --p and --level of the run ",
          "that saved it)");
  }
  require(restart.t <= end, "--restart ", o.restart_path, ": t = ", restart.t, " is past ", o.name,
          "'s end time ", end);
  std::printf("resumed from %s at step %ld, t = %.17g\n", o.restart_path.c_str(), restart.step,
              restart.t);
  return {std::move(restart.u), restart.t, restart.step, restart.step};
}

/// The end of a march: the last --vtk file, a note where --stop-after-steps stopped it, the
/// --save-restart file.
template <class Dg>
void finish_march(const Options& o, const Dg& dg, const MarchState& state, double end,
                  SolutionSeries& series, long taken) {
  series.write(dg, state.u, state.t, state.step);
  series.report();
  if (state.t < end)
    std::printf("stopped after %ld steps (--stop-after-steps) at step %ld, t = %.17g\n", taken,
                state.step, state.t);
  if (!o.save_restart_path.empty()) {
    save_explicit_restart(o.save_restart_path, dg, state.u, state.t, state.step);
    std::printf("wrote %s (step %ld, t = %.17g)\n", o.save_restart_path.c_str(), state.step,
                state.t);
  }
}

/// Marches `state` towards `end` with the CFL step of --cfl, the last step shortened to land
/// on `end` exactly (TimeStepper::advance's loop), until `end` or --stop-after-steps steps of
/// this run; step(u, t, dt) takes one step. Progress lines, and the --vtk series: the first
/// state, every --vtk-every steps, the last state; --save-restart where it stops. Returns the
/// seconds of the steps (the output left out).
template <class Dg, class Step>
double march(const Options& o, const Dg& dg, MarchState& state, double end, const Step& step) {
  SolutionSeries series(o);
  Progress<Dg> progress{o, dg, state.u};
  series.write(dg, state.u, state.t, state.step);
  const double writing_before = series.seconds();
  const auto start = std::chrono::steady_clock::now();
  long taken = 0;
  while (state.t < end && (o.stop_after_steps == 0 || taken < o.stop_after_steps)) {
    double dt = dg.stable_time_step(state.u, state.t, o.cfl);
    if (state.t + 1.0000001 * dt >= end) dt = end - state.t;
    step(state.u, state.t, dt);
    state.t = state.t + dt >= end ? end : state.t + dt;
    ++state.step;
    ++taken;
    progress(state.step, state.t, dt);
    series.after_step(dg, state.u, state.t, state.step);
  }
  const double seconds = seconds_since(start) - (series.seconds() - writing_before);
  finish_march(o, dg, state, end, series, taken);
  return seconds;
}

#if POLYDG_CUDA
/// march on the GPU: state.u uploaded, the steps in DeviceTimeStepper::advance (stepper, on
/// device_dg), whose observer counts them, stops after --stop-after-steps and copies u back
/// for a progress line or a --vtk file when one is due; then copied back for the end. The same
/// output as march. Returns the seconds of the steps (the output left out, the copies in).
template <class Dg, class DeviceDg, class Stepper, class Boundary>
double march_on_device(const Options& o, const Dg& dg, DeviceDg& device_dg, Stepper& stepper,
                       const Boundary& boundary, MarchState& state, double end) {
  SolutionSeries series(o);
  Progress<Dg> progress{o, dg, state.u};
  series.write(dg, state.u, state.t, state.step);
  const double writing_before = series.seconds();
  auto u = device_dg.upload(state.u);
  const auto start = std::chrono::steady_clock::now();
  long taken = 0;
  if (state.t < end)
    stepper.advance(u, state.t, end, boundary, o.cfl, [&](const StepReport& report) {
      state.t = report.time;
      ++state.step;
      ++taken;
      const bool progress_due = o.progress > 0 && state.step % o.progress == 0;
      const bool vtk_due =
          !o.vtk_directory.empty() && o.vtk_every > 0 && state.step % o.vtk_every == 0;
      if (progress_due || vtk_due) device_dg.download(u, state.u);
      progress(state.step, state.t, report.step_size);
      series.after_step(dg, state.u, state.t, state.step);
      return o.stop_after_steps == 0 || taken < o.stop_after_steps;
    });
  device_dg.download(u, state.u);
  const double seconds = seconds_since(start) - (series.seconds() - writing_before);
  finish_march(o, dg, state, end, series, taken);
  return seconds;
}
#endif

struct Result {
  Index elements = 0;
  std::size_t dofs = 0;
  long steps = 0;  ///< the step count at the end, a resumed run's earlier steps included
  long first_step = 0;
  double time = 0;  ///< the time reached
  double l2_error = 0;
  double seconds = 0;
  double min_density = 0, min_pressure = 0;  ///< double_mach: the smallest at the vertices
};

Result rotating_hill(const Options& o) {
  const RotatingHill exact;
  const LinearAdvection law = rotating_hill_law();
  const SimplexMesh<2> mesh = rotating_hill_mesh(o.level);
  ExplicitTriangleDG dg(mesh, o.p, law);
  const double end = 1.0;
  MarchState state = starting_state(
      o, dg, end, [&] { return dg.project([&](const Point<2>& x) { return exact(x, 0.0); }); });
  const auto boundary = exact_boundary(exact);
  double seconds = 0;
#if POLYDG_CUDA
  if (o.backend == "gpu") {
    DeviceExplicitTriangleDG device_dg(dg);
    DeviceTimeStepper stepper(device_dg, TimeScheme::rk4);
    seconds = march_on_device(o, dg, device_dg, stepper, boundary, state, end);
  }
#endif
  if (o.backend == "cpu") {
    TimeStepper stepper(dg, TimeScheme::rk4);
    seconds = march(o, dg, state, end, [&](std::vector<double>& u, double t, double dt) {
      stepper.step(u, t, dt, boundary);
    });
  }
  return {.elements = mesh.cell_count(),
          .dofs = dg.coefficient_count(),
          .steps = state.step,
          .first_step = state.first_step,
          .time = state.t,
          .l2_error = dg.l2_errors(state.u, exact, state.t)[0],
          .seconds = seconds};
}

#if POLYDG_CUDA
/// march_to_steady_state (supersonic_vortex.hpp) on the GPU: DeviceTimeStepper::advance in
/// spans of `check_every` steps (its observer ends a span), max |R(u)| after each (the device
/// residual, copied back), until it is ≤ relative_tolerance of its start or t = max_time (where
/// advance lands exactly; the CPU's march may pass it by part of a step). monitor(step, t, dt)
/// after every step.
template <class Monitor>
SteadyStateMarch march_to_steady_state_on_device(DeviceExplicitTriangleDG<Euler>& dg,
                                                 DeviceExplicitTriangleDG<Euler>::Vector& u,
                                                 const SupersonicVortexBoundary& boundary,
                                                 double cfl, double relative_tolerance,
                                                 double max_time, const Monitor& monitor,
                                                 long check_every = 20) {
  auto r = dg.make_vector();
  const auto residual_norm = [&](double t) {
    dg.residual(u, t, boundary, r);
    double largest = 0;
    for (double v : dg.download(r)) largest = std::fmax(largest, std::abs(v));
    return largest;
  };
  SteadyStateMarch march;
  march.initial_residual = march.final_residual = residual_norm(0.0);
  DeviceTimeStepper stepper(dg, TimeScheme::ssp_rk3);
  double t = 0;
  while (t < max_time && march.final_residual > relative_tolerance * march.initial_residual) {
    long in_span = 0;
    t = stepper
            .advance(u, t, max_time, boundary, cfl,
                     [&](const StepReport& report) {
                       monitor(++march.steps, report.time, report.step_size);
                       return ++in_span < check_every;
                     })
            .final_time;
    march.final_residual = residual_norm(t);
  }
  march.time = t;
  march.converged = march.final_residual <= relative_tolerance * march.initial_residual;
  return march;
}
#endif

Result supersonic_vortex(const Options& o) {
  const SupersonicVortex vortex;
  const SimplexMesh<2> mesh = supersonic_vortex_mesh(o.level, vortex);
  ExplicitTriangleDG dg(mesh, o.p, vortex.gas);
  auto u = dg.project([&](const Point<2>& x) { return vortex.exact(x); });
  Progress<decltype(dg)> progress{o, dg, u};
  SolutionSeries series(o);
  series.write(dg, u, 0.0, 0);
  const double writing_before = series.seconds();
  const auto start = std::chrono::steady_clock::now();
  const SupersonicVortexBoundary boundary{vortex};
  SteadyStateMarch march;
#if POLYDG_CUDA
  if (o.backend == "gpu") {
    DeviceExplicitTriangleDG device_dg(dg);
    auto device_u = device_dg.upload(u);
    march = march_to_steady_state_on_device(
        device_dg, device_u, boundary, o.cfl, 1e-4, 20.0, [&](long s, double t, double dt) {
          const bool due = (o.progress > 0 && s % o.progress == 0) ||
                           (!o.vtk_directory.empty() && o.vtk_every > 0 && s % o.vtk_every == 0);
          if (due) device_dg.download(device_u, u);
          progress(s, t, dt);
          series.after_step(dg, u, t, s);
        });
    device_dg.download(device_u, u);
  }
#endif
  if (o.backend == "cpu")
    march = march_to_steady_state(dg, TimeScheme::ssp_rk3, u, boundary, o.cfl, 1e-4, 20.0,
                                  [&](long s, double t, double dt) {
                                    progress(s, t, dt);
                                    series.after_step(dg, u, t, s);
                                  });
  const double seconds = seconds_since(start) - (series.seconds() - writing_before);
  series.write(dg, u, march.time, march.steps);
  series.report();
  if (!march.converged)
    std::cerr << "euler: warning: not steady at t = " << march.time << ": max |R| "
              << march.final_residual << " > 1e-4 * " << march.initial_residual << '\n';
  return {.elements = mesh.cell_count(),
          .dofs = dg.coefficient_count(),
          .steps = march.steps,
          .time = march.time,
          .l2_error = dg.l2_errors(u, vortex, 0.0)[0],
          .seconds = seconds};
}

Result double_mach_reflection(const Options& o) {
  const DoubleMachReflection problem;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(12 << o.level, problem);
  ExplicitTriangleDG dg(mesh, 1, problem.gas);
  const BarthJespersenLimiter limiter(dg);
  const PositivityFix positivity(dg);
  const auto limit = [&](std::span<double> v) {
    limiter(v);
    positivity(v);
  };
  const double end = 0.2;
  // A restart file holds a limited state already: it is not limited again.
  MarchState state = starting_state(o, dg, end, [&] {
    auto u = dg.project([&](const Point<2>& x) { return problem.initial_state(x); });
    limit(u);  // the projected shock overshoots
    return u;
  });
  const auto boundary = double_mach_reflection_boundary(problem);
  double seconds = 0;
#if POLYDG_CUDA
  if (o.backend == "gpu") {
    // The device limiters, fused, passed as they are: one wait per step
    // (device_stage_limiters.cuh).
    DeviceExplicitTriangleDG device_dg(dg);
    const DeviceBarthJespersenLimiter device_limiter(device_dg, limiter);
    const DevicePositivityFix device_positivity(device_dg, positivity);
    const DeviceLimiterAndPositivityFix both(device_limiter, device_positivity);
    DeviceTimeStepper stepper(device_dg, TimeScheme::ssp_rk2, both);
    seconds = march_on_device(o, dg, device_dg, stepper, boundary, state, end);
  }
#endif
  if (o.backend == "cpu") {
    TimeStepper stepper(dg, TimeScheme::ssp_rk2, limit);
    seconds = march(o, dg, state, end, [&](std::vector<double>& u, double t, double dt) {
      stepper.step(u, t, dt, boundary);
    });
  }
  const auto [density, pressure] = positivity.smallest_at_vertices(state.u);
  return {.elements = mesh.cell_count(),
          .dofs = dg.coefficient_count(),
          .steps = state.step,
          .first_step = state.first_step,
          .time = state.t,
          .seconds = seconds,
          .min_density = density,
          .min_pressure = pressure};
}

/// What rank parts written by --write-parts say they are, checked by --read-parts.
std::string parts_description(const Options& o) {
  return "euler --case " + o.name + " --level " + std::to_string(o.level);
}

/// The ghost layers of a case's parts: on the GPUs two spare the double Mach reflection's
/// exchange before each limiter (DistributedDeviceExplicitDG); the CPU's halo fills a copy, so
/// it gains nothing there, but runs as well on them.
int ghost_layers_of(const Options& o, bool for_files) {
  return o.name == "double_mach" && (for_files || o.backend == "gpu") ? 2 : 1;
}

/// The case's mesh: rotating_hill's or double_mach's.
std::shared_ptr<const SimplexMesh<2>> case_mesh(const Options& o) {
  return std::make_shared<const SimplexMesh<2>>(
      o.name == "double_mach" ? double_mach_reflection_mesh(12 << o.level, DoubleMachReflection{})
                              : rotating_hill_mesh(o.level));
}

/// --write-parts: the case's mesh as --ranks rank part files.
void write_parts(const Options& o) {
  const auto mesh = case_mesh(o);
  const CellPartition t = partition_cells(mesh, o.write_parts_ranks, ghost_layers_of(o, true));
  write_rank_parts<2>(o.write_parts, *mesh, t.element_of_cell, t.partition, t.cut_tag,
                      parts_description(o));
  std::printf("%s: %ld triangles in %d rank parts, ghost layers %d, written to %s\n",
              parts_description(o).c_str(), long(mesh->cell_count()), o.write_parts_ranks,
              t.partition.ghost_layers, o.write_parts.c_str());
}

/// This rank's part of the case's mesh and the halo between the parts: read from --read-parts,
/// or built from the whole mesh.
struct EulerPart {
  RankPart<2> part;
  std::unique_ptr<ElementHalo> halo;
  const SimplexMesh<2>& mesh() const { return *part.submesh.mesh; }
};

EulerPart this_ranks_part(const Options& o) {
  EulerPart r;
  if (!o.read_parts.empty()) {
    r.part = examples::read_this_ranks_part(o.read_parts, parts_description(o));
  } else {
    const auto mesh = case_mesh(o);
    const CellPartition t =
        partition_cells(mesh, petsc::world_rank_count(), ghost_layers_of(o, false));
    r.part =
        make_rank_part(*mesh, t.element_of_cell, t.partition, petsc::world_rank(), t.cut_tag, {});
  }
  r.halo = std::make_unique<ElementHalo>(r.part.halo);
  return r;
}

/// The march on several ranks: TimeStepper::advance over DistributedExplicitDG from t = 0 to
/// `end`, the stage limiter (if any) behind the halo. Returns the statistics and sets seconds.
template <class Local, class Boundary, class Limit>
TimeSteppingStatistics march_on_ranks(const Options& o, DistributedExplicitDG<Local>& dg,
                                      std::vector<double>& u, double end, TimeScheme scheme,
                                      const Boundary& boundary, Limit limit, double& seconds) {
  MPI_Barrier(PETSC_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  TimeStepper stepper(dg, scheme, limit);
  const TimeSteppingStatistics stats = stepper.advance(u, 0.0, end, boundary, o.cfl);
  seconds = petsc::max_over_ranks(seconds_since(start));
  return stats;
}

#if POLYDG_CUDA
/// march_on_ranks on the GPUs: DeviceTimeStepper::advance over DistributedDeviceExplicitDG, u
/// uploaded before the clock starts and downloaded after it stops.
template <class DeviceLocal, class Boundary, class Limiter>
TimeSteppingStatistics march_on_ranks(const Options& o,
                                      DistributedDeviceExplicitDG<DeviceLocal>& dg,
                                      std::vector<double>& u, double end, TimeScheme scheme,
                                      const Boundary& boundary, Limiter limit, double& seconds) {
  auto device_u = dg.local().upload(u);
  MPI_Barrier(PETSC_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  DeviceTimeStepper stepper(dg, scheme, std::move(limit));
  const TimeSteppingStatistics stats = stepper.advance(device_u, 0.0, end, boundary, o.cfl);
  seconds = petsc::max_over_ranks(seconds_since(start));
  dg.local().download(device_u, u);
  return stats;
}
#endif

Result rotating_hill_on_ranks(const Options& o) {
  const RotatingHill exact;
  const EulerPart r = this_ranks_part(o);
  ExplicitTriangleDG local(r.mesh(), o.p, rotating_hill_law());
  DistributedExplicitDG dg(local, *r.halo, r.part.cut_tag);
  std::vector<double> u = local.project([&](const Point<2>& x) { return exact(x, 0.0); });
  const auto boundary = exact_boundary(exact);
  double seconds = 0;
  TimeSteppingStatistics stats;
#if POLYDG_CUDA
  if (o.backend == "gpu") {
    DeviceExplicitTriangleDG device_local(local);
    DistributedDeviceExplicitDG device_dg(device_local, *r.halo, r.part.cut_tag);
    stats = march_on_ranks(o, device_dg, u, 1.0, TimeScheme::rk4, boundary, NoDeviceStageLimiter{},
                           seconds);
  }
#endif
  if (o.backend == "cpu")
    stats = march_on_ranks(o, dg, u, 1.0, TimeScheme::rk4, boundary, NoStageLimiter{}, seconds);
  const double error = local.l2_errors(u, exact, stats.final_time, r.part.submesh.owned_count)[0];
  return {.elements = Index(r.part.element_count),
          .dofs = local.coefficient_count() / std::size_t(local.element_count()) *
                  std::size_t(r.part.element_count),
          .steps = stats.steps,
          .time = stats.final_time,
          .l2_error = std::sqrt(petsc::sum_over_ranks(error * error)),
          .seconds = seconds};
}

Result double_mach_reflection_on_ranks(const Options& o) {
  const DoubleMachReflection problem;
  const EulerPart r = this_ranks_part(o);
  ExplicitTriangleDG local(r.mesh(), 1, problem.gas);
  DistributedExplicitDG dg(local, *r.halo, r.part.cut_tag);
  const BarthJespersenLimiter limiter(local);
  const PositivityFix positivity(local);
  auto limit = dg.stage_limiter([&](std::span<double> v) {
    limiter(v);
    positivity(v);
  });
  std::vector<double> u =
      local.project([&](const Point<2>& x) { return problem.initial_state(x); });
  limit(u);  // the projected shock overshoots
  const auto boundary = double_mach_reflection_boundary(problem);
  double seconds = 0;
  TimeSteppingStatistics stats;
#if POLYDG_CUDA
  if (o.backend == "gpu") {
    // The device limiters fused and deferred behind the halo: one wait per step.
    DeviceExplicitTriangleDG device_local(local);
    const DeviceBarthJespersenLimiter device_limiter(device_local, limiter);
    const DevicePositivityFix device_positivity(device_local, positivity);
    const DeviceLimiterAndPositivityFix both(device_limiter, device_positivity);
    DistributedDeviceExplicitDG device_dg(device_local, *r.halo, r.part.cut_tag);
    stats = march_on_ranks(o, device_dg, u, 0.2, TimeScheme::ssp_rk2, boundary,
                           device_dg.stage_limiter(both), seconds);
  }
#endif
  if (o.backend == "cpu")
    stats = march_on_ranks(o, dg, u, 0.2, TimeScheme::ssp_rk2, boundary, limit, seconds);
  dg.refresh_ghosts(u);  // the smallest values over the rank's elements, its ghosts current
  const auto [density, pressure] = positivity.smallest_at_vertices(u);
  return {.elements = Index(r.part.element_count),
          .dofs = local.coefficient_count() / std::size_t(local.element_count()) *
                  std::size_t(r.part.element_count),
          .steps = stats.steps,
          .time = stats.final_time,
          .seconds = seconds,
          .min_density = -petsc::max_over_ranks(-density),
          .min_pressure = -petsc::max_over_ranks(-pressure)};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    polydg::petsc::Session session(argc, argv);
    const Options o = parse_options(argc, argv);
    const bool double_mach = o.name == "double_mach";
    if (!o.write_parts.empty()) {
      write_parts(o);
      return 0;
    }
    const bool ranks = petsc::world_rank_count() > 1 || !o.read_parts.empty();
    const Result r =
        o.name == "rotating_hill" ? (ranks ? rotating_hill_on_ranks(o) : rotating_hill(o))
        : double_mach ? (ranks ? double_mach_reflection_on_ranks(o) : double_mach_reflection(o))
                      : supersonic_vortex(o);
    // On several ranks every rank holds the results; rank 0 reports them.
    if (petsc::world_rank() != 0)
      return double_mach && !(r.min_density > 0 && r.min_pressure > 0) ? 1 : 0;
    // This run's steps only (a resumed run's earlier ones took their own time); 0 for none.
    const long steps_taken = r.steps - r.first_step;
    const double per_element_step =
        steps_taken > 0 ? r.seconds / (double(r.elements) * double(steps_taken)) : 0.0;
    std::printf("%s, p = %d, level %d: %ld triangles, %zu DoFs, %ld steps, ", o.name.c_str(), o.p,
                o.level, long(r.elements), r.dofs, r.steps);
    if (double_mach)
      std::printf("min density %.6e, min pressure %.6e", r.min_density, r.min_pressure);
    else
      std::printf("%s L2 error %.6e", o.name == "rotating_hill" ? "scalar" : "density", r.l2_error);
    std::printf(", %.3f s (%.3e s per element-step)\n", r.seconds, per_element_step);
    if (!o.json_path.empty()) {
      std::ofstream json(o.json_path);
      require(bool(json), "cannot write ", o.json_path);
      json.precision(17);
      json << "{\"case\": \"" << o.name << "\", \"p\": " << o.p << ", \"level\": " << o.level
           << ", \"elements\": " << r.elements << ", \"dofs\": " << r.dofs
           << ", \"steps\": " << r.steps << ", \"first_step\": " << r.first_step
           << ", \"time\": " << r.time;
      if (double_mach)
        json << ", \"min_density\": " << r.min_density << ", \"min_pressure\": " << r.min_pressure;
      else
        json << ", \"l2_error\": " << r.l2_error;
      json << ", \"seconds\": " << r.seconds
           << ", \"seconds_per_element_step\": " << per_element_step << "}\n";
    }
    // A positive solution is what the limiter and the positivity fix are for.
    if (double_mach && !(r.min_density > 0 && r.min_pressure > 0)) {
      std::cerr << "euler: double_mach: density or pressure not positive at t = " << r.time << '\n';
      return 1;
    }
    return 0;
  } catch (const polydg::Error& error) {
    std::cerr << "euler: " << error.what() << '\n';
    return 1;
  }
}
