// DeviceAssembler's members that do not depend on the coefficients, and its state
// (polydg/detail/dg/device_assembly_state.cuh), compiled for Dim 2 and 3, float and double.
#include <algorithm>
#include <utility>

#include "polydg/cuda/device_assembler.cuh"
#include "polydg/detail/core/forall.cuh"

namespace polydg {
namespace device::detail {

/// N_e of every element of `mesh` in `space`, formed on the device from its degrees.
template <int Dim>
DeviceBuffer<Index> block_sizes_of(const DeviceQuadratureMesh<Dim>& mesh, BasisSpace space) {
  DeviceBuffer<Index> sizes(std::size_t(mesh.element_count()));
  Index* out = sizes.data();
  const int* degrees = mesh.view().degrees;
  forall(mesh.element_count(),
         [=] __device__(GlobalIndex e) { out[e] = space_basis_size(space, Dim, degrees[e]); });
  return sizes;
}

namespace {

/// first_bad = min(first_bad, k) over the k < count with a non-finite data[k].
template <class Real>
__global__ void first_non_finite_kernel(const Real* data, GlobalIndex count,
                                        unsigned long long* first_bad) {
  for (GlobalIndex k = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x; k < count;
       k += GlobalIndex(gridDim.x) * blockDim.x)
    if (!isfinite(data[k])) atomicMin(first_bad, static_cast<unsigned long long>(k));
}

const AssemblyOptions& checked(const AssemblyOptions& options) {
  require(options.penalty_constant > 0,
          "DeviceAssembler: penalty constant C_sigma = ", options.penalty_constant,
          " must be positive");
  require(options.quadrature.extra >= 0, "DeviceAssembler: extra quadrature degree ",
          options.quadrature.extra, " must be >= 0");
  return options;
}

template <int Dim>
QuadratureMesh<Dim> prepare_host_mesh(QuadratureMesh<Dim> quadrature_mesh,
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

}  // namespace

template <int Dim, class Real>
DeviceAssemblyState<Dim, Real>::DeviceAssemblyState(
    QuadratureMesh<Dim> quadrature_mesh, const AssemblyOptions& assembly_options,
    const DeviceAssemblyOptions& assembly_device_options)
    : host_mesh(prepare_host_mesh(std::move(quadrature_mesh), checked(assembly_options))),
      options(assembly_options),
      device_options(assembly_device_options),
      mesh(host_mesh, assembly_options.quadrature) {
  const Index elements = host_mesh.element_count();
  block_sizes.resize(std::size_t(elements));
  for (Index e = 0; e < elements; ++e)
    block_sizes[e] = space_basis_size(options.space, Dim, host_mesh.element_degrees[e]);
  // From the device mesh's degrees and interfaces: uploading the host's block sizes and
  // interfaces again cost more than the build.
  pattern = build_block_pattern_from_device_arrays(
      block_sizes_of(mesh, options.space), mesh.view().interface_elements, mesh.interface_count());
  values = DeviceBuffer<Real>(std::size_t(pattern.value_count()));
  rhs = DeviceBuffer<Real>(std::size_t(pattern.dof_count()));
  values.fill_zero();
  rhs.fill_zero();
  diffusion_ranges = DeviceDiffusionRanges<Dim>(elements);
  first_bad = DeviceBuffer<unsigned long long>(1);
  if (device_options.write_mode != FaceWriteMode::atomic)
    scratch = InterfaceScratch<Real>(host_mesh.interface_elements, block_sizes);
  interface_workspace = InteriorFaceWorkspace<Dim>(mesh, pattern.view());
  if (device_options.record_timings) events = std::make_unique<PhaseEvents>(assembly_phases);
  if (device_options.write_mode == FaceWriteMode::deterministic &&
      mesh.max_degree() <= device_options.tuning.overlap_interior_faces_max_degree &&
      mesh.interface_count() > 0)
    interface_fork = std::make_unique<StreamFork>();
}

template <int Dim, class Real>
const QuadratureMesh<Dim>& DeviceAssemblyState<Dim, Real>::quadrature_mesh() const {
  if (host_map_pending) {
    polydg::map_last_coordinate(host_mesh, host_map.from_begin, host_map.from_end,
                                host_map.to_begin, host_map.to_end);
    host_map_pending = false;
  }
  return host_mesh;
}

template <int Dim, class Real>
const std::shared_ptr<const BlockPattern>& DeviceAssemblyState<Dim, Real>::host_pattern() const {
  if (!host_pattern_cache)
    host_pattern_cache =
        std::make_shared<const BlockPattern>(block_sizes, host_mesh.interface_elements);
  return host_pattern_cache;
}

template <int Dim, class Real>
LaunchLimits DeviceAssemblyState<Dim, Real>::launch_limits() const {
  const LaunchTuning& tuning = device_options.tuning;
  LaunchLimits limits;
  limits.max_threads = tuning.max_block_threads;
  limits.max_shared_bytes = tuning.max_block_shared_bytes;
  limits.small_items_per_thread = tuning.small_items_per_thread;
  limits.small_items_per_warp = tuning.small_items_per_warp;
  limits.overlap_point_evaluation = tuning.overlap_point_evaluation;
  limits.overlap_min_mean_points = tuning.overlap_min_mean_points;
  limits.persistent_blocks = tuning.persistent_blocks;
  limits.max_persistent_blocks = tuning.max_persistent_blocks;
  limits.tensor_cores = tuning.tensor_cores;
  return limits;
}

template <int Dim, class Real>
void DeviceAssemblyState<Dim, Real>::number_points() {
  // The index arrays the numbering reads are those of the host mesh as built (maps move only
  // coordinates).
  mesh.number_points(host_mesh);
}

template <int Dim, class Real>
void DeviceAssemblyState<Dim, Real>::reset_first_bad() {
  static_assert(no_non_finite_value == ~0ull);
  POLYDG_CUDA_CHECK(cudaMemsetAsync(first_bad.data(), 0xFF, sizeof(unsigned long long)));
}

template <int Dim, class Real>
void DeviceAssemblyState<Dim, Real>::check_finite(const Real* value_data, const Real* rhs_data) {
  struct Target {
    const Real* data;
    GlobalIndex count;
    bool matrix;
  };
  const unsigned long long none = no_non_finite_value;
  for (const Target target : {Target{value_data, pattern.value_count(), true},
                              Target{rhs_data, pattern.dof_count(), false}}) {
    if (!target.data || target.count == 0) continue;
    if (!target.matrix) {
      reset_first_bad();
      const GlobalIndex blocks = std::min<GlobalIndex>((target.count + 255) / 256, 4096);
      first_non_finite_kernel<<<static_cast<unsigned>(blocks), 256>>>(target.data, target.count,
                                                                      first_bad.data());
      POLYDG_CUDA_CHECK_LAUNCH("first_non_finite_kernel");
    }
    unsigned long long first = none;
    copy_device_to_host(&first, first_bad.data(), sizeof first);
    if (first == none) continue;
    const BlockPattern& host = *host_pattern();
    const Index element = target.matrix ? host.block_row(host.block_of_value(GlobalIndex(first)))
                                        : host.block_row_of_dof(GlobalIndex(first));
    raise("DeviceAssembler: the assembled ", target.matrix ? "matrix" : "rhs",
          " has a non-finite entry (index ", first, ") in the block row of element ", element,
          ": a coefficient or boundary datum is not finite (NaN or infinite) on element ", element,
          " or one of its faces");
  }
}

template struct DeviceAssemblyState<2, double>;
template struct DeviceAssemblyState<3, double>;
template struct DeviceAssemblyState<2, float>;
template struct DeviceAssemblyState<3, float>;

}  // namespace device::detail

template <int Dim, class Real>
DeviceAssembler<Dim, Real>::DeviceAssembler(const PolytopicMesh<Dim>& mesh,
                                            const BoundaryConditions& conditions,
                                            const AssemblyOptions& options,
                                            const DeviceAssemblyOptions& device_options)
    : DeviceAssembler(
          QuadratureMesh<Dim>(mesh, conditions, device::detail::checked(options).pieces), options,
          device_options) {}

template <int Dim, class Real>
DeviceAssembler<Dim, Real>::DeviceAssembler(QuadratureMesh<Dim> quadrature_mesh,
                                            const AssemblyOptions& options,
                                            const DeviceAssemblyOptions& device_options)
    : state_(std::make_unique<device::detail::DeviceAssemblyState<Dim, Real>>(
          std::move(quadrature_mesh), options, device_options)) {}

template <int Dim, class Real>
DeviceAssembler<Dim, Real>::~DeviceAssembler() = default;
template <int Dim, class Real>
DeviceAssembler<Dim, Real>::DeviceAssembler(DeviceAssembler&&) noexcept = default;
template <int Dim, class Real>
DeviceAssembler<Dim, Real>& DeviceAssembler<Dim, Real>::operator=(DeviceAssembler&&) noexcept =
    default;

template <int Dim, class Real>
void DeviceAssembler<Dim, Real>::map_last_coordinate(double from_begin, double from_end,
                                                     double to_begin, double to_end) {
  device::detail::DeviceAssemblyState<Dim, Real>& s = *state_;
  const LastCoordinateMap map(from_begin, from_end, to_begin, to_end);
  if (!s.last_axis_checked) {  // the normals do not change: once is enough
    check_last_axis_facets(s.host_mesh);
    s.last_axis_checked = true;
  }
  s.mesh.map_last_coordinate(map);
  // The composed map the host mesh owes: where two fixed times, its interval's ends when the
  // first pending map was given, have gone.
  if (!s.host_map_pending) {
    s.host_map = map;
  } else {
    s.host_map = LastCoordinateMap(s.host_map.from_begin, s.host_map.from_end,
                                   map(s.host_map.to_begin), map(s.host_map.to_end));
  }
  s.host_map_pending = true;
}

template <int Dim, class Real>
std::vector<Point<Dim>> DeviceAssembler<Dim, Real>::quadrature_points(PointKind kind) const {
  device::DeviceBuffer<Point<Dim>> points(std::size_t(point_count(kind)));
  fill_point_values(
      *this, kind, [] __device__(const Point<Dim>& x) { return x; }, points.data());
  return points.to_host();
}

template <int Dim, class Real>
std::vector<Point<Dim>> DeviceAssembler<Dim, Real>::boundary_point_normals() const {
  device::DeviceBuffer<Point<Dim>> normals(std::size_t(point_count(PointKind::boundary)));
  fill_point_values(
      *this, PointKind::boundary,
      [] __device__(const Point<Dim>&, const Point<Dim>& normal) { return normal; },
      normals.data());
  return normals.to_host();
}

template <int Dim, class Real>
GlobalIndex DeviceAssembler<Dim, Real>::point_count(PointKind kind) const {
  state_->number_points();
  return state_->mesh.point_count(kind);
}

template <int Dim, class Real>
const QuadratureMesh<Dim>& DeviceAssembler<Dim, Real>::quadrature_mesh() const {
  return state_->quadrature_mesh();
}
template <int Dim, class Real>
const DeviceQuadratureMesh<Dim>& DeviceAssembler<Dim, Real>::device_mesh() const {
  return state_->mesh;
}
template <int Dim, class Real>
const DeviceBlockPattern& DeviceAssembler<Dim, Real>::pattern() const {
  return state_->pattern;
}
template <int Dim, class Real>
const std::vector<Index>& DeviceAssembler<Dim, Real>::block_sizes() const {
  return state_->block_sizes;
}
template <int Dim, class Real>
const AssemblyOptions& DeviceAssembler<Dim, Real>::options() const {
  return state_->options;
}
template <int Dim, class Real>
const DeviceAssemblyOptions& DeviceAssembler<Dim, Real>::device_options() const {
  return state_->device_options;
}
template <int Dim, class Real>
Real* DeviceAssembler<Dim, Real>::values() {
  return state_->values.data();
}
template <int Dim, class Real>
const Real* DeviceAssembler<Dim, Real>::values() const {
  return state_->values.data();
}
template <int Dim, class Real>
Real* DeviceAssembler<Dim, Real>::rhs() {
  return state_->rhs.data();
}
template <int Dim, class Real>
const Real* DeviceAssembler<Dim, Real>::rhs() const {
  return state_->rhs.data();
}

template <int Dim, class Real>
DeviceAssemblyTimings DeviceAssembler<Dim, Real>::last_timings() const {
  const auto& events = state_->events;
  require(events != nullptr, "DeviceAssembler::last_timings: record_timings is off");
  using namespace device::detail;
  return {events->seconds(zero_phase),     events->seconds(ranges_phase),
          events->seconds(element_phase),  events->seconds(interior_phase),
          events->seconds(boundary_phase), events->seconds(check_phase)};
}
template <int Dim, class Real>
DeviceAssemblyTensorCoreLaunches DeviceAssembler<Dim, Real>::last_tensor_core_launches() const {
  return state_->tensor_core_launches;
}

template <int Dim, class Real>
std::vector<Real> DeviceAssembler<Dim, Real>::values_to_host() const {
  return state_->values.to_host();
}
template <int Dim, class Real>
std::vector<Real> DeviceAssembler<Dim, Real>::rhs_to_host() const {
  return state_->rhs.to_host();
}
template <int Dim, class Real>
void DeviceAssembler<Dim, Real>::copy_to_host(BlockMatrix<Real>& matrix,
                                              std::span<Real> rhs) const {
  require(GlobalIndex(matrix.values().size()) == state_->pattern.value_count(),
          "DeviceAssembler::copy_to_host: a matrix of ", matrix.values().size(), " values for ",
          state_->pattern.value_count());
  device::copy_device_to_host(matrix.values().data(), state_->values.data(),
                              matrix.values().size_bytes());
  if (!rhs.empty()) copy_rhs_to_host(rhs);
}
template <int Dim, class Real>
void DeviceAssembler<Dim, Real>::copy_rhs_to_host(std::span<Real> rhs) const {
  require(GlobalIndex(rhs.size()) == state_->pattern.dof_count(),
          "DeviceAssembler::copy_rhs_to_host: rhs of ", rhs.size(), " entries for ",
          state_->pattern.dof_count(), " unknowns");
  device::copy_device_to_host(rhs.data(), state_->rhs.data(), rhs.size_bytes());
}
template <int Dim, class Real>
BlockMatrix<Real> DeviceAssembler<Dim, Real>::make_host_matrix() const {
  return BlockMatrix<Real>(host_pattern());
}
template <int Dim, class Real>
const std::shared_ptr<const BlockPattern>& DeviceAssembler<Dim, Real>::host_pattern() const {
  return state_->host_pattern();
}

template class DeviceAssembler<2, double>;
template class DeviceAssembler<3, double>;
template class DeviceAssembler<2, float>;
template class DeviceAssembler<3, float>;

}  // namespace polydg
