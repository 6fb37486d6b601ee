#pragma once
/// The template path of DeviceAssembler (polydg/dg/device_assembler.hpp): the assembly for a
/// user's own coefficient types. Include it in a .cu file compiled by nvcc with the polydg::cuda
/// target's flags (--extended-lambda); the kernels are then compiled for those types there.
///
///   auto data = polydg::make_coefficients<2>()
///                   .with_diffusion([] __host__ __device__(const polydg::Point<2>& x) { ... })
///                   .with_source([] __host__ __device__(const polydg::Point<2>& x) { ... });
///   polydg::DeviceAssembler<2> assembler(mesh, conditions);
///   assembler.assemble(data);
///
/// Coefficients: the same object as for the CPU Assembler (coefficients.hpp), with
/// __host__ __device__ callables or polydg::Constant; a mix with PointValues
/// (point_coefficients.hpp) works too. DeviceAssembler<Dim, float> assembles in single
/// precision (geometry, weights, σ and coefficients in double, rounded once).
/// libpolydg's own types (PointCoefficients, SpaceTimePointCoefficients, constants) are not
/// compiled again here: they link to the library's kernels.
///
/// fill_point_values evaluates a device functor at a kind of the assembler's quadrature points
/// into per-point arrays, for PointValues.
#include <cuda_runtime.h>

#include <algorithm>

#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/core/forall.cuh"
#include "polydg/detail/dg/boundary_face_kernel.cuh"
#include "polydg/detail/dg/device_assembly_state.cuh"
#include "polydg/detail/dg/element_kernel.cuh"
#include "polydg/detail/dg/interior_face_kernel.cuh"
#include "polydg/dg/device_assembler.hpp"
#include "polydg/fem/affine_simplex_map.hpp"

