// Benchmark of the CPU reference assembly (the baseline the GPU backend will be measured
// against): for p = 1..5 on one agglomerated oscillating-boundary mesh (seed 004 Table 2's
// setting: about 3 triangles per polygon), the time of the pattern (QuadratureMesh +
// BlockPattern + scratch), of the matrix values, and of the rhs, in seconds and DoFs/s.
// The problem is the convergence study's advection-diffusion-reaction problem (b): full
// anisotropic A(x), b(x), c(x), f(x). With --spacetime, the 2D+1 slab of seed 004 Table 2
// instead: prisms κ × I_n, a = I, w = (1, 1/2), c = 1 (the heat demo's slab system,
// heat_slab_problem.hpp). --cells-per-element 1 keeps the fine mesh (no agglomeration).
// --mesh FILE.msh: a 2D Gmsh mesh (2.2 or 4.1) as the fine mesh instead of the oscillating
// domain; with --gpu and the CPU run at each degree (--cpu-max-p), the table's "|GPU-CPU|/|CPU|"
// rows check GPU = CPU on a mesh of one's own (every boundary tag Dirichlet, as on the domain).
//
// With --gpu (a CUDA build, --spacetime): the DeviceAssembler on the same slab in the same run
// (assembly_gpu_runs.cu): device pattern, first assembly, values-only re-assembly in the
// deterministic and atomic modes, rhs, the kernels' times and FLOP rates, and the relative
// difference to the CPU matrix. The CPU backend is timed for p ≤ --cpu-max-p only (it is
// slow at high p; larger p are compared with no CPU number in that row).
//
//   build/bin/bench_assembly [--cells-per-side 274] [--cells-per-element 3] [--p 1,2,3,4,5]
//                            [--spacetime] [--gpu] [--cpu-max-p 5] [--fp64-peak-tflops 34]
//                            [--mesh FILE.msh]
//                            [--pieces prisms|simplices] [--capped-shared-kib 40] [--repeats 3]
//                            [--overlap-max-degree 2]
//                            [--quadrature-extra 2] [--slab-rules total_degree|tensor]
//                            [--json perf/results/assembly_cpu.json]
// --pieces: the slab's quadrature pieces (QuadraturePieces): prisms (default, what SlabSolver
// uses) or the three tetrahedra of each prism (the first GPU measurements' setting).
// --slab-rules: the prism and lateral-rectangle rules (SlabRules): total-degree symmetric rules
// (default: 11 / 28 / 46 / 85 prism points at degree 4 / 6 / 8 / 10) or tensor rules (a triangle
// rule times Gauss in time: 18 / 48 / 80 / 150 points; the issue's FLOP model assumes such
// rules, with (p+1)³ points).
// --quadrature-extra: QuadratureDegrees::extra of the slab problem, rules of degree 2p + extra
// (the library's default 2). The slab problem's coefficients are constant, so 0 integrates its
// matrix exactly (the rhs, sin(x + t), then with a degree-2p rule).
// --overlap-max-degree: DeviceAssemblyOptions::overlap_interior_faces_max_degree (default 1) of
// every re-assembly but the "interior faces after elements" rows (one stream).
// --capped-shared-kib: the cap on the shared memory per block of the "KiB cap" re-assembly rows
// (DeviceAssemblyOptions::max_block_shared_bytes; 0 skips them), against the default (128 KiB,
// and each launch sized to keep its resident blocks): 40 KiB was the earlier default.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../examples/manufactured_problems.hpp"
#include "cpu_assembly.hpp"
#include "heat_slab_problem.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"
#if POLYDG_BENCH_GPU
#include "assembly_gpu_runs.hpp"
#include "cuda_event_timing.hpp"
#endif

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <class Work>
double median_seconds(int repeats, Work&& work) {
  std::vector<double> times(std::size_t(std::max(repeats, 1)));
  for (double& time : times) {
    const auto start = Clock::now();
    work();
    time = seconds(start);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct Row {
  int p = 0;
  long long elements = 0, dofs = 0, nonzeros = 0;
  double pattern_s = -1, values_s = -1, rhs_s = -1;  // CPU; −1: not timed
#if POLYDG_BENCH_GPU
  polydg::bench::GpuAssemblyTimes gpu;
  bool has_gpu = false;
#endif
};

double per_million_dofs(const Row& r, double seconds) { return seconds / (r.dofs * 1e-6); }

// Times pattern (Assembler construction), values and rhs on `mesh` for `problem` (unless
// `time_cpu` is false: then only the sizes) and returns the matrix values and the rhs.
template <int Dim, class Problem>
polydg::bench::CpuAssembly time_assembly(const polydg::PolytopicMesh<Dim>& mesh,
                                         const polydg::BoundaryConditions& bc,
                                         const Problem& problem,
                                         const polydg::AssemblyOptions& options, int repeats,
                                         bool time_cpu, Row& row) {
  if (!time_cpu) {
    const polydg::Assembler<Dim> assembler(mesh, bc, options);
    row.dofs = assembler.pattern()->dof_count();
    row.nonzeros = assembler.pattern()->value_count();
    return {};
  }
  row.pattern_s = median_seconds(repeats, [&] { polydg::Assembler<Dim> probe(mesh, bc, options); });
  polydg::Assembler<Dim> assembler(mesh, bc, options);
  auto matrix = assembler.make_matrix();
  auto rhs = assembler.make_vector();
  assembler.assemble_matrix(problem, matrix);  // warm-up (rule cache, thread pool)
  row.values_s = median_seconds(repeats, [&] { assembler.assemble_matrix(problem, matrix); });
  row.rhs_s = median_seconds(repeats, [&] { assembler.assemble_rhs(problem, rhs); });
  row.dofs = assembler.pattern()->dof_count();
  row.nonzeros = assembler.pattern()->value_count();
  return {std::vector<double>(matrix.values().begin(), matrix.values().end()),
          std::vector<double>(rhs.begin(), rhs.end())};
}

#if POLYDG_BENCH_GPU
/// The re-assemblies under other options, as the table labels them and the JSON keys them
/// ("values_<key>_s", "element_<key>_s", ...), in the table's order.
struct Variant {
  const char* key;
  const char* label;
  polydg::bench::VariantTimes polydg::bench::GpuAssemblyTimes::*times;
};
constexpr Variant variants[] = {
    {"capped", "40 KiB cap", &polydg::bench::GpuAssemblyTimes::capped},
    {"warps", "warp per small item", &polydg::bench::GpuAssemblyTimes::warps},
    {"not_persistent", "blocks not persistent", &polydg::bench::GpuAssemblyTimes::not_persistent},
    {"fma", "tensor cores off", &polydg::bench::GpuAssemblyTimes::fma},
    {"in_turn", "no producer warp", &polydg::bench::GpuAssemblyTimes::in_turn},
    {"one_stream", "interior faces after elements", &polydg::bench::GpuAssemblyTimes::one_stream},
    {"single", "single", &polydg::bench::GpuAssemblyTimes::single}};

// What a re-assembly spends outside its kernels: zeroing, diffusion ranges, the finite check.
double overhead(const polydg::bench::PhaseTimes& phases) {
  return phases.zero_s + phases.ranges_s + phases.check_s;
}

// The issue's "first assembly (pattern + values + rhs)": the device pattern, a matrix and an rhs
// assembly (with the previous slab's term), without the device mesh's upload and the
// interface scratch (first_s has them).
double first_without_setup(const polydg::bench::GpuAssemblyTimes& g) {
  return g.pattern_s + g.values_s + g.rhs_s;
}

// The element, interior and boundary kernels of a matrix assembly together: their FLOPs (our
// count) and their seconds (the kernels in turn, matrix_phases).
double kernel_flops(const Row& r) {
  return r.gpu.element_flops + r.gpu.interior_flops + r.gpu.boundary_flops;
}
double kernel_seconds(const Row& r) {
  const auto& phases = r.gpu.matrix_phases;
  return phases.element_s + phases.interior_s + phases.boundary_s;
}

// A relative difference, or "n/a" where it was not computed (negative).
void print_difference(double difference) {
  if (difference < 0)
    std::printf("%10s", "n/a");
  else
    std::printf("%10.1e", difference);
}

// Seed 004 Table 2's layout, seconds per million DoFs, and the kernels' FLOP rates.
void print_gpu_tables(const std::vector<Row>& rows, double peak_tflops) {
  std::printf("\nGPU (%s), double precision, seconds per million DoFs (Table 2 layout):\n",
              polydg::bench::device_name().c_str());
  std::printf("%-34s", "p");
  for (const Row& r : rows) std::printf("%10d", r.p);
  // A negative time is one the run did not take (the CPU above --cpu-max-p, Approach 1 where
  // its COO arrays do not fit): "n/a".
  auto line = [&](const char* name, auto value) {
    std::printf("\n%-34s", name);
    for (const Row& r : rows) {
      if (value(r) < 0)
        std::printf("%10s", "n/a");
      else
        std::printf("%10.5f", per_million_dofs(r, value(r)));
    }
  };
  // The kernel rows: the kernels in turn (matrix_phases); in the variants' rows at p ≤ 2, but
  // the one stream's, the interior faces' phase runs beside the element and boundary kernels.
  line("element kernel", [](const Row& r) { return r.gpu.matrix_phases.element_s; });
  line("interior kernel (+ gather)", [](const Row& r) { return r.gpu.matrix_phases.interior_s; });
  line("boundary (inflow) kernel", [](const Row& r) { return r.gpu.matrix_phases.boundary_s; });
  line("zero + ranges + finite check", [](const Row& r) { return overhead(r.gpu.matrix_phases); });
  line("values re-assembly (deterministic)", [](const Row& r) { return r.gpu.values_s; });
  line("values re-assembly (atomic)", [](const Row& r) { return r.gpu.values_atomic_s; });
  line("interior kernel (atomic)", [](const Row& r) { return r.gpu.interior_atomic_s; });
  for (const Variant& variant : variants) {
    const auto times = variant.times;
    const std::string label = std::string(" (") + variant.label + ")";
    line(("values re-assembly" + label).c_str(),
         [times](const Row& r) { return (r.gpu.*times).values_s; });
    line(("  element kernel" + label).c_str(),
         [times](const Row& r) { return (r.gpu.*times).element_s; });
    line(("  interior kernel" + label).c_str(),
         [times](const Row& r) { return (r.gpu.*times).interior_s; });
    line(("  boundary kernel" + label).c_str(),
         [times](const Row& r) { return (r.gpu.*times).boundary_s; });
  }
  line("rhs + previous slab", [](const Row& r) { return r.gpu.rhs_s; });
  line("  rhs: zero + ranges + finite check",
       [](const Row& r) { return overhead(r.gpu.rhs_phases); });
  line("  rhs: element kernel", [](const Row& r) { return r.gpu.rhs_phases.element_s; });
  line("  rhs: boundary kernel", [](const Row& r) { return r.gpu.rhs_phases.boundary_s; });
  line("  previous slab term", [](const Row& r) { return r.gpu.previous_slab_s; });
  line("Approach 1: kernels into COO", [](const Row& r) { return r.gpu.approach1_kernels_s; });
  line("Approach 1: indices (sort, reduce)", [](const Row& r) {
    return r.gpu.approach1_total_s < 0 ? -1.0 : r.gpu.approach1_total_s - r.gpu.approach1_kernels_s;
  });
  line("Approach 1: total", [](const Row& r) { return r.gpu.approach1_total_s; });
  line("indices (device pattern)", [](const Row& r) { return r.gpu.pattern_s; });
  line("  from host arrays (uploads)", [](const Row& r) { return r.gpu.pattern_host_arrays_s; });
  line("pattern + values + rhs", [](const Row& r) { return first_without_setup(r.gpu); });
  line("first assembly (device set-up + all)", [](const Row& r) { return r.gpu.first_s; });
  line("  of which set-up (construction)", [](const Row& r) { return r.gpu.setup_s; });
  line("  of which device mesh upload", [](const Row& r) { return r.gpu.device_mesh_s; });
  line("  of which interface scratch", [](const Row& r) { return r.gpu.scratch_s; });
  line("  parts: work lists (host loops)", [](const Row& r) { return r.gpu.work_lists_host_s; });
  line("  parts: index arrays uploaded", [](const Row& r) { return r.gpu.index_upload_s; });
  line("  parts: scratch layout (host)", [](const Row& r) { return r.gpu.scratch_layout_host_s; });
  line("geometry upload, pageable cudaMemcpy",
       [](const Row& r) { return r.gpu.upload_pageable_s; });
  line("geometry upload, staged (library)", [](const Row& r) { return r.gpu.upload_staged_s; });
  line("geometry buffers allocated", [](const Row& r) { return r.gpu.geometry_allocation_s; });
  line("geometry buffers released", [](const Row& r) { return r.gpu.geometry_release_s; });
  line("time step's move: host map + upload", [](const Row& r) { return r.gpu.map_host_upload_s; });
  line("time step's move: device map", [](const Row& r) { return r.gpu.map_device_s; });
  line("host QuadratureMesh (CPU)", [](const Row& r) { return r.gpu.host_mesh_s; });
  line("CPU values (same run)", [](const Row& r) { return r.values_s; });
  std::printf("\n%-34s", "geometry uploaded (MB, not /MDoF)");
  for (const Row& r : rows) std::printf("%10.1f", r.gpu.upload_bytes * 1e-6);
  std::printf("\n%-34s", "speed-up values CPU/GPU");
  for (const Row& r : rows) {
    if (r.values_s > 0)
      std::printf("%10.0f", r.values_s / r.gpu.values_s);
    else
      std::printf("%10s", "n/a");
  }
  std::printf("\n%-34s", "deterministic/atomic");
  for (const Row& r : rows) std::printf("%10.2f", r.gpu.values_s / r.gpu.values_atomic_s);
  std::printf("\n%-34s", "|GPU-CPU|/|CPU| (matrix)");
  for (const Row& r : rows) print_difference(r.gpu.cpu_difference);
  std::printf("\n%-34s", "|GPU-CPU|/|CPU| (rhs)");
  for (const Row& r : rows) print_difference(r.gpu.rhs_cpu_difference);
  std::printf("\n%-34s", "deterministic runs identical");
  for (const Row& r : rows) std::printf("%10s", r.gpu.deterministic_repeatable ? "yes" : "NO");
  std::printf(
      "\n\nIntegrand FLOPs (entries + trial terms / fluxes; basis not counted), GFLOP/s "
      "and %% of %.0f TFLOP/s FP64:\n",
      peak_tflops);
  auto rate = [&](const char* name, auto flops, auto seconds) {
    std::printf("%-34s", name);
    for (const Row& r : rows) {
      const double gflops = flops(r) / seconds(r) * 1e-9;
      std::printf("  %6.0f %4.1f%%", gflops, 100 * gflops / (peak_tflops * 1e3));
    }
    std::printf("\n");
  };
  rate(
      "element", [](const Row& r) { return r.gpu.element_flops; },
      [](const Row& r) { return r.gpu.matrix_phases.element_s; });
  rate(
      "interior", [](const Row& r) { return r.gpu.interior_flops; },
      [](const Row& r) { return r.gpu.matrix_phases.interior_s; });
  rate(
      "boundary", [](const Row& r) { return r.gpu.boundary_flops; },
      [](const Row& r) { return r.gpu.matrix_phases.boundary_s; });
  rate("all kernels", kernel_flops, kernel_seconds);
}

// Issue 5's targets, double precision (where they come from: docs/performance.md). On seed 004
// Table 2's setting (2D+1 prisms, ~3 triangles per polygon), per p = 1..5, s/MDoF:
constexpr double values_target[] = {0.001, 0.003, 0.008, 0.022, 0.05};
constexpr double first_assembly_target[] = {0.003, 0.005, 0.012, 0.03, 0.06};
constexpr double fp64_share_target = 0.30;  // of the peak, all kernels, p ≥ 3
constexpr double deterministic_over_atomic_target = 1.3;
// On Table 5's meshes (the same domain in ~8k, ~126k or 504k elements), p = 3, seconds:
constexpr double table5_p3_target_s = 0.12;

// Each measured p against issue 5's targets, "met" or "MISSED" after the value: Table 2's where
// the polygons have about 3 triangles, Table 5's (the first assembly at p = 3, device set-up
// included) otherwise.
void print_issue_targets(const std::vector<Row>& rows, double peak_tflops,
                         double triangles_per_polygon) {
  if (triangles_per_polygon < 2 || triangles_per_polygon > 4.5) {
    for (const Row& r : rows)
      if (r.p == 3)
        std::printf(
            "\n\nAgainst issue 5's Table 5 target: first assembly at p = 3 (device set-up "
            "included) %.4f s, target <= %.2f s: %s\n",
            r.gpu.first_s, table5_p3_target_s,
            r.gpu.first_s <= table5_p3_target_s ? "met" : "MISSED");
    return;
  }
  std::printf(
      "\n\nAgainst issue 5's Table 2 targets (this run / target; set for the largest mesh that "
      "fits, "
      "--cells-per-side 502 in scripts/gpu-bench.sh):\n%-34s",
      "p");
  for (const Row& r : rows) std::printf("%20d", r.p);
  // check(r) gives {value, target, met}; a negative target prints "-" (no target at this p).
  const auto target_line = [&](const char* name, const char* format, auto check) {
    std::printf("\n%-34s", name);
    for (const Row& r : rows) {
      const auto [value, target, met] = check(r);
      if (target < 0) {
        std::printf("%20s", "-");
        continue;
      }
      char cell[64];
      std::snprintf(cell, sizeof cell, format, value, target);
      std::printf("%13s %-6s", cell, met ? "met" : "MISSED");
    }
  };
  struct Verdict {
    double value, target;
    bool met;
  };
  const auto in_range = [](const Row& r) { return r.p >= 1 && r.p <= 5; };
  target_line("values re-assembly, s/MDoF", "%.4f/%.3g", [&](const Row& r) {
    if (!in_range(r)) return Verdict{0, -1, false};
    const double value = per_million_dofs(r, r.gpu.values_s), target = values_target[r.p - 1];
    return Verdict{value, target, value <= target};
  });
  target_line("pattern + values + rhs, s/MDoF", "%.4f/%.3g", [&](const Row& r) {
    if (!in_range(r)) return Verdict{0, -1, false};
    const double value = per_million_dofs(r, first_without_setup(r.gpu));
    const double target = first_assembly_target[r.p - 1];
    return Verdict{value, target, value <= target};
  });
  target_line("all kernels, % of FP64 peak", "%.1f/%.0f", [&](const Row& r) {
    if (r.p < 3) return Verdict{0, -1, false};
    const double share = kernel_flops(r) / kernel_seconds(r) / (peak_tflops * 1e12);
    return Verdict{100 * share, 100 * fp64_share_target, share >= fp64_share_target};
  });
  target_line("deterministic / atomic", "%.2f/%.1f", [&](const Row& r) {
    const double ratio = r.gpu.values_s / r.gpu.values_atomic_s;
    return Verdict{ratio, deterministic_over_atomic_target,
                   ratio <= deterministic_over_atomic_target};
  });
  std::printf("\n(FP64 share: of %.0f TFLOP/s, with the FLOP count above)\n", peak_tflops);
}

// The phases as "<prefix>zero_s", "<prefix>ranges_s", ... (prefix "" for the matrix's).
void write_phases_json(std::ofstream& json, const char* prefix,
                       const polydg::bench::PhaseTimes& phases) {
  json << ", \"" << prefix << "zero_s\": " << phases.zero_s << ", \"" << prefix
       << "ranges_s\": " << phases.ranges_s << ", \"" << prefix
       << "element_s\": " << phases.element_s << ", \"" << prefix
       << "interior_s\": " << phases.interior_s << ", \"" << prefix
       << "boundary_s\": " << phases.boundary_s << ", \"" << prefix
       << "check_s\": " << phases.check_s;
}

void write_gpu_json(std::ofstream& json, const polydg::bench::GpuAssemblyTimes& g) {
  json << ", \"gpu\": {\"host_mesh_s\": " << g.host_mesh_s << ", \"pattern_s\": " << g.pattern_s
       << ", \"pattern_host_arrays_s\": " << g.pattern_host_arrays_s
       << ", \"pattern_values_rhs_s\": " << first_without_setup(g) << ", \"setup_s\": " << g.setup_s
       << ", \"first_s\": " << g.first_s << ", \"device_mesh_s\": " << g.device_mesh_s
       << ", \"scratch_s\": " << g.scratch_s << ", \"work_lists_host_s\": " << g.work_lists_host_s
       << ", \"index_upload_s\": " << g.index_upload_s
       << ", \"scratch_layout_host_s\": " << g.scratch_layout_host_s
       << ", \"upload_bytes\": " << g.upload_bytes
       << ", \"upload_pageable_s\": " << g.upload_pageable_s
       << ", \"upload_staged_s\": " << g.upload_staged_s
       << ", \"geometry_allocation_s\": " << g.geometry_allocation_s
       << ", \"geometry_release_s\": " << g.geometry_release_s
       << ", \"map_host_upload_s\": " << g.map_host_upload_s
       << ", \"map_device_s\": " << g.map_device_s << ", \"values_s\": " << g.values_s
       << ", \"values_atomic_s\": " << g.values_atomic_s << ", \"rhs_s\": " << g.rhs_s
       << ", \"previous_slab_s\": " << g.previous_slab_s;
  write_phases_json(json, "rhs_", g.rhs_phases);
  for (const Variant& variant : variants) {
    const polydg::bench::VariantTimes& times = g.*variant.times;
    json << ", \"values_" << variant.key << "_s\": " << times.values_s << ", \"element_"
         << variant.key << "_s\": " << times.element_s << ", \"interior_" << variant.key
         << "_s\": " << times.interior_s << ", \"boundary_" << variant.key
         << "_s\": " << times.boundary_s;
  }
  write_phases_json(json, "", g.matrix_phases);
  json << ", \"interior_atomic_s\": " << g.interior_atomic_s
       << ", \"element_flops\": " << g.element_flops << ", \"interior_flops\": " << g.interior_flops
       << ", \"boundary_flops\": " << g.boundary_flops
       << ", \"approach1_kernels_s\": " << g.approach1_kernels_s
       << ", \"approach1_total_s\": " << g.approach1_total_s
       << ", \"approach1_coo_entries\": " << g.approach1_coo_entries
       << ", \"cpu_difference\": " << g.cpu_difference
       << ", \"rhs_cpu_difference\": " << g.rhs_cpu_difference
       << ", \"deterministic_repeatable\": " << (g.deterministic_repeatable ? "true" : "false")
       << "}";
}
#endif

}  // namespace

/// What --help prints.
constexpr const char* usage = R"(Usage: bench_assembly [options]
Assembly on an agglomerated oscillating-boundary mesh, seconds and s per million DoFs: the
CPU reference (steady 2D problem, or the 2D+1 slab with --spacetime) and, with --gpu, the
DeviceAssembler on the same slab in the same run (seed 004 Table 2's layout).
  --p P[,P...]              degrees (default 1,2,3,4,5)
  --cells-per-side N        the oscillating domain's cells per side (default 274)
  --cells-per-element X     fine triangles per polygon (default 3; 1: no agglomeration)
  --mesh FILE.msh           a 2D Gmsh mesh as the fine mesh instead of the domain
  --spacetime               the 2D+1 slab (prisms) instead of the steady 2D problem
  --gpu                     also the GPU backend (CUDA build, with --spacetime)
  --cpu-max-p P             time the CPU backend for p <= P only (default 10)
  --repeats N               runs per measurement; the median is reported (default 3)
  --pieces prisms|simplices the slab's quadrature pieces (default prisms)
  --slab-rules total_degree|tensor   prism and rectangle rules (default total_degree)
  --quadrature-extra K      rules of degree 2p + K (default 2)
  --overlap-max-degree P    interior faces beside the elements up to degree P (GPU)
  --capped-shared-kib K     shared memory cap of the "KiB cap" rows (default 40; 0: skip them)
  --fp64-peak-tflops T      the peak the FLOP rates are a share of (default 34)
  --json FILE               also write every row as JSON
  --help                    this text
The comment at the top of perf/bench_assembly.cpp says more about each option.
)";

int main(int argc, char** argv) {
  polydg::OscillatingDomain domain;
  domain.cells_per_side = 274;
  double cells_per_element = 3;
  std::vector<int> degrees = {1, 2, 3, 4, 5};
  int repeats = 3;
  std::string json_path, mesh_path;
  bool spacetime = false, gpu = false;
  polydg::AssemblyOptions slab_options = polydg::slab_assembly_options();
  int cpu_max_p = 10;
  [[maybe_unused]] double fp64_peak_tflops = 34;  // H100 SXM / H200 without tensor cores
  [[maybe_unused]] int capped_shared_kib = 40;
  [[maybe_unused]] std::optional<int> overlap_max_degree;  // the library's default
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        std::fputs(usage, stdout);
        return 0;
      }
      if (flag == "--spacetime") {
        spacetime = true;
        continue;
      }
      if (flag == "--gpu") {
        gpu = true;
        continue;
      }
      polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[++i];
      if (flag == "--cells-per-side")
        domain.cells_per_side = polydg::parse_integer(flag, value);
      else if (flag == "--cells-per-element")
        cells_per_element = polydg::parse_number(flag, value);
      else if (flag == "--cpu-max-p")
        cpu_max_p = polydg::parse_integer(flag, value);
      else if (flag == "--capped-shared-kib")
        capped_shared_kib = polydg::parse_integer(flag, value);
      else if (flag == "--overlap-max-degree")
        overlap_max_degree = polydg::parse_integer(flag, value);
      else if (flag == "--quadrature-extra")
        slab_options.quadrature.extra = polydg::parse_integer(flag, value);
      else if (flag == "--fp64-peak-tflops")
        fp64_peak_tflops = polydg::parse_number(flag, value);
      else if (flag == "--pieces") {
        polydg::require(value == "prisms" || value == "simplices",
                        "--pieces is prisms or simplices, not ", value);
        slab_options.pieces = value == "prisms" ? polydg::QuadraturePieces::slab_prisms
                                                : polydg::QuadraturePieces::simplices;
      } else if (flag == "--slab-rules") {
        polydg::require(value == "total_degree" || value == "tensor",
                        "--slab-rules is total_degree or tensor, not ", value);
        slab_options.slab_rules =
            value == "tensor" ? polydg::SlabRules::tensor : polydg::SlabRules::total_degree;
      } else if (flag == "--repeats")
        repeats = polydg::parse_integer(flag, value);
      else if (flag == "--json")
        json_path = value;
      else if (flag == "--mesh")
        mesh_path = value;
      else if (flag == "--p") {
        degrees = polydg::parse_integer_list(flag, value);
      } else {
        polydg::raise("unknown option ", flag, " (see --help)");
      }
    }

