#pragma once
// The GPU half of bench_assembly (compiled only with CUDA): times the DeviceAssembler on a
// space-time slab mesh, in the same run as the CPU reference. No CUDA header here.
#include <optional>
#include <string>
#include <vector>

#include "cpu_assembly.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg::bench {

/// One matrix re-assembly's median time and its three kernels' (CUDA events; each the median
/// over the timed runs), in seconds.
struct VariantTimes {
  double values_s = 0, element_s = 0, interior_s = 0, boundary_s = 0;
};

/// The phases of a re-assembly (CUDA events), in seconds, each the median over the timed runs:
/// zeroing, diffusion ranges, the element, interior and boundary kernels, the finite check (with
/// its copy back); kernels_s is the median over the runs of element + interior + boundary (the
/// time of the "all kernels" FP64 rate).
struct PhaseTimes {
  double zero_s = 0, ranges_s = 0, element_s = 0, interior_s = 0, boundary_s = 0, check_s = 0;
  double kernels_s = 0;
};

/// Which kernels of a matrix assembly multiplied their tables on the FP64 tensor cores: the
/// launches of each that did (DeviceAssembler::last_tensor_core_launches; 0: the FMA units).
struct TensorCoreLaunches {
  int elements = 0, interior_faces = 0, boundary_faces = 0;
};

/// A cold first assembly: what a program pays, wall clock and synchronized, from the mesh it
/// has to a first matrix and rhs on the device, in a DeviceAssembler made for this mesh: the host
/// QuadratureMesh (the PolytopicMesh constructor builds it), the device set-up, the first
/// assemble and previous slab term. The device memory pool is emptied first
/// (device::release_cached_memory), so every allocation is a new one. Not in it: the process's
/// CUDA context (cuda_context_seconds), and at a row that is not the process's first, the
/// loading of kernels an earlier degree launched and the pinned staging chunks (process-wide).
struct ColdFirstAssembly {
  double total_s = -1;         ///< host_mesh_s + setup_s + assemble_s (−1: not measured)
  double host_mesh_s = 0;      ///< QuadratureMesh on the host
  double setup_s = 0;          ///< DeviceAssembler construction: device mesh upload (geometry,
                               ///< index arrays, work lists), pattern build, value / rhs / range
                               ///< allocations, interface scratch, streams
  double assemble_s = 0;       ///< assemble + add_previous_slab_term: the first launches (each
                               ///< kernel's module loaded at its first launch in the process, its
                               ///< shared-memory attribute set, occupancy queries) and the kernels
  bool process_first = false;  ///< the process's first assembly: it loaded every kernel it
                               ///< launched and allocated the pinned staging chunks
};

/// The device's FP64 peaks, from its attributes at run time (fp64_peaks in the .cu says where
/// each number comes from). The provenance's description of the device is device_json()
/// (cuda_event_timing.hpp).
struct DevicePeaks {
  std::string name;          ///< "NVIDIA H100 80GB HBM3" etc.
  int major = 0, minor = 0;  ///< compute capability
  int multiprocessors = 0;   ///< cudaDevAttrMultiProcessorCount
  double clock_mhz = 0;      ///< cudaDevAttrClockRate: the peak (boost) clock
  double memory_gib = 0;     ///< global memory
  /// FP64 FMAs per multiprocessor and clock on the FMA (vector) units and on the tensor cores
  /// (DMMA); 0 where this compute capability is not in fp64_peaks' table
  int vector_fma_per_clock = 0, tensor_fma_per_clock = 0;
  /// The peaks in TFLOP/s (2 FLOPs per FMA) or the overrides given on the command line; 0:
  /// unknown (the shares print n/a)
  double vector_tflops = 0, tensor_tflops = 0;
  bool vector_given = false, tensor_given = false;  ///< from the command line
};

/// Creates the process's CUDA context (cudaFree(nullptr), synchronized): the seconds it took,
/// which every program pays once before its first device work.
double cuda_context_seconds();

/// device 0's FP64 peaks; vector_tflops / tensor_tflops > 0 override what the device gives.
DevicePeaks fp64_peaks(double vector_tflops, double tensor_tflops);

