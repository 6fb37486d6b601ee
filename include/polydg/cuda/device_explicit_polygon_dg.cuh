#pragma once
/// The GPU backend of the explicit modal DG solver on polygons (docs/theory.md, "Explicit path
/// for conservation laws"). DeviceExplicitPolygonDG mirrors ExplicitPolygonDG
/// (polydg/hyperbolic/explicit_polygon_dg.hpp): its geometry, per-element orthonormalisation and
/// rules uploaded once, in the same layouts, and its three residual passes run as kernels with
/// one thread per element or sub-facet (polydg/detail/hyperbolic/device_polygon_kernels.cuh):
/// Legendre coefficients, sub-facet LLF fluxes, element residuals with the stage update, and
/// where the stepper needs the next Δt a wave-speed kernel. DeviceTimeStepper
/// (device_explicit_dg.cuh) steps it as it steps triangles.
///
///   using namespace polydg::hyperbolic;
///   ExplicitPolygonDG dg(polygons, 2, LinearAdvection{RotatingVelocity{{}, 2 * pi}});
///   DeviceExplicitPolygonDG device_dg(dg);           // dg is not referenced afterwards
///   auto u = device_dg.upload(dg.project(initial));
///   DeviceTimeStepper(device_dg, TimeScheme::rk4).advance(u, 0.0, 1.0, boundary, 0.5);
///
/// The kernels run the CPU's loop bodies, for p ≤ 4 with the degree a compile-time constant
/// (loops of constant length, per-thread arrays in registers), above at run-time degree; the
/// stage update is applied in the element kernel. No atomics, each value written by one
/// thread, reductions max / min: bitwise reproducible, and equal to the CPU to rounding (nvcc
/// contracts a·b + c).
/// Synchronisation and checks: as DeviceExplicitTriangleDG — max_wave_speed, stable_time_step
/// and the stepper's advance wait for the device; a non-physical state at a volume point is a
/// polydg::Error naming the time, the element, the point and the state, as the CPU's. The
/// template path: include from a .cu file compiled with the polydg::cuda target's flags.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/hyperbolic/device_explicit_kernels.cuh"
#include "polydg/detail/hyperbolic/device_explicit_solver_base.cuh"
#include "polydg/detail/hyperbolic/device_polygon_kernels.cuh"
#include "polydg/detail/hyperbolic/wave_speed_reduction.cuh"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"

