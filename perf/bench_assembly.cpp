// Benchmark of the CPU reference assembly (the baseline the GPU backend will be measured
// against): for p = 1..5 on one agglomerated oscillating-boundary mesh (the paper's Table 2
// setting, docs/performance.md: about 3 triangles per polygon), the time of the pattern
// (QuadratureMesh + BlockPattern + scratch), of the matrix values, and of the rhs, in seconds and
// DoFs/s. The problem is the convergence study's advection-diffusion-reaction problem (b): full
// anisotropic A(x), b(x), c(x), f(x). With --spacetime, the 2D+1 slab of that setting
// instead: prisms κ × I_n, a = I, w = (1, 1/2), c = 1 (the heat demo's slab system,
// heat_slab_problem.hpp). --cells-per-element 1 keeps the fine mesh (no agglomeration).
// --mesh FILE.msh: a 2D Gmsh mesh (2.2 or 4.1) as the fine mesh instead of the oscillating
// domain; with --gpu and the CPU run at each degree (--cpu-max-p), the table's "|GPU-CPU|/|CPU|"
// rows check GPU = CPU on a mesh of one's own (every boundary tag Dirichlet, as on the domain).
//
// With --gpu (a CUDA build, --spacetime): the DeviceAssembler on the same slab in the same run
// (assembly_gpu_runs.cu): a cold first assembly, device pattern, values-only re-assembly in the
// deterministic and atomic modes, rhs, the kernels' times and FLOP rates (medians), and the
// relative difference to the CPU matrix. The CPU backend is timed for p ≤ --cpu-max-p only (it
// is slow at high p; larger p are compared with no CPU number in that row). What each row and
// JSON field means: perf/README.md, "What bench_assembly prints".
//
//   build/bin/bench_assembly [--cells-per-side 274] [--cells-per-element 3] [--p 1,2,3,4,5]
//                            [--spacetime] [--gpu] [--cpu-max-p 5] [--mesh FILE.msh]
//                            [--fp64-peak-tflops T] [--fp64-tensor-peak-tflops T]
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
// --overlap-max-degree: LaunchTuning::overlap_interior_faces_max_degree (default 1) of
// every re-assembly but the "interior faces after elements" rows (one stream).
// --capped-shared-kib: the cap on the shared memory per block of the "KiB cap" re-assembly rows
// (LaunchTuning::max_block_shared_bytes; 0 skips them), against the default (128 KiB,
// and each launch sized to keep its resident blocks): 40 KiB was the earlier default.
// --fp64-peak-tflops, --fp64-tensor-peak-tflops: the FP64 peaks of the FMA (vector) units and of
// the tensor cores that the FLOP rates are shares of, instead of those computed from the device
// (multiprocessors × clock × FP64 FMAs per multiprocessor and clock: fp64_peaks in
// assembly_gpu_runs.cu), e.g. for a device whose compute capability that table lacks.
#include <omp.h>

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
#include <utility>
#include <vector>

#include "../examples/manufactured_problems.hpp"
#include "bench_provenance.hpp"
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
#include "wall_time.hpp"
#if POLYDG_BENCH_GPU
#include "assembly_gpu_runs.hpp"
#include "cuda_event_timing.hpp"
#endif

