#pragma once
// CooAssembly: Approach 1 (docs/theory.md, "Assembly: two approaches") on the device, for
// comparison with Approach 2 (DeviceAssembler): every contribution block goes to a slot of its own
// in a COO array with duplicates, keyed by its global (row, column); each assembly then sorts the
// pairs by key (thrust::sort_by_key, a radix sort) and sums the duplicates (thrust::reduce_by_key),
// which gives the matrix in CSR (rows from the sorted keys). The contributions are those of the
// DeviceAssembler's kernels (the same mathematics), written to four segments of one array:
//   [element blocks Σ N_e² | boundary blocks Σ N_e² | interface diagonal parts (the
//    scratch_only mode's scratch) | the pattern's value array (off-diagonal blocks)]
// The keys are built once (they depend on the pattern only); the sort is redone per assembly,
// as in the seed (its "indices" row). Matrix only (the rhs has no duplicates worth sorting).
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>

#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/cuda/device_assembler.cuh"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/core/thrust_allocator.cuh"
#include "polydg/detail/dg/boundary_face_kernel.cuh"
#include "polydg/detail/dg/device_diffusion_ranges.cuh"
#include "polydg/detail/dg/element_kernel.cuh"
#include "polydg/detail/dg/interior_face_kernel.cuh"

namespace polydg {
namespace device::detail {

/// Keys (row · dofs + column) of an element-block segment: block e is N_e × N_e at
/// offsets[e], rows and columns from the element's dofs. One thread block per element.
inline __global__ void element_block_keys_kernel(const GlobalIndex* dof_offsets,
                                                 const Index* block_sizes,
                                                 const GlobalIndex* offsets, GlobalIndex dofs,
                                                 GlobalIndex* keys) {
  const Index e = Index(blockIdx.x);
  const int n = block_sizes[e];
  const GlobalIndex first = dof_offsets[e];
  for (int v = int(threadIdx.x); v < n * n; v += int(blockDim.x))
    keys[offsets[e] + v] = (first + v / n) * dofs + first + v % n;
}

/// Keys of the interface scratch: per interface (a, b), N_a² of a's block then N_b² of b's.
inline __global__ void interface_scratch_keys_kernel(const Index* interface_elements,
                                                     const GlobalIndex* dof_offsets,
                                                     const Index* block_sizes,
                                                     const GlobalIndex* offsets, GlobalIndex dofs,
                                                     GlobalIndex* keys) {
  const Index i = Index(blockIdx.x);
  GlobalIndex position = offsets[i];
  for (int side = 0; side < 2; ++side) {
    const Index e = interface_elements[2 * i + side];
    const int n = block_sizes[e];
    const GlobalIndex first = dof_offsets[e];
    for (int v = int(threadIdx.x); v < n * n; v += int(blockDim.x))
      keys[position + v] = (first + v / n) * dofs + first + v % n;
    position += GlobalIndex(n) * n;
  }
}

/// Keys of the pattern's value array: block k = (r, c), N_r × N_c at value_offsets[k].
inline __global__ void pattern_keys_kernel(DeviceBlockPatternView pattern, GlobalIndex dofs,
                                           GlobalIndex* keys) {
  const Index k = Index(blockIdx.x);
  const Index r = pattern.block_rows[k], c = pattern.block_columns[k];
  const int rows = pattern.block_sizes[r], columns = pattern.block_sizes[c];
  for (int v = int(threadIdx.x); v < rows * columns; v += int(blockDim.x))
    keys[pattern.value_offsets[k] + v] =
        (pattern.dof_offsets[r] + v / columns) * dofs + pattern.dof_offsets[c] + v % columns;
}

/// CSR columns from sorted unique keys: key mod dofs.
inline __global__ void csr_columns_kernel(const GlobalIndex* keys, GlobalIndex count,
                                          GlobalIndex dofs, Index* columns) {
  const GlobalIndex k = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) columns[k] = Index(keys[k] % dofs);
}

/// CSR row offsets from sorted unique keys: row_offsets[r] = first k with key / dofs ≥ r.
inline __global__ void csr_row_offsets_kernel(const GlobalIndex* keys, GlobalIndex count,
                                              GlobalIndex dofs, GlobalIndex* row_offsets) {
  const GlobalIndex r = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r > dofs) return;
  GlobalIndex low = 0, high = count;
  while (low < high) {
    const GlobalIndex middle = low + (high - low) / 2;
    if (keys[middle] / dofs < r)
      low = middle + 1;
    else
      high = middle;
  }
  row_offsets[r] = low;
}

}  // namespace device::detail