struct GpuAssemblyTimes {
  double host_mesh_s = 0;  ///< QuadratureMesh on the host (CPU preprocessing)
  /// The device pattern alone, as DeviceAssembler builds it: from device arrays
  /// (build_block_pattern_from_device_arrays), and from host arrays (build_block_pattern_on_device,
  /// with the host checks and the uploads)
  double pattern_s = 0, pattern_host_arrays_s = 0;
  double device_mesh_s = 0;  ///< DeviceQuadratureMesh from the host mesh (uploads) alone
  double scratch_s = 0;      ///< InterfaceScratch (host layout, uploads, allocation) alone
  /// Parts of those, alone: the work lists' host loops (DeviceQuadratureMesh::order_work_lists),
  /// the uploads of the mesh's index arrays (offsets, interfaces, run bounds, kinds), and the
  /// scratch's host layout (InterfaceScratchLayout)
  double work_lists_host_s = 0, index_upload_s = 0, scratch_layout_host_s = 0;
  /// The host mesh's geometry arrays (upload_bytes) copied to the device, array by array, by
  /// cudaMemcpy from pageable memory and by device::copy_host_to_device (staged, pinned)
  double upload_bytes = 0, upload_pageable_s = 0, upload_staged_s = 0;
  /// Device buffers of those arrays allocated (cudaMalloc), and released, alone
  double geometry_allocation_s = 0, geometry_release_s = 0;
  /// A time step's move of the slab (map_last_coordinate): the host mesh mapped and its
  /// geometry uploaded again, against the device geometry mapped in place
  double map_host_upload_s = 0, map_device_s = 0;
  ColdFirstAssembly cold;  ///< the first thing this degree does on the device
  /// A second DeviceAssembler on the same mesh, after the cold one (kernels loaded, the memory
  /// pool holding the cold one's memory): its construction from the host mesh (uploads,
  /// pattern, allocations; not the host mesh itself, host_mesh_s), and that + its first
  /// assemble (matrix + rhs + previous slab), synchronized. One sample each.
  double setup_s = 0;
  double first_s = 0;
  double values_s = 0;         ///< matrix re-assembly, deterministic (median)
  double values_atomic_s = 0;  ///< matrix re-assembly, atomic (median)
  double rhs_s = 0;            ///< rhs re-assembly + previous slab term (median)
  PhaseTimes rhs_phases;       ///< of the rhs re-assemblies (no interior kernel)
  double previous_slab_s = 0;  ///< the previous slab term alone (median)
  /// Matrix re-assemblies (deterministic) under other options: single precision, and launch
  /// variants of the double one.
  VariantTimes single;          ///< single precision
  VariantTimes capped;          ///< capped_shared_bytes of shared memory per block
  VariantTimes warps;           ///< small items one per warp (not one per thread)
  VariantTimes not_persistent;  ///< block items one per block of the grid (persistent_blocks
                                ///< off: the producer warp only where items average ≥ 64
                                ///< points, and only within an item)
  VariantTimes fma;             ///< tensor cores off: every table's products on the FP64 FMAs
  VariantTimes in_turn;         ///< block items without the producer warp
  VariantTimes one_stream;      ///< the interior-face kernels after the element kernel, not
                                ///< beside it (overlap_interior_faces_max_degree −1)
  /// Of the deterministic matrix re-assemblies with the kernels in turn (one_stream), so that
  /// each phase is one kernel's time: where the interior faces overlap (values_s and the
  /// other variants at p ≤ 2) their phase runs beside the element and boundary kernels.
  PhaseTimes matrix_phases;
  /// Which of those kernels ran on the FP64 tensor cores (the default options: tensor_cores on)
  TensorCoreLaunches tensor_core_launches;
  double interior_atomic_s = 0;                                      ///< median
  double element_flops = 0, interior_flops = 0, boundary_flops = 0;  ///< integrand FLOPs
  // Approach 1 (CooAssembly): the kernels into the COO array, and the whole assembly (kernels,
  // sort_by_key, reduce_by_key, CSR); −1 when it did not fit in memory
  double approach1_kernels_s = -1, approach1_total_s = -1;
  double approach1_coo_entries = 0;
  double cpu_difference = -1;      ///< |GPU − CPU| / |CPU| of the matrix (−1: not compared)
  double rhs_cpu_difference = -1;  ///< the same of the rhs (without the previous slab term)
  bool deterministic_repeatable = false;  ///< two deterministic runs: identical bytes
};

/// Times the heat slab problem (heat_slab_problem.hpp) on `slab`; compares its matrix and rhs
/// with the CPU's where `cpu` has them.
/// capped_shared_bytes: the cap on the shared memory per block of the capped variant (0: skip it).
/// overlap_max_degree: LaunchTuning::overlap_interior_faces_max_degree of every run but
/// the one-stream variant's (none: the default).
GpuAssemblyTimes time_gpu_slab_assembly(const PolytopicMesh<3>& slab,
                                        const AssemblyOptions& assembly_options,
                                        int capped_shared_bytes,
                                        std::optional<int> overlap_max_degree, int repeats,
                                        const CpuAssembly& cpu);

}  // namespace polydg::bench
