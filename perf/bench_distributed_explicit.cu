// The device explicit solver on several ranks under `mpiexec -n R`, one GPU per rank where there
// are enough (docs/performance.md, "Explicit solver on several ranks"): the double Mach
// reflection as examples/euler.cpp runs it (p = 1, Euler, SSP-RK2, the device Barth–Jespersen
// limiter and positivity fix fused and deferred, CFL 0.5) on double_mach_reflection_mesh(12 ·
// 2^level), or the rotating hill (linear advection, RK4, p = --p) on rotating_hill_mesh(level);
// each rank marches its part (partition_mesh, with --ghost-layers, rank_submesh,
// DistributedDeviceExplicitDG).
// Per exchange mode (overlapped: the facets without a ghost side run during the exchange;
// blocking: exchange first), --steps steps of DeviceTimeStepper::advance after --warmup, from a
// barrier to the slowest rank's end, each mode twice in turn, the faster kept: seconds per step
// and per element-step. First, every rank marches the whole mesh at once with the plain
// DeviceTimeStepper (no halo code): with R = 1 the baseline of the scaling; with R ranks on
// their own GPUs the same time, and with R ranks sharing one GPU (MPS) what the sharing itself
// costs for R times the work.
// The halo per rank (max): ghosts, values sent per exchange.
//
//   mpiexec -n 2 build/bin/bench_distributed_explicit [--case double_mach|hill] [--level 4]
//                                                     [--p 1] [--steps 500] [--warmup 50]
//                                                     [--json FILE]
#include <cuda_runtime.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <memory>
#include <string>
#include <vector>

#include "bench_provenance.hpp"
#include "cuda_event_timing.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/cuda/device_stage_limiters.cuh"
#include "polydg/cuda/distributed_device_explicit_dg.cuh"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/rotating_hill.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/rank_submesh.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/petsc/world.hpp"

namespace {

using namespace polydg;
using namespace polydg::hyperbolic;
using Clock = std::chrono::steady_clock;

const char* usage =
    R"(Usage: bench_distributed_explicit [options]   (under mpiexec -n R: one GPU per rank)
  --case C     double_mach (default) or hill
  --level L    mesh level (default 4: double Mach 294,912 triangles; hill 131,072)
  --p P        the hill's degree (default 1; the double Mach reflection is p = 1)
  --ghost-layers K  ghost layers (default 1; with 2 the double Mach reflection's limiter
               needs no exchange)
  --steps N    timed steps per exchange mode (default 500)
  --warmup N   steps before (default 50)
  --json FILE  the results with provenance (rank 0)
)";

struct Options {
  std::string name = "double_mach";
  int level = 4, p = 1, steps = 500, warmup = 50, ghost_layers = 1;
  std::string json;
};

/// Seconds per step of `steps` steps after `warmup`, from a barrier to the slowest rank's end.
template <class Stepper, class Vector, class Boundary>
double seconds_per_step(Stepper& stepper, Vector& u, double end, const Boundary& boundary,
                        const Options& o) {
  const auto stop_after = [](long steps) {
    return [steps](const StepReport& report) { return report.step < steps; };
  };
  double t = stepper.advance(u, 0.0, end, boundary, 0.5, stop_after(o.warmup)).final_time;
  MPI_Barrier(PETSC_COMM_WORLD);
  const auto start = Clock::now();
  const TimeSteppingStatistics stats =
      stepper.advance(u, t, end, boundary, 0.5, stop_after(o.steps));
  POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  require(stats.steps == o.steps, "bench_distributed_explicit: the case ended after ", stats.steps,
          " timed steps: ask for fewer --steps");
  return petsc::max_over_ranks(seconds) / double(o.steps);
}

struct Part {
  MeshPartition partition;
  RankSubmesh<2> part;
  int cut_tag = 0;
  std::unique_ptr<ElementHalo> halo;
};

Part rank_part(std::shared_ptr<const SimplexMesh<2>> mesh, int ghost_layers) {
  Part r;
  const CellPartition cells = partition_cells(mesh, petsc::world_rank_count(), ghost_layers);
  r.partition = cells.partition;
  r.cut_tag = cells.cut_tag;
  r.part = rank_submesh(*mesh, cells.element_of_cell, r.partition, petsc::world_rank(), r.cut_tag);
  r.halo = std::make_unique<ElementHalo>(r.partition, petsc::world_rank());
  return r;
}