#if !POLYDG_BENCH_GPU
    polydg::require(!gpu, "--gpu needs a build with CUDA (POLYDG_CUDA=ON)");
#endif
    polydg::require(!gpu || spacetime, "--gpu times the --spacetime problem");
    polydg::require(repeats >= 1 && domain.cells_per_side >= 1 && capped_shared_kib >= 0,
                    "--repeats and --cells-per-side must be >= 1, "
                    "--capped-shared-kib >= 0");
    const auto fine = std::make_shared<const polydg::SimplexMesh<2>>(
        mesh_path.empty() ? polydg::oscillating_domain_mesh(domain)
                          : polydg::read_gmsh<2>(mesh_path));
    polydg::Agglomeration parts;
    if (cells_per_element <= 1) {  // the fine mesh itself: one element per triangle
      parts.element_count = fine->cell_count();
      parts.element_of_cell.resize(std::size_t(fine->cell_count()));
      for (polydg::Index c = 0; c < fine->cell_count(); ++c) parts.element_of_cell[c] = c;
    } else {
      parts = polydg::agglomerate_by_cell_count(*fine, cells_per_element);
    }
    std::vector<Row> rows;
    for (int p : degrees) {
      const polydg::PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
      Row row;
      row.p = p;
      row.elements = mesh.element_count();
      const bool time_cpu = p <= cpu_max_p;
      if (spacetime) {
        const polydg::PolytopicMesh<3> slab = polydg::make_slab_mesh(mesh);
        const polydg::bench::CpuAssembly cpu = time_assembly(
            slab, polydg::bench::heat_slab_conditions(), polydg::bench::heat_slab_coefficients(),
            slab_options, repeats, time_cpu, row);
#if POLYDG_BENCH_GPU
        if (gpu) {
          row.gpu = polydg::bench::time_gpu_slab_assembly(
              slab, slab_options, capped_shared_kib * 1024, overlap_max_degree, repeats,
              {cpu.values, cpu.rhs});
          row.has_gpu = true;
        }
#endif
      } else {
        time_assembly(mesh, polydg::examples::AdvectionDiffusionReaction::boundary_conditions(),
                      polydg::examples::AdvectionDiffusionReaction::coefficients(),
                      polydg::AssemblyOptions{}, repeats, time_cpu, row);
      }
      rows.push_back(row);
    }

    std::printf(
        "CPU reference assembly, %s, %s: %d fine triangles, %d polygons (%.1f triangles each), "
        "quadrature degree 2p + %d, %d OpenMP threads, median of %d\n",
        spacetime ? (slab_options.pieces == polydg::QuadraturePieces::slab_prisms
                         ? (slab_options.slab_rules == polydg::SlabRules::tensor
                                ? "2D+1 slab (prism pieces, tensor rules)"
                                : "2D+1 slab (prism pieces, total-degree rules)")
                         : "2D+1 slab (tetrahedron pieces)")
                  : "2D steady",
        mesh_path.empty() ? "oscillating domain" : mesh_path.c_str(), int(fine->cell_count()),
        int(parts.element_count), double(fine->cell_count()) / parts.element_count,
        spacetime ? slab_options.quadrature.extra : polydg::QuadratureDegrees{}.extra,
        omp_get_max_threads(), repeats);
    std::printf("%2s %10s %10s %12s %10s %10s %10s %12s %14s\n", "p", "elements", "DoFs",
                "nonzeros", "pattern_s", "values_s", "rhs_s", "values s/MDoF", "values DoFs/s");
    for (const Row& r : rows) {
      if (r.values_s < 0)  // above --cpu-max-p: the CPU was not timed
        std::printf("%2d %10lld %10lld %12lld %10s %10s %10s %12s %14s\n", r.p, r.elements, r.dofs,
                    r.nonzeros, "n/a", "n/a", "n/a", "n/a", "n/a");
      else
        std::printf("%2d %10lld %10lld %12lld %10.3f %10.3f %10.3f %12.3f %14.3e\n", r.p,
                    r.elements, r.dofs, r.nonzeros, r.pattern_s, r.values_s, r.rhs_s,
                    per_million_dofs(r, r.values_s), r.dofs / r.values_s);
    }