namespace polydg {

template <int Dim, class Real>
template <class Coefficients>
void DeviceAssembler<Dim, Real>::run(const Coefficients& coefficients, bool matrix,
                                     bool assemble_rhs) {
  using namespace device::detail;
  DeviceAssemblyState<Dim, Real>& s = *state_;
  if constexpr (uses_point_indices<Coefficients>) s.number_points();
  Real* values = matrix ? s.values.data() : nullptr;
  Real* rhs = assemble_rhs ? s.rhs.data() : nullptr;
  s.begin(zero_phase);
  // Nothing is zeroed in the matrix: the element kernel, first, overwrites the diagonal blocks
  // (every element is one of its items) and the interior-face kernel the off-diagonal ones;
  // the other kernels add into the diagonal blocks after them.
  if (rhs) s.rhs.fill_zero();
  // The kernels note the first non-finite value they store (non_finite_watch.cuh).
  unsigned long long* first_non_finite = nullptr;
  if (values && s.device_options.check_finite) {
    s.reset_first_bad();
    first_non_finite = s.first_bad.data();
  }
  s.end(zero_phase);
  s.begin(ranges_phase);
  const DeviceBlockPatternView pattern = s.pattern.view();
  const LaunchLimits limits = s.launch_limits();
  s.diffusion_ranges.update(s.mesh, coefficients);
  s.end(ranges_phase);
  // Each phase's launches count their tensor-core tables into their own counter.
  s.tensor_core_launches = {};
  const auto counted = [&](int& counter, cudaStream_t stream) {
    LaunchLimits phase_limits = limits;
    phase_limits.stream = stream;
    phase_limits.tensor_core_launches = &counter;
    return phase_limits;
  };
  // The interior faces beside the element and boundary faces (at low degree), on the side
  // stream forked below and joined before the gather; their own blocks only, so the order of
  // the sums into the diagonal blocks — element, boundary, gather — is that of one stream.
  const bool beside = values && s.interface_fork != nullptr;
  const auto interior_faces = [&](cudaStream_t stream) {
    const LaunchLimits interior_limits = counted(s.tensor_core_launches.interior_faces, stream);
    s.begin(interior_phase, stream);
    launch_interior_face_kernels(
        s.mesh, pattern, s.diffusion_ranges.data(), s.options.penalty_constant, coefficients,
        interface_write_mode(s.device_options.write_mode), s.scratch.view(), s.interface_workspace,
        values, interior_limits, first_non_finite);
  };
  // The side stream starts after the ranges, but its kernels are enqueued after the element
  // kernel's: the element blocks reach the multiprocessors first and the interface blocks fill
  // in behind them.
  if (beside) s.interface_fork->fork(nullptr);
  s.begin(element_phase);
  assemble_elements_on_device(s.mesh, pattern, coefficients, values, rhs,
                              counted(s.tensor_core_launches.elements, nullptr), first_non_finite,
                              DiagonalBlockWrite::overwrite);
  s.end(element_phase);
  if (beside) interior_faces(s.interface_fork->side());
  // The boundary faces add into the diagonal blocks the element kernel wrote, before the
  // gather: so with the interior faces beside, both the element and the boundary kernels fill
  // the multiprocessors the interface kernels leave idle.
  s.begin(boundary_phase);
  assemble_boundary_faces_on_device(
      s.mesh, pattern, s.diffusion_ranges.data(), s.options.penalty_constant, coefficients, values,
      rhs, counted(s.tensor_core_launches.boundary_faces, nullptr), first_non_finite);
  s.end(boundary_phase);
  if (beside) {
    s.interface_fork->join(nullptr);
  } else {
    interior_faces(nullptr);
  }
  if (s.device_options.write_mode == FaceWriteMode::deterministic)
    gather_interface_diagonals(s.mesh, pattern, s.scratch.view(), values, first_non_finite,
                               nullptr);
  s.end(interior_phase);
  s.begin(check_phase);
  if (s.device_options.check_finite) s.check_finite(values, rhs);
  s.end(check_phase);
}

template <int Dim, class Real>
template <class Value>
void DeviceAssembler<Dim, Real>::add_previous_slab_term(const Value& value) {
  device::detail::DeviceAssemblyState<Dim, Real>& s = *state_;
  if constexpr (PointIndexedCoefficient<Value>) s.number_points();
  assemble_previous_slab_faces_on_device(s.mesh, s.pattern.view(), value, s.rhs.data(),
                                         s.launch_limits());
  if (s.device_options.check_finite) s.check_finite(nullptr, s.rhs.data());
}

namespace device::detail {
/// f(x) where f takes a point, else f(x, n) (n: the normal at a boundary point, 0 elsewhere).
template <class F, int Dim>
__device__ auto value_at_point(const F& f, const Point<Dim>& x, const Point<Dim>& n) {
  if constexpr (requires { f(x); }) {
    return f(x);
  } else {
    return f(x, n);
  }
}
}  // namespace device::detail

/// out[i] = f(x_i) (or f(x_i, n_i) for an f of the point and the normal, n_i the outward
/// normal at a boundary point and 0 elsewhere) at the
/// assembler's quadrature points of `kind` (point_count(kind) entries, device memory), with
/// the current geometry: the values a PointValues member takes for that kind. f: callable on
/// the device. Asynchronous on the default stream.
template <int Dim, class Real, class T, class F>
void fill_point_values(const DeviceAssembler<Dim, Real>& assembler, PointKind kind, const F& f,
                       T* out) {
  (void)assembler.point_count(kind);  // numbers the points on first use
  const device::detail::DeviceAssemblyState<Dim, Real>& s = assembler.state();
  const DeviceQuadratureMeshView<Dim> mesh = s.mesh.view();
  if (kind == PointKind::element) {
    device::forall(GlobalIndex(s.mesh.element_count()), [=] __device__(GlobalIndex e) {
      const int p = mesh.degrees[e];
      const Index rule_begin = mesh.element_rule_offsets[p];
      const Index rule_size = mesh.element_rule_offsets[p + 1] - rule_begin;
      for (Index piece = mesh.simplex_offsets[e]; piece < mesh.simplex_offsets[e + 1]; ++piece)
        for (Index q = 0; q < rule_size; ++q)
          out[mesh.element_point_offsets[piece] + q] = device::detail::value_at_point(
              f,
              map_reference_point<Dim, Dim>(mesh.simplex_vertices + GlobalIndex(piece) * (Dim + 1),
                                            mesh.element_rule_points[rule_begin + q]),
              Point<Dim>{});
    });
  } else if (kind == PointKind::boundary) {
    device::forall(GlobalIndex(s.mesh.element_count()), [=] __device__(GlobalIndex e) {
      const int p = mesh.degrees[e];
      const Index rule_begin = mesh.boundary_rule_offsets[p];
      const Index rule_size = mesh.boundary_rule_offsets[p + 1] - rule_begin;
      for (Index f_index = mesh.element_boundary_offsets[e];
           f_index < mesh.element_boundary_offsets[e + 1]; ++f_index)
        for (Index q = 0; q < rule_size; ++q) {
          const Point<Dim> x = map_reference_point<Dim - 1, Dim>(
              mesh.boundary_facet_vertices + GlobalIndex(f_index) * Dim,
              mesh.boundary_rule_points[rule_begin + q]);
          out[mesh.boundary_point_offsets[f_index] + q] =
              device::detail::value_at_point(f, x, mesh.boundary_facet_normals[f_index]);
        }
    });
  } else {
    device::forall(GlobalIndex(s.mesh.interface_count()), [=] __device__(GlobalIndex i) {
      const int p = max(mesh.degrees[mesh.interface_elements[2 * i]],
                        mesh.degrees[mesh.interface_elements[2 * i + 1]]);
      const Index rule_begin = mesh.interface_rule_offsets[p];
      const Index rule_size = mesh.interface_rule_offsets[p + 1] - rule_begin;
      for (Index f_index = mesh.interface_facet_offsets[i];
           f_index < mesh.interface_facet_offsets[i + 1]; ++f_index)
        for (Index q = 0; q < rule_size; ++q)
          out[mesh.interface_point_offsets[f_index] + q] = device::detail::value_at_point(
              f,
              map_reference_point<Dim - 1, Dim>(
                  mesh.interface_facet_vertices + GlobalIndex(f_index) * Dim,
                  mesh.interface_rule_points[rule_begin + q]),
              Point<Dim>{});
    });
  }
}

}  // namespace polydg