struct Timings {
  double overlapped = 1e300, blocking = 1e300, whole_mesh = 0;  // seconds per step

  /// Keeps the faster of the runs of a mode.
  void keep(HaloExchange exchange, double seconds) {
    double& kept = exchange == HaloExchange::overlapped ? overlapped : blocking;
    kept = std::min(kept, seconds);
  }
};

/// Each mode twice, alternating: neither gains from running second (a warmer device).
constexpr HaloExchange runs[] = {HaloExchange::blocking, HaloExchange::overlapped,
                                 HaloExchange::blocking, HaloExchange::overlapped};

/// The double Mach reflection: the whole mesh's plain march on every rank, then each rank's part.
Timings double_mach(const Options& o, const SimplexMesh<2>& mesh, const Part& r) {
  const DoubleMachReflection problem;
  const auto boundary = double_mach_reflection_boundary(problem);
  const auto initial = [&](const Point<2>& x) { return problem.initial_state(x); };
  Timings timings;
  {
    const ExplicitTriangleDG dg(mesh, 1, problem.gas);
    const BarthJespersenLimiter limiter(dg);
    const PositivityFix positivity(dg);
    DeviceExplicitTriangleDG device_dg(dg);
    const DeviceBarthJespersenLimiter device_limiter(device_dg, limiter);
    const DevicePositivityFix device_positivity(device_dg, positivity);
    const DeviceLimiterAndPositivityFix both(device_limiter, device_positivity);
    auto u = device_dg.upload(dg.project(initial));
    both(u);
    DeviceTimeStepper stepper(device_dg, TimeScheme::ssp_rk2, both);
    timings.whole_mesh = seconds_per_step(stepper, u, 0.2, boundary, o);
  }
  const ExplicitTriangleDG local(*r.part.mesh, 1, problem.gas);
  const BarthJespersenLimiter limiter(local);
  const PositivityFix positivity(local);
  DeviceExplicitTriangleDG device_local(local);
  const DeviceBarthJespersenLimiter device_limiter(device_local, limiter);
  const DevicePositivityFix device_positivity(device_local, positivity);
  const DeviceLimiterAndPositivityFix both(device_limiter, device_positivity);
  for (const HaloExchange exchange : runs) {
    DistributedDeviceExplicitDG dg(device_local, *r.halo, r.cut_tag, exchange);
    auto limit = dg.stage_limiter(both);
    auto u = device_local.upload(local.project(initial));
    limit(u);
    DeviceTimeStepper stepper(dg, TimeScheme::ssp_rk2, limit);
    timings.keep(exchange, seconds_per_step(stepper, u, 0.2, boundary, o));
  }
  return timings;
}