namespace {

using polydg::bench::median_seconds;

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

// "pattern + values + rhs" as the targets' first assembly was first measured: the sum of the
// warmed medians of the pieces (the device pattern, a matrix re-assembly, an rhs re-assembly with
// the previous slab's term), each timed alone after a warm-up. Not one assembly's time: without
// the device set-up (device mesh upload, work lists, scratch, allocations) and the first
// launches, which the cold first assembly (cold.total_s) has.
double warmed_pieces_sum(const polydg::bench::GpuAssemblyTimes& g) {
  return g.pattern_s + g.values_s + g.rhs_s;
}

// The element, interior and boundary kernels of a matrix assembly together: their FLOPs (our
// count) and their seconds (the kernels in turn, matrix_phases: the median over the runs of
// their sum).
double kernel_flops(const Row& r) {
  return r.gpu.element_flops + r.gpu.interior_flops + r.gpu.boundary_flops;
}
double kernel_seconds(const Row& r) { return r.gpu.matrix_phases.kernels_s; }

// A share of an FP64 peak (TFLOP/s), or −1 where the peak is unknown (0).
double fp64_share(double flops, double seconds, double peak_tflops) {
  return peak_tflops > 0 ? flops / seconds / (peak_tflops * 1e12) : -1;
}

// The kernels of a matrix assembly that ran on the FP64 tensor cores, as "E I B" (element,
// interior, boundary), or "none".
std::string tensor_core_kernels(const polydg::bench::TensorCoreLaunches& launches) {
  std::string kernels;
  for (const auto& [count, letter] :
       {std::pair{launches.elements, "E"}, std::pair{launches.interior_faces, "I"},
        std::pair{launches.boundary_faces, "B"}})
    if (count > 0) kernels += kernels.empty() ? letter : std::string(" ") + letter;
  return kernels.empty() ? "none" : kernels;
}

// The device and its two FP64 peaks (TFLOP/s and FMAs per SM and clock), on three lines, saying
// which peak the command line gave.
std::string describe_peaks(const polydg::bench::DevicePeaks& peaks) {
  char text[512];
  const auto peak = [](double tflops, int fma, bool given) {
    char part[128];
    if (given)
      std::snprintf(part, sizeof part, "%.1f TFLOP/s (given on the command line)", tflops);
    else if (tflops > 0)
      std::snprintf(part, sizeof part, "%.1f TFLOP/s (%d FP64 FMA per SM and clock)", tflops, fma);
    else
      std::snprintf(part, sizeof part, "unknown for this compute capability");
    return std::string(part);
  };
  std::snprintf(text, sizeof text,
                "%s, compute capability %d.%d, %d SMs at %.0f MHz:\n  FP64 vector peak %s,"
                "\n  FP64 tensor-core peak %s",
                peaks.name.c_str(), peaks.major, peaks.minor, peaks.multiprocessors,
                peaks.clock_mhz,
                peak(peaks.vector_tflops, peaks.vector_fma_per_clock, peaks.vector_given).c_str(),
                peak(peaks.tensor_tflops, peaks.tensor_fma_per_clock, peaks.tensor_given).c_str());
  return text;
}

// A relative difference, or "n/a" where it was not computed (negative).
void print_difference(double difference) {
  if (difference < 0)
    std::printf("%10s", "n/a");
  else
    std::printf("%10.1e", difference);
}

// The layout of the paper's Table 2 (docs/performance.md), seconds per million DoFs, and the
// kernels' FLOP rates.
void print_gpu_tables(const std::vector<Row>& rows, const polydg::bench::DevicePeaks& peaks,
                      double cuda_context_s, int repeats) {
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
  line("pattern+values+rhs, warmed medians", [](const Row& r) { return warmed_pieces_sum(r.gpu); });
  line("first assembly, cold (see below)", [](const Row& r) { return r.gpu.cold.total_s; });
  line("  cold: host QuadratureMesh", [](const Row& r) { return r.gpu.cold.host_mesh_s; });
  line("  cold: device set-up", [](const Row& r) { return r.gpu.cold.setup_s; });
  line("  cold: assemble + previous slab", [](const Row& r) { return r.gpu.cold.assemble_s; });
  line("2nd assembler: set-up + first", [](const Row& r) { return r.gpu.first_s; });
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
  std::printf("\n%-34s", "kernels on the FP64 tensor cores");
  for (const Row& r : rows)
    std::printf("%10s", tensor_core_kernels(r.gpu.tensor_core_launches).c_str());
  // What the cold first assembly holds, and what it leaves out.
  std::string first_row = "none";
  for (const Row& r : rows)
    if (r.gpu.cold.process_first) first_row = "p = " + std::to_string(r.p);
  std::printf(
      "\n\nfirst assembly, cold: wall clock, synchronized, in a DeviceAssembler made for this "
      "mesh, the first thing\nthis p does on the device: host QuadratureMesh + device set-up "
      "(geometry and index uploads, work lists,\npattern build, value / rhs / scratch "
      "allocations from an emptied memory pool) + assemble + previous slab\nterm (first "
      "launches: kernels loaded at their first launch in the process). The process's first "
      "(%s)\nalso loaded every kernel it launched and allocated the pinned staging chunks; "
      "later p only kernels\nnot launched before. Not in it: the CUDA context, %.3f s once per "
      "process. One sample each.\n"
      "pattern+values+rhs, warmed medians: the sum of three pieces each timed alone after a "
      "warm-up (median of %d).\n"
      "2nd assembler: a second DeviceAssembler on the same mesh after the cold one (kernels "
      "loaded, pooled memory).\n",
      first_row.c_str(), cuda_context_s, repeats);

  std::printf(
      "\nIntegrand FLOPs (entries + trial terms / fluxes; basis not counted) over the kernel "
      "times of a matrix\nre-assembly with the kernels in turn, median of %d runs: GFLOP/s, %% of "
      "the FP64 vector peak, %% of the FP64\ntensor-core peak, TC where the kernel ran on the "
      "tensor cores.\nPeaks: %s\n%-34s",
      repeats, describe_peaks(peaks).c_str(), "p");
  for (const Row& r : rows) std::printf("%25d", r.p);
  std::printf("\n");
  const auto percent = [](double share) {
    char cell[16];
    if (share < 0)
      std::snprintf(cell, sizeof cell, "%6s", "n/a");
    else
      std::snprintf(cell, sizeof cell, "%5.1f%%", 100 * share);
    return std::string(cell);
  };
  auto rate = [&](const char* name, auto flops, auto seconds, auto launches) {
    std::printf("%-34s", name);
    for (const Row& r : rows) {
      const double gflops = flops(r) / seconds(r) * 1e-9;
      std::printf("%8.0f %s %s %2s", gflops,
                  percent(fp64_share(flops(r), seconds(r), peaks.vector_tflops)).c_str(),
                  percent(fp64_share(flops(r), seconds(r), peaks.tensor_tflops)).c_str(),
                  launches(r) > 0 ? "TC" : "");
    }
    std::printf("\n");
  };
  rate(
      "element", [](const Row& r) { return r.gpu.element_flops; },
      [](const Row& r) { return r.gpu.matrix_phases.element_s; },
      [](const Row& r) { return r.gpu.tensor_core_launches.elements; });
  rate(
      "interior", [](const Row& r) { return r.gpu.interior_flops; },
      [](const Row& r) { return r.gpu.matrix_phases.interior_s; },
      [](const Row& r) { return r.gpu.tensor_core_launches.interior_faces; });
  rate(
      "boundary", [](const Row& r) { return r.gpu.boundary_flops; },
      [](const Row& r) { return r.gpu.matrix_phases.boundary_s; },
      [](const Row& r) { return r.gpu.tensor_core_launches.boundary_faces; });
  rate("all kernels", kernel_flops, kernel_seconds, [](const Row& r) {
    const auto& launches = r.gpu.tensor_core_launches;
    return launches.elements + launches.interior_faces + launches.boundary_faces;
  });
}

// The GPU assembly targets, double precision (docs/performance.md, "Where the GPU targets
// stand"). On the paper's Table 2 setting (2D+1 prisms, ~3 triangles per polygon), per p = 1..5,
// s/MDoF:
constexpr double values_target[] = {0.001, 0.003, 0.008, 0.022, 0.05};
constexpr double first_assembly_target[] = {0.003, 0.005, 0.012, 0.03, 0.06};
// Of the FP64 vector peak (set against 34 TFLOP/s, an H100's FMA units), all kernels, p ≥ 3.
constexpr double fp64_share_target = 0.30;
constexpr double deterministic_over_atomic_target = 1.3;
// On the paper's Table 5 meshes (the same domain in ~8k, ~126k or 504k elements), p = 3, seconds:
constexpr double table5_p3_target_s = 0.12;

// Each measured p against the GPU assembly targets (docs/performance.md, "Where the GPU targets
// stand"), "met" or "MISSED" after the value: the Table 2 setting's where the polygons have
// about 3 triangles, the Table 5 setting's (the first assembly at p = 3, device set-up included)
// otherwise. The first assembly is judged twice: cold (one assembly, all its set-up) and as the sum
// of the pieces' warmed medians (how it was measured before); the FP64 share against the vector
// peak, as the target was set, with the tensor-core share and the kernels that ran on the tensor
// cores beside it.
void print_issue_targets(const std::vector<Row>& rows, const polydg::bench::DevicePeaks& peaks,
                         double triangles_per_polygon) {
  if (triangles_per_polygon < 2 || triangles_per_polygon > 4.5) {
    const auto verdict = [](double seconds) {
      return seconds < 0 ? "n/a" : seconds <= table5_p3_target_s ? "met" : "MISSED";
    };
    for (const Row& r : rows)
      if (r.p == 3)
        std::printf(
            "\n\nAgainst the Table 5 target, first assembly at p = 3 <= %.2f s:\n"
            "  cold (all set-up, see above)          %.4f s: %s\n"
            "  2nd assembler (set-up + first)        %.4f s: %s\n"
            "  pattern+values+rhs, warmed medians    %.4f s: %s\n",
            table5_p3_target_s, r.gpu.cold.total_s, verdict(r.gpu.cold.total_s), r.gpu.first_s,
            verdict(r.gpu.first_s), warmed_pieces_sum(r.gpu), verdict(warmed_pieces_sum(r.gpu)));
    return;
  }
  std::printf(
      "\n\nAgainst the Table 2 targets (this run / target; set for the largest mesh that "
      "fits, "
      "--cells-per-side 502 in scripts/gpu/bench.sh):\n%-34s",
      "p");
  for (const Row& r : rows) std::printf("%20d", r.p);
  // check(r) gives {value, target, met}; a negative target prints "-" (no target at this p), a
  // negative value "n/a" (not measured, or a peak unknown).
  const auto target_line = [&](const char* name, const char* format, auto check) {
    std::printf("\n%-34s", name);
    for (const Row& r : rows) {
      const auto [value, target, met] = check(r);
      if (target < 0) {
        std::printf("%20s", "-");
        continue;
      }
      if (value < 0) {
        std::printf("%13s %-6s", "n/a", "");
        continue;
      }
      char cell[64];
      std::snprintf(cell, sizeof cell, format, value, target);
      std::printf("%13s %-6s", cell, met ? "met" : "MISSED");
    }
  };
  // A line with no target: cell(r) is the text of p's cell.
  const auto info_line = [&](const char* name, auto cell) {
    std::printf("\n%-34s", name);
    for (const Row& r : rows) {
      const std::string text = cell(r);
      if (text == "-")  // where no target applies, as target_line prints it
        std::printf("%20s", "-");
      else
        std::printf("%13s %-6s", text.c_str(), "");
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
  target_line("first assembly, cold, s/MDoF", "%.4f/%.3g", [&](const Row& r) {
    if (!in_range(r)) return Verdict{0, -1, false};
    const double value = r.gpu.cold.total_s < 0 ? -1 : per_million_dofs(r, r.gpu.cold.total_s);
    const double target = first_assembly_target[r.p - 1];
    return Verdict{value, target, value <= target};
  });
  target_line("pattern+values+rhs warmed, s/MDoF", "%.4f/%.3g", [&](const Row& r) {
    if (!in_range(r)) return Verdict{0, -1, false};
    const double value = per_million_dofs(r, warmed_pieces_sum(r.gpu));
    const double target = first_assembly_target[r.p - 1];
    return Verdict{value, target, value <= target};
  });
  target_line("all kernels, % of FP64 vector peak", "%.1f/%.0f", [&](const Row& r) {
    if (r.p < 3) return Verdict{0, -1, false};
    const double share = fp64_share(kernel_flops(r), kernel_seconds(r), peaks.vector_tflops);
    return Verdict{share < 0 ? -1 : 100 * share, 100 * fp64_share_target,
                   share >= fp64_share_target};
  });
  info_line("  % of FP64 tensor-core peak", [&](const Row& r) {
    const double share = fp64_share(kernel_flops(r), kernel_seconds(r), peaks.tensor_tflops);
    char cell[32];
    if (r.p < 3)
      std::snprintf(cell, sizeof cell, "-");
    else if (share < 0)
      std::snprintf(cell, sizeof cell, "n/a");
    else
      std::snprintf(cell, sizeof cell, "%.1f", 100 * share);
    return std::string(cell);
  });
  info_line("  kernels on the FP64 tensor cores",
            [](const Row& r) { return tensor_core_kernels(r.gpu.tensor_core_launches); });
  target_line("deterministic / atomic", "%.2f/%.1f", [&](const Row& r) {
    const double ratio = r.gpu.values_s / r.gpu.values_atomic_s;
    return Verdict{ratio, deterministic_over_atomic_target,
                   ratio <= deterministic_over_atomic_target};
  });
  std::printf(
      "\n(FP64 shares, with the FLOP count above: met / MISSED against the vector peak, %.1f "
      "TFLOP/s here, as the target\nwas set (34 TFLOP/s); kernels on the tensor cores (E "
      "element, I interior, B boundary) could reach the\ntensor-core peak, %.1f TFLOP/s. First "
      "assembly: cold is one assembly with all its set-up, warmed the\nsum of the pieces' "
      "warmed medians; rows above say what each holds.)\n",
      peaks.vector_tflops, peaks.tensor_tflops);
}

// The phases as "<prefix>zero_s", "<prefix>ranges_s", ... (prefix "" for the matrix's).
void write_phases_json(std::ofstream& json, const char* prefix,
                       const polydg::bench::PhaseTimes& phases) {
  json << ", \"" << prefix << "zero_s\": " << phases.zero_s << ", \"" << prefix
       << "ranges_s\": " << phases.ranges_s << ", \"" << prefix
       << "element_s\": " << phases.element_s << ", \"" << prefix
       << "interior_s\": " << phases.interior_s << ", \"" << prefix
       << "boundary_s\": " << phases.boundary_s << ", \"" << prefix
       << "check_s\": " << phases.check_s << ", \"" << prefix
       << "kernels_s\": " << phases.kernels_s;
}

// A number as JSON: null where it is not finite (no time measured).
std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  std::ostringstream text;
  text << value;
  return text.str();
}

// A share as JSON: the fraction, or null where the peak is unknown.
std::string json_share(double share) { return share < 0 ? "null" : json_number(share); }

// The FP64 rates of the matrix kernels (matrix_phases' medians): GFLOP/s, the shares of both
// peaks, and the launches on the tensor cores.
void write_fp64_json(std::ofstream& json, const Row& r, const polydg::bench::DevicePeaks& peaks) {
  const auto& launches = r.gpu.tensor_core_launches;
  const auto entry = [&](const char* name, double flops, double seconds, int tensor_launches) {
    json << "\"" << name << "\": {\"gflops\": " << json_number(flops / seconds * 1e-9)
         << ", \"share_of_vector_peak\": "
         << json_share(fp64_share(flops, seconds, peaks.vector_tflops))
         << ", \"share_of_tensor_peak\": "
         << json_share(fp64_share(flops, seconds, peaks.tensor_tflops))
         << ", \"tensor_core_launches\": " << tensor_launches << "}";
  };
  json << ", \"fp64\": {";
  entry("element", r.gpu.element_flops, r.gpu.matrix_phases.element_s, launches.elements);
  json << ", ";
  entry("interior", r.gpu.interior_flops, r.gpu.matrix_phases.interior_s, launches.interior_faces);
  json << ", ";
  entry("boundary", r.gpu.boundary_flops, r.gpu.matrix_phases.boundary_s, launches.boundary_faces);
  json << ", ";
  entry("all_kernels", kernel_flops(r), kernel_seconds(r),
        launches.elements + launches.interior_faces + launches.boundary_faces);
  json << "}";
}

void write_gpu_json(std::ofstream& json, const Row& r, const polydg::bench::DevicePeaks& peaks) {
  const polydg::bench::GpuAssemblyTimes& g = r.gpu;
  json << ", \"gpu\": {\"first_cold_s\": " << g.cold.total_s
       << ", \"first_cold_host_mesh_s\": " << g.cold.host_mesh_s
       << ", \"first_cold_setup_s\": " << g.cold.setup_s
       << ", \"first_cold_assemble_s\": " << g.cold.assemble_s
       << ", \"first_cold_process_first\": " << (g.cold.process_first ? "true" : "false")
       << ", \"host_mesh_s\": " << g.host_mesh_s << ", \"pattern_s\": " << g.pattern_s
       << ", \"pattern_host_arrays_s\": " << g.pattern_host_arrays_s
       << ", \"pattern_values_rhs_s\": " << warmed_pieces_sum(g) << ", \"setup_s\": " << g.setup_s
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
       << ", \"boundary_flops\": " << g.boundary_flops;
  write_fp64_json(json, r, peaks);
  json << ", \"approach1_kernels_s\": " << g.approach1_kernels_s
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
DeviceAssembler on the same slab in the same run (laid out as the paper's Table 2:
docs/performance.md, "Assembly: the paper's Table 2 setting").
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
  --fp64-peak-tflops T      FP64 vector (FMA-unit) peak of the shares (default: from the device)
  --fp64-tensor-peak-tflops T   FP64 tensor-core peak of the shares (default: from the device)
  --json FILE               also write every row as JSON
  --help                    this text
The comment at the top of perf/bench_assembly.cpp says more about each option.
)";

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  polydg::OscillatingDomain domain;
  domain.cells_per_side = 274;
  double cells_per_element = 3;
  std::vector<int> degrees = {1, 2, 3, 4, 5};
  int repeats = 3;
  std::string json_path, mesh_path;
  bool spacetime = false, gpu = false;
  polydg::AssemblyOptions slab_options = polydg::slab_assembly_options();
  int cpu_max_p = 10;
  // The FP64 peaks the FLOP rates are shares of; 0: from the device (fp64_peaks).
  [[maybe_unused]] double fp64_peak_tflops = 0, fp64_tensor_peak_tflops = 0;
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
      else if (flag == "--fp64-tensor-peak-tflops")
        fp64_tensor_peak_tflops = polydg::parse_number(flag, value);
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
    polydg::require(fp64_peak_tflops >= 0 && fp64_tensor_peak_tflops >= 0,
                    "--fp64-peak-tflops and --fp64-tensor-peak-tflops must be >= 0");
    // The device: its context first (a program's one-time cost, timed apart from the cold
    // first assemblies), then its FP64 peaks.
    [[maybe_unused]] double cuda_context_s = -1;
#if POLYDG_BENCH_GPU
    polydg::bench::DevicePeaks peaks;
    if (gpu) {
      cuda_context_s = polydg::bench::cuda_context_seconds();
      peaks = polydg::bench::fp64_peaks(fp64_peak_tflops, fp64_tensor_peak_tflops);
    }
#endif
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
    if (gpu) print_gpu_tables(rows, peaks, cuda_context_s, repeats);
    if (gpu && spacetime && slab_options.pieces == polydg::QuadraturePieces::slab_prisms &&
        mesh_path.empty())
      print_issue_targets(rows, peaks, double(fine->cell_count()) / parts.element_count);
#endif
    if (!json_path.empty()) {
      std::ofstream json(json_path);
      polydg::require(bool(json), "cannot write ", json_path);
      // Provenance first (with the GPU's description where it ran), then the FP64 peaks.
      std::string device = "null";
#if POLYDG_BENCH_GPU
      if (gpu) device = polydg::bench::device_json();
#endif
      json << "{" << polydg::bench::provenance_json(argc, argv, started, device);
#if POLYDG_BENCH_GPU
      if (gpu) {
        const auto source = [](bool given) {
          return given ? "\"command line\""
                       : "\"device: multiprocessors x clock x FMA per SM and clock\"";
        };
        json << ", \"fp64_peaks\": {\"vector_tflops\": " << peaks.vector_tflops
             << ", \"tensor_tflops\": " << peaks.tensor_tflops
             << ", \"vector_fma_per_sm_per_clock\": " << peaks.vector_fma_per_clock
             << ", \"tensor_fma_per_sm_per_clock\": " << peaks.tensor_fma_per_clock
             << ", \"vector_source\": " << source(peaks.vector_given)
             << ", \"tensor_source\": " << source(peaks.tensor_given) << "}"
             << ", \"cuda_context_s\": " << cuda_context_s << ", \"first_cold_includes\": "
             << polydg::bench::json_string(
                    "wall clock, synchronized, the first device work of its p: host "
                    "QuadratureMesh, DeviceAssembler construction (geometry and index uploads, "
                    "work lists, pattern build, value/rhs/scratch allocations from an emptied "
                    "memory pool), assemble + previous slab term (first launches: kernels loaded "
                    "at their first launch in the process); the run's first p (process_first) "
                    "also loads every kernel it launches and allocates the pinned staging "
                    "chunks; not the CUDA context (cuda_context_s)");
      }
#endif
      json << ", \"backend\": \"" << (gpu ? "cpu+gpu" : "cpu") << "\", \"problem\": \""
           << (spacetime ? "spacetime" : "steady_2d") << "\", \"pieces\": \""
           << (spacetime && slab_options.pieces == polydg::QuadraturePieces::slab_prisms
                   ? "prisms"
                   : "simplices")
           << "\", \"slab_rules\": \""
           << (slab_options.slab_rules == polydg::SlabRules::tensor ? "tensor" : "total_degree")
           << "\", \"quadrature_extra\": "
           << (spacetime ? slab_options.quadrature.extra : polydg::QuadratureDegrees{}.extra)
           << ", \"threads\": " << omp_get_max_threads() << ", \"repeats\": " << repeats
           << ", \"mesh\": "
           << polydg::bench::json_string(mesh_path.empty() ? "oscillating domain" : mesh_path)
           << ", \"fine_cells\": " << fine->cell_count();
      if (overlap_max_degree) json << ", \"overlap_max_degree\": " << *overlap_max_degree;
      json << ", \"runs\": [";
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        json << (i ? ", " : "") << "{\"p\": " << r.p << ", \"elements\": " << r.elements
             << ", \"dofs\": " << r.dofs << ", \"nonzeros\": " << r.nonzeros
             << ", \"pattern_s\": " << r.pattern_s << ", \"values_s\": " << r.values_s
             << ", \"rhs_s\": " << r.rhs_s;
#if POLYDG_BENCH_GPU
        if (r.has_gpu) write_gpu_json(json, r, peaks);
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
