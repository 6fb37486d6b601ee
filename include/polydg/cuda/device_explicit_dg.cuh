#pragma once
/// The GPU backend of the explicit modal DG solver on triangles (docs/theory.md, "Explicit path
/// for conservation laws"). DeviceExplicitTriangleDG mirrors ExplicitTriangleDG
/// (polydg/hyperbolic/explicit_dg.hpp): the same geometry and reference tables, uploaded once,
/// in the same layouts (coefficients element-fastest, fluxes facet-indexed), and the same
/// POLYDG_HD physics. DeviceTimeStepper mirrors TimeStepper (explicit_time_stepping.hpp) with
/// the coefficients on the device. The template path: the Law and the boundary functor are user
/// types, so include this from a .cu file compiled with the polydg::cuda target's flags.
///
///   using namespace polydg::hyperbolic;
///   ExplicitTriangleDG dg(mesh, 3, LinearAdvection{RotatingVelocity{{}, 2 * pi}});
///   DeviceExplicitTriangleDG device_dg(dg);           // dg is not referenced afterwards
///   auto u = device_dg.upload(dg.project(initial));
///   DeviceTimeStepper(device_dg, TimeScheme::rk4).advance(u, 0.0, 1.0, boundary, 0.5);
///   std::vector<double> result = device_dg.download(u);
///
/// Kernels (polydg/detail/hyperbolic/device_explicit_kernels.cuh): per Runge–Kutta stage, one
/// thread per facet writes the LLF fluxes into the facet-indexed scratch, then one thread per
/// element computes the volume term and gathers its three facets' fluxes. For p ≤ 4
/// (DeviceResidualKernels::fixed_degree) these loops have compile-time sizes; where an element
/// has few coefficients (m·N ≤ 12: Euler p = 1, scalar laws p ≤ 3; fuses_stage_update()) the
/// element kernel also applies the stage update, so the residual never goes through memory, and
/// at a step's last stage it reduces the next step's wave speed from the new coefficients while
/// they are in registers; with more coefficients a pointwise update kernel and a wave-speed
/// kernel follow it, which measured faster (the kernels' header gives the numbers). Above
/// p = 4, or on request (DeviceResidualKernels::generic), explicit_dg.hpp's facet_flux_kernel
/// and element_residual_kernel run as they are, with the update and the wave speed in kernels
/// of their own; kernels() says which path runs. No atomics: each value is written by one
/// thread and the reductions are max / min, so runs are bitwise reproducible. Against the CPU:
/// equal to rounding (nvcc contracts a·b + c to fused multiply-adds), not bit for bit.
///
/// Synchronisation: everything runs on the default stream. max_wave_speed, stable_time_step and
/// advance wait for the device — advance once per step, for 16 bytes (the wave speed and the
/// first non-physical point): the host needs Δt to land on t_end and must report a non-physical
/// state before the next step, as the CPU does (a stage limiter called as a function may wait
/// more often: DevicePositivityFix does once per call; passed as it is, it does not). residual,
/// step and make_vector do not wait; upload and download copy as DeviceBuffer does (the host data
/// is free when they return).
///
/// Checks (polydg::Error): vector sizes; a non-positive CFL number; a state that is not physical
/// (Law::is_physical) at a volume quadrature point, in max_wave_speed, stable_time_step and
/// advance, naming the time, the element, the point and the state as ExplicitTriangleDG does.
/// advance checks the new coefficients after every step but the last — where the CPU's next
/// stable_time_step checks them — in the kernel that reduces the next Δt's wave speed. Law and
/// Boundary are copied into the kernels by value: trivially copyable, with POLYDG_HD members.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/hyperbolic/device_explicit_kernels.cuh"
#include "polydg/detail/hyperbolic/device_explicit_solver_base.cuh"
#include "polydg/detail/hyperbolic/wave_speed_reduction.cuh"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::hyperbolic {

/// Which kernels compute the residual on the device (the file comment).
enum class DeviceResidualKernels {
  /// For p ≤ 4: basis size and edge points as compile-time constants (per-thread arrays in
  /// registers); for m·N ≤ 12 the stage update and the next wave speed fused into the element
  /// kernel. Above p = 4 the generic kernels run instead.
  fixed_degree,
  /// Any p: explicit_dg.hpp's facet_flux_kernel and element_residual_kernel as they are
  /// (run-time sizes, per-thread arrays in local memory), the residual into a scratch vector,
  /// then the update and the wave speed in kernels of their own.
  generic,
};

