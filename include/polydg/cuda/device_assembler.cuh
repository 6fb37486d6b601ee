#pragma once
// DeviceAssembler: the CUDA backend of the IP-DG assembly (SPEC §2, §6 Approach 2), beside the
// CPU reference Assembler (polydg/dg/assembler.hpp) and with the same contract: built once per
// mesh and boundary conditions, then every assemble call recomputes values only (no
// allocation). The matrix values and the rhs live in device memory until asked for.
//
//   polydg::DeviceAssembler<3> assembler(slab_mesh, conditions, options);   // pattern on GPU
//   assembler.assemble(coefficients);          // __host__ __device__ coefficient callables
//   assembler.add_previous_slab_term(value);   // value(e, x) callable on the device
//   assembler.copy_to_host(matrix, rhs);       // one staged copy (e.g. for the AIJ export)
//
// Construction: the QuadratureMesh on the host (as Assembler), then on the device: its arrays
// (DeviceQuadratureMesh), the BlockPattern (build_block_pattern_from_device_arrays, from the
// device mesh's degrees and interfaces; equal to the CPU pattern), zeroed values and rhs, and the
// interface scratch of the deterministic mode. An assembly is, in this order: zero the rhs; the
// diffusion ranges (the penalty's ā: filled once for a constant A, device_diffusion_ranges.cuh);
// element kernel (it overwrites the diagonal blocks, and the interior-face kernel the
// off-diagonal ones: the matrix is never zeroed); boundary faces; interior faces (+ gather);
// and, unless disabled, a check that every assembled entry is finite (the kernels note the
// first non-finite value they store; the rhs is read once). All on the default stream but, in
// the deterministic mode on meshes of low degree, the interior-face kernels: they write blocks
// of their own, and run on a second stream beside the element and boundary kernels, the gather
// waiting for all (DeviceAssemblyOptions::overlap_interior_faces_max_degree).
//
// Write modes (FaceWriteMode): deterministic (default) gives the same bits on every run and
// launch configuration; atomic adds the interface contributions to diagonal blocks with
// atomics (see interior_face_kernel.cuh). Both agree with the CPU Assembler to rounding
// (≤ 1e-13 relative in the tests).
//
// Errors: polydg::Error for what Assembler rejects, any CUDA failure (out of memory names the
// size asked for and the memory free), and — after the assembly, the kernels cannot throw — a
// non-finite assembled entry, naming the element whose block row or rhs holds it (a coefficient
// that is NaN or infinite there). Coefficients: the same object as for Assembler, with
// __host__ __device__ callables (nvcc --extended-lambda) or polydg::Constant.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/core/forall.cuh"
#include "polydg/detail/core/stream_fork.cuh"
#include "polydg/detail/dg/boundary_face_kernel.cuh"
#include "polydg/detail/dg/device_diffusion_ranges.cuh"
#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/element_kernel.cuh"
#include "polydg/detail/dg/interior_face_kernel.cuh"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {

