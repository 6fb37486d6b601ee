// Benchmark of a time step of the slab march: SlabSolver (assembly on the CPU) against
// DeviceSlabSolver (assembly on the GPU), same run, same slab, same KSP. The problem is the
// assembly benchmark's slab system (heat_slab_problem.hpp: a = 1, w = (1, 1/2), c = 1,
// f = sin(x + t), g_D = 0) on the oscillating domain agglomerated into polygons of about
// --cells-per-element triangles; u_0 = sin(πx) sin(πy).
//
// Per degree, each solver marches --steps steps of equal length twice: with the coefficients
// declared time-dependent (the matrix re-assembled at every step) and not (the matrix assembled
// at step 1 and reused). SlabStep::assembly_seconds of steps 2..N (median) is what a step's
// assembly costs: for the CPU solver the kernels, the AIJ update and the rhs copy into PETSc;
// for the GPU solver the kernels, the coupling term, one staged copy of values and rhs, the AIJ
// update and the rhs copy. The solve (KSP from the options database; default the heat demo's
// direct solve, -ksp_type preonly -pc_type lu: GMRES + Jacobi did not converge in 10,000
// iterations on the P_1 slab of 300 cells per side) is reported apart; it runs on the host for
// both, but for the products of --products dense_blocks (below), which the GPU march makes on
// the device. Two GPU marches: the data as device functors evaluated in the kernels
// (DeviceFunctorSlabSolver, the template path) and evaluated on the host at the slab's points each
// step (DeviceSlabSolver's default, SlabData::host: plain C++, the precompiled kernels); the
// second's assembly includes that evaluation and its copy to the device.
//
//   build/bin/bench_slab_march [--cells-per-side 150] [--cells-per-element 3] [--p 1,2]
//                              [--steps 4] [--march 1] [--products aij,dense_blocks]
//                              [--json FILE] [PETSc options]
//
// --products (default aij): the matrix of the KSP's products (SlabSolverOptions::products) —
// the AIJ, or a MATSHELL over the dense block format (the CPU's for SlabSolver, the GPU's for
// DeviceSlabSolver) with the AIJ building the preconditioner; each listed one is a row. A direct
// solve makes no products: give an iterative KSP (e.g. -ksp_type gmres -pc_type ilu).
//
// Then, per degree, the pieces of a step that re-assembles the matrix are timed apart on the same
// slab (device kernels, values to pinned host memory, host values into the Mat, the whole
// AijMatrix::update_from_device). --march 0 times only these. Without a CUDA device the CPU march
// alone runs (GPU columns -1), so a machine without one gives its CPU numbers to compare.
#include <petscksp.h>
#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

#include "cpu_assembly.hpp"
#include "cuda_event_timing.hpp"
#include "default_solver.hpp"
#include "heat_slab_problem.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/cuda/device_slab_solver.cuh"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_solver.hpp"

namespace {

struct InitialCondition {
  POLYDG_HD double operator()(const polydg::Point<2>& x) const {
    return sin(std::numbers::pi * x[0]) * sin(std::numbers::pi * x[1]);
  }
};

/// The CPUs this process may run on after PetscInitialize (MPI_Init may bind a process to a
/// core), against the machine's: the CPU march's times are read against the cores it had.
std::string allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  const int allowed = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : -1;
  return std::to_string(allowed) + " of " + std::to_string(std::thread::hardware_concurrency());
}

/// Median assembly and solve seconds of steps 2..N, and the KSP iterations of the last step.
struct MarchTimes {
  double assembly_s = -1, solve_s = -1;  // -1: not run
  long long iterations = 0;
  std::vector<double> solution;
};

