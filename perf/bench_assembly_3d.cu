// Seed 004's Table 6 setting on one GPU: the steady 3D IP-DG system on polyhedra agglomerated
// from a cube of tetrahedra, assembled by the DeviceAssembler against the CPU Assembler in the
// same run. The coefficients are __host__ __device__ functors evaluated in the kernels, as the
// seed's (the template path, polydg/cuda/device_assembler.cuh); --coefficients points takes the
// plain-C++ route instead (DevicePointCoefficients: evaluated on the host at every quadrature
// point, uploaded, read by the library's precompiled kernels).
// The problem is the seed's: A = 0.01 I, b = (1 + x, 1 + y, 1 + z), c = 3 + xyz, f from
// u = sin(πx) sin(πy) sin(πz), Dirichlet everywhere. The fine mesh is unit_cube_mesh(n, 0.1)
// (6n³ tetrahedra; n = 102: 6.37 M, the seed's 6.29 M), agglomerated by greedy growth into
// polyhedra of about 4 tetrahedra (1.59 M; METIS k-way needs 17 s for 49 k parts, far too long
// for 1.6 M). Per degree, seconds:
//   * cold first assembly, what a program pays from its PolytopicMesh to a matrix and rhs on the
//     device: the host QuadratureMesh, the device set-up (uploads, pattern, allocations), with
//     --coefficients points the point values, and the first assemble;
//   * the set-up's parts, alone: the element trace constants (host), the device mesh (uploads,
//     work lists) and the block pattern built from device arrays (medians);
//   * warmed: a second assembler's set-up from a host QuadratureMesh, then the values and the
//     rhs re-assembled (medians), the kernels' phases (CUDA events);
//   * the CPU Assembler (pattern, matrix + rhs) for p ≤ --cpu-max-p, and |GPU − CPU| / |CPU|.
//
//   build/bin/bench_assembly_3d [--cells-per-side 102] [--cells-per-element 4] [--p 1,2]
//                               [--cpu-max-p 1] [--quadrature-extra 2] [--repeats 3]
//                               [--coefficients functors|points] [--max-block-shared-kib K]
//                               [--json FILE]
// The seed's p = 3 row is a smaller mesh (786 k tetrahedra): --cells-per-side 51 --p 3.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "bench_provenance.hpp"
#include "cuda_event_timing.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/cuda/device_assembler.cuh"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/device_point_coefficients.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "wall_time.hpp"

namespace {

using Clock = polydg::bench::WallClock;
using polydg::bench::seconds_since;
constexpr double pi = std::numbers::pi;

// The median wall time of work() with the device work it queues.
template <class Work>
double median_seconds(int repeats, Work&& work) {
  return polydg::bench::median_seconds(repeats, [&] {
    work();
    polydg::device::synchronize();
  });
}

// Seed 004 §4.2: A = 0.01 I, b = (1 + x, 1 + y, 1 + z), c = 3 + xyz; f = −0.01 Δu + b·∇u + c u
// with u = sin(πx) sin(πy) sin(πz); g_D = u. Functors of the host and the device.
struct Advection {
  __host__ __device__ polydg::Point<3> operator()(const polydg::Point<3>& x) const {
    return {{1 + x[0], 1 + x[1], 1 + x[2]}};
  }
};
struct Reaction {
  __host__ __device__ double operator()(const polydg::Point<3>& x) const {
    return 3 + x[0] * x[1] * x[2];
  }
};
struct Solution {
  __host__ __device__ double operator()(const polydg::Point<3>& x) const {
    return sin(pi * x[0]) * sin(pi * x[1]) * sin(pi * x[2]);
  }
};
struct Source {
  __host__ __device__ double operator()(const polydg::Point<3>& x) const {
    const double sx = sin(pi * x[0]), sy = sin(pi * x[1]), sz = sin(pi * x[2]);
    const double b_dot_grad_u = pi * (1 + x[0]) * cos(pi * x[0]) * sy * sz +
                                pi * (1 + x[1]) * sx * cos(pi * x[1]) * sz +
                                pi * (1 + x[2]) * sx * sy * cos(pi * x[2]);
    return 0.03 * pi * pi * sx * sy * sz + b_dot_grad_u + Reaction{}(x)*sx * sy * sz;
  }
};

auto table6_problem() {
  return polydg::make_coefficients<3>()
      .with_diffusion(0.01)
      .with_advection(Advection{})
      .with_reaction(Reaction{})
      .with_source(Source{})
      .with_dirichlet(Solution{});
}

double relative_difference(const std::vector<double>& a, std::span<const double> b) {
  double difference = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    difference = std::max(difference, std::abs(a[i] - b[i]));
    norm = std::max(norm, std::abs(b[i]));
  }
  return difference / norm;
}