struct DeviceAssemblyOptions {
  FaceWriteMode write_mode = FaceWriteMode::deterministic;
  /// Check after each assembly that every assembled entry is finite: the kernels note the first
  /// non-finite value they store, the rhs is read once, and one index comes back to the host
  /// (the kernels cannot throw for a NaN coefficient themselves).
  bool check_finite = true;
  /// Record CUDA events between the phases so last_timings() can report them.
  bool record_timings = false;
  /// Most threads per block of the quadrature kernels (a multiple of 32, ≤ 512; a launch takes
  /// what its table needs). The results do not depend on it — bit for bit in the deterministic
  /// mode; it is there to tune and test.
  int max_block_threads = device::detail::max_block_threads;
  /// Most shared memory per block of the quadrature kernels (opting in above 48 KiB, up to the
  /// device's limit): the cap on the point batches, which each launch otherwise sizes to what
  /// costs no resident blocks (LaunchLimits::max_shared_bytes); tensor-core tables' sums come on
  /// top. The results do not depend on it.
  int max_block_shared_bytes = device::detail::point_batch_shared_bytes;
  /// Items whose tables fit one thread's registers (P_1 elements, boundaries and interfaces, 2D
  /// P_2 elements) one per thread (LaunchLimits::small_items_per_thread); false: as the next
  /// option says. The results do not depend on it.
  bool small_items_per_thread = true;
  /// Items with small tables (P_1, P_2) one per warp rather than one per block
  /// (LaunchLimits::small_items_per_warp). The results do not depend on it.
  bool small_items_per_warp = true;
  /// Items one per block get a producer warp that evaluates the next batch of quadrature
  /// points while the others multiply (LaunchLimits::overlap_point_evaluation). The results do
  /// not depend on it.
  bool overlap_point_evaluation = true;
  /// ... where a launch's items have at least this many points on average (0: always).
  int overlap_min_mean_points = device::detail::min_points_to_overlap;
  /// One-item-per-block launches keep as many blocks as are resident, each taking items in
  /// turn, the producer warp evaluating the next item's first points during the last products
  /// of this one (LaunchLimits::persistent_blocks). The results do not depend on it.
  bool persistent_blocks = true;
  /// ... at most this many of them (0: as many as are resident; a few: each block takes many
  /// items, as on a large mesh — for tests). The results do not depend on it.
  int max_persistent_blocks = 0;
  /// Double-precision tables too large for a warp and small enough for a few warps' registers,
  /// whose items have enough points on average (enough_points_for_tensor_cores: P_5 elements
  /// and boundaries and P_4 / P_5 interfaces on Table 2's slab, P_4 elements with more
  /// triangles per polygon; never 2D interfaces), are multiplied on the FP64 tensor cores where
  /// the device has them and their sums fit its shared memory (LaunchLimits::tensor_cores). The one
  /// option that changes the rounding (the same terms, summed four at a time; either way within
  /// 1e-13 of the CPU in the tests); every run and every other option gives the same bits either
  /// way.
  bool tensor_cores = true;
  /// In the deterministic mode, on meshes whose highest degree is at most this (−1: never), the
  /// interior-face kernels run on a second stream beside the element and boundary kernels: they
  /// write blocks of their own (the off-diagonal ones and the scratch), and the gather waits for
  /// all. With one item per thread at P_1 (8–12 warps per multiprocessor), each kernel's last
  /// partial wave left the GPU part idle. On Table 2's slab (H100, against one stream in the
  /// same run): P_1 re-assemblies 8–12 % faster; P_2 the same with tensor rules, 2 % slower
  /// with the total-degree rules (fewer interface points: 0.00301 against 0.00295 s/MDoF);
  /// P_3–P_5 0.6–1.6 % slower — hence 1. The diagonal blocks get the same sums in the same
  /// order (element, boundary, gather): the results do not depend on it, bit for bit.
  int overlap_interior_faces_max_degree = 1;
};

/// Seconds of the phases of the last assembly (record_timings), measured with CUDA events. Where
/// the interior faces overlap (overlap_interior_faces_max_degree), their phase (from their
/// kernels' start to the end of the gather) runs beside the elements' and the boundaries'.
struct DeviceAssemblyTimings {
  double zero = 0, diffusion_ranges = 0, elements = 0, interior_faces = 0, boundary_faces = 0,
         finite_check = 0;
};

/// Of the last assembly: how many of each phase's quadrature launches multiplied their tables on
/// the FP64 tensor cores (DeviceAssemblyOptions::tensor_cores allows it; each launch decides by
/// its tables' rows and points and the device, launch_tiled_points). For reports: an FP64 rate
/// is a share of the tensor cores' peak where they did the products, of the FMA units' elsewhere.
struct DeviceAssemblyTensorCoreLaunches {
  int elements = 0, interior_faces = 0, boundary_faces = 0;
};

