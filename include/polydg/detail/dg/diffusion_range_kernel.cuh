#pragma once
// Per-element entrywise extrema of A over the element's quadrature points on the device (the
// penalty's ā, see polydg/dg/penalty.hpp): the CUDA counterpart of compute_diffusion_ranges
// (polydg/dg/diffusion_ranges.hpp), the same points (mapped with FMAs: the CPU's to rounding).
// min and max are exact, so the order of the points does not change the ranges (a ±0 may come
// out as the other zero, which the penalty does not see). A group of range_lanes lanes per
// element, each over every range_lanes-th point, then the lanes' extrema combined by shuffles
// in a fixed order (the same bits on every run): one thread per element walked all its points
// (19 at P_1 in 2D+1) one after another, a sizeable part of a P_1 re-assembly. Non-finite A is
// not detected here.
#include <cuda_runtime.h>

#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/dg/penalty.hpp"
#include "polydg/dg/point_coefficients.hpp"
#include "polydg/fem/affine_simplex_map.hpp"

namespace polydg {
namespace device::detail {

inline constexpr int range_lanes = 8;  // divides 32: a group never spans two warps

template <int Dim, class Coefficients>
__global__ void diffusion_range_kernel(DeviceQuadratureMeshView<Dim> mesh, Index element_count,
                                       Coefficients coefficients, DiffusionRange<Dim>* ranges) {
  const GlobalIndex thread = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  const Index e = Index(thread / range_lanes);
  const int lane = int(thread % range_lanes);
  // Every lane stays to the shuffles (whole warps: the grid's threads are a multiple of 32).
  DiffusionRange<Dim> range{};
  bool seen = false;  // this lane has a point
  if (e < element_count) {
    const int p = mesh.degrees[e];
    const Index rule_begin = mesh.element_rule_offsets[p];
    const Index rule_size = mesh.element_rule_offsets[p + 1] - rule_begin;
    const Index simplex_begin = mesh.simplex_offsets[e];
    const GlobalIndex points =
        GlobalIndex(mesh.simplex_offsets[e + 1] - simplex_begin) * GlobalIndex(rule_size);
    for (GlobalIndex k = lane; k < points; k += range_lanes) {
      const Index s = simplex_begin + Index(k / rule_size);
      const Point<Dim> x = map_reference_point<Dim, Dim>(
          mesh.simplex_vertices + GlobalIndex(s) * (Dim + 1),
          mesh.element_rule_points[rule_begin + Index(k % rule_size)]);
      PointIndex point{PointKind::element, 0};
      if constexpr (PointIndexedCoefficient<decltype(coefficients.diffusion)>)
        point.index = mesh.element_point_offsets[s] + Index(k % rule_size);
      const Tensor<Dim> a = coefficient_at(coefficients.diffusion, point, x);
      for (int i = 0; i < Dim; ++i)
        for (int j = 0; j < Dim; ++j) {
          range.lower[i][j] = seen ? fmin(range.lower[i][j], a[i][j]) : a[i][j];
          range.upper[i][j] = seen ? fmax(range.upper[i][j], a[i][j]) : a[i][j];
        }
      seen = true;
    }
  }
  for (int offset = range_lanes / 2; offset > 0; offset /= 2) {
    const bool other_seen = __shfl_xor_sync(0xffffffffu, int(seen), offset, range_lanes) != 0;
    for (int i = 0; i < Dim; ++i)
      for (int j = 0; j < Dim; ++j) {
        const double lower = __shfl_xor_sync(0xffffffffu, range.lower[i][j], offset, range_lanes);
        const double upper = __shfl_xor_sync(0xffffffffu, range.upper[i][j], offset, range_lanes);
        if (other_seen) {
          range.lower[i][j] = seen ? fmin(range.lower[i][j], lower) : lower;
          range.upper[i][j] = seen ? fmax(range.upper[i][j], upper) : upper;
        }
      }
    seen = seen || other_seen;
  }
  if (e < element_count && lane == 0) ranges[e] = range;
}

}  // namespace device::detail

/// ranges[e] for every element (device memory, element_count entries). Asynchronous.
template <int Dim, class Coefficients>
void compute_diffusion_ranges_on_device(const DeviceQuadratureMesh<Dim>& mesh,
                                        const Coefficients& coefficients,
                                        DiffusionRange<Dim>* ranges,
                                        cudaStream_t stream = nullptr) {
  const Index count = mesh.element_count();
  if (count == 0) return;
  constexpr int threads = 128;
  constexpr int elements_per_block = threads / device::detail::range_lanes;
  device::detail::diffusion_range_kernel<Dim, Coefficients>
      <<<static_cast<unsigned>((count + elements_per_block - 1) / elements_per_block), threads, 0,
         stream>>>(mesh.view(), count, coefficients, ranges);
  device::detail::check_cuda(cudaGetLastError(), "diffusion range kernel", __FILE__, __LINE__);
}

}  // namespace polydg
