#pragma once
// The element integrals of SPEC §2 on the device: ∫_κ A∇w·∇v + (b·∇w) v + c w v into the
// diagonal blocks and ∫_κ f v into the rhs — the CUDA counterpart of assemble_elements
// (polydg/dg/assembly_kernels.hpp), calling the same POLYDG_HD mathematics: the affine map
// (fem/affine_simplex_map.hpp), the basis (fem/basis_space.hpp) and the integrand
// (dg/element_integrand.hpp).
//
// A header template, instantiated on the user's Coefficients type, whose callables must be
// __host__ __device__ (e.g. `[] __host__ __device__ (const Point<2>& x) { ... }`, nvcc
// --extended-lambda) or polydg::Constant.
//
// Schedule: point_batch_schedule.cuh, one thread block per element, launched per degree. The
// block's outputs are the N² entries of the element's diagonal block, then its N rhs entries;
// point k is (sub-simplex k / Q, rule point k mod Q), the CPU's order. Each output is the
// CPU's sum, term for term and in the same order, starting from the value in memory (zeroed
// before, as for the CPU kernels): the device differs from the CPU only by FMA contraction,
// and is bitwise the same on every run. No atomics: an element's block has one writer.
//
// FLOPs per quadrature point (N basis functions, d dimensions), for the performance report:
//   map and weight        d(d+1)·2 + |det J| (d = 2: 3, d = 3: 14) + 1       (recomputed per point)
//   basis (total degree)  d Legendre recurrences with derivatives of degree p (≈ 8p + 4 each)
//                         + 4d + N (d − 1) values + N d (d − 1 + 1) gradients
//   trial terms           N (2d² + 2d − 1)
//   entries               N² (2d + 6)
//   rhs                   3N
// plus the coefficient evaluations (user code). The entries dominate: for 2D P_5 (N = 21)
// 441·10 = 4410 of ≈ 5000; for 3D P_3 (N = 20) 400·12 = 4800 of ≈ 5500.
#include <cuda_runtime.h>

#include "dg/device_quadrature_mesh.cuh"
#include "dg/point_batch_schedule.cuh"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/element_integrand.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {
namespace device::detail {

/// The launch of the element kernel on the elements of one degree (see the file comment).
template <int Dim, class ValueType, class Coefficients>
struct ElementLaunch {
  using Real = ValueType;
  DeviceQuadratureMeshView<Dim> mesh;
  DeviceBlockPatternView pattern;
  const Index* elements;
  int p, n;
  Coefficients coefficients;
  Real* values;  ///< null: matrix not assembled
  Real* rhs;     ///< null: rhs not assembled

  // Slot of one point (Reals): φ[n], ∇φ[n][Dim], A∇φ[n][Dim], b·∇φ[n], w, c, f.
  POLYDG_HD int grad() const { return n; }
  POLYDG_HD int a_grad() const { return n + n * Dim; }
  POLYDG_HD int b_grad() const { return n + 2 * n * Dim; }
  POLYDG_HD int scalars() const { return 2 * n + 2 * n * Dim; }
  POLYDG_HD int slot_size() const { return scalars() + 3; }

  struct Item {
    Index element;
    Index simplex_begin, rule_begin, rule_size;
    GlobalIndex point_count;
    Real* block;
    Real* rhs;
  };
  struct Output {
    int i, j;  ///< j < 0: rhs entry i
  };