namespace device::detail {

/// first_bad = min(first_bad, k) over the k < count with a non-finite data[k].
template <class Real>
__global__ void first_non_finite_kernel(const Real* data, GlobalIndex count,
                                        unsigned long long* first_bad) {
  for (GlobalIndex k = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x; k < count;
       k += GlobalIndex(gridDim.x) * blockDim.x)
    if (!isfinite(data[k])) atomicMin(first_bad, static_cast<unsigned long long>(k));
}

/// CUDA events around each phase of an assembly: phase k from begin(k, stream) to end(k, stream),
/// which may be on different streams (a phase that runs beside another).
class PhaseEvents {
 public:
  explicit PhaseEvents(int phases) : events_(2 * std::size_t(phases), nullptr) {
    for (cudaEvent_t& event : events_) POLYDG_CUDA_CHECK(cudaEventCreate(&event));
  }
  PhaseEvents(const PhaseEvents&) = delete;
  PhaseEvents& operator=(const PhaseEvents&) = delete;
  ~PhaseEvents() {
    for (cudaEvent_t event : events_)
      if (event) cudaEventDestroy(event);
  }
  void begin(int phase, cudaStream_t stream = nullptr) {
    POLYDG_CUDA_CHECK(cudaEventRecord(events_[2 * std::size_t(phase)], stream));
  }
  void end(int phase, cudaStream_t stream = nullptr) {
    POLYDG_CUDA_CHECK(cudaEventRecord(events_[2 * std::size_t(phase) + 1], stream));
  }
  double seconds(int phase) const {
    float milliseconds = 0;
    POLYDG_CUDA_CHECK(cudaEventSynchronize(events_[2 * std::size_t(phase) + 1]));
    POLYDG_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, events_[2 * std::size_t(phase)],
                                           events_[2 * std::size_t(phase) + 1]));
    return milliseconds * 1e-3;
  }

 private:
  std::vector<cudaEvent_t> events_;
};

/// N_e of every element of `mesh` in `space`, formed on the device from its degrees.
template <int Dim>
device::DeviceBuffer<Index> block_sizes_of(const DeviceQuadratureMesh<Dim>& mesh,
                                           BasisSpace space) {
  device::DeviceBuffer<Index> sizes(std::size_t(mesh.element_count()));
  Index* out = sizes.data();
  const int* degrees = mesh.view().degrees;
  device::forall(mesh.element_count(), [=] __device__(GlobalIndex e) {
    out[e] = space_basis_size(space, Dim, degrees[e]);
  });
  return sizes;
}

}  // namespace device::detail

/// Real: the precision of the values and rhs (float or double), of the basis values and of the
/// products and sums in the kernels; geometry, quadrature weights, σ and the coefficients are
/// evaluated in double and rounded once.
template <int Dim, class Real = double>
class DeviceAssembler {
 public:
  DeviceAssembler(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                  const AssemblyOptions& options = {},
                  const DeviceAssemblyOptions& device_options = {})
      : DeviceAssembler(QuadratureMesh<Dim>(mesh, conditions, checked(options).pieces), options,
                        device_options) {}
  /// From a quadrature mesh the caller built, QuadratureMesh(mesh, conditions, options.pieces)
  /// (the host preprocessing, e.g. timed apart or built while the device is busy); its space
  /// and penalty scaling are set from `options`. Throws polydg::Error when its pieces are not
  /// options.pieces.
  DeviceAssembler(QuadratureMesh<Dim> quadrature_mesh, const AssemblyOptions& options = {},
                  const DeviceAssemblyOptions& device_options = {})
      : host_mesh_(prepare_host_mesh(std::move(quadrature_mesh), checked(options))),
        options_(options),
        device_options_(device_options),
        mesh_(host_mesh_, options.quadrature) {
    const Index elements = host_mesh_.element_count();
    block_sizes_.resize(std::size_t(elements));
    for (Index e = 0; e < elements; ++e)
      block_sizes_[e] = space_basis_size(options.space, Dim, host_mesh_.element_degrees[e]);
    // From the device mesh's degrees and interfaces: uploading the host's block_sizes_ and
    // interfaces again cost more than the build.
    pattern_ = build_block_pattern_from_device_arrays(
        device::detail::block_sizes_of(mesh_, options.space), mesh_.view().interface_elements,
        mesh_.interface_count());
    values_ = device::DeviceBuffer<Real>(std::size_t(pattern_.value_count()));
    rhs_ = device::DeviceBuffer<Real>(std::size_t(pattern_.dof_count()));
    values_.fill_zero();
    rhs_.fill_zero();
    diffusion_ranges_ = DeviceDiffusionRanges<Dim>(elements);
    first_bad_ = device::DeviceBuffer<unsigned long long>(1);
    require(device_options.write_mode != FaceWriteMode::scratch_only,
            "DeviceAssembler: write mode scratch_only leaves the matrix incomplete (it is "
            "Approach 1's, see CooAssembly)");
    if (device_options.write_mode != FaceWriteMode::atomic)
      scratch_ = InterfaceScratch<Real>(host_mesh_.interface_elements, block_sizes_);
    interface_workspace_ = InteriorFaceWorkspace<Dim>(mesh_, pattern_.view());
    if (device_options.record_timings) events_ = std::make_unique<device::detail::PhaseEvents>(6);
    if (device_options.write_mode == FaceWriteMode::deterministic &&
        mesh_.max_degree() <= device_options.overlap_interior_faces_max_degree &&
        mesh_.interface_count() > 0)
      interface_fork_ = std::make_unique<device::StreamFork>();
  }