/// The default stage limiter of DeviceTimeStepper: nothing (and no code), as TimeStepper's
/// NoStageLimiter.
struct NoDeviceStageLimiter {
  void operator()(device::DeviceBuffer<double>&) const {}
};

/// Post-processes a stage's coefficients on the device in place (DeviceTimeStepper; the device
/// limiters are in polydg/cuda/device_stage_limiters.cuh). A device vector rather than a span:
/// a host limiter handed device memory does not compile.
template <class Limiter>
concept DeviceStageLimiter = requires(Limiter& limiter, device::DeviceBuffer<double>& v) {
  limiter(v);
};

/// A stage limiter that DeviceTimeStepper can run without waiting for the device:
/// launch(v, partials) limits v in place, asynchronously, and with partials.speed also reduces
/// the wave speed of the limited v per block in the same kernel (returning the block count);
/// check(), called after the stepper has waited for the device, throws what the launches since
/// the last check found (DevicePositivityFix in polydg/cuda/device_stage_limiters.cuh).
template <class Limiter>
concept DeviceDeferredStageLimiter = DeviceStageLimiter<Limiter> &&
    requires(const Limiter& limiter, device::DeviceBuffer<double>& v,
             const detail::WaveSpeedPartials& partials) {
  { limiter.launch(v, partials) } -> std::same_as<int>;
  limiter.check();
};

/// What DeviceTimeStepper::advance reports after each step to its observer.
struct StepReport {
  long step = 0;    ///< steps taken so far in this call, this one included
  double time = 0;  ///< the time reached
  double step_size = 0;
};

/// The default observer of DeviceTimeStepper::advance: go on to the end.
struct ToTheEnd {
  bool operator()(const StepReport&) const { return true; }
};

template <class Discretisation, DeviceStageLimiter Limiter = NoDeviceStageLimiter>
class DeviceTimeStepper;

template <class DeviceLocal>
class DistributedDeviceExplicitDG;