template <int Dim, class Real = double>
class CooAssembly {
 public:
  /// Shares `assembler`'s device mesh and pattern (which must outlive this object).
  explicit CooAssembly(const DeviceAssembler<Dim, Real>& assembler)
      : assembler_(assembler),
        dofs_(assembler.pattern().dof_count()),
        scratch_(assembler.quadrature_mesh().interface_elements, assembler.block_sizes()),
        interface_workspace_(assembler.device_mesh(), assembler.pattern().view()) {
    const QuadratureMesh<Dim>& mesh = assembler.quadrature_mesh();
    const Index elements = mesh.element_count();
    std::vector<GlobalIndex> element_offsets(std::size_t(elements) + 1, 0);
    std::vector<Index> segment_blocks(static_cast<std::size_t>(elements));
    for (Index e = 0; e < elements; ++e) {
      const GlobalIndex n = assembler.block_sizes()[e];
      element_offsets[e + 1] = element_offsets[e] + n * n;
      segment_blocks[e] = e;
    }
    scratch_.values = device::DeviceBuffer<Real>();  // the scratch is a segment of the array
    element_offsets_ = detail::upload(element_offsets);
    segment_blocks_ = detail::upload(segment_blocks);
    element_segment_ = element_offsets.back();
    scratch_segment_ = scratch_.host_offsets.back();
    pattern_segment_ = assembler.pattern().value_count();
    const GlobalIndex count = 2 * element_segment_ + scratch_segment_ + pattern_segment_;
    keys_ = device::DeviceBuffer<GlobalIndex>(std::size_t(count));
    sorted_keys_ = device::DeviceBuffer<GlobalIndex>(std::size_t(count));
    contributions_ = device::DeviceBuffer<Real>(std::size_t(count));
    unique_keys_ = device::DeviceBuffer<GlobalIndex>(std::size_t(pattern_segment_));
    csr_values_ = device::DeviceBuffer<Real>(std::size_t(pattern_segment_));
    csr_columns_ = device::DeviceBuffer<Index>(std::size_t(pattern_segment_));
    csr_row_offsets_ = device::DeviceBuffer<GlobalIndex>(std::size_t(dofs_) + 1);
    ranges_ = DeviceDiffusionRanges<Dim>(elements);

    const DeviceBlockPatternView pattern = assembler.pattern().view();
    GlobalIndex* keys = keys_.data();
    if (elements > 0) {
      device::detail::element_block_keys_kernel<<<unsigned(elements), 128>>>(
          pattern.dof_offsets, pattern.block_sizes, element_offsets_.data(), dofs_, keys);
      device::detail::element_block_keys_kernel<<<unsigned(elements), 128>>>(
          pattern.dof_offsets, pattern.block_sizes, element_offsets_.data(), dofs_,
          keys + element_segment_);
    }
    if (mesh.interface_count() > 0)
      device::detail::interface_scratch_keys_kernel<<<unsigned(mesh.interface_count()), 128>>>(
          assembler.device_mesh().view().interface_elements, pattern.dof_offsets,
          pattern.block_sizes, scratch_.offsets.data(), dofs_, keys + 2 * element_segment_);
    if (pattern.block_count > 0)
      device::detail::pattern_keys_kernel<<<unsigned(pattern.block_count), 128>>>(
          pattern, dofs_, keys + 2 * element_segment_ + scratch_segment_);
    POLYDG_CUDA_CHECK_LAUNCH("CooAssembly key kernels");
    device::synchronize();
  }

