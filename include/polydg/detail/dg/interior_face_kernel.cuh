#pragma once
// The interior-face integrals (docs/theory.md, "The IP-DG system, as assembled") on the device —
// the CUDA counterpart of assemble_interior_faces (polydg/dg/assembly_kernels.hpp), calling the
// same POLYDG_HD integrand (dg/face_integrand.hpp): per interface, the SIP and upwind terms into
// its four blocks (a,a), (a,b), (b,a), (b,b).
//
// Schedule: tiled_point_schedule.cuh, one thread (P_1: thread_item_kernel.cuh), warp (P_2) or
// thread block per interface, launched per degree (the larger of its two elements'). The table is
// (N_a + N_b)²: rows and columns the functions of side a then side b, so its four quadrants are the
// blocks (a,a), (a,b), (b,a), (b,b); point k is (sub-facet k / Q, rule point k mod Q), the CPU's
// order. Record of a point: w, σ, β, A n and both sides' basis tables; each function's test and
// trial vectors (face_integrand.hpp) are formed once per point.
//
// The off-diagonal blocks belong to the interface alone and are overwritten. The diagonal
// blocks are shared by all interfaces of an element; two write modes (InterfaceWriteMode):
//   deterministic  contributions go to per-interface scratch (N_a² then N_b² at
//                  scratch_offsets[i]) and gather_interface_diagonals adds them per element in
//                  the order of element_interfaces: the same bits on every run and launch;
//   atomic         contributions are atomicAdd-ed into the diagonal blocks ([Dong2021]'s way):
//                  no scratch and no gather, but the order of the additions — so the last bits —
//                  changes from run to run;
//   scratch_only   as deterministic without the gather: the contributions stay in the scratch
//                  (Approach 1, coo_assembly.cuh, sums them with the rest by key).
//
// σ is constant on a sub-facet: interface_penalty_kernel computes it once per sub-facet per
// assembly (≈ 2·(2d² + 12) FLOPs) into InteriorFaceWorkspace, with the interfaces' block offsets.
// FLOPs per point: map + weight as the element kernel's facet analogue, A n and b·n (2d² + 2d),
// two sets of basis tables (see element_kernel.cuh),
// per function its value, gradient, flux (2d) and vectors (≈ 10), entries (N_a + N_b)² · 4.
#include <cuda_runtime.h>

#include <array>
#include <span>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/dg/basis_tables.cuh"
#include "polydg/detail/dg/contiguous_store.cuh"
#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/non_finite_watch.cuh"
#include "polydg/detail/dg/tiled_point_schedule.cuh"
#include "polydg/dg/face_integrand.hpp"
#include "polydg/dg/interface_scratch_layout.hpp"
#include "polydg/dg/penalty.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {

/// How the face kernels add into blocks that several interfaces share (see the file comment):
/// deterministic (into the scratch, then gathered), atomic, or scratch_only (Approach 1: the
/// scratch alone, see CooAssembly). The public FaceWriteMode offers the first two.
enum class InterfaceWriteMode { deterministic, atomic, scratch_only };

/// Per-interface scratch and per-element interface lists of the deterministic mode.
template <class Real>
struct InterfaceScratchView {
  const GlobalIndex* offsets = nullptr;              ///< interfaces + 1
  Real* values = nullptr;                            ///< offsets[interfaces] entries
  const Index* element_interface_offsets = nullptr;  ///< elements + 1
  const Index* element_interfaces = nullptr;         ///< ascending per element
};

/// The scratch of InterfaceScratchView, owned: the InterfaceScratchLayout of the mesh's
/// interfaces and block sizes (the CPU Assembler's), uploaded once.
template <class Real>
struct InterfaceScratch {
  InterfaceScratch() = default;
  InterfaceScratch(std::span<const std::array<Index, 2>> interfaces,
                   std::span<const Index> block_sizes) {
    const InterfaceScratchLayout layout(interfaces, block_sizes);
    host_offsets = layout.offsets;
    offsets = device::DeviceBuffer<GlobalIndex>(std::span<const GlobalIndex>(layout.offsets));
    values = device::DeviceBuffer<Real>(std::size_t(layout.offsets.back()));
    element_interface_offsets =
        device::DeviceBuffer<Index>(std::span<const Index>(layout.element_interface_offsets));
    element_interfaces =
        device::DeviceBuffer<Index>(std::span<const Index>(layout.element_interfaces));
  }

