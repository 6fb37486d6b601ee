#pragma once
// The element integrals of SPEC §2 on the device: ∫_κ A∇w·∇v + (b·∇w) v + c w v into the
// diagonal blocks and ∫_κ f v into the rhs — the CUDA counterpart of assemble_elements
// (polydg/dg/assembly_kernels.hpp), calling the same POLYDG_HD mathematics: the affine map
// (fem/affine_simplex_map.hpp), the basis (fem/basis_space.hpp) and the integrand
// (dg/element_integrand.hpp).
//
// A header template: it is instantiated on the user's Coefficients type, whose callables must be
// __host__ __device__ (e.g. `[] __host__ __device__ (const Point<2>& x) { ... }`, nvcc
// --extended-lambda) or polydg::Constant.
//
//   DeviceElementData<2> data(quadrature_mesh, degrees);           // once per mesh
//   assemble_elements_on_device(data, pattern.view(), coefficients, values, rhs);
//
// Schedule (deterministic, no atomics): elements are launched grouped by degree (one launch per
// degree present, so the block shape and shared memory fit N_p); one thread block per element.
// The block's outputs — the N² entries of the element's diagonal block, then the N rhs entries
// — are dealt to the threads (output o belongs to thread o mod blockDim, at most
// max_outputs_per_thread per thread and pass, accumulated in registers; an element with more
// outputs than one pass holds is done in several passes over its points). The quadrature points
// (sub-simplex s, point q, in the CPU's order s-major) are taken in batches: thread t of the
// block evaluates point t of the batch — the map, the weight, the coefficients, the basis values
// and gradients, A∇φ_j and b·∇φ_j — into shared memory; after a barrier every thread adds the
// batch's points to its outputs in point order. So each output is the CPU's sum, term for term
// and in the same order, starting from the value already in memory (the values and rhs must be
// zeroed before, as for the CPU kernels); the device differs from the CPU only by FMA
// contraction, and is bitwise the same on every run.
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
// Memory traffic per element: each output read and written once (8·(N² + N)·2 bytes), the
// element's simplices and the rule (cached), nothing per point.
#include <cuda_runtime.h>

#include <algorithm>
#include <span>
#include <vector>

#include "core/cuda_check.cuh"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/element_integrand.hpp"
#include "polydg/dg/quadrature_degree.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {

/// Raw device pointers of a DeviceElementData, passed by value to kernels (read-only).
template <int Dim>
struct DeviceElementDataView {
  BasisSpace space = BasisSpace::total_degree;
  const int* degrees = nullptr;                  ///< per element
  const Box<Dim>* boxes = nullptr;               ///< per element
  const Index* simplex_offsets = nullptr;        ///< element_count + 1
  const Point<Dim>* simplex_vertices = nullptr;  ///< (Dim + 1) per sub-simplex
  const Index* rule_offsets = nullptr;           ///< per degree p: points of the rule of p
  const Point<Dim>* rule_points = nullptr;       ///< reference points, all degrees
  const double* rule_weights = nullptr;          ///< reference weights, all degrees
};

/// What the element kernel reads, copied to the device from a QuadratureMesh and the simplex
/// rules of QuadratureDegrees::element(p) for every degree p ≤ max_degree: element degrees,
/// bounding boxes, sub-simplex offsets and vertices, elements grouped by degree, and the rules
/// flattened (rule of degree p at rule_offsets[p] .. rule_offsets[p + 1]).
template <int Dim>
class DeviceElementData {
 public:
  DeviceElementData(const QuadratureMesh<Dim>& mesh, const QuadratureDegrees& degrees)
      : space_(mesh.space),
        element_count_(mesh.element_count()),
        degree_offsets_(mesh.degree_offsets),
        degrees_(std::span<const int>(mesh.element_degrees)),
        boxes_(std::span<const Box<Dim>>(mesh.element_boxes)),
        simplex_offsets_(std::span<const Index>(mesh.element_simplex_offsets)),
        elements_by_degree_(std::span<const Index>(mesh.elements_by_degree)) {
    std::vector<Point<Dim>> vertices;
    vertices.reserve(mesh.simplex_vertices.size() * (Dim + 1));
    for (const auto& simplex : mesh.simplex_vertices)
      for (const Point<Dim>& v : simplex) vertices.push_back(v);
    simplex_vertices_ = device::DeviceBuffer<Point<Dim>>(std::span<const Point<Dim>>(vertices));

    std::vector<Index> offsets{0};
    std::vector<Point<Dim>> points;
    std::vector<double> weights;
    rule_sizes_.clear();
    for (int p = 0; p <= mesh.max_degree(); ++p) {
      const auto& rule = simplex_rule<Dim>(degrees.element(p));
      points.insert(points.end(), rule.points.begin(), rule.points.end());
      weights.insert(weights.end(), rule.weights.begin(), rule.weights.end());
      offsets.push_back(Index(points.size()));
      rule_sizes_.push_back(Index(rule.size()));
    }
    rule_offsets_ = device::DeviceBuffer<Index>(std::span<const Index>(offsets));
    rule_points_ = device::DeviceBuffer<Point<Dim>>(std::span<const Point<Dim>>(points));
    rule_weights_ = device::DeviceBuffer<double>(std::span<const double>(weights));
    max_simplices_.assign(degree_offsets_.size() - 1, 0);
    for (std::size_t p = 0; p + 1 < degree_offsets_.size(); ++p)
      for (Index k = degree_offsets_[p]; k < degree_offsets_[p + 1]; ++k) {
        const Index e = mesh.elements_by_degree[k];
        max_simplices_[p] = std::max(max_simplices_[p], mesh.element_simplex_offsets[e + 1] -
                                                            mesh.element_simplex_offsets[e]);
      }
  }