namespace polydg::hyperbolic {

template <ConservationLaw Law>
class DeviceExplicitPolygonDG
    : public detail::DeviceExplicitSolverBase<DeviceExplicitPolygonDG<Law>> {
  static_assert(std::is_trivially_copyable_v<Law>,
                "DeviceExplicitPolygonDG: the Law is copied into the kernels by value, so it "
                "must be trivially copyable");
  using Base = detail::DeviceExplicitSolverBase<DeviceExplicitPolygonDG<Law>>;
  friend Base;

 public:
  static constexpr int variables = Law::variables;
  static constexpr const char* name = "DeviceExplicitPolygonDG";
  using Vector = device::DeviceBuffer<double>;
  // make_vector, upload, download, max_wave_speed, stable_time_step, time_step_for_speed:
  // DeviceExplicitSolverBase.

  /// Uploads dg's geometry and rules and allocates the scratch vectors (Legendre coefficients,
  /// sub-facet fluxes, the residual); dg may go afterwards. Throws polydg::Error as the device
  /// allocations do (no device, out of memory).
  explicit DeviceExplicitPolygonDG(const ExplicitPolygonDG<Law>& dg)
      : law_(dg.law()),
        geometry_(dg.geometry()),
        rules_(dg.rules()),
        arrays_(geometry_, rules_),
        view_(arrays_.view(geometry_, rules_)),
        legendre_(dg.coefficient_count()),
        flux_(std::size_t(variables) * rules_.edge_point_count * std::size_t(view_.facets)),
        wave_speed_(blocks_for(view_.elements, detail::reduction_block_size)) {}

  const Law& law() const { return law_; }
  int degree() const { return geometry_.degree; }
  int basis_size() const { return geometry_.basis_size; }
  Index element_count() const { return view_.elements; }
  Index facet_count() const { return view_.facets; }
  /// m · N · element_count.
  std::size_t coefficient_count() const {
    return std::size_t(variables) * basis_size() * std::size_t(element_count());
  }
  /// Position of orthonormal mode i of variable v of element c (element-fastest, as the CPU).
  std::size_t coefficient_index(Index c, int v, int i) const { return view_.coefficient(c, v, i); }
  /// The kernels' view: PolygonResidualView with device pointers.
  const PolygonResidualView& view() const { return view_; }
  /// The sub-facet fluxes of the last residual or stage, flux[(v · Q + q) · facet_count + f].
  const Vector& facet_fluxes() const { return flux_; }

  /// r = R(u) at time t, as ExplicitPolygonDG::residual. Uses the object's scratch vectors: one
  /// residual (or stepper) at a time per object. Does not wait for the device.
  template <BoundaryCondition<Law> Boundary>
  void residual(const Vector& u, double t, const Boundary& boundary, Vector& r) {
    require(u.size() == coefficient_count() && r.size() == coefficient_count(),
            "DeviceExplicitPolygonDG::residual: vectors of ", u.size(), " and ", r.size(),
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

  /// The device copies of PolygonGeometry's and PolygonQuadratureRules' arrays.
  struct Arrays {
    device::DeviceBuffer<double> box_lower, box_upper, inverse_extent, orthonormalisation;
    device::DeviceBuffer<Index> element_triangle_offsets, element_facet_offsets, element_facets;
    device::DeviceBuffer<signed char> element_facet_sides;
    device::DeviceBuffer<double> triangle_origin, triangle_jacobian, triangle_determinant;
    device::DeviceBuffer<Index> facet_element;
    device::DeviceBuffer<double> facet_origin, facet_tangent, facet_length, facet_normal;
    device::DeviceBuffer<int> facet_tag;
    device::DeviceBuffer<double> volume_points, volume_weights, edge_parameters, edge_weights;
    device::DeviceBuffer<Index> element_point_offsets;
    device::DeviceBuffer<double> point_coordinates, point_weights;

    template <class T>
    static device::DeviceBuffer<T> copy(const std::vector<T>& host) {
      return device::DeviceBuffer<T>(std::span<const T>(host));
    }
    Arrays(const PolygonGeometry& g, const PolygonQuadratureRules& r)
        : box_lower(copy(g.box_lower)),
          box_upper(copy(g.box_upper)),
          inverse_extent(copy(g.inverse_extent)),
          orthonormalisation(copy(g.orthonormalisation)),
          element_triangle_offsets(copy(g.element_triangle_offsets)),
          element_facet_offsets(copy(g.element_facet_offsets)),
          element_facets(copy(g.element_facets)),
          element_facet_sides(copy(g.element_facet_sides)),
          triangle_origin(copy(g.triangle_origin)),
          triangle_jacobian(copy(g.triangle_jacobian)),
          triangle_determinant(copy(g.triangle_determinant)),
          facet_element(copy(g.facet_element)),
          facet_origin(copy(g.facet_origin)),
          facet_tangent(copy(g.facet_tangent)),
          facet_length(copy(g.facet_length)),
          facet_normal(copy(g.facet_normal)),
          facet_tag(copy(g.facet_tag)),
          volume_points(copy(r.volume_points)),
          volume_weights(copy(r.volume_weights)),
          edge_parameters(copy(r.edge_parameters)),
          edge_weights(copy(r.edge_weights)),
          element_point_offsets(copy(g.element_point_offsets)),
          point_coordinates(copy(g.point_coordinates)),
          point_weights(copy(g.point_weights)) {}

    /// polygon_residual_view(g, r) with these arrays' pointers.
    PolygonResidualView view(const PolygonGeometry& g, const PolygonQuadratureRules& r) const {
      PolygonResidualView v = polygon_residual_view(g, r);
      v.box_lower = box_lower.data();
      v.box_upper = box_upper.data();
      v.inverse_extent = inverse_extent.data();
      v.orthonormalisation = orthonormalisation.data();
      v.element_triangle_offsets = element_triangle_offsets.data();
      v.element_facet_offsets = element_facet_offsets.data();
      v.element_facets = element_facets.data();
      v.element_facet_sides = element_facet_sides.data();
      v.triangle_origin = triangle_origin.data();
      v.triangle_jacobian = triangle_jacobian.data();
      v.triangle_determinant = triangle_determinant.data();
      v.facet_element = facet_element.data();
      v.facet_origin = facet_origin.data();
      v.facet_tangent = facet_tangent.data();
      v.facet_length = facet_length.data();
      v.facet_normal = facet_normal.data();
      v.facet_tag = facet_tag.data();
      v.volume_points_rs = volume_points.data();
      v.volume_weights = volume_weights.data();
      v.edge_parameters = edge_parameters.data();
      v.edge_weights = edge_weights.data();
      v.element_point_offsets = element_point_offsets.data();
      v.point_coordinates = point_coordinates.data();
      v.point_weights = point_weights.data();
      return v;
    }
  };

  using Base::blocks_for;
  using Base::check_cfl;
  using Base::require_size;
  double min_size() const { return geometry_.min_size; }

  // DeviceTimeStepper's stage interface (as DeviceExplicitTriangleDG's).
  detail::WaveSpeedPartials partials(double time) const { return wave_speed_.partials(time); }

  /// f(std::integral_constant<int, Degree>{}) with Degree = the degree up to
  /// largest_fixed_polygon_degree, −1 (run-time sizes) above.
  template <class Function>
  void with_degree(Function&& function) const {
    static_assert(detail::largest_fixed_polygon_degree == 4, "one case per fixed degree below");
    switch (degree()) {
      case 0:
        return function(std::integral_constant<int, 0>{});
      case 1:
        return function(std::integral_constant<int, 1>{});
      case 2:
        return function(std::integral_constant<int, 2>{});
      case 3:
        return function(std::integral_constant<int, 3>{});
      case 4:
        return function(std::integral_constant<int, 4>{});
      default:
        return function(std::integral_constant<int, -1>{});
    }
  }

  /// Passes 0 and 1 of a residual at (u, t): the Legendre coefficients, then the sub-facet
  /// fluxes, of the selected facets (all by default; for those listed, the Legendre
  /// coefficients of the elements from selection.ghosts_from on, the others' being computed
  /// with the unlisted facets). Asynchronous.
  template <class Boundary>
  void launch_facets(const double* u, double t, const Boundary& boundary,
                     const detail::FacetSelection& selection = {}) {
    static_assert(std::is_trivially_copyable_v<Boundary>,
                  "DeviceExplicitPolygonDG: the boundary functor is copied into the kernels by "
                  "value, so it must be trivially copyable");
    constexpr int block = detail::polygon_block_size;
    const Index first = selection.listed ? std::min(selection.ghosts_from, view_.elements) : 0;
    const Index end =
        selection.listed ? view_.elements : std::min(selection.ghosts_from, view_.elements);
    const Index facet_threads = selection.threads(view_.facets);
    with_degree([&](auto fixed) {
      constexpr int p = decltype(fixed)::value;
      if (end > first) {
        detail::polygon_legendre_kernel<p, variables>
            <<<blocks_for(end - first, block), block>>>(view_, u, legendre_.data(), first, end);
        POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitPolygonDG polygon_legendre_kernel");
      }
      if (facet_threads > 0) {
        detail::polygon_facet_kernel<p, Law, Boundary><<<blocks_for(facet_threads, block), block>>>(
            view_, law_, boundary, legendre_.data(), t, flux_.data(), selection);
        POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitPolygonDG polygon_facet_kernel");
      }
    });
  }

  /// One residual at (u, t), `update` applied to it in the element kernel, and with
  /// partials.speed the wave speed of update.out at partials.time reduced per block (returns
  /// the block count, else 0). facets_launched: launch_facets(u, t, boundary) ran since the
  /// last stage. Asynchronous.
  template <class Boundary>
  int run_stage(const double* u, double t, const Boundary& boundary,
                const detail::StageUpdate& update, const detail::WaveSpeedPartials& partials,
                bool facets_launched = false) {
    if (!facets_launched) launch_facets(u, t, boundary);
    constexpr int block = detail::polygon_block_size;
    with_degree([&](auto fixed) {
      constexpr int p = decltype(fixed)::value;
      detail::polygon_element_kernel<p, Law><<<blocks_for(view_.elements, block), block>>>(
          view_, law_, legendre_.data(), t, flux_.data(), u, update);
      POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitPolygonDG polygon_element_kernel");
    });
    return partials.speed ? launch_wave_speed(update.out, partials.time) : 0;
  }

  /// The per-block partials of the wave speed of u at time t; returns the block count.
  int launch_wave_speed(const double* u, double t) const {
    const unsigned blocks = blocks_for(view_.elements, detail::reduction_block_size);
    with_degree([&](auto fixed) {
      constexpr int p = decltype(fixed)::value;
      detail::polygon_wave_speed_kernel<p, Law>
          <<<blocks, detail::reduction_block_size>>>(view_, law_, u, partials(t));
      POLYDG_CUDA_CHECK_LAUNCH("DeviceExplicitPolygonDG polygon_wave_speed_kernel");
    });
    return int(blocks);
  }
  detail::WaveSpeedResult finish_wave_speed(int blocks) const { return wave_speed_.finish(blocks); }
  void launch_finish_wave_speed(int blocks) const { wave_speed_.launch_finish(blocks); }
  detail::WaveSpeedResult wait_for_wave_speed() const { return wave_speed_.wait(); }

  /// Throws polydg::Error for the non-physical state at the residual rule's point bad_point of
  /// the device coefficients u at time t, evaluated on the host from u copied back (an error
  /// path), with the CPU's words.
  [[noreturn]] void report_non_physical(const double* u, double t, long long bad_point) const {
    const PolygonResidualView g = polygon_residual_view(geometry_, rules_);
    const Index k = Index(bad_point);
    const auto& offsets = geometry_.element_point_offsets;
    const Index c =
        Index(std::upper_bound(offsets.begin(), offsets.end(), k) - offsets.begin()) - 1;
    std::vector<double> coefficients(coefficient_count());
    device::copy_device_to_host(coefficients.data(), u, coefficients.size() * sizeof(double));
    double legendre[variables][max_polygon_basis_size];
    double phi[max_polygon_basis_size];
    g.to_legendre<variables>(coefficients.data(), c, legendre);
    const Point<2> x = g.rule_point(k);
    g.legendre_values(c, x, phi);
    raise("DeviceExplicitPolygonDG at t = ", t, ": the state ",
          describe_state(g.local_state_at<variables>(legendre, phi)), " at x = (", x[0], ", ", x[1],
          ") in element ", c,
          " is not physical (non-finite or outside the law's admissible states)");
  }

  Law law_;
  PolygonGeometry geometry_;  // host copy: error messages, the view's sizes
  PolygonQuadratureRules rules_;
  Arrays arrays_;
  PolygonResidualView view_;
  Vector legendre_;  // pass 0's Legendre coefficients
  Vector flux_;      // pass 1's sub-facet fluxes
  detail::WaveSpeedReduction wave_speed_;
};

template <class Law>
DeviceExplicitPolygonDG(const ExplicitPolygonDG<Law>&) -> DeviceExplicitPolygonDG<Law>;

}  // namespace polydg::hyperbolic
