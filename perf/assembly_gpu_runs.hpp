#pragma once
// The GPU half of bench_assembly (compiled only with CUDA): times the DeviceAssembler on a
// space-time slab mesh, in the same run as the CPU reference. No CUDA header here.
#include <optional>
#include <vector>

#include "cpu_assembly.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg::bench {

/// One matrix re-assembly's median time and its three kernels' (CUDA events), in seconds.
struct VariantTimes {
  double values_s = 0, element_s = 0, interior_s = 0, boundary_s = 0;
};

/// The phases of one re-assembly (CUDA events), in seconds: zeroing, diffusion ranges, the
/// element, interior and boundary kernels, the finite check (with its copy back).
struct PhaseTimes {
  double zero_s = 0, ranges_s = 0, element_s = 0, interior_s = 0, boundary_s = 0, check_s = 0;
};

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
  /// DeviceAssembler construction from the host mesh (uploads, pattern, allocations; not the
  /// host mesh itself, host_mesh_s)
  double setup_s = 0;
  double first_s = 0;          ///< setup + first assemble (matrix + rhs + previous slab), synced;
                               ///< the process's first device work is done before (untimed)
  double values_s = 0;         ///< matrix re-assembly, deterministic (median)
  double values_atomic_s = 0;  ///< matrix re-assembly, atomic (median)
  double rhs_s = 0;            ///< rhs re-assembly + previous slab term (median)
  PhaseTimes rhs_phases;       ///< of one rhs re-assembly (no interior kernel)
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
  /// Of one deterministic matrix re-assembly with the kernels in turn (one_stream), so that
  /// each phase is one kernel's time: where the interior faces overlap (values_s and the
  /// other variants at p ≤ 2) their phase runs beside the element and boundary kernels.
  PhaseTimes matrix_phases;
  double interior_atomic_s = 0;
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
/// overlap_max_degree: DeviceAssemblyOptions::overlap_interior_faces_max_degree of every run but
/// the one-stream variant's (none: the default).
GpuAssemblyTimes time_gpu_slab_assembly(const PolytopicMesh<3>& slab,
                                        const AssemblyOptions& assembly_options,
                                        int capped_shared_bytes,
                                        std::optional<int> overlap_max_degree, int repeats,
                                        const CpuAssembly& cpu);

}  // namespace polydg::bench