  InterfaceScratchView<Real> view() {
    return {offsets.data(), values.data(), element_interface_offsets.data(),
            element_interfaces.data()};
  }

  std::vector<GlobalIndex> host_offsets;
  device::DeviceBuffer<GlobalIndex> offsets;
  device::DeviceBuffer<Real> values;
  device::DeviceBuffer<Index> element_interface_offsets, element_interfaces;
};

namespace device::detail {

template <int Dim, class ValueType, class Coefficients>
struct InteriorFaceLaunch {
  using Real = ValueType;
  static constexpr int components = interior_face_components;
  // The FP64 tensor cores: the P_4 / P_5 slab interfaces (70 / 112 rows, two regions per warp)
  // run faster there than on their 4 × 8 FMA tiles, which spill at 128 registers; the P_3
  // interfaces (40 rows, about 15 points) are left to the FMA tiles by
  // enough_points_for_tensor_cores. Not in 2D: no 2D
  // interface has enough points, and each instantiation costs build time.
  static constexpr bool tensor_tables = Dim == 3;
  DeviceQuadratureMeshView<Dim> mesh;
  DeviceBlockPatternView pattern;
  const GlobalIndex* block_offsets;  ///< InteriorFaceWorkspace::block_offsets
  const double* penalties;           ///< InteriorFaceWorkspace::penalties
  const Index* interfaces;
  int p, n;  ///< the group's degree and N_p (the largest block side)
  Coefficients coefficients;
  InterfaceWriteMode mode;
  InterfaceScratchView<Real> scratch;
  Real* values;
  NonFiniteWatch<Real> watch;  ///< the off-diagonal blocks and the atomics

  // Record of one point (Reals): w, σ, β, A n [Dim], the basis tables of side 0, of side 1.
  static constexpr int weight = 0, penalty = 1, beta = 2, a_normal = 3, tables = 3 + Dim;
  POLYDG_HD int stride() const { return p + 1; }
  /// Where side s's tables start in a record whose tables have stride `stride`.
  POLYDG_HD static constexpr int side_tables(int side, int stride) {
    return tables + side * basis_tables_size<Dim>(stride);
  }
  POLYDG_HD static constexpr int record_size_for(int stride) { return side_tables(2, stride); }
  POLYDG_HD int record_size() const { return record_size_for(stride()); }

  struct Item {
    Index element[2];
    int degree[2], size[2];
    Index facet_begin, rule_begin, rule_size;
    Index point_count;
    Real* block[2][2];  ///< where outputs (test side r, trial side c) go
  };