template <class Solver>
MarchTimes march(Solver& solver, int steps, double tau) {
  std::vector<double> assembly, solve;
  MarchTimes times;
  for (int n = 1; n <= steps; ++n) {
    const polydg::SlabStep step = solver.step(n * tau);
    if (n > 1) {
      assembly.push_back(step.assembly_seconds);
      solve.push_back(step.solve_seconds);
    }
    times.iterations = step.iterations;
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  times.assembly_s = median(assembly);
  times.solve_s = median(solve);
  times.solution.assign(solver.solution().begin(), solver.solution().end());
  return times;
}

/// The pieces of a step that re-assembles the matrix, timed apart on the march's slab
/// (milliseconds, median of 5): the device kernels (matrix and rhs), the values' copy to pinned
/// host memory, host values into the Mat (AijMatrix::update: a MATSEQAIJ's array written
/// directly, other types MatSetValuesCOO), and the whole AijMatrix::update_from_device (both).
struct MatrixStepPieces {
  double kernels_ms = 0, copy_ms = 0, host_update_ms = 0, update_from_device_ms = 0;
  double megabytes = 0;
};

template <class Coefficients>
MatrixStepPieces time_matrix_step_pieces(const polydg::PolytopicMesh<2>& mesh,
                                         const polydg::BoundaryConditions& conditions,
                                         const Coefficients& data) {
  const int repeats = 5;
  const polydg::PolytopicMesh<3> slab = polydg::make_slab_mesh(mesh);
  polydg::DeviceAssembler<3> assembler(slab, polydg::slab_boundary_conditions(conditions),
                                       polydg::SlabSolverOptions{}.assembly);
  polydg::BlockMatrix<double> host = assembler.make_host_matrix();
  polydg::device::PinnedBuffer<double> pinned(host.values().size());
  polydg::petsc::AijMatrix aij(*assembler.host_pattern());
  MatrixStepPieces pieces;
  pieces.megabytes = double(host.values().size()) * sizeof(double) * 1e-6;
  pieces.kernels_ms = polydg::bench::median_event_ms(repeats, [&] { assembler.assemble(data); });
  assembler.copy_to_host(host);
  pieces.copy_ms = polydg::bench::median_event_ms(repeats, [&] {
    polydg::device::copy_device_to_host(pinned.data(), assembler.values(),
                                        pinned.size() * sizeof(double));
  });
  pieces.host_update_ms = polydg::bench::median_event_ms(repeats, [&] { aij.update(host); });
  pieces.update_from_device_ms =
      polydg::bench::median_event_ms(repeats, [&] { aij.update_from_device(assembler.values()); });
  return pieces;
}

}  // namespace

/// What --help prints.
constexpr const char* usage = R"(Usage: bench_slab_march [options] [PETSc options]
A time step of the slab march, SlabSolver (CPU assembly) against DeviceSlabSolver (GPU
assembly), same slab, same KSP; then the pieces of a GPU step timed apart.
  --p P[,P...]             degrees (default 1,2)
  --cells-per-side N       the oscillating domain's cells per side (default 150)
  --cells-per-element X    fine triangles per polygon (default 3)
  --steps N                steps per march (default 4)
  --march 0|1              run the marches (default 1; 0: only the pieces)
  --marches LIST           which: cpu, gpu (data in the kernels), host_data (default all
                           three; e.g. gpu alone for a slab too large for the CPU march)
  --products aij[,dense_blocks]  the matrix of the KSP's products (default aij)
  --json FILE              also write the numbers as JSON
  --help                   this text