  /// The host copy of the quadrature mesh, with the geometry the device has: after
  /// map_last_coordinate it is mapped here (once, on the first call after the maps), so a call
  /// costs a pass over the host mesh then. Not for concurrent use with map_last_coordinate.
  const QuadratureMesh<Dim>& quadrature_mesh() const {
    if (host_map_pending_) {
      polydg::map_last_coordinate(host_mesh_, host_map_.from_begin, host_map_.from_end,
                                  host_map_.to_begin, host_map_.to_end);
      host_map_pending_ = false;
    }
    return host_mesh_;
  }
  const DeviceQuadratureMesh<Dim>& device_mesh() const { return mesh_; }
  const DeviceBlockPattern& pattern() const { return pattern_; }
  /// N_e per element (host copy of the pattern's block sizes).
  const std::vector<Index>& block_sizes() const { return block_sizes_; }
  const AssemblyOptions& options() const { return options_; }
  const DeviceAssemblyOptions& device_options() const { return device_options_; }
  /// The matrix values (pattern().value_count(), block order of the pattern) and the rhs
  /// (pattern().dof_count()), in device memory.
  Real* values() { return values_.data(); }
  const Real* values() const { return values_.data(); }
  Real* rhs() { return rhs_.data(); }
  const Real* rhs() const { return rhs_.data(); }

  /// Overwrites the matrix values and the rhs.
  template <class Coefficients>
  void assemble(const Coefficients& coefficients) {
    run(coefficients, values_.data(), rhs_.data());
  }
  /// Overwrites the matrix values only.
  template <class Coefficients>
  void assemble_matrix(const Coefficients& coefficients) {
    run(coefficients, values_.data(), nullptr);
  }
  /// Overwrites the rhs only.
  template <class Coefficients>
  void assemble_rhs(const Coefficients& coefficients) {
    run(coefficients, nullptr, rhs_.data());
  }
  /// Adds the previous_slab data term to the rhs (after assemble or assemble_rhs): see
  /// assemble_previous_slab_faces. value(e, x) → double, callable on the device.
  template <class Value>
  void add_previous_slab_term(const Value& value) {
    assemble_previous_slab_faces_on_device(mesh_, pattern_.view(), value, rhs_.data(),
                                           launch_limits());
    if (device_options_.check_finite) check_finite(nullptr, rhs_.data());
  }
  /// As Assembler::map_last_coordinate, on the device: a kernel maps the device geometry in
  /// place (the host mesh's 219 MB for seed 004's Table 2 slab took 13-37 ms to upload, every
  /// time step). The host mesh follows when quadrature_mesh() is next called, by the composed
  /// map (its times the same bits; its measures within a rounding or two of mapping step by
  /// step). Throws polydg::Error for an empty interval or (first call) oblique facets.
  void map_last_coordinate(double from_begin, double from_end, double to_begin, double to_end) {
    const LastCoordinateMap map(from_begin, from_end, to_begin, to_end);
    if (!last_axis_checked_) {  // the normals do not change: once is enough
      check_last_axis_facets(host_mesh_);
      last_axis_checked_ = true;
    }
    mesh_.map_last_coordinate(map);
    // The composed map the host mesh owes: where two fixed times, its interval's ends when the
    // first pending map was given, have gone.
    if (!host_map_pending_) {
      host_map_ = map;
    } else {
      host_map_ = LastCoordinateMap(host_map_.from_begin, host_map_.from_end,
                                    map(host_map_.to_begin), map(host_map_.to_end));
    }
    host_map_pending_ = true;
  }