template <ConservationLaw Law>
class DeviceExplicitTriangleDG
    : public detail::DeviceExplicitSolverBase<DeviceExplicitTriangleDG<Law>> {
  static_assert(std::is_trivially_copyable_v<Law>,
                "DeviceExplicitTriangleDG: the Law is copied into the kernels by value, so it "
                "must be trivially copyable");
  using Base = detail::DeviceExplicitSolverBase<DeviceExplicitTriangleDG<Law>>;
  friend Base;

 public:
  static constexpr int variables = Law::variables;
  static constexpr const char* name = "DeviceExplicitTriangleDG";
  using Vector = device::DeviceBuffer<double>;
  // make_vector, upload, download, max_wave_speed, stable_time_step, time_step_for_speed:
  // DeviceExplicitSolverBase.

  /// Uploads dg's geometry and reference tables and allocates the flux scratch; dg may go
  /// afterwards. Throws polydg::Error as the device allocations do (no device, out of memory).
  explicit DeviceExplicitTriangleDG(
      const ExplicitTriangleDG<Law>& dg,
      DeviceResidualKernels kernels = DeviceResidualKernels::fixed_degree)
      : law_(dg.law()),
        degree_(dg.degree()),
        tables_(dg.tables()),
        min_size_(dg.geometry().min_size),
        kernels_(degree_ <= detail::largest_fixed_degree ? kernels
                                                         : DeviceResidualKernels::generic),
        arrays_(dg.geometry(), dg.tables()),
        view_(arrays_.view(dg.geometry(), dg.tables())),
        flux_(std::size_t(variables) * tables_.edge_point_count * std::size_t(view_.facets)),
        wave_speed_(blocks_for(view_.elements, detail::element_block_size)) {
    // The reductions' partials fit both launch shapes (element and reduction blocks).
    static_assert(detail::element_block_size <= detail::reduction_block_size);
    if (!fuses_stage_update()) rate_ = Vector(coefficient_count());
  }

  /// The same from the mesh: ExplicitTriangleDG(mesh, degree, law)'s checks (degree range, a
  /// mesh with cells), then the upload.
  DeviceExplicitTriangleDG(const SimplexMesh<2>& mesh, int degree, Law law = {},
                           DeviceResidualKernels kernels = DeviceResidualKernels::fixed_degree)
      : DeviceExplicitTriangleDG(ExplicitTriangleDG<Law>(mesh, degree, law), kernels) {}

  const Law& law() const { return law_; }
  int degree() const { return degree_; }
  int basis_size() const { return tables_.basis_size; }
  Index element_count() const { return view_.elements; }
  Index facet_count() const { return view_.facets; }
  /// The kernels that run (fixed_degree asked for above p = 4 gives generic).
  DeviceResidualKernels kernels() const { return kernels_; }
  /// Whether the element kernel applies the Runge–Kutta stage update and reduces the next wave
  /// speed itself (fixed-degree kernels with m·N ≤ 12; the file comment).
  bool fuses_stage_update() const {
    // The run-time form of detail::fuses_stage_update<Law, p>, which picks the kernel.
    return kernels_ == DeviceResidualKernels::fixed_degree &&
           variables * basis_size() <= detail::largest_fused_update_size;
  }
  /// m · N · element_count.
  std::size_t coefficient_count() const {
    return std::size_t(variables) * basis_size() * std::size_t(element_count());
  }
  /// Position of mode i of variable v of element c (element-fastest, as on the CPU).
  std::size_t coefficient_index(Index c, int v, int i) const { return view_.coefficient(c, v, i); }
  /// The kernels' view: explicit_dg.hpp's ResidualView with device pointers.
  const ResidualView& view() const { return view_; }
  /// The facet fluxes of the last residual or stage, flux[(v · Q + q) · facet_count + f].
  const Vector& facet_fluxes() const { return flux_; }

  /// r = R(u) at time t, as ExplicitTriangleDG::residual. Uses the object's flux scratch: one
  /// residual (or stepper) at a time per object. Does not wait for the device.
  template <BoundaryCondition<Law> Boundary>
  void residual(const Vector& u, double t, const Boundary& boundary, Vector& r) {
    require(u.size() == coefficient_count() && r.size() == coefficient_count(),
            "DeviceExplicitTriangleDG::residual: vectors of ", u.size(), " and ", r.size(),
            " coefficients, expected ", coefficient_count());
    detail::StageUpdate update;
    update.out = r.data();
    run_stage(u.data(), t, boundary, update, {});
  }

 private:
  // The stage interface below is theirs.
  template <class, DeviceStageLimiter>
  friend class DeviceTimeStepper;
  template <class>
  friend class DistributedDeviceExplicitDG;

  /// The device copies of TriangleGeometry's and ReferenceTables' arrays (TriangleGeometry::size
  /// stays on the host: only its minimum is used).
  struct Arrays {
    device::DeviceBuffer<double> origin, jacobian, inverse_jacobian, determinant;
    device::DeviceBuffer<Index> element_facet;
    device::DeviceBuffer<signed char> element_facet_side;
    device::DeviceBuffer<Index> facet_element;
    device::DeviceBuffer<signed char> facet_local_edge, facet_orientation;
    device::DeviceBuffer<double> facet_origin, facet_tangent, facet_length, facet_normal;
    device::DeviceBuffer<int> facet_tag;
    device::DeviceBuffer<double> volume_points, volume_weights, volume_values, volume_gradients;
    device::DeviceBuffer<double> edge_parameters, edge_weights, edge_values;

    Arrays(const TriangleGeometry& g, const ReferenceTables& t)
        : origin(std::span<const double>(g.origin)),
          jacobian(std::span<const double>(g.jacobian)),
          inverse_jacobian(std::span<const double>(g.inverse_jacobian)),
          determinant(std::span<const double>(g.determinant)),
          element_facet(std::span<const Index>(g.element_facet)),
          element_facet_side(std::span<const signed char>(g.element_facet_side)),
          facet_element(std::span<const Index>(g.facet_element)),
          facet_local_edge(std::span<const signed char>(g.facet_local_edge)),
          facet_orientation(std::span<const signed char>(g.facet_orientation)),
          facet_origin(std::span<const double>(g.facet_origin)),
          facet_tangent(std::span<const double>(g.facet_tangent)),
          facet_length(std::span<const double>(g.facet_length)),
          facet_normal(std::span<const double>(g.facet_normal)),
          facet_tag(std::span<const int>(g.facet_tag)),
          volume_points(std::span<const double>(t.volume_points)),
          volume_weights(std::span<const double>(t.volume_weights)),
          volume_values(std::span<const double>(t.volume_values)),
          volume_gradients(std::span<const double>(t.volume_gradients)),
          edge_parameters(std::span<const double>(t.edge_parameters)),
          edge_weights(std::span<const double>(t.edge_weights)),
          edge_values(std::span<const double>(t.edge_values)) {}

    /// ExplicitTriangleDG::view() with these arrays' pointers.
    ResidualView view(const TriangleGeometry& g, const ReferenceTables& t) const {
      return {g.element_count,
              g.facet_count,
              t.basis_size,
              t.volume_point_count,
              t.edge_point_count,
              origin.data(),
              jacobian.data(),
              inverse_jacobian.data(),
              determinant.data(),
              element_facet.data(),
              element_facet_side.data(),
              facet_element.data(),
              facet_local_edge.data(),
              facet_orientation.data(),
              facet_origin.data(),
              facet_tangent.data(),
              facet_length.data(),
              facet_normal.data(),
              facet_tag.data(),
              volume_points.data(),
              volume_weights.data(),
              volume_values.data(),
              volume_gradients.data(),
              edge_parameters.data(),
              edge_weights.data(),
              edge_values.data()};
    }
  };

  using Base::blocks_for;
  using Base::check_cfl;
  using Base::require_size;
  double min_size() const { return min_size_; }

  detail::WaveSpeedPartials partials(double time) const { return wave_speed_.partials(time); }

  /// f(std::integral_constant<int, p>) for the run-time degree p ≤ largest_fixed_degree.
  template <class Function>
  static void with_fixed_degree(int degree, Function&& function) {
    static_assert(detail::largest_fixed_degree == 4, "one case per fixed degree below");
    switch (degree) {
      case 0:
        function(std::integral_constant<int, 0>{});
        break;
      case 1:
        function(std::integral_constant<int, 1>{});
        break;
      case 2:
        function(std::integral_constant<int, 2>{});
        break;
      case 3:
        function(std::integral_constant<int, 3>{});
        break;
      case 4:
        function(std::integral_constant<int, 4>{});
        break;
      default:
        raise("DeviceExplicitTriangleDG: no fixed-degree kernels for p = ", degree);
    }
  }

  /// The facet kernel of a residual at (u, t): the LLF fluxes of the selected facets (all by
  /// default) into the flux scratch. Asynchronous.
  template <class Boundary>
  void launch_facets(const double* u, double t, const Boundary& boundary,
                     const detail::FacetSelection& selection = {}) {
    static_assert(std::is_trivially_copyable_v<Boundary>,
                  "DeviceExplicitTriangleDG: the boundary functor is copied into the kernels by "
                  "value, so it must be trivially copyable");
    double* flux = flux_.data();
    const Index threads = selection.threads(view_.facets);
    if (threads == 0) return;
    const unsigned facet_blocks = blocks_for(threads, detail::facet_block_size);
    if (kernels_ == DeviceResidualKernels::fixed_degree) {
      with_fixed_degree(degree_, [&](auto fixed) {
        constexpr int p = decltype(fixed)::value;
        detail::fixed_degree_facet_kernel<p, Law, Boundary>
            <<<facet_blocks, detail::facet_block_size>>>(view_, law_, boundary, u, t, flux,
                                                         selection);
      });
      POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitTriangleDG fixed_degree_facet_kernel");
    } else {
      detail::generic_facet_kernel<Law, Boundary><<<facet_blocks, detail::facet_block_size>>>(
          view_, law_, boundary, u, t, flux, selection);
      POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitTriangleDG generic_facet_kernel");
    }
  }

  /// One residual evaluation at (u, t) and `update` applied to it; with partials.speed, also
  /// the wave speed of update.out at partials.time, reduced per block. Returns the number of
  /// blocks whose partials were written (0 without). facets_launched: launch_facets(u, t,
  /// boundary) has been called since the last stage. Asynchronous.
  template <class Boundary>
  int run_stage(const double* u, double t, const Boundary& boundary,
                const detail::StageUpdate& update, const detail::WaveSpeedPartials& partials,
                bool facets_launched = false) {
    if (!facets_launched) launch_facets(u, t, boundary);
    const double* flux = flux_.data();
    const unsigned element_blocks = blocks_for(view_.elements, detail::element_block_size);
    // Unfused, a plain residual goes straight to its target and a stage through rate_.
    const bool plain = update.kind == detail::StageUpdate::Kind::residual;
    double* residual_target = plain ? update.out : rate_.data();
    if (kernels_ == DeviceResidualKernels::fixed_degree) {
      with_fixed_degree(degree_, [&](auto fixed) {
        constexpr int p = decltype(fixed)::value;
        // Decided at compile time (fuses_stage_update() is the same test): one element kernel
        // per degree is compiled.
        if constexpr (detail::fuses_stage_update<Law, p>) {
          detail::fixed_degree_element_kernel<p, Law, true>
              <<<element_blocks, detail::element_block_size>>>(view_, law_, u, t, flux, update,
                                                               partials);
        } else {
          detail::StageUpdate residual_only;
          residual_only.out = residual_target;
          detail::fixed_degree_element_kernel<p, Law, false>
              <<<element_blocks, detail::element_block_size>>>(view_, law_, u, t, flux,
                                                               residual_only, {});
        }
        POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitTriangleDG fixed_degree_element_kernel");
      });
      if (fuses_stage_update()) return partials.speed ? int(element_blocks) : 0;
    } else {
      detail::generic_element_kernel<Law><<<element_blocks, detail::element_block_size>>>(
          view_, law_, u, t, flux, residual_target);
      POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitTriangleDG generic_element_kernel");
    }
    if (!plain) {
      const std::size_t count = coefficient_count();
      detail::stage_update_kernel<<<blocks_for(std::int64_t(count), detail::reduction_block_size),
                                    detail::reduction_block_size>>>(update, u, rate_.data(), count);
      POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitTriangleDG stage_update_kernel");
    }
    return partials.speed ? launch_wave_speed(update.out, partials.time) : 0;
  }

  /// The per-block partials of the wave speed of u at time t (fixed-degree or generic kernel,
  /// blocks of reduction_block_size); returns the block count. Asynchronous.
  int launch_wave_speed(const double* u, double t) const {
    const unsigned blocks = blocks_for(view_.elements, detail::reduction_block_size);
    if (kernels_ == DeviceResidualKernels::fixed_degree) {
      with_fixed_degree(degree_, [&](auto fixed) {
        constexpr int p = decltype(fixed)::value;
        detail::fixed_degree_wave_speed_kernel<p, Law>
            <<<blocks, detail::reduction_block_size>>>(view_, law_, u, partials(t));
      });
      POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitTriangleDG fixed_degree_wave_speed_kernel");
    } else {
      detail::wave_speed_kernel<<<blocks, detail::reduction_block_size>>>(view_, law_, u,
                                                                          partials(t));
      POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitTriangleDG wave_speed_kernel");
    }
    return int(blocks);
  }

  /// The last pass of the reduction over `blocks` partials, copied to the host (waits).
  detail::WaveSpeedResult finish_wave_speed(int blocks) const { return wave_speed_.finish(blocks); }
  /// finish_wave_speed's kernel and copy, without waiting; wait_for_wave_speed waits for them
  /// (and what came before them), not for work launched after.
  void launch_finish_wave_speed(int blocks) const { wave_speed_.launch_finish(blocks); }
  detail::WaveSpeedResult wait_for_wave_speed() const { return wave_speed_.wait(); }

  /// Throws polydg::Error for the non-physical state at bad_point = element · Q_v + q of the
  /// coefficients u (device) at time t: the element's coefficients and map are copied back
  /// entry by entry (an error path) and the point and state evaluated on the host, x as
  /// ResidualView::volume_point computes it.
  [[noreturn]] void report_non_physical(const double* u, double t, long long bad_point) const {
    const int points = tables_.volume_point_count;
    const Index c = Index(bad_point / points);
    const int q = int(bad_point % points);
    const int n = basis_size();
    const std::size_t k = std::size_t(element_count());
    std::vector<double> coefficients(std::size_t(variables) * n);
    for (int v = 0; v < variables; ++v)
      for (int i = 0; i < n; ++i)
        device::copy_device_to_host(&coefficients[std::size_t(v) * n + i],
                                    u + coefficient_index(c, v, i), sizeof(double));
    double origin[2], jacobian[4];
    for (int d = 0; d < 2; ++d)
      device::copy_device_to_host(&origin[d], arrays_.origin.data() + d * k + c, sizeof(double));
    for (int j = 0; j < 4; ++j)
      device::copy_device_to_host(&jacobian[j], arrays_.jacobian.data() + j * k + c,
                                  sizeof(double));
    const double r = tables_.volume_points[2 * q], s = tables_.volume_points[2 * q + 1];
    const Point<2> x{origin[0] + jacobian[0] * r + jacobian[1] * s,
                     origin[1] + jacobian[2] * r + jacobian[3] * s};
    std::string state = "(";
    for (int v = 0; v < variables; ++v) {
      double sum = 0;
      for (int i = 0; i < n; ++i)
        sum += coefficients[std::size_t(v) * n + i] * tables_.volume_values[std::size_t(q) * n + i];
      state += (v ? ", " : "") + polydg::detail::concatenate(sum);
    }
    raise("DeviceExplicitTriangleDG at t = ", t, ": the state ", state, ") at x = (", x[0], ", ",
          x[1], ") in element ", c,
          " is not physical (non-finite or outside the law's admissible states)");
  }

  Law law_;
  int degree_;
  ReferenceTables tables_;  // host copy: the error messages evaluate the basis
  double min_size_;
  DeviceResidualKernels kernels_;
  Arrays arrays_;
  ResidualView view_;
  Vector flux_;
  Vector rate_;  // where the update is not fused: R(u) before the stage update
  // Partials for blocks of either launch shape (element and reduction blocks).
  detail::WaveSpeedReduction wave_speed_;
};