  __device__ Item item(Index b) const {
    Item it;
    const Index i = interfaces[b];
    for (int s = 0; s < 2; ++s) {
      it.element[s] = mesh.interface_elements[2 * i + s];
      it.degree[s] = mesh.degrees[it.element[s]];
      it.size[s] = space_basis_size(mesh.space, Dim, it.degree[s]);
    }
    it.facet_begin = mesh.interface_facet_offsets[i];
    it.rule_begin = mesh.interface_rule_offsets[p];
    it.rule_size = mesh.interface_rule_offsets[p + 1] - it.rule_begin;
    it.point_count = Index(mesh.interface_facet_offsets[i + 1] - it.facet_begin) * it.rule_size;
    it.block[0][1] = values + block_offsets[2 * i];
    it.block[1][0] = values + block_offsets[2 * i + 1];
    if (mode != InterfaceWriteMode::atomic) {
      it.block[0][0] = scratch.values + scratch.offsets[i];
      it.block[1][1] = it.block[0][0] + it.size[0] * it.size[0];
    } else {
      const auto block_values = [&](Index block) { return values + pattern.value_offsets[block]; };
      it.block[0][0] = block_values(pattern.diagonal_blocks[it.element[0]]);
      it.block[1][1] = block_values(pattern.diagonal_blocks[it.element[1]]);
    }
    return it;
  }
  __device__ int rows(const Item& it) const { return it.size[0] + it.size[1]; }
  __device__ int columns(const Item& it) const { return it.size[0] + it.size[1]; }
  __device__ Index point_count(const Item& it) const { return it.point_count; }
  __device__ int function_code(const Item& it, int u) const {
    // Selections, not it.size[side]: a runtime index would put the Item in local memory.
    const bool second = u >= it.size[0];
    const int local = second ? u - it.size[0] : u;
    return local < (second ? it.size[1] : it.size[0])
               ? mesh.basis_code(second ? it.degree[1] : it.degree[0], local)
               : 0;
  }
  /// Where entry (i, j) of the table goes: block (r, c), at offset; `diagonal`: r = c.
  __device__ Real* target(const Item& it, int i, int j, bool& diagonal) const {
    const bool r = i >= it.size[0], c = j >= it.size[0];
    diagonal = r == c;  // (a,a) or (b,b): scratch, or shared with other interfaces
    Real* block = r ? (c ? it.block[1][1] : it.block[1][0]) : (c ? it.block[0][1] : it.block[0][0]);
    return block + (r ? i - it.size[0] : i) * (c ? it.size[1] : it.size[0]) +
           (c ? j - it.size[0] : j);
  }
  /// Every output starts from 0: scratch and atomic contributions are added later or by the
  /// atomic, and the off-diagonal blocks are the interface's alone (written, not added to: a
  /// dependent load less per output, a visible stall of the P_5 kernel).
  __device__ Real initial(const Item&, int, int) const { return Real(0); }
  __device__ void store(const Item& it, int i, int j, Real value) const {
    bool diagonal;
    Real* entry = target(it, i, j, diagonal);
    write(entry, diagonal, value);
  }
  /// The write of store() to its target.
  __device__ void write(Real* entry, bool diagonal, Real value) const {
    if (diagonal && mode == InterfaceWriteMode::atomic) {
      watch.note(entry, atomicAdd(entry, value) + value);  // the sum it stored
    } else {
      *entry = value;
      if (!diagonal) watch.note(entry, value);  // diagonal: scratch, watched in the gather
    }
  }
  /// store() of (i, j) and (i, j + 1), j + 1 < columns, given their sums: one paired store
  /// where both lie in one block, aligned, and are not added atomically (the tensor-core tables'
  /// stores: a lane's two sums of a tile are adjacent columns).
  __device__ void store_pair(const Item& it, int i, int j, Real first, Real second) const {
    const Real first_value = initial(it, i, j) + first;
    const Real second_value = initial(it, i, j + 1) + second;
    if (j + 1 == it.size[0]) {  // the pair spans two blocks
      store(it, i, j, first_value);
      store(it, i, j + 1, second_value);
      return;
    }
    // One block: (i, j + 1) is the entry after (i, j), one target for both (odd block widths
    // leave half the rows' pairs unaligned).
    bool diagonal;
    Real* entry = target(it, i, j, diagonal);
    if (!(diagonal && mode == InterfaceWriteMode::atomic) &&
        store_aligned_pair(entry, first_value, second_value)) {
      if (!diagonal) {  // diagonal: scratch, watched in the gather
        watch.note(entry, first_value);
        watch.note(entry + 1, second_value);
      }
      return;
    }
    write(entry, diagonal, first_value);
    write(entry + 1, diagonal, second_value);
  }
  /// The whole table of an item whose sides both have R / 2 functions (thread_item_kernel.cuh;
  /// false, nothing stored, for other items): the same values as store() entry by entry, with
  /// one branch per block instead of two per entry. Branches between the stores made each wait
  /// for the previous store's registers, the P_1 interface kernel's main stall. The written
  /// blocks go out in 16-byte stores (contiguous_store.cuh): fewer, wider stores.
  template <int R, int C>
  __device__ bool store_table(const Item& it, const Real (&sum)[R][C]) const {
    constexpr int half = R / 2;
    if constexpr (R != C || R % 2 != 0) {
      return false;
    } else {
      if (it.size[0] != half || it.size[1] != half) return false;
      unsigned long long least = no_non_finite_value;
#pragma unroll
      for (int r = 0; r < 2; ++r)
#pragma unroll
        for (int c = 0; c < 2; ++c) {
          Real* block = it.block[r][c];
          if (r == c && mode == InterfaceWriteMode::atomic) {
#pragma unroll
            for (int e = 0; e < half * half; ++e) {
              const Real value = sum[r * half + e / half][c * half + e % half];
              watch.least_bad(least, block + e, atomicAdd(block + e, value) + value);
            }
          } else {
            Real block_values[half * half];
#pragma unroll
            for (int e = 0; e < half * half; ++e) {
              block_values[e] = sum[r * half + e / half][c * half + e % half];
              if (r != c) watch.least_bad(least, block + e, block_values[e]);  // diagonal: scratch
            }
            store_contiguous(block, block_values);
          }
        }
      watch.note_least(least);
      return true;
    }
  }
  /// FixedStride (> 0): the launch's stride, known at compile time (thread_item_kernel.cuh).
  template <int FixedStride = 0>
  __device__ void evaluate_point(const Item& it, Index k, Real* record) const {
    const int basis_stride = table_stride(FixedStride, stride());
    const Index f = it.facet_begin + Index(k / it.rule_size);
    const Index q = it.rule_begin + Index(k % it.rule_size);
    const Point<Dim>* vertices = mesh.interface_facet_vertices + GlobalIndex(f) * Dim;
    const double ratio = affine_measure_ratio<Dim - 1, Dim>(vertices);
    const Point<Dim> x = map_reference_point<Dim - 1, Dim>(vertices, mesh.interface_rule_points[q]);
    const Point<Dim> normal = mesh.interface_facet_normals[f];
    PointIndex point{PointKind::interface, 0};
    if constexpr (uses_point_indices<Coefficients>)
      point.index = mesh.interface_point_offsets[f] + (q - it.rule_begin);
    const Tensor<Dim> a = coefficient_at(coefficients.diffusion, point, x);
    const Point<Dim> b = coefficient_at(coefficients.advection, point, x);
    const Point<Dim> a_n = a * normal;
    // The geometry, σ and the coefficients in double; the basis and the vectors in Real.
    record[weight] = Real(mesh.interface_rule_weights[q] * ratio);
    record[penalty] = Real(penalties[f]);
    record[beta] = Real(dot(b, normal));
    for (int d = 0; d < Dim; ++d) record[a_normal + d] = Real(a_n[d]);
    // With a fixed stride both sides' tables go to the group's degree (fixed indices only): a
    // side's entries k ≤ its own degree are the same, the others unused.
    const int degree[2] = {FixedStride > 0 ? basis_stride - 1 : it.degree[0],
                           FixedStride > 0 ? basis_stride - 1 : it.degree[1]};
#pragma unroll  // fixed indices into the Item: it stays in registers
    for (int s = 0; s < 2; ++s)
      write_basis_tables<Dim, Real>(degree[s], mesh.boxes[it.element[s]],
                                    mesh.box_inverse_extents[it.element[s]], x,
                                    record + side_tables(s, basis_stride), basis_stride);
  }
  template <int FixedStride = 0>
  __device__ void evaluate_function(const Item& it, const Real* record, int u, int code, Real* test,
                                    int test_stride, Real* trial, int trial_stride) const {
    const int side = u < it.size[0] ? 0 : 1;
    const int basis_stride = table_stride(FixedStride, stride());
    Real phi, gradient[Dim];
    if constexpr (FixedStride > 0) {
      // The side's tables gathered by select_value: record + side_tables(side, ·) would index
      // the record (in registers) at run time.
      constexpr int size = basis_tables_size<Dim>(FixedStride);
      Real side_tables_of_u[size];
#pragma unroll
      for (int e = 0; e < size; ++e)
        side_tables_of_u[e] = select_value(side == 1, record[side_tables(1, FixedStride) + e],
                                           record[side_tables(0, FixedStride) + e]);
      basis_function_at<Dim, Real, FixedStride>(side_tables_of_u, FixedStride, code, phi, gradient);
    } else {
      basis_function_at<Dim, Real>(record + side_tables(side, basis_stride), basis_stride, code,
                                   phi, gradient);
    }
    Point<Dim, Real> a_n;
    for (int d = 0; d < Dim; ++d) a_n[d] = record[a_normal + d];
    const Real flux = normal_flux<Dim, Real>(gradient, a_n);
    if (test)
      interior_face_test_vector<Real>(side, record[penalty], record[beta], record[weight], phi,
                                      flux, test, test_stride);
    if (trial) interior_face_trial_vector<Real>(side, phi, flux, trial, trial_stride);
  }
};

/// block_offsets[2i], [2i + 1]: the value offsets of interface i's blocks (a,b) and (b,a).
template <int Dim>
__global__ void interface_block_offsets_kernel(DeviceQuadratureMeshView<Dim> mesh,
                                               DeviceBlockPatternView pattern, Index interfaces,
                                               GlobalIndex* block_offsets) {
  const Index i = Index(blockIdx.x) * Index(blockDim.x) + Index(threadIdx.x);
  if (i >= interfaces) return;
  const Index a = mesh.interface_elements[2 * i], b = mesh.interface_elements[2 * i + 1];
  block_offsets[2 * i] = pattern.value_offsets[pattern.find_block(a, b)];
  block_offsets[2 * i + 1] = pattern.value_offsets[pattern.find_block(b, a)];
}

/// penalties[f] = C_σ σ|f for every interface sub-facet f (penalty.hpp), one thread per interface.
template <int Dim>
__global__ void interface_penalty_kernel(DeviceQuadratureMeshView<Dim> mesh,
                                         const DiffusionRange<Dim>* diffusion_ranges,
                                         double penalty_constant, Index interfaces,
                                         double* penalties) {
  const Index i = Index(blockIdx.x) * Index(blockDim.x) + Index(threadIdx.x);
  if (i >= interfaces) return;
  Index element[2];
  int degree[2];
  for (int s = 0; s < 2; ++s) {
    element[s] = mesh.interface_elements[2 * i + s];
    degree[s] = mesh.degrees[element[s]];
  }
  for (Index f = mesh.interface_facet_offsets[i]; f < mesh.interface_facet_offsets[i + 1]; ++f) {
    const Point<Dim> normal = mesh.interface_facet_normals[f];
    double sigma = 0;
    for (int s = 0; s < 2; ++s) {
      const double term = penalty_term<Dim>(
          mesh.measures[element[s]], mesh.interface_facet_cell_measures[2 * f + s],
          mesh.interface_facet_measures[f], degree[s],
          diffusion_bound(diffusion_ranges[element[s]], normal), mesh.penalty_scaling,
          mesh.trace_constants ? mesh.trace_constants[element[s]] : 0.0);
      sigma = fmax(sigma, term);
    }
    penalties[f] = sigma * penalty_constant;
  }
}

/// Adds each element's interface scratch into its diagonal block, interfaces in the order of
/// element_interfaces. `team` threads per element (a power of two dividing the block, about
/// the largest N²: a block per element left 112 of 128 threads idle at P_1 in 2D+1), over its N²
/// entries.
template <int Dim, class Real>
__global__ void gather_interface_diagonals_kernel(DeviceQuadratureMeshView<Dim> mesh,
                                                  DeviceBlockPatternView pattern,
                                                  InterfaceScratchView<Real> scratch, Real* values,
                                                  NonFiniteWatch<Real> watch, int team,
                                                  Index elements) {
  const Index e = Index(blockIdx.x) * Index(blockDim.x / team) + Index(threadIdx.x) / team;
  if (e >= elements) return;
  const int n = pattern.block_sizes[e];
  Real* block = values + pattern.value_offsets[pattern.diagonal_blocks[e]];
  const Index begin = scratch.element_interface_offsets[e];
  const Index end = scratch.element_interface_offsets[e + 1];
  for (int v = int(threadIdx.x) % team; v < n * n; v += team) {
    Real sum = block[v];
    for (Index k = begin; k < end; ++k) {
      const Index i = scratch.element_interfaces[k];
      const Index first = mesh.interface_elements[2 * i];
      const int n_first = pattern.block_sizes[first];
      const Real* contribution =
          scratch.values + scratch.offsets[i] + (first == e ? 0 : n_first * n_first);
      sum += contribution[v];
    }
    block[v] = sum;
    watch.note(block + v, sum);
  }
}

}  // namespace device::detail