  /// Phase times of the last assembly (record_timings must be set). Synchronizes.
  DeviceAssemblyTimings last_timings() const {
    require(events_ != nullptr, "DeviceAssembler::last_timings: record_timings is off");
    return {events_->seconds(0), events_->seconds(1), events_->seconds(2),
            events_->seconds(3), events_->seconds(4), events_->seconds(5)};
  }

  /// Which phases of the last assembly ran on the FP64 tensor cores, and in how many launches.
  DeviceAssemblyTensorCoreLaunches last_tensor_core_launches() const {
    return tensor_core_launches_;
  }

  std::vector<Real> values_to_host() const { return values_.to_host(); }
  std::vector<Real> rhs_to_host() const { return rhs_.to_host(); }
  /// Copies the values into `matrix` (a BlockMatrix on the CPU pattern of the same mesh, e.g.
  /// Assembler::make_matrix(), or make_host_matrix()) and, when not empty, the rhs into `rhs`.
  void copy_to_host(BlockMatrix<Real>& matrix, std::span<Real> rhs = {}) const {
    require(GlobalIndex(matrix.values().size()) == pattern_.value_count(),
            "DeviceAssembler::copy_to_host: a matrix of ", matrix.values().size(), " values for ",
            pattern_.value_count());
    device::copy_device_to_host(matrix.values().data(), values_.data(),
                                matrix.values().size_bytes());
    if (!rhs.empty()) copy_rhs_to_host(rhs);
  }
  /// Copies the rhs into `rhs` (pattern().dof_count() entries, host memory), e.g. when only the
  /// rhs was re-assembled.
  void copy_rhs_to_host(std::span<Real> rhs) const {
    require(GlobalIndex(rhs.size()) == pattern_.dof_count(),
            "DeviceAssembler::copy_rhs_to_host: rhs of ", rhs.size(), " entries for ",
            pattern_.dof_count(), " unknowns");
    device::copy_device_to_host(rhs.data(), rhs_.data(), rhs.size_bytes());
  }
  /// A zero BlockMatrix on the CPU copy of the pattern (built on the host on first use).
  BlockMatrix<Real> make_host_matrix() const { return BlockMatrix<Real>(host_pattern()); }
  const std::shared_ptr<const BlockPattern>& host_pattern() const {
    if (!host_pattern_)
      host_pattern_ =
          std::make_shared<const BlockPattern>(block_sizes_, host_mesh_.interface_elements);
    return host_pattern_;
  }

 private:
  static const AssemblyOptions& checked(const AssemblyOptions& options) {
    require(options.penalty_constant > 0,
            "DeviceAssembler: penalty constant C_sigma = ", options.penalty_constant,
            " must be positive");
    require(options.quadrature.extra >= 0, "DeviceAssembler: extra quadrature degree ",
            options.quadrature.extra, " must be >= 0");
    return options;
  }
  static QuadratureMesh<Dim> prepare_host_mesh(QuadratureMesh<Dim> quadrature_mesh,
                                               const AssemblyOptions& options) {
    const auto name = [](QuadraturePieces pieces) {
      return pieces == QuadraturePieces::slab_prisms ? "slab prisms" : "simplices";
    };
    require(quadrature_mesh.pieces == options.pieces, "DeviceAssembler: the quadrature mesh has ",
            name(quadrature_mesh.pieces), " as pieces, but the options ask for ",
            name(options.pieces));
    apply_assembly_options(quadrature_mesh, options);
    return quadrature_mesh;
  }