struct Row {
  int p = 0;
  long long elements = 0, dofs = 0, nonzeros = 0;
  double polytopic_mesh_s = 0;  // PolytopicMesh<3> (host), not part of an assembly
  // cold
  double cold_host_mesh_s = 0, cold_setup_s = 0, cold_point_values_s = 0, cold_assemble_s = 0;
  // the set-up's parts, alone
  double trace_constants_s = 0, device_mesh_s = 0, pattern_s = 0;
  // warmed
  double setup_s = 0, values_s = 0, rhs_s = 0;
  polydg::DeviceAssemblyTimings phases;
  // CPU (−1: not timed)
  double cpu_setup_s = -1, cpu_assemble_s = -1, values_difference = -1, rhs_difference = -1;
  double cold_total() const {
    return cold_host_mesh_s + cold_setup_s + cold_point_values_s + cold_assemble_s;
  }
  double per_million(double s) const { return s / (double(dofs) * 1e-6); }
};

Row run_degree(const std::shared_ptr<const polydg::SimplexMesh<3>>& fine,
               const std::vector<polydg::Index>& element_of_cell, int p,
               const polydg::AssemblyOptions& options,
               const polydg::DeviceAssemblyOptions& device_options, int repeats, bool time_cpu,
               bool point_values) {
  const auto data = table6_problem();
  const polydg::BoundaryConditions conditions = polydg::BoundaryConditions::all_dirichlet();
  Row row;
  row.p = p;
  auto start = Clock::now();
  const polydg::PolytopicMesh<3> mesh(fine, element_of_cell, p);
  row.polytopic_mesh_s = seconds_since(start);
  row.elements = mesh.element_count();

  {  // Cold: nothing of this degree's on the device, the memory pool empty.
    polydg::device::release_cached_memory();
    start = Clock::now();
    polydg::QuadratureMesh<3> host_mesh(mesh, conditions, options.pieces);
    row.cold_host_mesh_s = seconds_since(start);
    start = Clock::now();
    polydg::DeviceAssembler<3> cold(std::move(host_mesh), options, device_options);
    polydg::device::synchronize();
    row.cold_setup_s = seconds_since(start);
    start = Clock::now();
    polydg::DevicePointCoefficients<3> points;
    if (point_values) {
      points.update_points(cold);
      points.set(data);
      polydg::device::synchronize();
    }
    row.cold_point_values_s = seconds_since(start);
    start = Clock::now();
    if (point_values)
      cold.assemble(points.view());
    else
      cold.assemble(data);
    polydg::device::synchronize();
    row.cold_assemble_s = seconds_since(start);
  }

  {  // The set-up's parts, each alone.
    polydg::QuadratureMesh<3> host_mesh(mesh, conditions, options.pieces);
    row.trace_constants_s =
        median_seconds(repeats, [&] { polydg::apply_assembly_options(host_mesh, options); });
    row.device_mesh_s = median_seconds(repeats, [&] {
      polydg::DeviceQuadratureMesh<3> device_mesh(host_mesh, options.quadrature);
    });
    std::vector<polydg::Index> block_sizes(std::size_t(host_mesh.element_count()));
    for (polydg::Index e = 0; e < host_mesh.element_count(); ++e)
      block_sizes[e] = polydg::space_basis_size(options.space, 3, host_mesh.element_degrees[e]);
    const polydg::device::DeviceBuffer<polydg::Index> sizes{
        std::span<const polydg::Index>(block_sizes)};
    const polydg::device::DeviceBuffer<polydg::Index> ends{std::span<const polydg::Index>(
        host_mesh.interface_elements.data()->data(), 2 * host_mesh.interface_elements.size())};
    row.pattern_s = median_seconds(repeats, [&] {
      polydg::device::DeviceBuffer<polydg::Index> copy(sizes.size());
      polydg::device::copy_device_to_device(copy.data(), sizes.data(),
                                            sizes.size() * sizeof(polydg::Index));
      polydg::build_block_pattern_from_device_arrays(std::move(copy), ends.data(),
                                                     host_mesh.interface_count());
    });
  }

  polydg::QuadratureMesh<3> host_mesh(mesh, conditions, options.pieces);
  start = Clock::now();
  polydg::DeviceAssembler<3> gpu(std::move(host_mesh), options, device_options);
  polydg::device::synchronize();
  row.setup_s = seconds_since(start);
  row.dofs = gpu.host_pattern()->dof_count();
  row.nonzeros = gpu.host_pattern()->value_count();
  // What the kernels read: the functors, or their values at the assemblers' points (the same
  // for every assembler of this mesh), evaluated on the host once.
  std::optional<polydg::DevicePointCoefficients<3>> points;
  if (point_values) {
    points.emplace(gpu);
    points->set(data);
  }
  const auto with_coefficients = [&](auto&& work) {
    if (points)
      work(points->view());
    else
      work(data);
  };
  with_coefficients([&](const auto& coefficients) {
    gpu.assemble(coefficients);  // warm-up
    row.values_s = median_seconds(repeats, [&] { gpu.assemble_matrix(coefficients); });
    row.rhs_s = median_seconds(repeats, [&] { gpu.assemble_rhs(coefficients); });
  });
  {
    polydg::DeviceAssemblyOptions timed = device_options;
    timed.record_timings = true;
    polydg::DeviceAssembler<3> phases(polydg::QuadratureMesh<3>(mesh, conditions, options.pieces),
                                      options, timed);
    with_coefficients([&](const auto& coefficients) {
      phases.assemble_matrix(coefficients);
      phases.assemble_matrix(coefficients);
    });
    row.phases = phases.last_timings();
  }

  if (time_cpu) {
    start = Clock::now();
    polydg::Assembler<3> cpu(mesh, conditions, options);
    row.cpu_setup_s = seconds_since(start);
    polydg::BlockMatrix<double> matrix = cpu.make_matrix();
    std::vector<double> rhs = cpu.make_vector();
    start = Clock::now();
    cpu.assemble(data, matrix, rhs);
    row.cpu_assemble_s = seconds_since(start);
    // gpu holds the last matrix and rhs re-assemblies.
    row.values_difference = relative_difference(gpu.values_to_host(), matrix.values());
    row.rhs_difference = relative_difference(gpu.rhs_to_host(), rhs);
  }
  return row;
}