/// What the interior-face kernel keeps between assemblies of one mesh and pattern: each
/// interface's off-diagonal block offsets (binary searches in the pattern, done once here rather
/// than at the start of every item) and each sub-facet's C_σ σ (refreshed by every assembly from
/// the diffusion ranges; σ is constant on a sub-facet, so it is computed once per sub-facet
/// rather than at each of its points).
template <int Dim>
struct InteriorFaceWorkspace {
  InteriorFaceWorkspace() = default;
  InteriorFaceWorkspace(const DeviceQuadratureMesh<Dim>& mesh,
                        const DeviceBlockPatternView& pattern)
      : block_offsets(2 * std::size_t(mesh.interface_count())),
        penalties(std::size_t(mesh.interface_facet_count())) {
    const Index interfaces = mesh.interface_count();
    if (interfaces == 0) return;
    device::detail::interface_block_offsets_kernel<Dim>
        <<<static_cast<unsigned>((interfaces + 127) / 128), 128>>>(mesh.view(), pattern, interfaces,
                                                                   block_offsets.data());
    device::detail::check_cuda(cudaGetLastError(), "interface_block_offsets_kernel", __FILE__,
                               __LINE__);
  }

  device::DeviceBuffer<GlobalIndex> block_offsets;  ///< 2 per interface: (a,b), (b,a)
  device::DeviceBuffer<double> penalties;           ///< per interface sub-facet
};

