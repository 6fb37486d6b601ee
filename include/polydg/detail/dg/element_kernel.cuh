#pragma once
// The element integrals on the device (docs/theory.md, "The IP-DG system, as assembled"):
// ∫_κ A∇w·∇v + (b·∇w) v + c w v into the diagonal blocks and ∫_κ f v into the rhs — the CUDA
// counterpart of assemble_elements (polydg/dg/assembly_kernels.hpp), calling the same POLYDG_HD
// mathematics: the affine map (fem/affine_simplex_map.hpp), the basis (fem/basis_space.hpp) and the
// integrand (dg/element_integrand.hpp).
//
// A header template, instantiated on the user's Coefficients type, whose callables must be
// __host__ __device__ (e.g. `[] __host__ __device__ (const Point<2>& x) { ... }`, nvcc
// --extended-lambda) or polydg::Constant.
//
// Schedule: the matrix by tiled_point_schedule.cuh, one thread (P_1: thread_item_kernel.cuh), warp
// (P_2, P_3) or thread block per element, launched per degree, the table N × N (rows the test
// functions, columns the trial functions); the rhs in a launch of its own, the table its column
// alone (vector_point_schedule.cuh: a warp per element, P_1 a thread). Point k is (sub-simplex
// k / Q, rule point k mod Q), the CPU's order. Record of a point: w, c, f, A, b and the basis
// tables; each function's test and trial vectors (element_integrand.hpp) are formed once per point.
// The sums start from the value in memory (zeroed before, as for the CPU kernels). No atomics: an
// element's block has one writer.
//
// FLOPs per quadrature point (N basis functions, d dimensions), for the performance report:
//   map and weight       d(d+1)·2 + |det J| (d = 2: 3, d = 3: 14) + 1
//   basis tables         d Legendre recurrences with derivatives of degree p (≈ 8p + 4 each)
//   basis functions      N (d − 1) values + N d (d − 1 + 1) gradients
//   trial vectors        N (2d² + 2d + 2)
//   entries              N² · 2 K, rhs 2N    (K = components: d + 1, or d where A's last row and
//                                             column are zero, element_integrand.hpp)
// plus the coefficient evaluations (user code). The entries dominate from p = 2 on.
#include <cuda_runtime.h>

#include <utility>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/dg/basis_tables.cuh"
#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/element_item_launch.cuh"
#include "polydg/detail/dg/non_finite_watch.cuh"
#include "polydg/detail/dg/tiled_point_schedule.cuh"
#include "polydg/dg/element_integrand.hpp"
#include "polydg/dg/point_coefficients.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {
namespace device::detail {

/// The launch of the element kernel on the elements of one degree (see the file comment).
template <int Dim, class ValueType, class Coefficients>
struct ElementLaunch : ElementItemLaunch<Dim, ValueType> {
  using Base = ElementItemLaunch<Dim, ValueType>;
  using Base::mesh, Base::p, Base::stride;
  using typename Base::Item;
  using typename Base::Real;
  // Dim + 1, or Dim where A's last row and column are zero (the space-time A = diag(a, 0)).
  static constexpr int components =
      element_components_for<Dim, decltype(std::declval<Coefficients>().diffusion)>;
  static constexpr bool tensor_tables = true;  ///< tiled_point_schedule.cuh
  Coefficients coefficients;

  // Record of one point (Reals): w, c, f, A[Dim][Dim], b[Dim], the basis tables.
  static constexpr int weight = 0, reaction = 1, source = 2, diffusion = 3;
  static constexpr int advection = diffusion + Dim * Dim, tables = advection + Dim;
  POLYDG_HD static constexpr int record_size_for(int stride) {
    return tables + basis_tables_size<Dim>(stride);
  }
  POLYDG_HD int record_size() const { return record_size_for(stride()); }

