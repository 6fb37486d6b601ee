// The GPU half of bench_assembly: see assembly_gpu_runs.hpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "assembly_gpu_runs.hpp"
#include "dg/coo_assembly.cuh"
#include "heat_slab_problem.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/cuda/device_assembler.cuh"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/dg/element_integrand.hpp"
#include "polydg/dg/face_integrand.hpp"
#include "polydg/fem/basis_space.hpp"

namespace polydg::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <class Work>
double median_seconds(int repeats, Work&& work) {
  std::vector<double> times(std::size_t(std::max(repeats, 1)));
  for (double& time : times) {
    device::synchronize();
    const auto start = Clock::now();
    work();
    device::synchronize();
    time = seconds_since(start);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// The median of `samples` (the upper one of an even count, as median_seconds).
double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

/// A re-assembly's median time (host clock, synchronized) and its phases' medians.
struct Reassembly {
  double seconds = 0;
  PhaseTimes phases;
};

/// max(repeats, 1) runs of work() on `assembler` (record_timings on), after one warm-up run
/// unless warm_up is false: the median of their times and, from each run's CUDA events
/// (last_timings: the run's last assembly), the median of each phase and of the three kernels'
/// sum, so that the kernel times and the FP64 rates are medians of as many samples as the
/// re-assembly's time, not the last run's.
template <class Assembler, class Work>
Reassembly time_reassembly(Assembler& assembler, int repeats, Work&& work, bool warm_up = true) {
  if (warm_up) work();
  const std::size_t runs = std::size_t(std::max(repeats, 1));
  std::vector<double> seconds(runs), zero(runs), ranges(runs), element(runs), interior(runs),
      boundary(runs), check(runs), kernels(runs);
  for (std::size_t r = 0; r < runs; ++r) {
    device::synchronize();
    const auto start = Clock::now();
    work();
    device::synchronize();
    seconds[r] = seconds_since(start);
    const DeviceAssemblyTimings timings = assembler.last_timings();
    zero[r] = timings.zero;
    ranges[r] = timings.diffusion_ranges;
    element[r] = timings.elements;
    interior[r] = timings.interior_faces;
    boundary[r] = timings.boundary_faces;
    check[r] = timings.finite_check;
    kernels[r] = timings.elements + timings.interior_faces + timings.boundary_faces;
  }
  return {median(seconds),
          {median(zero), median(ranges), median(element), median(interior), median(boundary),
           median(check), median(kernels)}};
}

/// A matrix re-assembly of `assembler` after a warm-up (time_reassembly).
template <class Assembler, class Coefficients>
Reassembly time_matrix_reassembly(Assembler& assembler, const Coefficients& coefficients,
                                  int repeats) {
  return time_reassembly(assembler, repeats, [&] { assembler.assemble_matrix(coefficients); });
}

/// A re-assembly's median and its three kernels' medians, as VariantTimes.
VariantTimes variant_times(const Reassembly& reassembly) {
  return {reassembly.seconds, reassembly.phases.element_s, reassembly.phases.interior_s,
          reassembly.phases.boundary_s};
}

/// time_matrix_reassembly as VariantTimes.
template <class Assembler, class Coefficients>
VariantTimes time_variant_reassembly(Assembler& assembler, const Coefficients& coefficients,
                                     int repeats) {
  return variant_times(time_matrix_reassembly(assembler, coefficients, repeats));
}

// The FLOPs of the integrands (entries and per-function fluxes and trial vectors; not the basis
// evaluation, the map or the coefficients), counted as in element_integrand.hpp and
// face_integrand.hpp (the factored forms: 2 FLOPs per entry and component), summed over the
// quadrature points of the mesh where a term acts (a slab's top face has none for the heat
// problem's coefficients, top_face_idle). element_components: those the element kernel computes (d
// for the slab's A = diag(a, 0), element_components_for).
void count_flops(const QuadratureMesh<3>& mesh, const QuadratureDegrees& degrees,
                 int element_components, GpuAssemblyTimes& times) {
  static_assert(top_face_idle<decltype(heat_slab_coefficients())>);
  constexpr int d = 3;
  auto size = [&](Index e) {
    return double(space_basis_size(mesh.space, d, mesh.element_degrees[e]));
  };
  for (Index e = 0; e < mesh.element_count(); ++e) {
    const int p = mesh.element_degrees[e];
    const double n = size(e);
    const double points =
        double(mesh.element_simplex_offsets[e + 1] - mesh.element_simplex_offsets[e]) *
        double(element_piece_rule<3>(mesh.pieces, mesh.slab_rules, degrees.element(p)).size());
    times.element_flops += points * (n * n * 2 * element_components + n * (2 * d * d + 2 * d + 2));
    // Not the top face's points: nothing acts there, and the kernels leave them out.
    const double boundary_points =
        double(mesh.element_boundary_top_begins[e] - mesh.element_boundary_offsets[e]) *
        double(simplex_rule<2>(degrees.face(p, p)).size());
    times.boundary_flops += boundary_points * (n * n * 4 + n * (2 * d + 4));
  }
  for (Index i = 0; i < mesh.interface_count(); ++i) {
    const auto [a, b] = mesh.interface_elements[i];
    const double n = size(a) + size(b);
    const double points =
        double(mesh.interface_facet_offsets[i + 1] - mesh.interface_facet_offsets[i]) *
        double(
            interface_piece_rule<3>(mesh.pieces, mesh.slab_rules,
                                    degrees.face(mesh.element_degrees[a], mesh.element_degrees[b]))
                .size());
    times.interior_flops += points * (n * n * 2 * interior_face_components + n * (2 * d + 8));
  }
}

// FP64 FMAs per multiprocessor and clock, by compute capability (docs/performance.md, "What
// bench_assembly prints"):
//  * on the FMA (vector) units: the CUDA C++ Programming Guide's throughput table of the
//    arithmetic instructions ("64-bit floating-point add, multiply, multiply-add", results per
//    clock cycle per multiprocessor): 64 at 9.0 (H100, H200), 32 at 8.0 (A100);
//  * on the FP64 tensor cores (DMMA): twice that at both, as NVIDIA's data sheets give the
//    FP64 Tensor Core rate at twice the FP64 one (H100 SXM 67 and 34 TFLOP/s: 132
//    multiprocessors at 1980 MHz give 132 · 64 · 2 · 1.98e9 = 33.5 TFLOP/s, 66.9 doubled;
//    A100 19.5 and 9.7).
// Not in the table: 0, and the shares print n/a unless the command line gives the peaks.
struct Fp64Throughput {
  int major, minor, vector_fma, tensor_fma;
};
constexpr Fp64Throughput fp64_throughput[] = {{9, 0, 64, 128}, {8, 0, 32, 64}};

}  // namespace

double cuda_context_seconds() {
  const auto start = Clock::now();
  POLYDG_CUDA_CHECK(cudaFree(nullptr));
  POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
  return seconds_since(start);
}

DevicePeaks fp64_peaks(double vector_tflops, double tensor_tflops) {
  DevicePeaks peaks;
  cudaDeviceProp properties{};
  POLYDG_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  peaks.name = properties.name;
  peaks.major = properties.major;
  peaks.minor = properties.minor;
  peaks.memory_gib = double(properties.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  // The clock from the attribute: CUDA 13 removed cudaDeviceProp::clockRate, and keeps
  // cudaDevAttrClockRate, "peak clock frequency in kilohertz" (the boost clock: the peaks are
  // the data sheets' kind, and a clock held lower under load counts against the share).
  int kilohertz = 0;
  POLYDG_CUDA_CHECK(cudaDeviceGetAttribute(&kilohertz, cudaDevAttrClockRate, 0));
  POLYDG_CUDA_CHECK(
      cudaDeviceGetAttribute(&peaks.multiprocessors, cudaDevAttrMultiProcessorCount, 0));
  peaks.clock_mhz = kilohertz * 1e-3;
  for (const Fp64Throughput& rate : fp64_throughput)
    if (rate.major == peaks.major && rate.minor == peaks.minor) {
      peaks.vector_fma_per_clock = rate.vector_fma;
      peaks.tensor_fma_per_clock = rate.tensor_fma;
    }
  // 2 FLOPs per FMA.
  const double per_fma = 2.0 * peaks.multiprocessors * kilohertz * 1e3 * 1e-12;
  peaks.vector_tflops = per_fma * peaks.vector_fma_per_clock;
  peaks.tensor_tflops = per_fma * peaks.tensor_fma_per_clock;
  peaks.vector_given = vector_tflops > 0;
  peaks.tensor_given = tensor_tflops > 0;
  if (peaks.vector_given) peaks.vector_tflops = vector_tflops;
  if (peaks.tensor_given) peaks.tensor_tflops = tensor_tflops;
  return peaks;
}

GpuAssemblyTimes time_gpu_slab_assembly(const PolytopicMesh<3>& slab,
                                        const AssemblyOptions& assembly_options,
                                        int capped_shared_bytes,
                                        std::optional<int> overlap_max_degree, int repeats,
                                        const CpuAssembly& cpu) {
  const auto coefficients = heat_slab_coefficients();
  const BoundaryConditions conditions = heat_slab_conditions();
  const PreviousSlabValue previous{};
  GpuAssemblyTimes times;

  // The cold first assembly, before anything else this degree does on the device: from the
  // slab to a synchronized first matrix and rhs, as a program with the defaults writes it
  // (DeviceAssembler's PolytopicMesh constructor is these two steps).
  static bool process_first = true;
  {
    DeviceAssemblyOptions cold_options;  // the defaults but the run's overlap option
    if (overlap_max_degree)
      cold_options.tuning.overlap_interior_faces_max_degree = *overlap_max_degree;
    device::release_cached_memory();  // an empty memory pool: every allocation a new one
    ColdFirstAssembly& cold = times.cold;
    cold.process_first = process_first;
    process_first = false;
    const auto start_cold = Clock::now();
    QuadratureMesh<3> cold_mesh(slab, conditions, assembly_options.pieces);
    cold.host_mesh_s = seconds_since(start_cold);
    auto start_part = Clock::now();
    DeviceAssembler<3> cold_assembler(std::move(cold_mesh), assembly_options, cold_options);
    device::synchronize();
    cold.setup_s = seconds_since(start_part);
    start_part = Clock::now();
    cold_assembler.assemble(coefficients);
    cold_assembler.add_previous_slab_term(previous);
    device::synchronize();
    cold.assemble_s = seconds_since(start_part);
    cold.total_s = seconds_since(start_cold);
  }

  auto start = Clock::now();
  QuadratureMesh<3> host_mesh(slab, conditions, assembly_options.pieces);
  times.host_mesh_s = seconds_since(start);
  // As the DeviceAssembler's: the FLOPs count the points its kernels evaluate.
  apply_assembly_options(host_mesh, assembly_options);
  count_flops(host_mesh, assembly_options.quadrature,
              element_components_for<3, decltype(coefficients.diffusion)>, times);
  std::vector<Index> block_sizes(std::size_t(host_mesh.element_count()));
  for (Index e = 0; e < host_mesh.element_count(); ++e)
    block_sizes[e] = space_basis_size(BasisSpace::total_degree, 3, host_mesh.element_degrees[e]);
  build_block_pattern_on_device(block_sizes, host_mesh.interface_elements);  // warm-up
  times.pattern_host_arrays_s = median_seconds(
      repeats, [&] { build_block_pattern_on_device(block_sizes, host_mesh.interface_elements); });
  {  // from device arrays, as DeviceAssembler: its N_e formed on the device, here copied there
    const device::DeviceBuffer<Index> device_sizes{std::span<const Index>(block_sizes)};
    const device::DeviceBuffer<Index> ends{std::span<const Index>(
        host_mesh.interface_elements.data()->data(), 2 * host_mesh.interface_elements.size())};
    const auto build = [&] {
      device::DeviceBuffer<Index> sizes(device_sizes.size());
      device::copy_device_to_device(sizes.data(), device_sizes.data(),
                                    device_sizes.size() * sizeof(Index));
      build_block_pattern_from_device_arrays(std::move(sizes), ends.data(),
                                             host_mesh.interface_count());
    };
    build();  // warm-up
    times.pattern_s = median_seconds(repeats, build);
  }

  DeviceAssemblyOptions options;
  options.record_timings = true;
  if (overlap_max_degree) options.tuning.overlap_interior_faces_max_degree = *overlap_max_degree;
  {  // set-up parts: the host mesh's upload and the interface scratch (deterministic mode)
    device::synchronize();
    start = Clock::now();
    DeviceQuadratureMesh<3> device_mesh(host_mesh, assembly_options.quadrature);
    device::synchronize();
    times.device_mesh_s = seconds_since(start);
    start = Clock::now();
    const InterfaceScratch<double> scratch(host_mesh.interface_elements, block_sizes);
    device::synchronize();
    times.scratch_s = seconds_since(start);
    // Their parts: what the geometry's upload (upload_staged_s, below) leaves of them.
    start = Clock::now();
    const auto work_lists = DeviceQuadratureMesh<3>::order_work_lists(host_mesh);
    times.work_lists_host_s = seconds_since(start);
    start = Clock::now();
    {
      const device::DeviceBuffer<int> degrees{std::span(host_mesh.element_degrees)};
      const device::DeviceBuffer<Index> index_arrays[] = {
          device::DeviceBuffer<Index>{std::span(host_mesh.element_simplex_offsets)},
          device::DeviceBuffer<Index>{
              std::span<const Index>(host_mesh.interface_elements.data()->data(),
                                     2 * host_mesh.interface_elements.size())},
          device::DeviceBuffer<Index>{std::span(host_mesh.interface_facet_offsets)},
          device::DeviceBuffer<Index>{std::span(host_mesh.element_boundary_offsets)},
          device::DeviceBuffer<Index>{std::span(host_mesh.element_boundary_previous_slab_ends)},
          device::DeviceBuffer<Index>{std::span(host_mesh.element_boundary_top_begins)}};
      const device::DeviceBuffer<BoundaryKind> kinds{std::span(host_mesh.boundary_facet_kinds)};
      device::synchronize();
      times.index_upload_s = seconds_since(start);
    }
    start = Clock::now();
    const InterfaceScratchLayout layout(host_mesh.interface_elements, block_sizes);
    times.scratch_layout_host_s = seconds_since(start);
    // A time step's move of the slab onto the next interval: the host mesh mapped and uploaded
    // again (DeviceAssembler::map_last_coordinate before), then mapped on the device (now).
    QuadratureMesh<3> moved = host_mesh;
    device::synchronize();
    start = Clock::now();
    map_last_coordinate(moved, 0, 1, 1, 2);
    device_mesh.update_geometry(moved);
    device::synchronize();
    times.map_host_upload_s = seconds_since(start);
    start = Clock::now();
    device_mesh.map_last_coordinate(LastCoordinateMap(1, 2, 2, 3));
    device::synchronize();
    times.map_device_s = seconds_since(start);
  }
  {  // the upload's two ways on the same arrays: the driver's pageable path and the staged one
    const std::vector<std::span<const std::byte>> arrays = {
        std::as_bytes(std::span(host_mesh.simplex_vertices)),
        std::as_bytes(std::span(host_mesh.interface_facet_vertices)),
        std::as_bytes(std::span(host_mesh.interface_facet_normals)),
        std::as_bytes(std::span(host_mesh.interface_facet_measures)),
        std::as_bytes(std::span(host_mesh.interface_facet_cell_measures)),
        std::as_bytes(std::span(host_mesh.boundary_facet_vertices)),
        std::as_bytes(std::span(host_mesh.boundary_facet_normals)),
        std::as_bytes(std::span(host_mesh.boundary_facet_measures)),
        std::as_bytes(std::span(host_mesh.boundary_facet_cell_measures)),
        std::as_bytes(std::span(host_mesh.element_boxes))};
    std::size_t largest = 0;
    for (const auto& array : arrays) {
      times.upload_bytes += double(array.size());
      largest = std::max(largest, array.size());
    }
    device::DeviceBuffer<std::byte> target(largest);
    const auto upload_all = [&](auto copy) {
      device::synchronize();
      const auto start_upload = Clock::now();
      for (const auto& array : arrays) copy(array);
      device::synchronize();
      return seconds_since(start_upload);
    };
    times.upload_pageable_s = upload_all([&](std::span<const std::byte> array) {
      cudaMemcpy(target.data(), array.data(), array.size(), cudaMemcpyHostToDevice);
    });
    times.upload_staged_s = upload_all([&](std::span<const std::byte> array) {
      device::copy_host_to_device(target.data(), array.data(), array.size());
    });
    device::synchronize();
    // The device buffers of those arrays: their allocation and their release alone.
    std::vector<device::DeviceBuffer<std::byte>> buffers;
    const auto start_allocation = Clock::now();
    for (const auto& array : arrays) buffers.emplace_back(array.size());
    device::synchronize();
    times.geometry_allocation_s = seconds_since(start_allocation);
    const auto start_release = Clock::now();
    buffers.clear();
    device::synchronize();
    times.geometry_release_s = seconds_since(start_release);
  }
  {  // scoped: the deterministic assembler's memory is freed before the atomic one's
    // From a copy of the host mesh: the set-up and first assembly without the host
    // preprocessing (host_mesh_s), which the assembler would otherwise redo.
    QuadratureMesh<3> host_mesh_copy = host_mesh;
    device::synchronize();
    start = Clock::now();
    DeviceAssembler<3> assembler(std::move(host_mesh_copy), assembly_options, options);
    device::synchronize();
    times.setup_s = seconds_since(start);
    assembler.assemble(coefficients);
    assembler.add_previous_slab_term(previous);
    device::synchronize();
    times.first_s = seconds_since(start);

    const std::vector<double> first_values = assembler.values_to_host();
    times.values_s = median_seconds(repeats, [&] { assembler.assemble_matrix(coefficients); });
    const Reassembly rhs = time_reassembly(
        assembler, repeats,
        [&] {
          assembler.assemble_rhs(coefficients);
          assembler.add_previous_slab_term(previous);
        },
        false);
    times.rhs_s = rhs.seconds;
    times.rhs_phases = rhs.phases;
    assembler.assemble_rhs(coefficients);  // without the previous slab term, as the CPU's
    times.rhs_cpu_difference = relative_difference(assembler.rhs_to_host(), cpu.rhs);
    times.previous_slab_s =
        median_seconds(repeats, [&] { assembler.add_previous_slab_term(previous); });
    const std::vector<double> second_values = assembler.values_to_host();
    times.deterministic_repeatable = first_values.size() == second_values.size() &&
                                     std::memcmp(first_values.data(), second_values.data(),
                                                 first_values.size() * sizeof(double)) == 0;
    times.cpu_difference = relative_difference(first_values, cpu.values);
    try {  // Approach 1 needs about six times the matrix's memory: it may not fit
      CooAssembly<3> coo(assembler);
      coo.assemble_matrix(coefficients);  // warm-up
      times.approach1_coo_entries = double(coo.coo_count());
      times.approach1_kernels_s =
          median_seconds(repeats, [&] { coo.compute_contributions(coefficients); });
      times.approach1_total_s = median_seconds(repeats, [&] { coo.assemble_matrix(coefficients); });
    } catch (const Error& error) {
      std::fprintf(stderr, "Approach 1 skipped: %s\n", error.what());
    }
  }

  // The same re-assembly with other launch options: its total and kernel times.
  auto time_variant = [&](const DeviceAssemblyOptions& variant) {
    DeviceAssembler<3> assembler(slab, conditions, assembly_options, variant);
    return time_variant_reassembly(assembler, coefficients, repeats);
  };
  if (capped_shared_bytes > 0) {  // the point batches capped
    DeviceAssemblyOptions capped = options;
    capped.tuning.max_block_shared_bytes = capped_shared_bytes;
    times.capped = time_variant(capped);
  }
  DeviceAssemblyOptions warps = options;  // small items one per warp, not one per thread
  warps.tuning.small_items_per_thread = false;
  times.warps = time_variant(warps);
  DeviceAssemblyOptions not_persistent = options;  // a block of the grid per item
  not_persistent.tuning.persistent_blocks = false;
  times.not_persistent = time_variant(not_persistent);
  DeviceAssemblyOptions fma = options;  // FP64 FMAs where the tensor cores would multiply
  fma.tuning.tensor_cores = false;
  times.fma = time_variant(fma);
  DeviceAssemblyOptions in_turn = options;  // no producer warp
  in_turn.tuning.overlap_point_evaluation = false;
  times.in_turn = time_variant(in_turn);
  {  // the interior faces after the elements: each phase is one kernel's time
    DeviceAssemblyOptions one_stream = options;
    one_stream.tuning.overlap_interior_faces_max_degree = -1;
    DeviceAssembler<3> assembler(slab, conditions, assembly_options, one_stream);
    const Reassembly reassembly = time_matrix_reassembly(assembler, coefficients, repeats);
    times.one_stream = variant_times(reassembly);
    times.matrix_phases = reassembly.phases;
    const DeviceAssemblyTensorCoreLaunches tensor = assembler.last_tensor_core_launches();
    times.tensor_core_launches = {tensor.elements, tensor.interior_faces, tensor.boundary_faces};
  }

  options.write_mode = FaceWriteMode::atomic;
  std::optional<DeviceAssembler<3>> atomic_holder;  // freed before the single-precision one
  DeviceAssembler<3>& atomic = atomic_holder.emplace(slab, conditions, assembly_options, options);
  const Reassembly atomic_reassembly = time_matrix_reassembly(atomic, coefficients, repeats);
  times.values_atomic_s = atomic_reassembly.seconds;
  times.interior_atomic_s = atomic_reassembly.phases.interior_s;
  atomic_holder.reset();

  options.write_mode = FaceWriteMode::deterministic;
  DeviceAssembler<3, float> single(slab, conditions, assembly_options, options);
  times.single = time_variant_reassembly(single, coefficients, repeats);
  return times;
}

}  // namespace polydg::bench