/// The interior-face kernels of assemble_interior_faces_on_device (below) without the gather
/// of the deterministic mode: σ per sub-facet, then the faces of each degree. In the
/// deterministic and scratch_only modes they write the off-diagonal blocks and the scratch only,
/// so they may run beside the element and boundary kernels (DeviceAssembler does, on a second
/// stream, unless overlap_interior_faces_max_degree says not); the atomic mode adds into the
/// diagonal blocks. Asynchronous on limits.stream.
template <int Dim, class Real, class Coefficients>
void launch_interior_face_kernels(const DeviceQuadratureMesh<Dim>& mesh,
                                  const DeviceBlockPatternView& pattern,
                                  const DiffusionRange<Dim>* diffusion_ranges,
                                  double penalty_constant, const Coefficients& coefficients,
                                  InterfaceWriteMode mode,
                                  const InterfaceScratchView<Real>& scratch,
                                  InteriorFaceWorkspace<Dim>& workspace, Real* values,
                                  const device::detail::LaunchLimits& limits = {},
                                  unsigned long long* first_non_finite = nullptr) {
  const device::detail::NonFiniteWatch<Real> watch{values, first_non_finite};
  if (!values || mesh.interface_count() == 0) return;
  device::detail::interface_penalty_kernel<Dim>
      <<<static_cast<unsigned>((mesh.interface_count() + 127) / 128), 128, 0, limits.stream>>>(
          mesh.view(), diffusion_ranges, penalty_constant, mesh.interface_count(),
          workspace.penalties.data());
  device::detail::check_cuda(cudaGetLastError(), "interface_penalty_kernel", __FILE__, __LINE__);
  const DegreeGroups& groups = mesh.interfaces();
  for (int p = 0; p <= mesh.max_degree(); ++p) {
    if (groups.count(p) == 0) continue;
    const int n = space_basis_size(mesh.space(), Dim, p);
    const device::detail::InteriorFaceLaunch<Dim, Real, Coefficients> launch{
        mesh.view(),
        pattern,
        workspace.block_offsets.data(),
        workspace.penalties.data(),
        groups.group(p),
        p,
        n,
        coefficients,
        mode,
        scratch,
        values,
        watch};
    device::detail::launch_tiled_points(
        launch, groups.count(p), 2 * n, 2 * n, launch.record_size(),
        GlobalIndex(groups.max_pieces[p]) * mesh.interface_rule_size(p),
        groups.total_pieces[p] * mesh.interface_rule_size(p), "interior face kernel", limits);
  }
}