  device::detail::LaunchLimits launch_limits() const {
    device::detail::LaunchLimits limits;
    limits.max_threads = device_options_.max_block_threads;
    limits.max_shared_bytes = device_options_.max_block_shared_bytes;
    limits.small_items_per_thread = device_options_.small_items_per_thread;
    limits.small_items_per_warp = device_options_.small_items_per_warp;
    limits.overlap_point_evaluation = device_options_.overlap_point_evaluation;
    limits.overlap_min_mean_points = device_options_.overlap_min_mean_points;
    limits.persistent_blocks = device_options_.persistent_blocks;
    limits.max_persistent_blocks = device_options_.max_persistent_blocks;
    limits.tensor_cores = device_options_.tensor_cores;
    return limits;
  }

  // The phases of an assembly, in the order of DeviceAssemblyTimings.
  enum Phase {
    zero_phase,
    ranges_phase,
    element_phase,
    interior_phase,
    boundary_phase,
    check_phase
  };

  template <class Coefficients>
  void run(const Coefficients& coefficients, Real* values, Real* rhs) {
    const auto begin = [&](Phase phase, cudaStream_t stream = nullptr) {
      if (events_) events_->begin(phase, stream);
    };
    const auto end = [&](Phase phase, cudaStream_t stream = nullptr) {
      if (events_) events_->end(phase, stream);
    };
    begin(zero_phase);
    // Nothing is zeroed in the matrix: the element kernel, first, overwrites the diagonal blocks
    // (every element is one of its items) and the interior-face kernel the off-diagonal ones;
    // the other kernels add into the diagonal blocks after them.
    if (rhs) rhs_.fill_zero();
    // The kernels note the first non-finite value they store (non_finite_watch.cuh).
    unsigned long long* first_non_finite = nullptr;
    if (values && device_options_.check_finite) {
      reset_first_bad();
      first_non_finite = first_bad_.data();
    }
    end(zero_phase);
    begin(ranges_phase);
    const DeviceBlockPatternView pattern = pattern_.view();
    const device::detail::LaunchLimits limits = launch_limits();
    diffusion_ranges_.update(mesh_, coefficients);
    end(ranges_phase);
    // Each phase's launches count their tensor-core tables into their own counter.
    tensor_core_launches_ = {};
    const auto counted = [&](int& counter, cudaStream_t stream) {
      device::detail::LaunchLimits phase_limits = limits;
      phase_limits.stream = stream;
      phase_limits.tensor_core_launches = &counter;
      return phase_limits;
    };
    // The interior faces beside the element and boundary faces
    // (overlap_interior_faces_max_degree), on the side stream forked below and joined before the
    // gather; their own blocks only, so the order of the sums into the diagonal blocks —
    // element, boundary, gather — is that of one stream.
    const bool beside = values && interface_fork_ != nullptr;
    const auto interior_faces = [&](cudaStream_t stream) {
      const device::detail::LaunchLimits interior_limits =
          counted(tensor_core_launches_.interior_faces, stream);
      begin(interior_phase, stream);
      launch_interior_face_kernels(mesh_, pattern, diffusion_ranges_.data(),
                                   options_.penalty_constant, coefficients,
                                   device_options_.write_mode, scratch_.view(),
                                   interface_workspace_, values, interior_limits, first_non_finite);
    };
    // The side stream starts after the ranges, but its kernels are enqueued after the element
    // kernel's: the element blocks reach the multiprocessors first and the interface blocks
    // fill in behind them — 2 % faster at P_1 than the other way round (H100, two rounds each;
    // a side stream of the greatest priority was 1–6 % slower).
    if (beside) interface_fork_->fork(nullptr);
    begin(element_phase);
    assemble_elements_on_device(mesh_, pattern, coefficients, values, rhs,
                                counted(tensor_core_launches_.elements, nullptr), first_non_finite,
                                DiagonalBlockWrite::overwrite);
    end(element_phase);
    if (beside) interior_faces(interface_fork_->side());
    // The boundary faces add into the diagonal blocks the element kernel wrote, before the
    // gather: so with the interior faces beside, both the element and the boundary kernels
    // fill the multiprocessors the interface kernels leave idle.
    begin(boundary_phase);
    assemble_boundary_faces_on_device(
        mesh_, pattern, diffusion_ranges_.data(), options_.penalty_constant, coefficients, values,
        rhs, counted(tensor_core_launches_.boundary_faces, nullptr), first_non_finite);
    end(boundary_phase);
    if (beside) {
      interface_fork_->join(nullptr);
    } else {
      interior_faces(nullptr);
    }
    if (device_options_.write_mode == FaceWriteMode::deterministic)
      gather_interface_diagonals(mesh_, pattern, scratch_.view(), values, first_non_finite,
                                 nullptr);
    end(interior_phase);
    begin(check_phase);
    if (device_options_.check_finite) check_finite(values, rhs);
    end(check_phase);
  }