#if POLYDG_BENCH_GPU
    if (gpu) print_gpu_tables(rows, fp64_peak_tflops);
    if (gpu && spacetime && slab_options.pieces == polydg::QuadraturePieces::slab_prisms &&
        mesh_path.empty())
      print_issue_targets(rows, fp64_peak_tflops, double(fine->cell_count()) / parts.element_count);
#endif
    if (!json_path.empty()) {
      std::ofstream json(json_path);
      polydg::require(bool(json), "cannot write ", json_path);
      json << "{\"backend\": \"" << (gpu ? "cpu+gpu" : "cpu") << "\", \"problem\": \""
           << (spacetime ? "spacetime" : "steady_2d") << "\", \"pieces\": \""
           << (spacetime && slab_options.pieces == polydg::QuadraturePieces::slab_prisms
                   ? "prisms"
                   : "simplices")
           << "\", \"slab_rules\": \""
           << (slab_options.slab_rules == polydg::SlabRules::tensor ? "tensor" : "total_degree")
           << "\", \"quadrature_extra\": "
           << (spacetime ? slab_options.quadrature.extra : polydg::QuadratureDegrees{}.extra)
           << ", \"threads\": " << omp_get_max_threads() << ", \"mesh\": \""
           << (mesh_path.empty() ? "oscillating domain" : mesh_path)
           << "\", \"fine_cells\": " << fine->cell_count();
      if (overlap_max_degree) json << ", \"overlap_max_degree\": " << *overlap_max_degree;
      json << ", \"runs\": [";
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        json << (i ? ", " : "") << "{\"p\": " << r.p << ", \"elements\": " << r.elements
             << ", \"dofs\": " << r.dofs << ", \"nonzeros\": " << r.nonzeros
             << ", \"pattern_s\": " << r.pattern_s << ", \"values_s\": " << r.values_s
             << ", \"rhs_s\": " << r.rhs_s;
#if POLYDG_BENCH_GPU
        if (r.has_gpu) write_gpu_json(json, r.gpu);
#endif
        json << "}";
      }
      json << "]}\n";
    }
  } catch (const polydg::Error& error) {
    std::cerr << "bench_assembly: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