/// The deterministic mode's gather: adds each element's interface scratch (filled by
/// launch_interior_face_kernels) into its diagonal block, interfaces in the order of
/// element_interfaces. Asynchronous on `stream`.
template <int Dim, class Real>
void gather_interface_diagonals(const DeviceQuadratureMesh<Dim>& mesh,
                                const DeviceBlockPatternView& pattern,
                                const InterfaceScratchView<Real>& scratch, Real* values,
                                unsigned long long* first_non_finite, cudaStream_t stream) {
  if (!values || mesh.element_count() == 0) return;
  const device::detail::NonFiniteWatch<Real> watch{values, first_non_finite};
  constexpr int threads = 128;
  const int largest = space_basis_size(mesh.space(), Dim, mesh.max_degree());
  int team = 1;
  while (team < threads && team < largest * largest) team *= 2;
  const Index elements_per_block = threads / team;
  device::detail::gather_interface_diagonals_kernel<Dim, Real>
      <<<static_cast<unsigned>((mesh.element_count() + elements_per_block - 1) /
                               elements_per_block),
         threads, 0, stream>>>(mesh.view(), pattern, scratch, values, watch, team,
                               mesh.element_count());
  device::detail::check_cuda(cudaGetLastError(), "gather of the interface diagonals", __FILE__,
                             __LINE__);
}

