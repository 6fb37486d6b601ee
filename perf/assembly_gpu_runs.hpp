#pragma once
// The GPU half of bench_assembly (compiled only with CUDA): times the DeviceAssembler on a
// space-time slab mesh, in the same run as the CPU reference. No CUDA header here.
#include <span>
#include <string>

#include "polydg/dg/assembler.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg::bench {

struct GpuAssemblyTimes {
  double host_mesh_s = 0;    ///< QuadratureMesh on the host (CPU preprocessing)
  double pattern_s = 0;      ///< build_block_pattern_on_device alone
  double device_mesh_s = 0;  ///< DeviceQuadratureMesh from the host mesh (uploads) alone
  double scratch_s = 0;      ///< InterfaceScratch (host layout, uploads, allocation) alone
  /// The host mesh's geometry arrays (upload_bytes) copied to the device, array by array, by
  /// cudaMemcpy from pageable memory and by device::copy_host_to_device (staged, pinned)
  double upload_bytes = 0, upload_pageable_s = 0, upload_staged_s = 0;
  /// A time step's move of the slab (map_last_coordinate): the host mesh mapped and its
  /// geometry uploaded again, against the device geometry mapped in place
  double map_host_upload_s = 0, map_device_s = 0;
  double setup_s = 0;          ///< DeviceAssembler construction (host mesh, uploads, pattern)
  double first_s = 0;          ///< setup + first assemble (matrix + rhs + previous slab), synced;
                               ///< the process's first device work is done before (untimed)
  double values_s = 0;         ///< matrix re-assembly, deterministic (median)
  double values_atomic_s = 0;  ///< matrix re-assembly, atomic (median)
  double rhs_s = 0;            ///< rhs re-assembly + previous slab term (median)
  double values_single_s = 0;  ///< matrix re-assembly in single precision, deterministic
  double element_single_s = 0, interior_single_s = 0, boundary_single_s = 0;
  /// matrix re-assembly, deterministic, with capped_shared_bytes of shared memory per block
  double values_capped_s = 0, element_capped_s = 0, interior_capped_s = 0, boundary_capped_s = 0;
  /// matrix re-assembly, deterministic, small items one per warp (not one per thread)
  double values_warps_s = 0, element_warps_s = 0, interior_warps_s = 0, boundary_warps_s = 0;
  /// Block items without the producer warp (overlap_point_evaluation off).
  double values_in_turn_s = 0, element_in_turn_s = 0, interior_in_turn_s = 0,
         boundary_in_turn_s = 0;
  /// Block items one per block of the grid (persistent_blocks off: the producer warp only
  /// where items average ≥ 64 points, and only within an item).
  double values_not_persistent_s = 0, element_not_persistent_s = 0, interior_not_persistent_s = 0,
         boundary_not_persistent_s = 0;
  /// Tensor cores off (tensor_cores = false): every table's products on the FP64 FMA units.
  double values_fma_s = 0, element_fma_s = 0, interior_fma_s = 0, boundary_fma_s = 0;
  // phases of one deterministic matrix re-assembly (CUDA events)
  double zero_s = 0, ranges_s = 0, element_s = 0, interior_s = 0, boundary_s = 0, check_s = 0;
  double interior_atomic_s = 0;
  double element_flops = 0, interior_flops = 0, boundary_flops = 0;  ///< integrand FLOPs
  // Approach 1 (CooAssembly): the kernels into the COO array, and the whole assembly (kernels,
  // sort_by_key, reduce_by_key, CSR); −1 when it did not fit in memory
  double approach1_kernels_s = -1, approach1_total_s = -1;
  double approach1_coo_entries = 0;
  double cpu_difference = -1;  ///< |GPU − CPU| / |CPU| of the matrix (−1: not compared)
  bool deterministic_repeatable = false;  ///< two deterministic runs: identical bytes
};

/// Times the heat slab problem (heat_slab_problem.hpp) on `slab`; compares with `cpu_values`
/// (the CPU Assembler's matrix values on the same mesh) when not empty.
/// capped_shared_bytes: the cap on the shared memory per block of the capped variant (0: skip it).
GpuAssemblyTimes time_gpu_slab_assembly(const PolytopicMesh<3>& slab,
                                        const AssemblyOptions& assembly_options,
                                        int capped_shared_bytes, int repeats,
                                        std::span<const double> cpu_values);

/// "NVIDIA H100 80GB HBM3" etc.
std::string gpu_name();

}  // namespace polydg::bench