// Seed 004's Table 6, one P100: total assembly, seconds (p = 3 on its 197 k-element mesh).
constexpr double seed_total_s[] = {9.4, 38.2, 20.8};
// The 2D+1 slab's values re-assembly on the H200, s per MDoF (docs/performance.md, "Assembly:
// the paper's Table 2 setting"): the 3D target is within 1.5 × of it.
constexpr double slab_values_s_per_mdof[] = {0.00089, 0.00290, 0.00571};

constexpr const char* usage = R"(Usage: bench_assembly_3d [options]
Seed 004's Table 6 setting on one GPU (the comment at the top of perf/bench_assembly_3d.cpp).
  --cells-per-side N      unit_cube_mesh's cubes per side, 6N^3 tetrahedra (default 102)
  --cells-per-element X   tetrahedra per polyhedron (default 4; greedy growth)
  --p P[,P...]            degrees (default 1,2)
  --cpu-max-p P           time the CPU Assembler for p <= P (default 1; -1: never)
  --quadrature-extra K    rules of degree 2p + K (default 2, the library's)
  --repeats N             runs per median (default 3)
  --max-block-shared-kib K   cap on the point batches' shared memory per block (default 128)
  --coefficients C        functors (default: evaluated in the kernels) or points (host values
                          at every quadrature point, the library's precompiled kernels)
  --json FILE             every row as JSON, with provenance
)";

}  // namespace

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  int cells_per_side = 102, cpu_max_p = 1, repeats = 3;
  double cells_per_element = 4;
  std::vector<int> degrees = {1, 2};
  polydg::AssemblyOptions options;
  polydg::DeviceAssemblyOptions device_options;
  std::string json_path;
  bool point_values = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help") {
        std::fputs(usage, stdout);
        return 0;
      }
      polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[++i];
      if (flag == "--cells-per-side")
        cells_per_side = polydg::parse_integer(flag, value);
      else if (flag == "--cells-per-element")
        cells_per_element = polydg::parse_number(flag, value);
      else if (flag == "--p")
        degrees = polydg::parse_integer_list(flag, value);
      else if (flag == "--cpu-max-p")
        cpu_max_p = polydg::parse_integer(flag, value);
      else if (flag == "--quadrature-extra")
        options.quadrature.extra = polydg::parse_integer(flag, value);
      else if (flag == "--repeats")
        repeats = polydg::parse_integer(flag, value);
      else if (flag == "--json")
        json_path = value;
      else if (flag == "--max-block-shared-kib")
        device_options.tuning.max_block_shared_bytes = 1024 * polydg::parse_integer(flag, value);
      else if (flag == "--coefficients") {
        polydg::require(value == "functors" || value == "points",
                        "--coefficients is functors or points, not ", value);
        point_values = value == "points";
      } else
        polydg::raise("unknown option ", flag, " (see --help)");
    }
    polydg::require(repeats >= 1, "--repeats must be at least 1");
    const double context_s = [] {
      const auto start = Clock::now();
      polydg::device::synchronize();  // creates the CUDA context
      return seconds_since(start);
    }();

    auto start = Clock::now();
    const auto fine = std::make_shared<const polydg::SimplexMesh<3>>(
        polydg::unit_cube_mesh(cells_per_side, 0.1, 7));
    const double fine_mesh_s = seconds_since(start);
    start = Clock::now();
    polydg::AgglomerationOptions agglomeration;
    agglomeration.method = polydg::PartitionMethod::greedy_growth;
    const polydg::Agglomeration parts =
        polydg::agglomerate_by_cell_count(*fine, cells_per_element, agglomeration);
    const double agglomeration_s = seconds_since(start);
    std::printf(
        "%s; %d tetrahedra (unit_cube_mesh %d, made in %.2f s) into %d polyhedra (%.2f each, "
        "greedy growth, %.2f s); CUDA context %.2f s; %d OpenMP threads; quadrature 2p + %d; "
        "coefficients: %s; median of %d\n",
        polydg::bench::device_name().c_str(), int(fine->cell_count()), cells_per_side, fine_mesh_s,
        int(parts.element_count), double(fine->cell_count()) / parts.element_count, agglomeration_s,
        context_s, omp_get_max_threads(), options.quadrature.extra,
        point_values ? "host values at the points" : "functors in the kernels", repeats);

    std::vector<Row> rows;
    for (int p : degrees)
      rows.push_back(run_degree(fine, parts.element_of_cell, p, options, device_options, repeats,
                                p <= cpu_max_p, point_values));

    std::printf("%2s %9s %9s %12s | %9s %9s %9s %9s %9s | %8s %9s %9s %12s | %9s %9s %9s\n", "p",
                "elements", "DoFs", "nonzeros", "host mesh", "set-up", "points", "assemble", "cold",
                "set-up", "values", "rhs", "values/MDoF", "CPU setup", "CPU asm", "|GPU-CPU|");
    for (const Row& r : rows) {
      std::printf(
          "%2d %9lld %9lld %12lld | %9.4f %9.4f %9.4f %9.4f %9.4f | %8.4f %9.5f %9.5f %12.6f | ",
          r.p, r.elements, r.dofs, r.nonzeros, r.cold_host_mesh_s, r.cold_setup_s,
          r.cold_point_values_s, r.cold_assemble_s, r.cold_total(), r.setup_s, r.values_s, r.rhs_s,
          r.per_million(r.values_s));
      if (r.cpu_setup_s >= 0)
        std::printf("%9.3f %9.3f %9.2e\n", r.cpu_setup_s, r.cpu_assemble_s,
                    std::max(r.values_difference, r.rhs_difference));
      else
        std::printf("%9s %9s %9s\n", "n/a", "n/a", "n/a");
    }
    std::printf(
        "kernels (CUDA events, one matrix re-assembly): element / interior / boundary, s; "
        "set-up parts alone: trace constants (host) / device mesh / pattern, s\n");
    for (const Row& r : rows)
      std::printf("  p = %d: %.5f / %.5f / %.5f; %.4f / %.4f / %.4f\n", r.p, r.phases.elements,
                  r.phases.interior_faces, r.phases.boundary_faces, r.trace_constants_s,
                  r.device_mesh_s, r.pattern_s);
    std::printf("\nAgainst the targets and the seed (Table 6, one P100, total assembly):\n");
    for (const Row& r : rows) {
      // As the 2D+1 targets count it (docs/performance.md): pattern + values + rhs, warmed.
      const double first = r.pattern_s + r.values_s + r.rhs_s;
      std::printf(
          "  p = %d: first assembly (pattern + values + rhs, warmed) %.4f s, with the "
          "whole set-up %.4f s, cold %.3f s",
          r.p, first, r.setup_s + r.values_s + r.rhs_s, r.cold_total());
      if (r.p == 1) std::printf("; target <= 0.05 s: %s", first <= 0.05 ? "met" : "missed");
      if (r.p >= 1 && r.p <= 3) {
        const double slab = slab_values_s_per_mdof[r.p - 1];
        std::printf("; seed %.1f s; re-assembly %.6f s/MDoF = %.2f x the 2D+1 slab's (<= 1.5: %s)",
                    seed_total_s[r.p - 1], r.per_million(r.values_s),
                    r.per_million(r.values_s) / slab,
                    r.per_million(r.values_s) <= 1.5 * slab ? "met" : "missed");
      }
      std::printf("\n");
    }

    if (!json_path.empty()) {
      std::ofstream json(json_path);
      polydg::require(bool(json), "cannot write ", json_path);
      json.precision(9);
      json << "{"
           << polydg::bench::provenance_json(argc, argv, started, polydg::bench::device_json())
           << ",\n \"tetrahedra\": " << fine->cell_count()
           << ", \"polyhedra\": " << parts.element_count << ", \"fine_mesh_s\": " << fine_mesh_s
           << ", \"agglomeration_s\": " << agglomeration_s << ", \"cuda_context_s\": " << context_s
           << ", \"quadrature_extra\": " << options.quadrature.extra << ", \"coefficients\": \""
           << (point_values ? "points" : "functors") << "\",\n \"rows\": [";
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        json << (i ? ",\n  " : "\n  ") << "{\"p\": " << r.p << ", \"elements\": " << r.elements
             << ", \"dofs\": " << r.dofs << ", \"nonzeros\": " << r.nonzeros
             << ", \"polytopic_mesh_s\": " << r.polytopic_mesh_s
             << ", \"cold_host_mesh_s\": " << r.cold_host_mesh_s
             << ", \"cold_setup_s\": " << r.cold_setup_s
             << ", \"cold_point_values_s\": " << r.cold_point_values_s
             << ", \"cold_assemble_s\": " << r.cold_assemble_s
             << ", \"cold_total_s\": " << r.cold_total() << ", \"setup_s\": " << r.setup_s
             << ", \"trace_constants_s\": " << r.trace_constants_s
             << ", \"device_mesh_s\": " << r.device_mesh_s << ", \"pattern_s\": " << r.pattern_s
             << ", \"values_s\": " << r.values_s << ", \"rhs_s\": " << r.rhs_s
             << ", \"values_s_per_mdof\": " << r.per_million(r.values_s)
             << ", \"element_kernel_s\": " << r.phases.elements
             << ", \"interior_kernel_s\": " << r.phases.interior_faces
             << ", \"boundary_kernel_s\": " << r.phases.boundary_faces
             << ", \"cpu_setup_s\": " << r.cpu_setup_s
             << ", \"cpu_assemble_s\": " << r.cpu_assemble_s
             << ", \"values_difference\": " << r.values_difference
             << ", \"rhs_difference\": " << r.rhs_difference << "}";
      }
      json << "\n]}\n";
      polydg::require(bool(json), "cannot write ", json_path);
    }
  } catch (const polydg::Error& error) {
    std::fprintf(stderr, "bench_assembly_3d: %s\n", error.what());
    return 1;
  }
  return 0;
}