/// TimeStepper on the device: the same schemes, stage times and formulas (StageUpdate in the
/// kernels' header), each stage one facet and one element kernel; u stays on the device. It
/// steps a DeviceExplicitTriangleDG, a DeviceExplicitPolygonDG
/// (polydg/cuda/device_explicit_polygon_dg.cuh) or either on a rank's part of a partitioned mesh
/// (DistributedDeviceExplicitDG, polydg/cuda/distributed_device_explicit_dg.cuh): all give it
/// the same private stage interface (run_stage, launch_facets, the wave-speed reduction), as
/// friends.
///
/// Stage limiter (optional), as TimeStepper's: a callable limiter(DeviceBuffer<double>& v)
/// applied in place to the result of every stage — each intermediate stage and the new
/// solution — e.g. the device Barth–Jespersen limiter and positivity fix
/// (polydg/cuda/device_stage_limiters.cuh):
///   const auto limit = [&](device::DeviceBuffer<double>& v) { limiter(v); positivity(v); };
///   DeviceTimeStepper stepper(device_dg, TimeScheme::ssp_rk2, limit);
/// The default, NoDeviceStageLimiter, is skipped at compile time: without a limiter the steps
/// launch the same kernels with the same arguments, bit for bit, as before the hook existed.
/// With one, the stage updates stay fused into the element kernel where they are (the limiter
/// acts on what the stage writes), but the next step's wave speed is not: it must be that of
/// the limited coefficients, so advance reduces it after the last limiter call — in the
/// limiter's own kernel for a DeviceDeferredStageLimiter (the device limiters passed as they
/// are), else in a kernel of its own. A deferred limiter also does not wait per stage: advance
/// has it report (check) after its one wait per step, step at its end. The data given to
/// step / advance is not limited first (TimeStepper's rule).
template <class Discretisation, DeviceStageLimiter Limiter>
class DeviceTimeStepper {
 public:
  using Law = discretisation_law<Discretisation>;
  using Vector = device::DeviceBuffer<double>;

