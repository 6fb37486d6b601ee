#pragma once
// The boundary-face integrals (docs/theory.md, "The IP-DG system, as assembled") on the device —
// the CUDA counterpart of assemble_boundary_faces and assemble_previous_slab_faces
// (polydg/dg/assembly_kernels.hpp), calling the same POLYDG_HD integrand (dg/face_integrand.hpp):
// per element, the SIP terms of diffusive Dirichlet points, the inflow term, g_N on diffusive
// Neumann points, and — in its own launch — the previous slab's data on a slab's bottom face.
//
// Schedule: the matrix by tiled_point_schedule.cuh, one thread (P_1: thread_item_kernel.cuh), warp
// (P_2, P_3) or thread block per element with boundary facets, launched per degree, the table
// N × N (rows the test functions, columns the trial functions); the rhs in launches of their own,
// the table its column alone (vector_point_schedule.cuh: a warp per element, P_1 a thread). Point
// k is (the element's boundary sub-facet k / Q, rule point k mod Q), the CPU's order. One writer
// per block: deterministic, no atomics.
//
// What a point contributes comes from a PointTerms functor (BoundaryTerms: the coefficients;
// PreviousSlabTerms: the previous slab), so both launches share the kernel.
#include <cuda_runtime.h>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/dg/basis_tables.cuh"
#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/element_item_launch.cuh"
#include "polydg/detail/dg/tiled_point_schedule.cuh"
#include "polydg/dg/face_integrand.hpp"
#include "polydg/dg/penalty.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {
namespace device::detail {

/// What one boundary point contributes: its terms and A n (for the fluxes).
template <int Dim>
struct BoundaryPoint {
  bool acts = false;
  BoundaryPointTerms<> terms;
  Point<Dim> a_normal{};
};

/// The terms of assemble_boundary_faces: Dirichlet (SIP), inflow and Neumann.
template <int Dim, class Coefficients>
struct BoundaryTerms {
  Coefficients coefficients;
  const DiffusionRange<Dim>* diffusion_ranges;
  double penalty_constant;
  bool matrix, rhs;

  __device__ BoundaryPoint<Dim> operator()(const DeviceQuadratureMeshView<Dim>& mesh, Index e,
                                           Index f, Index q, const Point<Dim>& x) const {
    const Point<Dim> normal = mesh.boundary_facet_normals[f];
    PointIndex point_index{PointKind::boundary, 0};
    if constexpr (uses_point_indices<Coefficients>)
      point_index.index = mesh.boundary_point_offsets[f] + q;
    const Tensor<Dim> a = coefficient_at(coefficients.diffusion, point_index, x);
    const Point<Dim> b = coefficient_at(coefficients.advection, point_index, x);
    BoundaryPoint<Dim> point;
    point.a_normal = a * normal;
    const double beta = dot(b, normal);
    const BoundaryPointClass kind =
        classify_boundary_point(mesh.boundary_facet_kinds[f], dot(point.a_normal, normal), beta);
    point.acts = (matrix && kind.acts_on_matrix()) || (rhs && kind.acts());
    if (!point.acts) return point;
    double sigma = 0;
    if (kind.dirichlet_diffusive)
      sigma = penalty_constant *
              penalty_term<Dim>(mesh.measures[e], mesh.boundary_facet_cell_measures[f],
                                mesh.boundary_facet_measures[f], mesh.degrees[e],
                                diffusion_bound(diffusion_ranges[e], normal), mesh.penalty_scaling,
                                mesh.trace_constants ? mesh.trace_constants[e] : 0.0);
    double g_dirichlet = 0, g_neumann = 0;
    if (rhs && kind.needs_dirichlet_data())
      g_dirichlet = coefficient_at(coefficients.dirichlet, point_index, x);
    if (rhs && kind.neumann_diffusive)
      g_neumann = coefficient_at(coefficients.neumann, point_index, x, normal);
    point.terms = boundary_point_terms(kind, beta, sigma, g_dirichlet, g_neumann);
    return point;
  }
};

/// The data term of previous_slab faces: rhs += ∫ value(e, x) φ_i (weight 1); a point-indexed
/// value (PointValues) is read at the boundary point.
template <int Dim, class Value>
struct PreviousSlabTerms {
  Value value;