  // first_bad_ = no_non_finite_value (every byte 0xFF), on the default stream as the kernels.
  void reset_first_bad() {
    static_assert(device::detail::no_non_finite_value == ~0ull);
    POLYDG_CUDA_CHECK(cudaMemsetAsync(first_bad_.data(), 0xFF, sizeof(unsigned long long)));
  }

  // Raises, naming the element, when a value or rhs entry is not finite: the values as the
  // kernels noted them (run), the rhs by a pass over it (it is small, and the previous slab term
  // adds to it). Synchronizes.
  void check_finite(const Real* values, const Real* rhs) {
    struct Target {
      const Real* data;
      GlobalIndex count;
      bool matrix;
    };
    const unsigned long long none = device::detail::no_non_finite_value;
    for (const Target target :
         {Target{values, pattern_.value_count(), true}, Target{rhs, pattern_.dof_count(), false}}) {
      if (!target.data || target.count == 0) continue;
      if (!target.matrix) {
        reset_first_bad();
        const GlobalIndex blocks = std::min<GlobalIndex>((target.count + 255) / 256, 4096);
        device::detail::first_non_finite_kernel<<<static_cast<unsigned>(blocks), 256>>>(
            target.data, target.count, first_bad_.data());
        POLYDG_CUDA_CHECK_LAUNCH("first_non_finite_kernel");
      }
      unsigned long long first = none;
      device::copy_device_to_host(&first, first_bad_.data(), sizeof first);
      if (first == none) continue;
      const BlockPattern& pattern = *host_pattern();
      Index element = 0;
      if (target.matrix) {
        const Index block = pattern.block_of_value(GlobalIndex(first));
        element = pattern.block_row(block);
      } else {
        element = pattern.block_row_of_dof(GlobalIndex(first));
      }
      raise("DeviceAssembler: the assembled ", target.matrix ? "matrix" : "rhs",
            " has a non-finite entry (index ", first, ") in the block row of element ", element,
            ": a coefficient or boundary datum is not finite (NaN or infinite) on element ",
            element, " or one of its faces");
    }
  }

  // Mutable: quadrature_mesh() applies the maps the device geometry has had (host_map_).
  mutable QuadratureMesh<Dim> host_mesh_;
  mutable bool host_map_pending_ = false;
  LastCoordinateMap host_map_;
  bool last_axis_checked_ = false;
  AssemblyOptions options_;
  DeviceAssemblyOptions device_options_;
  DeviceQuadratureMesh<Dim> mesh_;
  std::vector<Index> block_sizes_;
  DeviceBlockPattern pattern_;
  device::DeviceBuffer<Real> values_, rhs_;
  DeviceDiffusionRanges<Dim> diffusion_ranges_;
  device::DeviceBuffer<unsigned long long> first_bad_;
  InterfaceScratch<Real> scratch_;
  InteriorFaceWorkspace<Dim> interface_workspace_;
  std::unique_ptr<device::detail::PhaseEvents> events_;
  DeviceAssemblyTensorCoreLaunches tensor_core_launches_;  ///< of the last run
  std::unique_ptr<device::StreamFork> interface_fork_;     ///< overlap_interior_faces_max_degree
  mutable std::shared_ptr<const BlockPattern> host_pattern_;
};

}  // namespace polydg