  DeviceTimeStepper(Discretisation& dg, TimeScheme scheme, Limiter limiter = {})
      : dg_(dg),
        scheme_(scheme),
        limiter_(std::move(limiter)),
        stage_(dg.coefficient_count()),
        sum_(scheme == TimeScheme::rk4 ? dg.coefficient_count() : 0) {}

  const Limiter& stage_limiter() const { return limiter_; }

  /// One step of size dt from (u, t), in place; the stage limiter is applied to each stage and
  /// to the new u. Does not wait for the device, but for a limiter that does (a positivity fix
  /// called as a function), or once at the end to have a DeviceDeferredStageLimiter report.
  template <BoundaryCondition<Law> Boundary>
  void step(Vector& u, double t, double dt, const Boundary& boundary) {
    dg_.require_size(u.size(), "step");
    take_step(u, t, dt, boundary, std::nullopt, false);
    if constexpr (defers) {
      POLYDG_CUDA_CHECK(cudaStreamSynchronize(nullptr));
      limiter_.check();
    }
  }

  /// Steps from t_start to t_end with the CFL step of number `cfl`, as TimeStepper::advance
  /// (the same Δt, the last step shortened to land on t_end). Each step but the last also
  /// reduces the next step's wave speed and checks the new state (the file comment); waits for
  /// the device once per step. After each step, observer(StepReport) → bool may stop the march
  /// early by returning false (progress lines, a wall-clock limit; the statistics say where it
  /// stopped). The observer may read u (download) and use the solver on it at the reported
  /// time, e.g. its residual, but must not change u: the next step's first facet kernel has
  /// already been launched on it. Throws polydg::Error for t_end < t_start, a non-positive cfl or a
  /// state that is not physical, and as the stage limiter throws.
  template <BoundaryCondition<Law> Boundary, class Observer = ToTheEnd>
  TimeSteppingStatistics advance(Vector& u, double t_start, double t_end, const Boundary& boundary,
                                 double cfl, Observer&& observer = {}) {
    require(t_end >= t_start, "DeviceTimeStepper::advance: t_end = ", t_end,
            " < t_start = ", t_start);
    dg_.require_size(u.size(), "advance");
    Discretisation::check_cfl(cfl);
    TimeSteppingStatistics stats;
    stats.smallest_step = std::numeric_limits<double>::infinity();
    double t = t_start;
    double speed = t < t_end ? dg_.max_wave_speed(u, t) : 0.0;
    bool facets_launched = false;  // the next step's first facet kernel, launched ahead
    while (t < t_end) {
      double dt = dg_.time_step_for_speed(speed, cfl);
      // Avoid a last sliver step: land on t_end exactly (TimeStepper::advance).
      if (t + 1.0000001 * dt >= t_end) dt = t_end - t;
      const double next = (t + dt >= t_end) ? t_end : t + dt;
      const bool last = !(next < t_end);
      const int blocks = take_step(
          u, t, dt, boundary, last ? std::nullopt : std::optional<double>(next), facets_launched);
      facets_launched = false;
      if (!last) {
        dg_.launch_finish_wave_speed(blocks);
        // The next step's first facet kernel needs the new u and its time, not its Δt: launched
        // before the wait, it keeps the device busy while the host waits and computes Δt. (If
        // the step then throws or the observer stops, its fluxes are never used.)
        dg_.launch_facets(u.data(), next, boundary);
        facets_launched = true;
        const detail::WaveSpeedResult result = dg_.wait_for_wave_speed();
        // The limiter's error first: the CPU's limiter throws before its next wave speed.
        if constexpr (defers) limiter_.check();
        if (result.bad_point != detail::no_bad_point)
          dg_.report_non_physical(u.data(), next, result.bad_point);
        speed = result.speed;
      } else if constexpr (defers) {
        POLYDG_CUDA_CHECK(cudaStreamSynchronize(nullptr));
        limiter_.check();
      }
      t = next;
      ++stats.steps;
      stats.smallest_step = std::min(stats.smallest_step, dt);
      stats.largest_step = std::max(stats.largest_step, dt);
      if (!observer(StepReport{stats.steps, t, dt})) break;
    }
    stats.final_time = t;
    return stats;
  }