  __device__ BoundaryPoint<Dim> operator()(const DeviceQuadratureMeshView<Dim>& mesh, Index e,
                                           Index f, Index q, const Point<Dim>& x) const {
    BoundaryPoint<Dim> point;
    point.acts = mesh.boundary_facet_kinds[f] == BoundaryKind::previous_slab;
    if (!point.acts) return point;
    if constexpr (PointIndexedCoefficient<Value>) {
      point.terms.rhs_value =
          value.at(PointIndex{PointKind::boundary, mesh.boundary_point_offsets[f] + q}, e, x);
    } else {
      point.terms.rhs_value = value(e, x);
    }
    return point;
  }
};

template <int Dim, class ValueType, class PointTerms>
struct BoundaryLaunch : ElementItemLaunch<Dim, ValueType> {
  using Base = ElementItemLaunch<Dim, ValueType>;
  using Base::mesh, Base::p, Base::stride;
  using typename Base::Item;
  using typename Base::Real;
  static constexpr int components = boundary_face_components;
  static constexpr bool tensor_tables = true;  ///< tiled_point_schedule.cuh
  PointTerms terms;
  /// Per element, the facets integrated (BoundaryFacetRanges: begins, ends; null: the first, the
  /// end of its boundary facets).
  const Index* facet_begins = nullptr;
  const Index* facet_ends = nullptr;

  // Record of one point (Reals): w, the four BoundaryPointTerms, 1 where the point acts (0 and
  // the rest zero where not), A n [Dim], the basis tables.
  static constexpr int weight = 0, flux = 1, mass = 2, rhs_value = 3, rhs_flux = 4, acts = 5;
  static constexpr int a_normal = 6, tables = 6 + Dim;
  POLYDG_HD static constexpr int record_size_for(int stride) {
    return tables + basis_tables_size<Dim>(stride);
  }
  POLYDG_HD int record_size() const { return record_size_for(stride()); }

  /// Pieces: the element's boundary sub-facets facet_begins .. facet_ends.
  __device__ Item item(Index b) const {
    return this->element_item(b, mesh.element_boundary_offsets, mesh.boundary_rule_offsets,
                              facet_begins, facet_ends);
  }
  /// FixedStride (> 0): the launch's stride, known at compile time (thread_item_kernel.cuh).
  template <int FixedStride = 0>
  __device__ void evaluate_point(const Item& it, Index k, Real* record) const {
    const int basis_stride = table_stride(FixedStride, stride());
    const Index f = this->piece(it, k);
    const Index q = this->rule_point(it, k);
    const Point<Dim>* vertices = mesh.boundary_facet_vertices + GlobalIndex(f) * Dim;
    const Point<Dim> x = map_reference_point<Dim - 1, Dim>(vertices, mesh.boundary_rule_points[q]);
    const BoundaryPoint<Dim> point = terms(mesh, it.element, f, q - it.rule_begin, x);
    if (!point.acts) {  // adds exact zeros (point_contributes: skipped), the tables finite
      for (int m = 0; m < record_size_for(basis_stride); ++m) record[m] = 0;
      return;
    }
    record[acts] = Real(1);
    // The geometry and the terms in double; the basis and the vectors in Real.
    record[weight] =
        Real(mesh.boundary_rule_weights[q] * affine_measure_ratio<Dim - 1, Dim>(vertices));
    record[flux] = Real(point.terms.flux);
    record[mass] = Real(point.terms.mass);
    record[rhs_value] = Real(point.terms.rhs_value);
    record[rhs_flux] = Real(point.terms.rhs_flux);
    for (int d = 0; d < Dim; ++d) record[a_normal + d] = Real(point.a_normal[d]);
    write_basis_tables<Dim, Real>(basis_stride - 1, mesh.boxes[it.element],
                                  mesh.box_inverse_extents[it.element], x, record + tables,
                                  basis_stride);
  }
  /// Whether the point's products may be nonzero (tiled_point_schedule.cuh skips the others:
  /// a slab's top face adds nothing to the matrix, and its points are half of most elements').
  __device__ bool point_contributes(const Real* record) const { return record[acts] != Real(0); }
  template <int FixedStride = 0>
  __device__ void evaluate_function(const Item& it, const Real* record, int u, int code, Real* test,
                                    int test_stride, Real* trial, int trial_stride) const {
    const BoundaryPointTerms<Real> point{record[flux], record[mass], record[rhs_value],
                                         record[rhs_flux]};
    // A flag, not `trial = nullptr` (see element_kernel.cuh).
    const bool rhs_column = trial && it.targets.is_rhs(u);
    if (rhs_column) boundary_rhs_trial_vector<Real>(point, record[weight], trial, trial_stride);
    const bool trial_function = trial && !rhs_column;
    if (!test && !trial_function) return;
    Real phi, gradient[Dim];
    basis_function_at<Dim, Real, FixedStride>(record + tables, stride(), code, phi, gradient);
    Point<Dim, Real> a_n;
    for (int d = 0; d < Dim; ++d) a_n[d] = record[a_normal + d];
    const Real normal_flux_value = normal_flux<Dim, Real>(gradient, a_n);
    if (test) boundary_test_vector<Real>(phi, normal_flux_value, test, test_stride);
    if (trial_function)
      boundary_trial_vector<Real>(point, record[weight], phi, normal_flux_value, trial,
                                  trial_stride);
  }
};

/// The matrix terms (values; rhs null) or the rhs terms (rhs; values null): a launch per degree
/// (launch_element_items) over the facets of `facets` (DeviceQuadratureMesh::boundary_facets).
template <int Dim, class Real, class PointTerms>
void launch_boundary(const DeviceQuadratureMesh<Dim>& mesh, const BoundaryFacetRanges& facets,
                     const DeviceBlockPatternView& pattern, const PointTerms& terms, Real* values,
                     Real* rhs, const char* name, const LaunchLimits& limits,
                     unsigned long long* first_non_finite) {
  const DeviceQuadratureMeshView<Dim> view = mesh.view();
  const DegreeGroups& groups = *facets.groups;
  for (int p = 0; p <= mesh.max_degree(); ++p) {
    if (groups.count(p) == 0) continue;
    const int n = space_basis_size(mesh.space(), Dim, p);
    const BoundaryLaunch<Dim, Real, PointTerms> launch{
        {view, pattern, groups.group(p), p, n, values, rhs, {values, first_non_finite}},
        terms,
        facets.begins,
        facets.ends};
    launch_element_items(launch, groups, mesh.boundary_rule_size(p), name, limits);
  }
}

}  // namespace device::detail