  BasisSpace space() const { return space_; }
  Index element_count() const { return element_count_; }
  int max_degree() const { return int(degree_offsets_.size()) - 2; }
  /// Elements of degree p: elements_by_degree()[degree_offsets()[p] .. degree_offsets()[p + 1]).
  const std::vector<Index>& degree_offsets() const { return degree_offsets_; }
  const Index* elements_by_degree() const { return elements_by_degree_.data(); }
  /// Points of the rule of degree p (host copy of the sizes).
  Index rule_size(int p) const { return rule_sizes_[p]; }
  /// The most sub-simplices of an element of degree p.
  Index max_simplices(int p) const { return max_simplices_[p]; }

  DeviceElementDataView<Dim> view() const {
    return {space_,
            degrees_.data(),
            boxes_.data(),
            simplex_offsets_.data(),
            simplex_vertices_.data(),
            rule_offsets_.data(),
            rule_points_.data(),
            rule_weights_.data()};
  }

 private:
  BasisSpace space_;
  Index element_count_;
  std::vector<Index> degree_offsets_, rule_sizes_, max_simplices_;
  device::DeviceBuffer<int> degrees_;
  device::DeviceBuffer<Box<Dim>> boxes_;
  device::DeviceBuffer<Index> simplex_offsets_;
  device::DeviceBuffer<Index> elements_by_degree_;
  device::DeviceBuffer<Point<Dim>> simplex_vertices_;
  device::DeviceBuffer<Index> rule_offsets_;
  device::DeviceBuffer<Point<Dim>> rule_points_;
  device::DeviceBuffer<double> rule_weights_;
};

namespace device::detail {

/// Outputs one thread accumulates in registers per pass, and the most threads of a block.
inline constexpr int max_outputs_per_thread = 8;
inline constexpr int max_element_threads = 256;

/// Shared-memory layout of one batch slot (one quadrature point), in doubles.
template <int Dim>
struct ElementPointSlot {
  int n;
  POLYDG_HD constexpr int phi() const { return 0; }
  POLYDG_HD constexpr int grad() const { return n; }
  POLYDG_HD constexpr int a_grad() const { return n + n * Dim; }
  POLYDG_HD constexpr int b_grad() const { return n + 2 * n * Dim; }
  POLYDG_HD constexpr int scalars() const { return 2 * n + 2 * n * Dim; }  // w, c, f
  POLYDG_HD constexpr int size() const { return scalars() + 3; }
};

/// One thread block per element of `elements` (all of degree p, n = N_p functions); see the
/// file comment for the schedule. values / rhs: null for what is not assembled.
template <int Dim, class Coefficients>
__global__ void __launch_bounds__(max_element_threads)
    element_kernel(DeviceElementDataView<Dim> data, DeviceBlockPatternView pattern,
                   const Index* elements, int p, int n, int batch, Coefficients coefficients,
                   double* values, double* rhs) {
  extern __shared__ double shared[];
  const ElementPointSlot<Dim> slot{n};
  const Index e = elements[blockIdx.x];
  double* block = values ? values + pattern.value_offsets[pattern.diagonal_blocks[e]] : nullptr;
  double* element_rhs = rhs ? rhs + pattern.dof_offsets[e] : nullptr;
  const int matrix_outputs = block ? n * n : 0;
  const int outputs = matrix_outputs + (element_rhs ? n : 0);
  const Index simplex_begin = data.simplex_offsets[e];
  const Index rule_begin = data.rule_offsets[p];
  const Index rule_size = data.rule_offsets[p + 1] - rule_begin;
  const GlobalIndex point_count =
      GlobalIndex(data.simplex_offsets[e + 1] - simplex_begin) * rule_size;
  const Box<Dim> box = data.boxes[e];
  const int threads = int(blockDim.x);
  const int t = int(threadIdx.x);

  for (int pass = 0; pass < outputs; pass += threads * max_outputs_per_thread) {
    double sum[max_outputs_per_thread];
    for (int k = 0; k < max_outputs_per_thread; ++k) {
      const int o = pass + t + k * threads;
      sum[k] = o < matrix_outputs ? block[o] : o < outputs ? element_rhs[o - matrix_outputs] : 0.0;
    }
    for (GlobalIndex first = 0; first < point_count; first += batch) {
      const int count = int(point_count - first < batch ? point_count - first : batch);
      __syncthreads();  // the previous batch is read by every thread
      if (t < count) {
        double* s = shared + t * slot.size();
        const GlobalIndex k = first + t;
        const Point<Dim>* vertices =
            data.simplex_vertices + (simplex_begin + k / rule_size) * (Dim + 1);
        const Index q = rule_begin + Index(k % rule_size);
        const double jacobian = affine_measure_ratio<Dim, Dim>(vertices);
        const Point<Dim> x = map_reference_point<Dim, Dim>(vertices, data.rule_points[q]);
        const double w = data.rule_weights[q] * jacobian;
        double* phi = s + slot.phi();
        double(*grad)[Dim] = reinterpret_cast<double(*)[Dim]>(s + slot.grad());
        evaluate_space_basis_gradients<Dim, double>(data.space, p, box, x, phi, grad);
        s[slot.scalars()] = w;
        s[slot.scalars() + 1] = 0.0;  // c and f stay 0 for a target not assembled
        s[slot.scalars() + 2] = 0.0;
        if (block) {
          const Tensor<Dim> a = coefficients.diffusion(x);
          const Point<Dim> b = coefficients.advection(x);
          s[slot.scalars() + 1] = coefficients.reaction(x);
          Point<Dim>* a_grad = reinterpret_cast<Point<Dim>*>(s + slot.a_grad());
          for (int j = 0; j < n; ++j)
            element_trial_terms<Dim>(a, b, grad[j], a_grad[j], s[slot.b_grad() + j]);
        }
        if (element_rhs) s[slot.scalars() + 2] = coefficients.source(x);
      }
      __syncthreads();
      for (int m = 0; m < count; ++m) {
        const double* s = shared + m * slot.size();
        const double* phi = s + slot.phi();
        const double(*grad)[Dim] = reinterpret_cast<const double(*)[Dim]>(s + slot.grad());
        const Point<Dim>* a_grad = reinterpret_cast<const Point<Dim>*>(s + slot.a_grad());
        const double w = s[slot.scalars()], c = s[slot.scalars() + 1], f = s[slot.scalars() + 2];
        for (int k = 0; k < max_outputs_per_thread; ++k) {
          const int o = pass + t + k * threads;
          if (o < matrix_outputs) {
            const int i = o / n, j = o - i * n;
            sum[k] +=
                element_entry<Dim>(grad[i], phi[i], a_grad[j], s[slot.b_grad() + j], phi[j], c, w);
          } else if (o < outputs) {
            sum[k] += source_entry(phi[o - matrix_outputs], f, w);
          }
        }
      }
    }
    for (int k = 0; k < max_outputs_per_thread; ++k) {
      const int o = pass + t + k * threads;
      if (o < matrix_outputs)
        block[o] = sum[k];
      else if (o < outputs)
        element_rhs[o - matrix_outputs] = sum[k];
    }
  }
}

}  // namespace device::detail