 private:
  static constexpr bool limits = !std::is_same_v<Limiter, NoDeviceStageLimiter>;
  static constexpr bool defers = DeviceDeferredStageLimiter<Limiter>;

  void limit(Vector& v) {
    if constexpr (defers)
      limiter_.launch(v, detail::WaveSpeedPartials{});
    else if constexpr (limits)
      std::invoke(limiter_, v);
  }

  /// One step; with next_time, also the new coefficients' wave speed at next_time, reduced per
  /// block: by the last stage's kernels without a limiter, after the last limiter call with
  /// one. Returns the number of partial blocks of that reduction (0 without).
  /// facets_launched: the first stage's facet kernel has been launched already (advance).
  template <class Boundary>
  int take_step(Vector& u, double t, double dt, const Boundary& boundary,
                std::optional<double> next_time, bool facets_launched) {
    using Kind = detail::StageUpdate::Kind;
    const auto combine = [](double* out, const double* start, double start_weight,
                            double stage_weight, double rate_weight) {
      detail::StageUpdate update;
      update.kind = Kind::combine;
      update.out = out;
      update.start = start;
      update.start_weight = start_weight;
      update.stage_weight = stage_weight;
      update.rate_weight = rate_weight;
      return update;
    };
    const auto rk4 = [](Kind kind, double* out, const double* start, double* sum,
                        double rate_weight, bool first) {
      detail::StageUpdate update;
      update.kind = kind;
      update.out = out;
      update.start = start;
      update.sum = sum;
      update.rate_weight = rate_weight;
      update.first_rk4_stage = first;
      return update;
    };
    const detail::WaveSpeedPartials none{};
    // With a limiter the last stage reduces no wave speed: finish() does, after limiting.
    const detail::WaveSpeedPartials last =
        next_time && !limits ? dg_.partials(*next_time) : detail::WaveSpeedPartials{};
    // After the last stage: the new u limited and its wave speed reduced (with a limiter).
    const auto finish = [&](int blocks) {
      if constexpr (defers) {
        return limiter_.launch(u,
                               next_time ? dg_.partials(*next_time) : detail::WaveSpeedPartials{});
      } else if constexpr (limits) {
        limit(u);
        return next_time ? dg_.launch_wave_speed(u.data(), *next_time) : 0;
      } else {
        return blocks;
      }
    };
    double* y = u.data();
    double* stage = stage_.data();
    switch (scheme_) {
      case TimeScheme::ssp_rk2:
        // stage = y + dt R(y); y = ½ y + ½ (stage + dt R(stage)).
        dg_.run_stage(y, t, boundary, combine(stage, nullptr, 0.0, 1.0, dt), none, facets_launched);
        limit(stage_);
        return finish(dg_.run_stage(stage, t + dt, boundary, combine(y, y, 0.5, 0.5, dt), last));
      case TimeScheme::ssp_rk3:
        // stage = y + dt R(y); stage = ¾ y + ¼ (stage + dt R(stage));
        // y = ⅓ y + ⅔ (stage + dt R(stage)).
        dg_.run_stage(y, t, boundary, combine(stage, nullptr, 0.0, 1.0, dt), none, facets_launched);
        limit(stage_);
        dg_.run_stage(stage, t + dt, boundary, combine(stage, y, 0.75, 0.25, dt), none);
        limit(stage_);
        return finish(dg_.run_stage(stage, t + 0.5 * dt, boundary,
                                    combine(y, y, 1.0 / 3.0, 2.0 / 3.0, dt), last));
      case TimeScheme::rk4: {
        // k1..k4 as TimeStepper: the sum k1 + 2k2 + 2k3 accumulates in sum_.
        double* sum = sum_.data();
        const double half = 0.5 * dt;
        dg_.run_stage(y, t, boundary, rk4(Kind::rk4_stage, stage, y, sum, half, true), none,
                      facets_launched);
        limit(stage_);
        dg_.run_stage(stage, t + half, boundary, rk4(Kind::rk4_stage, stage, y, sum, half, false),
                      none);
        limit(stage_);
        dg_.run_stage(stage, t + half, boundary, rk4(Kind::rk4_stage, stage, y, sum, dt, false),
                      none);
        limit(stage_);
        return finish(dg_.run_stage(stage, t + dt, boundary,
                                    rk4(Kind::rk4_final, y, y, sum, dt / 6.0, false), last));
      }
    }
    raise("DeviceTimeStepper: unknown time scheme ", int(scheme_));
  }

  Discretisation& dg_;
  TimeScheme scheme_;
  Limiter limiter_;  // a reference where the limiter cannot be copied (the deduction guide)
  Vector stage_, sum_;
};

/// A limiter given as an lvalue is kept by value where it can be copied (lambdas,
/// DeviceLimiterAndPositivityFix), by reference where not (DeviceBarthJespersenLimiter and
/// DevicePositivityFix own device memory): then it must outlive the stepper.
template <class Discretisation, DeviceStageLimiter Limiter>
DeviceTimeStepper(Discretisation&, TimeScheme, Limiter&)
    -> DeviceTimeStepper<Discretisation,
                         std::conditional_t<std::is_copy_constructible_v<Limiter>,
                                            std::remove_const_t<Limiter>, Limiter&>>;

}  // namespace polydg::hyperbolic