/// Adds the Dirichlet, inflow and Neumann terms into the diagonal blocks of `values` and into
/// `rhs` (device memory; null skips a target). diffusion_ranges: per element, on the device.
/// first_non_finite: as for assemble_elements_on_device. Asynchronous on limits.stream.
template <int Dim, class Real, class Coefficients>
void assemble_boundary_faces_on_device(const DeviceQuadratureMesh<Dim>& mesh,
                                       const DeviceBlockPatternView& pattern,
                                       const DiffusionRange<Dim>* diffusion_ranges,
                                       double penalty_constant, const Coefficients& coefficients,
                                       Real* values, Real* rhs,
                                       const device::detail::LaunchLimits& limits = {},
                                       unsigned long long* first_non_finite = nullptr) {
  // The matrix and the rhs in launches of their own (vector_point_schedule.cuh says why).
  using Terms = device::detail::BoundaryTerms<Dim, Coefficients>;
  using Selection = BoundaryFacetSelection;
  // Where the coefficients leave a slab's top face idle, its facets are not launched; nor, for
  // the rhs, the previous_slab facets, which get no boundary data (classify_boundary_point:
  // their inflow data comes from add_previous_slab_term).
  constexpr bool below_top = top_face_idle<Coefficients>;
  if (values)
    device::detail::launch_boundary(
        mesh, mesh.boundary_facets(below_top ? Selection::all_below_top : Selection::all), pattern,
        Terms{coefficients, diffusion_ranges, penalty_constant, true, false}, values,
        static_cast<Real*>(nullptr), "boundary face kernel", limits, first_non_finite);
  if (rhs)
    device::detail::launch_boundary(
        mesh,
        mesh.boundary_facets(below_top ? Selection::not_previous_slab_below_top
                                       : Selection::not_previous_slab),
        pattern, Terms{coefficients, diffusion_ranges, penalty_constant, false, true},
        static_cast<Real*>(nullptr), rhs, "boundary face rhs kernel", limits, nullptr);
}

/// Adds ∫ value(e, x) φ_i over the previous_slab facets of every element into `rhs` (device
/// memory). value must be callable on the device. Asynchronous on limits.stream.
template <int Dim, class Real, class Value>
void assemble_previous_slab_faces_on_device(const DeviceQuadratureMesh<Dim>& mesh,
                                            const DeviceBlockPatternView& pattern,
                                            const Value& value, Real* rhs,
                                            const device::detail::LaunchLimits& limits = {}) {
  const device::detail::PreviousSlabTerms<Dim, Value> terms{value};
  device::detail::launch_boundary(mesh, mesh.boundary_facets(BoundaryFacetSelection::previous_slab),
                                  pattern, terms, static_cast<Real*>(nullptr), rhs,
                                  "previous slab face kernel", limits, nullptr);
}

}  // namespace polydg