/// Adds the interior-face integrals into `values` (device memory, a block matrix on `pattern`,
/// which must be the mesh's): into its diagonal blocks; the off-diagonal blocks, one interface's
/// each, are overwritten. diffusion_ranges: per element, on the device (the penalty's ā).
/// `workspace` must be the mesh's and pattern's (its penalties are overwritten). In the
/// deterministic and scratch_only modes `scratch` must be the mesh's (InterfaceScratch); the
/// atomic mode ignores it. first_non_finite: as for assemble_elements_on_device (the scratch is
/// not watched: its sums are, in the gather). Asynchronous on limits.stream.
template <int Dim, class Real, class Coefficients>
void assemble_interior_faces_on_device(const DeviceQuadratureMesh<Dim>& mesh,
                                       const DeviceBlockPatternView& pattern,
                                       const DiffusionRange<Dim>* diffusion_ranges,
                                       double penalty_constant, const Coefficients& coefficients,
                                       InterfaceWriteMode mode,
                                       const InterfaceScratchView<Real>& scratch,
                                       InteriorFaceWorkspace<Dim>& workspace, Real* values,
                                       const device::detail::LaunchLimits& limits = {},
                                       unsigned long long* first_non_finite = nullptr) {
  launch_interior_face_kernels(mesh, pattern, diffusion_ranges, penalty_constant, coefficients,
                               mode, scratch, workspace, values, limits, first_non_finite);
  if (mode == InterfaceWriteMode::deterministic)
    gather_interface_diagonals(mesh, pattern, scratch, values, first_non_finite, limits.stream);
}

}  // namespace polydg