Options that do not start with -- go to PETSc (default -ksp_type preonly -pc_type lu).
)";

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  polydg::petsc::Session session(argc, argv);
  polydg::OscillatingDomain domain;
  domain.cells_per_side = 150;
  double cells_per_element = 3;
  std::vector<int> degrees = {1, 2};
  int steps = 4;
  bool run_marches = true;
  std::vector<std::string> marches = {"cpu", "gpu", "host_data"};
  std::vector<polydg::SlabProducts> products_list = {polydg::SlabProducts::aij};
  std::string json_path;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        std::fputs(usage, stdout);
        return 0;
      }
      if (flag.rfind("--", 0) != 0) continue;  // a PETSc option (-ksp_type ...) or its value
      polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[++i];
      if (flag == "--cells-per-side")
        domain.cells_per_side = polydg::parse_integer(flag, value);
      else if (flag == "--cells-per-element")
        cells_per_element = polydg::parse_number(flag, value);
      else if (flag == "--p")
        degrees = polydg::parse_integer_list(flag, value);
      else if (flag == "--march")
        run_marches = polydg::parse_integer(flag, value) != 0;
      else if (flag == "--marches")
        marches = polydg::parse_choice_list(flag, value, {"cpu", "gpu", "host_data"});
      else if (flag == "--steps")
        steps = polydg::parse_integer(flag, value);
      else if (flag == "--json")
        json_path = value;
      else if (flag == "--products") {
        products_list.clear();
        for (const std::string& name :
             polydg::parse_choice_list(flag, value, {"aij", "dense_blocks"}))
          products_list.push_back(name == "aij" ? polydg::SlabProducts::aij
                                                : polydg::SlabProducts::dense_blocks);
      } else
        polydg::raise("unknown option ", flag, " (see --help)");
    }
    polydg::require(steps >= 2, "--steps must be >= 2 (step 1 is not timed)");
    polydg::examples::default_to_direct_solver_unless_chosen();

    const auto fine =
        std::make_shared<const polydg::SimplexMesh<2>>(polydg::oscillating_domain_mesh(domain));
    const auto parts = polydg::agglomerate_by_cell_count(*fine, cells_per_element);
    const auto data = polydg::bench::heat_slab_coefficients();
    const polydg::BoundaryConditions conditions(polydg::BoundaryKind::dirichlet);
    const double tau = 1.0 / steps;
    const bool gpu_present = polydg::device::device_count() > 0;
    if (!gpu_present) std::printf("No CUDA device: the CPU march alone.\n");
    if (run_marches) {
      std::printf(
          "Slab march, %s, %d polygons, %d steps of %.3g; seconds per step (median of steps "
          "2..%d); host CPUs allowed: %s\n",
          polydg::bench::device_name().c_str(), int(parts.element_count), steps, tau, steps,
          allowed_cpus().c_str());
      std::printf("%2s %10s %-11s %-12s %12s %12s %12s %9s %10s %10s %8s %10s\n", "p", "DoFs",
                  "matrix", "products", "CPU assembly", "GPU assembly", "GPU host data", "speed-up",
                  "CPU solve", "GPU solve", "KSP its", "|GPU-CPU|");
    }
    std::ofstream json;
    if (!json_path.empty()) {
      json.open(json_path);
      polydg::require(bool(json), "cannot write ", json_path);
      json << "{"
           << polydg::bench::provenance_json(argc, argv, started, polydg::bench::device_json())
           << ", \"device\": " << polydg::bench::json_string(polydg::bench::device_name())
           << ", \"host_cpus_allowed\": " << polydg::bench::json_string(allowed_cpus())
           << ", \"runs\": [";
    }
    bool first_run = true;
    for (int p : run_marches ? degrees : std::vector<int>{}) {
      const polydg::PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
      for (bool depend : {true, false})
        for (const polydg::SlabProducts products : products_list) {
          const bool dense = products == polydg::SlabProducts::dense_blocks;
          polydg::SlabSolverOptions options;
          options.coefficients_depend_on_time = depend;
          options.products = products;
          MarchTimes cpu_times, gpu_times, host_data_times;
          long long dofs = 0;
          const auto wanted = [&](const char* name) {
            return std::find(marches.begin(), marches.end(), name) != marches.end();
          };
          const bool run_cpu = wanted("cpu"), run_gpu = gpu_present && wanted("gpu"),
                     run_host_data = gpu_present && wanted("host_data");
          if (run_cpu) {
            polydg::SlabSolver cpu(mesh, conditions, data, options);
            cpu.set_initial_condition(
                [](const polydg::Point<2>& x) { return InitialCondition{}(x); });
            cpu_times = march(cpu, steps, tau);
            dofs = static_cast<long long>(cpu.solution().size());
          }
          if (run_gpu) {
            polydg::DeviceFunctorSlabSolver<decltype(data), InitialCondition> gpu(mesh, conditions,
                                                                                  data, options);
            gpu.set_initial_condition(InitialCondition{});
            gpu_times = march(gpu, steps, tau);
            dofs = static_cast<long long>(gpu.solution().size());
          }
          if (run_host_data) {
            polydg::DeviceSlabSolver<decltype(data), InitialCondition> host_data(mesh, conditions,
                                                                                 data, options);
            host_data.set_initial_condition(InitialCondition{});
            host_data_times = march(host_data, steps, tau);
            dofs = static_cast<long long>(host_data.solution().size());
          }
          // -1 where a march did not run (no device, or not in --marches).
          double difference = -1;
          if (run_cpu && run_gpu)
            difference = polydg::bench::relative_difference(gpu_times.solution, cpu_times.solution);
          if (run_cpu && run_host_data)
            difference = std::max(difference, polydg::bench::relative_difference(
                                                  host_data_times.solution, cpu_times.solution));
          const double speed_up =
              run_cpu && run_gpu ? cpu_times.assembly_s / gpu_times.assembly_s : -1;
          const long long iterations = run_gpu ? gpu_times.iterations : cpu_times.iterations;
          std::printf(
              "%2d %10lld %-11s %-12s %12.4f %12.4f %12.4f %9.1f %10.4f %10.4f %8lld %10.1e\n", p,
              dofs, depend ? "every step" : "reused", dense ? "dense_blocks" : "aij",
              cpu_times.assembly_s, gpu_times.assembly_s, host_data_times.assembly_s, speed_up,
              cpu_times.solve_s, gpu_times.solve_s, iterations, difference);
          std::fflush(stdout);  // a row as soon as it is measured: a long run shows its progress
          if (json) {
            json << (first_run ? "" : ", ") << "{\"p\": " << p << ", \"dofs\": " << dofs
                 << ", \"matrix_every_step\": " << (depend ? "true" : "false")
                 << ", \"products\": \"" << (dense ? "dense_blocks" : "aij") << "\""
                 << ", \"cpu_assembly_s\": " << cpu_times.assembly_s
                 << ", \"gpu_assembly_s\": " << gpu_times.assembly_s
                 << ", \"gpu_host_data_assembly_s\": " << host_data_times.assembly_s
                 << ", \"cpu_solve_s\": " << cpu_times.solve_s
                 << ", \"gpu_solve_s\": " << gpu_times.solve_s << ", \"iterations\": " << iterations
                 << ", \"solution_difference\": " << difference << "}";
            first_run = false;
          }
        }
    }
    if (gpu_present) {
      std::printf(
          "\nA matrix step's pieces, timed apart (ms, median of 5): device kernels (matrix + rhs), "
          "values to pinned host memory, host values into the Mat (AijMatrix::update), "
          "AijMatrix::update_from_device (both)\n%2s %10s %9s %9s %9s %15s %12s\n",
          "p", "values MB", "kernels", "copy", "into Mat", "from device", "copy GB/s");
      for (std::size_t k = 0; k < degrees.size(); ++k) {
        const polydg::PolytopicMesh<2> mesh(fine, parts.element_of_cell, degrees[k]);
        const MatrixStepPieces pieces = time_matrix_step_pieces(mesh, conditions, data);
        std::printf("%2d %10.1f %9.3f %9.3f %9.3f %15.3f %12.1f\n", degrees[k], pieces.megabytes,
                    pieces.kernels_ms, pieces.copy_ms, pieces.host_update_ms,
                    pieces.update_from_device_ms, pieces.megabytes / pieces.copy_ms);
        std::fflush(stdout);
        if (json)
          json << (k == 0 ? "], \"matrix_step_pieces_ms\": [" : ", ") << "{\"p\": " << degrees[k]
               << ", \"values_megabytes\": " << pieces.megabytes
               << ", \"kernels\": " << pieces.kernels_ms
               << ", \"copy_to_pinned\": " << pieces.copy_ms
               << ", \"host_update\": " << pieces.host_update_ms
               << ", \"update_from_device\": " << pieces.update_from_device_ms << "}";
      }
    }
    if (json) json << "]}\n";
  } catch (const polydg::Error& error) {
    std::cerr << "bench_slab_march: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