/// The rotating hill at degree p, as double_mach.
Timings hill(const Options& o, const SimplexMesh<2>& mesh, const Part& r) {
  const RotatingHill exact;
  const auto boundary = exact_boundary(exact);
  const auto initial = [&](const Point<2>& x) { return exact(x, 0.0); };
  Timings timings;
  {
    const ExplicitTriangleDG dg(mesh, o.p, rotating_hill_law());
    DeviceExplicitTriangleDG device_dg(dg);
    auto u = device_dg.upload(dg.project(initial));
    DeviceTimeStepper stepper(device_dg, TimeScheme::rk4);
    timings.whole_mesh = seconds_per_step(stepper, u, 1.0, boundary, o);
  }
  const ExplicitTriangleDG local(*r.part.mesh, o.p, rotating_hill_law());
  DeviceExplicitTriangleDG device_local(local);
  for (const HaloExchange exchange : runs) {
    DistributedDeviceExplicitDG dg(device_local, *r.halo, r.cut_tag, exchange);
    auto u = device_local.upload(local.project(initial));
    DeviceTimeStepper stepper(dg, TimeScheme::rk4);
    timings.keep(exchange, seconds_per_step(stepper, u, 1.0, boundary, o));
  }
  return timings;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string started = bench::utc_now();
  try {
    petsc::Session session(argc, argv);
    Options o;
    for (int i = 1; i < argc; i += 2) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        if (petsc::world_rank() == 0) std::fputs(usage, stdout);
        return 0;
      }
      require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[i + 1];
      if (flag == "--case")
        o.name = parse_choice_list(flag, value, {"double_mach", "hill"})[0];
      else if (flag == "--level")
        o.level = parse_integer(flag, value);
      else if (flag == "--p")
        o.p = parse_integer(flag, value);
      else if (flag == "--ghost-layers")
        o.ghost_layers = parse_integer(flag, value);
      else if (flag == "--steps")
        o.steps = parse_integer(flag, value);
      else if (flag == "--warmup")
        o.warmup = parse_integer(flag, value);
      else if (flag == "--json")
        o.json = value;
      else
        raise("unknown option ", flag, " (see --help)");
    }
    require(o.level >= 0 && o.level <= 6, "--level ", o.level, ": use 0..6");
    require(o.p >= 0 && o.p <= 4, "--p ", o.p, ": use 0..4");
    require(o.steps >= 1 && o.warmup >= 1, "--steps and --warmup must be positive");
    require(device::device_count() > 0, "no CUDA-capable device is visible");
    const bool double_mach_case = o.name == "double_mach";
    const DoubleMachReflection problem;
    const auto shared_mesh = std::make_shared<const SimplexMesh<2>>(
        double_mach_case ? double_mach_reflection_mesh(12 << o.level, problem)
                         : rotating_hill_mesh(o.level));
    const SimplexMesh<2>& mesh = *shared_mesh;
    require(o.ghost_layers >= 1 && o.ghost_layers <= 3, "--ghost-layers ", o.ghost_layers,
            ": use 1..3");
    const Part r = rank_part(shared_mesh, o.ghost_layers);
    const Timings t = double_mach_case ? double_mach(o, mesh, r) : hill(o, mesh, r);

    // The halo per rank, largest over the ranks.
    const int p = double_mach_case ? 1 : o.p;
    const std::size_t values_per_element =
        std::size_t(double_mach_case ? 4 : 1) * std::size_t((p + 1) * (p + 2) / 2);
    const double sent =
        petsc::max_over_ranks(double(r.halo->send_positions(values_per_element).size()));
    const double ghosts =
        petsc::max_over_ranks(double(r.partition.ghost_count(petsc::world_rank())));
    const double owned = petsc::max_over_ranks(double(r.part.owned_count));
    const int ranks = petsc::world_rank_count();
    const double elements = double(mesh.cell_count());
    if (petsc::world_rank() == 0) {
      std::printf(
          "%s; %d rank(s); %s level %d, p = %d: %.0f triangles, %.0f DoFs; per rank (max) "
          "%.0f owned, %.0f ghosts (%d layer(s)), %.0f values sent per exchange\n",
          bench::device_name().c_str(), ranks, o.name.c_str(), o.level, p, elements,
          elements * double(values_per_element), owned, ghosts, o.ghost_layers, sent);
      std::printf(
          "whole mesh on every rank at once, no halo code: %.1f us per step (%.3e s per "
          "element-step)\n",
          t.whole_mesh * 1e6, t.whole_mesh / elements);
      std::printf(
          "overlapped: %.1f us per step (%.3e s per element-step); blocking: %.1f us per "
          "step (%.3e)\n",
          t.overlapped * 1e6, t.overlapped / elements, t.blocking * 1e6, t.blocking / elements);
      if (!o.json.empty()) {
        std::ofstream json(o.json);
        json << std::setprecision(10) << "{"
             << bench::provenance_json(argc, argv, started, bench::device_json())
             << ", \"case\": " << bench::json_string(o.name) << ", \"level\": " << o.level
             << ", \"p\": " << p << ", \"ranks\": " << ranks
             << ", \"elements\": " << mesh.cell_count()
             << ", \"dofs\": " << std::size_t(mesh.cell_count()) * values_per_element
             << ", \"ghost_layers\": " << o.ghost_layers << ", \"max_owned_elements\": " << owned
             << ", \"max_ghosts\": " << ghosts << ", \"max_values_sent_per_exchange\": " << sent
             << ", \"steps\": " << o.steps << ", \"whole_mesh_seconds_per_step\": " << t.whole_mesh
             << ", \"overlapped_seconds_per_step\": " << t.overlapped
             << ", \"blocking_seconds_per_step\": " << t.blocking << "}\n";
        require(bool(json), "bench_distributed_explicit: cannot write ", o.json);
      }
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_distributed_explicit: %s\n", error.what());
    return 1;
  }
}