  /// Pieces: the element's sub-simplices.
  __device__ Item item(Index b) const {
    return this->element_item(b, mesh.simplex_offsets, mesh.element_rule_offsets);
  }
  /// FixedStride (> 0): the launch's stride, known at compile time (thread_item_kernel.cuh).
  template <int FixedStride = 0>
  __device__ void evaluate_point(const Item& it, Index k, Real* record) const {
    const int basis_stride = table_stride(FixedStride, stride());
    const Index piece = this->piece(it, k);
    const Point<Dim>* vertices = mesh.simplex_vertices + GlobalIndex(piece) * (Dim + 1);
    const Index q = this->rule_point(it, k);
    PointIndex point{PointKind::element, 0};
    if constexpr (uses_point_indices<Coefficients>)
      point.index = mesh.element_point_offsets[piece] + (q - it.rule_begin);
    const double jacobian = affine_measure_ratio<Dim, Dim>(vertices);
    const Point<Dim> x = map_reference_point<Dim, Dim>(vertices, mesh.element_rule_points[q]);
    // The map and the weight in double; the basis and everything after in Real.
    write_basis_tables<Dim, Real>(basis_stride - 1, mesh.boxes[it.element],
                                  mesh.box_inverse_extents[it.element], x, record + tables,
                                  basis_stride);
    record[weight] = Real(mesh.element_rule_weights[q] * jacobian);
    record[reaction] = 0;  // c and f stay 0 for a target not assembled
    record[source] = 0;
    if (it.targets.block) {
      const Tensor<Dim> a = coefficient_at(coefficients.diffusion, point, x);
      const Point<Dim> b = coefficient_at(coefficients.advection, point, x);
      for (int i = 0; i < Dim; ++i) {
        for (int j = 0; j < Dim; ++j) record[diffusion + i * Dim + j] = Real(a[i][j]);
        record[advection + i] = Real(b[i]);
      }
      record[reaction] = Real(coefficient_at(coefficients.reaction, point, x));
    }
    if (it.targets.rhs) record[source] = Real(coefficient_at(coefficients.source, point, x));
  }
  template <int FixedStride = 0>
  __device__ void evaluate_function(const Item& it, const Real* record, int u, int code, Real* test,
                                    int test_stride, Real* trial, int trial_stride) const {
    // A flag, not `trial = nullptr`: a pointer chosen at run time between a register array
    // and null would put the array in local memory (thread_item_kernel.cuh).
    const bool rhs_column = trial && it.targets.is_rhs(u);
    if (rhs_column)
      source_trial_vector<Dim, Real, components>(record[source], record[weight], trial,
                                                 trial_stride);
    const bool trial_function = trial && !rhs_column;
    if (!test && !trial_function) return;
    Real phi, gradient[Dim];
    basis_function_at<Dim, Real, FixedStride>(record + tables, stride(), code, phi, gradient);
    if (test) element_test_vector<Dim, Real, components>(phi, gradient, test, test_stride);
    if (trial_function) {
      Tensor<Dim, Real> a;
      Point<Dim, Real> b;
      for (int i = 0; i < Dim; ++i) {
        for (int j = 0; j < Dim; ++j) a[i][j] = record[diffusion + i * Dim + j];
        b[i] = record[advection + i];
      }
      element_trial_vector<Dim, Real, components>(a, b, record[reaction], record[weight], phi,
                                                  gradient, trial, trial_stride);
    }
  }
};

}  // namespace device::detail

/// How assemble_elements_on_device writes the diagonal blocks: adds to what they hold, or
/// overwrites them (the first kernel of a re-assembly: no zeroing before it).
enum class DiagonalBlockWrite { add, overwrite };

/// Adds the element integrals into the diagonal blocks of `values` (the value array of a block
/// matrix on `pattern`, device memory; with DiagonalBlockWrite::overwrite, writes them there,
/// the blocks' previous values unread) and into `rhs` (dof_count entries, device memory); a
/// null pointer skips that target. The pattern must be the one built for the mesh (block sizes
/// N_p of its space). Coefficients: diffusion, advection, reaction (matrix) and source (rhs)
/// are called on the device. Real (float or double) is the precision of the basis values, the
/// products and the sums; the geometry stays double. first_non_finite (device memory, may be
/// null): lowered to the least index of `values` where a non-finite value is stored
/// (non_finite_watch.cuh). Asynchronous on limits.stream (launch errors are reported at once).
template <int Dim, class Real, class Coefficients>
void assemble_elements_on_device(const DeviceQuadratureMesh<Dim>& mesh,
                                 const DeviceBlockPatternView& pattern,
                                 const Coefficients& coefficients, Real* values, Real* rhs,
                                 const device::detail::LaunchLimits& limits = {},
                                 unsigned long long* first_non_finite = nullptr,
                                 DiagonalBlockWrite block_write = DiagonalBlockWrite::add) {
  const DegreeGroups& groups = mesh.elements();
  for (int p = 0; p <= mesh.max_degree(); ++p) {
    if (groups.count(p) == 0) continue;
    const int n = space_basis_size(mesh.space(), Dim, p);
    // The matrix and the rhs in launches of their own (vector_point_schedule.cuh says why).
    const auto launch = [&](Real* block_values, Real* rhs_values, const char* name) {
      const device::detail::NonFiniteWatch<Real> watch{block_values,
                                                       block_values ? first_non_finite : nullptr};
      const device::detail::ElementLaunch<Dim, Real, Coefficients> element_launch{
          {mesh.view(), pattern, groups.group(p), p, n, block_values, rhs_values, watch,
           block_write == DiagonalBlockWrite::overwrite},
          coefficients};
      device::detail::launch_element_items(element_launch, groups, mesh.element_rule_size(p), name,
                                           limits);
    };
    if (values) launch(values, nullptr, "element kernel");
    if (rhs) launch(nullptr, rhs, "element rhs kernel");
  }
}

}  // namespace polydg