/// Adds the element integrals into the diagonal blocks of `values` (the value array of a block
/// matrix on `pattern`, device memory) and into `rhs` (dof_count entries, device memory); a
/// null pointer skips that target. The pattern must be the one built for data's mesh (block
/// sizes N_p of data's space). Coefficients: diffusion, advection, reaction (matrix) and source
/// (rhs) are called on the device. Unlike the CPU kernel, non-finite coefficient values are not
/// detected here. Asynchronous on the default stream (launch errors are reported at once).
template <int Dim, class Coefficients>
void assemble_elements_on_device(const DeviceElementData<Dim>& data,
                                 const DeviceBlockPatternView& pattern,
                                 const Coefficients& coefficients, double* values, double* rhs) {
  if (!values && !rhs) return;
  constexpr int shared_budget = 40 * 1024;  // bytes: under the 48 KiB default, no opt-in
  constexpr int max_threads = device::detail::max_element_threads;
  const auto& offsets = data.degree_offsets();
  for (int p = 0; p + 1 < int(offsets.size()); ++p) {
    const Index count = offsets[p + 1] - offsets[p];
    if (count == 0) continue;
    const int n = space_basis_size(data.space(), Dim, p);
    const int outputs = (values ? n * n : 0) + (rhs ? n : 0);
    const int threads = std::min(max_threads, (outputs + 31) / 32 * 32);
    const int slot_bytes = device::detail::ElementPointSlot<Dim>{n}.size() * int(sizeof(double));
    const GlobalIndex points = GlobalIndex(data.max_simplices(p)) * data.rule_size(p);
    const int batch = int(std::max<GlobalIndex>(
        1, std::min<GlobalIndex>(
               {GlobalIndex(threads), GlobalIndex(shared_budget / slot_bytes), points})));
    if (batch * slot_bytes > 48 * 1024)
      raise("assemble_elements_on_device: degree ", p, " needs ", batch * slot_bytes,
            " bytes of shared memory per element (more than 48 KiB)");
    device::detail::element_kernel<Dim, Coefficients>
        <<<static_cast<unsigned>(count), threads, std::size_t(batch) * slot_bytes>>>(
            data.view(), pattern, data.elements_by_degree() + offsets[p], p, n, batch, coefficients,
            values, rhs);
    POLYDG_CUDA_CHECK_LAUNCH("element_kernel");
  }
}

}  // namespace polydg
