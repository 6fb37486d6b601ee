#pragma once
// What a DeviceAssembler (polydg/dg/device_assembler.hpp) holds, whatever the coefficients: the
// host quadrature mesh, its device copy, the pattern, the values and rhs, the penalty's
// diffusion ranges, the interface scratch of the deterministic mode, the finite check's flag,
// the phase events and the side stream. libpolydg compiles all of it (kernels/dg/
// device_assembler.cu, Dim 2 and 3, float and double); the assembly itself, which depends on
// the coefficients, is in polydg/cuda/device_assembler.cuh.
//
// An assembly is, in this order: zero the rhs; the diffusion ranges (filled once for a constant
// A); the element kernel (it overwrites the diagonal blocks, and the interior-face kernel the
// off-diagonal ones: the matrix is never zeroed); boundary faces; interior faces (+ gather);
// and, unless disabled, the check that every assembled entry is finite. All on the default
// stream but, in the deterministic mode on meshes of low degree, the interior-face kernels:
// they write blocks of their own, and run on a second stream beside the element and boundary
// kernels, the gather waiting for all (LaunchTuning::overlap_interior_faces_max_degree).
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/core/stream_fork.cuh"
#include "polydg/detail/dg/device_diffusion_ranges.cuh"
#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/interior_face_kernel.cuh"
#include "polydg/detail/dg/tiled_point_schedule.cuh"
#include "polydg/dg/device_assembler.hpp"

namespace polydg::device::detail {

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

/// The phases of an assembly, in the order of DeviceAssemblyTimings.
enum AssemblyPhase {
  zero_phase,
  ranges_phase,
  element_phase,
  interior_phase,
  boundary_phase,
  check_phase,
  assembly_phases
};

inline InterfaceWriteMode interface_write_mode(FaceWriteMode mode) {
  return mode == FaceWriteMode::atomic ? InterfaceWriteMode::atomic
                                       : InterfaceWriteMode::deterministic;
}

template <int Dim, class Real>
struct DeviceAssemblyState {
  /// The host mesh (options applied: space, penalty scaling), then its device copy, the pattern
  /// (built on the device from the device mesh's arrays) and the buffers.
  DeviceAssemblyState(QuadratureMesh<Dim> quadrature_mesh, const AssemblyOptions& options,
                      const DeviceAssemblyOptions& device_options);

  /// The host mesh with the maps the device geometry has had applied.
  const QuadratureMesh<Dim>& quadrature_mesh() const;
  const std::shared_ptr<const BlockPattern>& host_pattern() const;
  LaunchLimits launch_limits() const;
  /// Numbers the quadrature points (DeviceQuadratureMesh::number_points), once.
  void number_points();
  /// first_bad = no_non_finite_value, on the default stream as the kernels.
  void reset_first_bad();
  /// Raises, naming the element, when a value or rhs entry is not finite: the values as the
  /// kernels noted them, the rhs by a pass over it. Synchronizes.
  void check_finite(const Real* values, const Real* rhs);
  void begin(AssemblyPhase phase, cudaStream_t stream = nullptr) {
    if (events) events->begin(phase, stream);
  }
  void end(AssemblyPhase phase, cudaStream_t stream = nullptr) {
    if (events) events->end(phase, stream);
  }

  // Mutable: quadrature_mesh() applies the maps the device geometry has had (host_map).
  mutable QuadratureMesh<Dim> host_mesh;
  mutable bool host_map_pending = false;
  LastCoordinateMap host_map;
  bool last_axis_checked = false;
  AssemblyOptions options;
  DeviceAssemblyOptions device_options;
  DeviceQuadratureMesh<Dim> mesh;
  std::vector<Index> block_sizes;
  DeviceBlockPattern pattern;
  DeviceBuffer<Real> values, rhs;
  DeviceDiffusionRanges<Dim> diffusion_ranges;
  DeviceBuffer<unsigned long long> first_bad;
  InterfaceScratch<Real> scratch;
  InteriorFaceWorkspace<Dim> interface_workspace;
  std::unique_ptr<PhaseEvents> events;
  DeviceAssemblyTensorCoreLaunches tensor_core_launches;  ///< of the last assembly
  std::unique_ptr<StreamFork> interface_fork;             ///< overlap_interior_faces_max_degree
  mutable std::shared_ptr<const BlockPattern> host_pattern_cache;
};

extern template struct DeviceAssemblyState<2, double>;
extern template struct DeviceAssemblyState<3, double>;
extern template struct DeviceAssemblyState<2, float>;
extern template struct DeviceAssemblyState<3, float>;

}  // namespace polydg::device::detail