  __device__ Item item(Index b) const {
    Item it;
    it.element = elements[b];
    it.simplex_begin = mesh.simplex_offsets[it.element];
    it.rule_begin = mesh.element_rule_offsets[p];
    it.rule_size = mesh.element_rule_offsets[p + 1] - it.rule_begin;
    it.point_count =
        GlobalIndex(mesh.simplex_offsets[it.element + 1] - it.simplex_begin) * it.rule_size;
    it.block =
        values ? values + pattern.value_offsets[pattern.diagonal_blocks[it.element]] : nullptr;
    it.rhs = rhs ? rhs + pattern.dof_offsets[it.element] : nullptr;
    return it;
  }
  __device__ int outputs(const Item& it) const { return (it.block ? n * n : 0) + (it.rhs ? n : 0); }
  __device__ GlobalIndex point_count(const Item& it) const { return it.point_count; }
  __device__ Output output(const Item& it, int o) const {
    const int matrix_outputs = it.block ? n * n : 0;
    if (o >= matrix_outputs) return {o - matrix_outputs, -1};
    return {o / n, o % n};
  }
  __device__ Real initial(const Item& it, const Output& out) const {
    return out.j < 0 ? it.rhs[out.i] : it.block[out.i * n + out.j];
  }
  __device__ void store(const Item& it, const Output& out, Real value) const {
    if (out.j < 0)
      it.rhs[out.i] = value;
    else
      it.block[out.i * n + out.j] = value;
  }
  __device__ void evaluate(const Item& it, GlobalIndex k, Real* slot) const {
    const Point<Dim>* vertices =
        mesh.simplex_vertices + (it.simplex_begin + k / it.rule_size) * (Dim + 1);
    const Index q = it.rule_begin + Index(k % it.rule_size);
    const double jacobian = affine_measure_ratio<Dim, Dim>(vertices);
    const Point<Dim> x = map_reference_point<Dim, Dim>(vertices, mesh.element_rule_points[q]);
    // The map and the weight in double; the basis and everything after in Real.
    Real(*gradient)[Dim] = reinterpret_cast<Real(*)[Dim]>(slot + grad());
    evaluate_space_basis_gradients<Dim, Real>(mesh.space, p, convert<Real>(mesh.boxes[it.element]),
                                              convert<Real>(x), slot, gradient);
    Real* scalar = slot + scalars();
    scalar[0] = Real(mesh.element_rule_weights[q] * jacobian);
    scalar[1] = 0;  // c and f stay 0 for a target not assembled
    scalar[2] = 0;
    if (it.block) {
      const Tensor<Dim, Real> a = convert<Real>(coefficients.diffusion(x));
      const Point<Dim, Real> b = convert<Real>(coefficients.advection(x));
      scalar[1] = Real(coefficients.reaction(x));
      Point<Dim, Real>* a_gradient = reinterpret_cast<Point<Dim, Real>*>(slot + a_grad());
      for (int j = 0; j < n; ++j)
        element_trial_terms<Dim, Real>(a, b, gradient[j], a_gradient[j], slot[b_grad() + j]);
    }
    if (it.rhs) scalar[2] = Real(coefficients.source(x));
  }
  __device__ Real term(const Item&, const Output& out, const Real* slot) const {
    const Real* phi = slot;
    const Real* scalar = slot + scalars();
    if (out.j < 0) return source_entry(phi[out.i], scalar[2], scalar[0]);
    const Real(*gradient)[Dim] = reinterpret_cast<const Real(*)[Dim]>(slot + grad());
    const Point<Dim, Real>* a_gradient = reinterpret_cast<const Point<Dim, Real>*>(slot + a_grad());
    return element_entry<Dim, Real>(gradient[out.i], phi[out.i], a_gradient[out.j],
                                    slot[b_grad() + out.j], phi[out.j], scalar[1], scalar[0]);
  }
};

}  // namespace device::detail

/// Adds the element integrals into the diagonal blocks of `values` (the value array of a block
/// matrix on `pattern`, device memory) and into `rhs` (dof_count entries, device memory); a
/// null pointer skips that target. The pattern must be the one built for the mesh (block sizes
/// N_p of its space). Coefficients: diffusion, advection, reaction (matrix) and source (rhs)
/// are called on the device. Real (float or double) is the precision of the basis values, the
/// products and the sums; the geometry stays double. Non-finite values are not detected here
/// (DeviceAssembler checks the assembled arrays). Asynchronous on limits.stream (launch errors are
/// reported at once).
template <int Dim, class Real, class Coefficients>
void assemble_elements_on_device(const DeviceQuadratureMesh<Dim>& mesh,
                                 const DeviceBlockPatternView& pattern,
                                 const Coefficients& coefficients, Real* values, Real* rhs,
                                 const device::detail::LaunchLimits& limits = {}) {
  if (!values && !rhs) return;
  const DegreeGroups& groups = mesh.elements();
  for (int p = 0; p <= mesh.max_degree(); ++p) {
    if (groups.count(p) == 0) continue;
    const int n = space_basis_size(mesh.space(), Dim, p);
    const device::detail::ElementLaunch<Dim, Real, Coefficients> launch{
        mesh.view(), pattern, groups.group(p), p, n, coefficients, values, rhs};
    device::detail::launch_point_batches(
        launch, groups.count(p), (values ? n * n : 0) + (rhs ? n : 0), launch.slot_size(),
        GlobalIndex(groups.max_pieces[p]) * mesh.element_rule_size(p), "element kernel", limits);
  }
}

}  // namespace polydg
