#pragma once
/// DeviceAssembler: the IP-DG assembly on the GPU, beside the CPU reference Assembler
/// (assembler.hpp) and with its contract: built once per mesh and boundary conditions, then
/// every assemble call recomputes values only (no allocation). The matrix values and the rhs
/// live in device memory until asked for.
///
///   polydg::DeviceAssembler<2> assembler(mesh, conditions, options);   // pattern on the GPU
///   assembler.assemble(coefficients);
///   assembler.copy_to_host(matrix, rhs);       // or values() for AijMatrix::update_from_device
///
/// Plain C++: libpolydg compiles the kernels for its own coefficient types, so a program that
/// assembles with them needs no nvcc —
///   * PointCoefficients<Dim> (point_coefficients.hpp): values at the quadrature points, e.g.
///     from DevicePointCoefficients, which evaluates host functions there;
///   * SpaceTimePointCoefficients (space_time_coefficients.hpp) on 2D+1 slabs (Dim = 3);
///   * Coefficients whose members are all Constant (make_coefficients().with_diffusion(1.0) ...),
///     plain or space-time: assembled as point coefficients without arrays.
/// Real = double. Other types — a user's __host__ __device__ functors, float — take the
/// template path: include polydg/cuda/device_assembler.cuh in a .cu compiled by nvcc with the
/// flags of the polydg::cuda target (--extended-lambda); it compiles the kernels for them.
///
/// Write modes (FaceWriteMode): deterministic (default) gives the same bits on every run and
/// launch configuration; atomic adds the interface contributions to the diagonal blocks with
/// atomics. Both agree with the CPU Assembler to rounding (≤ 1e-13 relative in the tests).
///
/// Errors: polydg::Error for what Assembler rejects, any CUDA failure (out of memory names the
/// size asked for and the memory free), and — after the assembly, the kernels cannot throw — a
/// non-finite assembled entry, naming the element whose block row or rhs holds it.
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/detail/dg/device_launch_tuning.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/point_coefficients.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {

/// How the interior-face kernels write the diagonal blocks they share.
enum class FaceWriteMode { deterministic, atomic };

struct DeviceAssemblyOptions {
  FaceWriteMode write_mode = FaceWriteMode::deterministic;
  /// Check after each assembly that every assembled entry is finite: the kernels note the first
  /// non-finite value they store, the rhs is read once, and one index comes back to the host.
  bool check_finite = true;
  /// Record CUDA events between the phases so last_timings() can report them.
  bool record_timings = false;
  /// The kernels' launch configuration: internal, for tests and benchmarks (the results do not
  /// depend on it; device_launch_tuning.hpp).
  device::detail::LaunchTuning tuning;
};

/// Seconds of the phases of the last assembly (record_timings), measured with CUDA events. Where
/// the interior faces run beside the elements' and boundaries' kernels (P_1), their phase
/// overlaps those.
struct DeviceAssemblyTimings {
  double zero = 0, diffusion_ranges = 0, elements = 0, interior_faces = 0, boundary_faces = 0,
         finite_check = 0;
};

/// Of the last assembly: how many of each phase's launches multiplied on the FP64 tensor cores.
struct DeviceAssemblyTensorCoreLaunches {
  int elements = 0, interior_faces = 0, boundary_faces = 0;
};

template <int Dim>
class DeviceQuadratureMesh;
namespace device::detail {
template <int Dim, class Real>
struct DeviceAssemblyState;
}

template <int Dim, class Real = double>
class DeviceAssembler {
 public:
  DeviceAssembler(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                  const AssemblyOptions& options = {},
                  const DeviceAssemblyOptions& device_options = {});
  /// From a quadrature mesh the caller built, QuadratureMesh(mesh, conditions, options.pieces)
  /// (e.g. timed apart); its space and penalty scaling are set from `options`. Throws
  /// polydg::Error when its pieces are not options.pieces.
  explicit DeviceAssembler(QuadratureMesh<Dim> quadrature_mesh, const AssemblyOptions& options = {},
                           const DeviceAssemblyOptions& device_options = {});
  ~DeviceAssembler();
  DeviceAssembler(DeviceAssembler&&) noexcept;
  DeviceAssembler& operator=(DeviceAssembler&&) noexcept;

  /// Overwrites the matrix values and the rhs.
  template <class Coefficients>
  void assemble(const Coefficients& coefficients) {
    dispatch(coefficients, true, true);
  }
  /// Overwrites the matrix values only.
  template <class Coefficients>
  void assemble_matrix(const Coefficients& coefficients) {
    dispatch(coefficients, true, false);
  }
  /// Overwrites the rhs only.
  template <class Coefficients>
  void assemble_rhs(const Coefficients& coefficients) {
    dispatch(coefficients, false, true);
  }
  /// Adds ∫ value φ_i over the previous_slab facets to the rhs (after assemble or assemble_rhs):
  /// the space-time coupling term. value: PointValues<double> at the boundary points
  /// (precompiled), or, on the template path, value(e, x) → double callable on the device.
  template <class Value>
  void add_previous_slab_term(const Value& value);

  /// As Assembler::map_last_coordinate, on the device: a kernel maps the device geometry in
  /// place. The host mesh follows when quadrature_mesh() is next called. Throws polydg::Error
  /// for an empty interval or (first call) oblique facets.
  void map_last_coordinate(double from_begin, double from_end, double to_begin, double to_end);

  /// The quadrature points of a kind in their numbering (PointIndex), with the current geometry:
  /// where point-indexed coefficients are evaluated. The first call numbers them (uploads an
  /// offset per piece).
  std::vector<Point<Dim>> quadrature_points(PointKind kind) const;
  /// The outward unit normals at the boundary points, in the same numbering.
  std::vector<Point<Dim>> boundary_point_normals() const;
  GlobalIndex point_count(PointKind kind) const;

  /// The host copy of the quadrature mesh, with the geometry the device has (after
  /// map_last_coordinate it is mapped here on the next call). Not for concurrent use with
  /// map_last_coordinate.
  const QuadratureMesh<Dim>& quadrature_mesh() const;
  const DeviceQuadratureMesh<Dim>& device_mesh() const;
  const DeviceBlockPattern& pattern() const;
  /// N_e per element (host copy of the pattern's block sizes).
  const std::vector<Index>& block_sizes() const;
  const AssemblyOptions& options() const;
  const DeviceAssemblyOptions& device_options() const;
  /// The matrix values (pattern().value_count(), block order of the pattern) and the rhs
  /// (pattern().dof_count()), in device memory.
  Real* values();
  const Real* values() const;
  Real* rhs();
  const Real* rhs() const;

  /// Phase times of the last assembly (record_timings must be set). Synchronizes.
  DeviceAssemblyTimings last_timings() const;
  /// Which phases of the last assembly ran on the FP64 tensor cores, and in how many launches.
  DeviceAssemblyTensorCoreLaunches last_tensor_core_launches() const;

  std::vector<Real> values_to_host() const;
  std::vector<Real> rhs_to_host() const;
  /// Copies the values into `matrix` (a BlockMatrix on the CPU pattern of the same mesh, e.g.
  /// make_host_matrix()) and, when not empty, the rhs into `rhs`.
  void copy_to_host(BlockMatrix<Real>& matrix, std::span<Real> rhs = {}) const;
  /// Copies the rhs into `rhs` (pattern().dof_count() entries, host memory).
  void copy_rhs_to_host(std::span<Real> rhs) const;
  /// A zero BlockMatrix on the CPU copy of the pattern (built on the host on first use).
  BlockMatrix<Real> make_host_matrix() const;
  const std::shared_ptr<const BlockPattern>& host_pattern() const;

  /// Whether libpolydg has the kernels for this coefficient type compiled (the plain C++ path).
  template <class Coefficients>
  static constexpr bool precompiled = std::is_same_v<Real, double> &&
                                      (std::is_same_v<Coefficients, PointCoefficients<Dim>> ||
                                       (Dim == 3 &&
                                        std::is_same_v<Coefficients, SpaceTimePointCoefficients>));

  /// The internal state (device mesh, pattern, buffers): for the template path and tests.
  device::detail::DeviceAssemblyState<Dim, Real>& state() { return *state_; }
  const device::detail::DeviceAssemblyState<Dim, Real>& state() const { return *state_; }

 private:
  template <class Coefficients>
  void dispatch(const Coefficients& coefficients, bool matrix, bool rhs) {
    if constexpr (requires { as_point_coefficients(coefficients); }) {
      run(as_point_coefficients(coefficients), matrix, rhs);
    } else {
#if !defined(__CUDACC__)
      static_assert(precompiled<Coefficients>,
                    "DeviceAssembler: libpolydg has no kernels compiled for this coefficient "
                    "type (its own: PointCoefficients, SpaceTimePointCoefficients, constants; "
                    "double). Assemble a user's functors in a .cu file that includes "
                    "polydg/cuda/device_assembler.cuh.");
#endif
      run(coefficients, matrix, rhs);
    }
  }
  /// Defined in polydg/cuda/device_assembler.cuh; libpolydg instantiates it for its own types.
  template <class Coefficients>
  void run(const Coefficients& coefficients, bool matrix, bool rhs);

  std::unique_ptr<device::detail::DeviceAssemblyState<Dim, Real>> state_;
};

// The instantiations libpolydg compiles (kernels/dg/assemble_*.cu).
extern template class DeviceAssembler<2, double>;
extern template class DeviceAssembler<3, double>;
extern template class DeviceAssembler<2, float>;
extern template class DeviceAssembler<3, float>;
extern template void DeviceAssembler<2, double>::run(const PointCoefficients<2>&, bool, bool);
extern template void DeviceAssembler<3, double>::run(const PointCoefficients<3>&, bool, bool);
extern template void DeviceAssembler<3, double>::run(const SpaceTimePointCoefficients&, bool, bool);
extern template void DeviceAssembler<3, double>::add_previous_slab_term(const PointValues<double>&);

}  // namespace polydg