  /// Assembles the matrix by Approach 1 into CSR (row_offsets(), columns(), values()).
  /// Synchronizes (the number of unique keys comes back to check it).
  template <class Coefficients>
  void assemble_matrix(const Coefficients& coefficients) {
    compute_contributions(coefficients);
    sort_and_reduce();
  }
  /// The two halves of assemble_matrix, for timing: the kernels into the COO array, then the
  /// sort, the reduction and the CSR row offsets ([Dong2021]'s "indices" step).
  template <class Coefficients>
  void compute_contributions(const Coefficients& coefficients) {
    const DeviceQuadratureMesh<Dim>& mesh = assembler_.device_mesh();
    const AssemblyOptions& options = assembler_.options();
    contributions_.fill_zero();
    Real* elements = contributions_.data();
    Real* boundary = elements + element_segment_;
    Real* pattern_values = boundary + element_segment_ + scratch_segment_;
    InterfaceScratchView<Real> scratch = scratch_.view();
    scratch.values = boundary + element_segment_;
    // Element and boundary blocks go to their segments through a pattern view whose diagonal
    // block e is block e of the segment.
    DeviceBlockPatternView segment = assembler_.pattern().view();
    segment.diagonal_blocks = segment_blocks_.data();
    segment.value_offsets = element_offsets_.data();
    ranges_.update(mesh, coefficients);
    assemble_elements_on_device(mesh, segment, coefficients, elements, static_cast<Real*>(nullptr));
    assemble_interior_faces_on_device(
        mesh, assembler_.pattern().view(), ranges_.data(), options.penalty_constant, coefficients,
        InterfaceWriteMode::scratch_only, scratch, interface_workspace_, pattern_values);
    assemble_boundary_faces_on_device(mesh, segment, ranges_.data(), options.penalty_constant,
                                      coefficients, boundary, static_cast<Real*>(nullptr));
  }
  void sort_and_reduce() {
    const std::size_t count = keys_.size();
    device::copy_device_to_device(sorted_keys_.data(), keys_.data(), count * sizeof(GlobalIndex));
    // Thrust's temporary storage comes from device::allocate: running out of memory is a
    // polydg::Error with the sizes, not Thrust's bad_alloc.
    device::ThrustAllocator allocator;
    GlobalIndex unique = 0;
    try {
      thrust::sort_by_key(thrust::cuda::par(allocator), sorted_keys_.data(),
                          sorted_keys_.data() + count, contributions_.data());
      const auto ends = thrust::reduce_by_key(thrust::cuda::par(allocator), sorted_keys_.data(),
                                              sorted_keys_.data() + count, contributions_.data(),
                                              unique_keys_.data(), csr_values_.data());
      unique = GlobalIndex(ends.first - unique_keys_.data());
    } catch (const thrust::system_error& error) {
      raise("CooAssembly: Thrust failed sorting ", count, " entries: ", error.what());
    }
    require(unique == pattern_segment_, "CooAssembly: ", unique, " distinct entries for ",
            pattern_segment_, " in the pattern");
    const GlobalIndex dofs = dofs_;
    const GlobalIndex* keys = unique_keys_.data();
    Index* columns = csr_columns_.data();
    if (unique > 0)
      device::detail::csr_columns_kernel<<<unsigned((unique + 255) / 256), 256>>>(keys, unique,
                                                                                  dofs, columns);
    device::detail::csr_row_offsets_kernel<<<unsigned((dofs_ + 1 + 255) / 256), 256>>>(
        keys, unique, dofs_, csr_row_offsets_.data());
    POLYDG_CUDA_CHECK_LAUNCH("csr_row_offsets_kernel");
  }

  /// Entries of the COO array with duplicates, and of the CSR result.
  GlobalIndex coo_count() const { return GlobalIndex(keys_.size()); }
  GlobalIndex nonzero_count() const { return pattern_segment_; }
  const device::DeviceBuffer<GlobalIndex>& row_offsets() const { return csr_row_offsets_; }
  const device::DeviceBuffer<Index>& columns() const { return csr_columns_; }
  const device::DeviceBuffer<Real>& values() const { return csr_values_; }

 private:
  const DeviceAssembler<Dim, Real>& assembler_;
  GlobalIndex dofs_;
  InterfaceScratch<Real> scratch_;
  InteriorFaceWorkspace<Dim> interface_workspace_;
  GlobalIndex element_segment_ = 0, scratch_segment_ = 0, pattern_segment_ = 0;
  device::DeviceBuffer<GlobalIndex> element_offsets_;
  device::DeviceBuffer<Index> segment_blocks_;  ///< e → e: the diagonal block of e in a segment
  device::DeviceBuffer<GlobalIndex> keys_, sorted_keys_, unique_keys_, csr_row_offsets_;
  device::DeviceBuffer<Real> contributions_, csr_values_;
  device::DeviceBuffer<Index> csr_columns_;
  DeviceDiffusionRanges<Dim> ranges_;
};

}  // namespace polydg
