#pragma once
// Per-element entrywise extrema of A over the element's quadrature points on the device (the
// penalty's ā, see polydg/dg/penalty.hpp): the CUDA counterpart of compute_diffusion_ranges
// (polydg/dg/diffusion_ranges.hpp), same points, same order, so the same ranges bit for bit
// (min and max are exact). One thread per element. Non-finite A is not detected here.
#include <cuda_runtime.h>

#include "core/cuda_check.cuh"
#include "dg/device_quadrature_mesh.cuh"
#include "polydg/dg/penalty.hpp"
#include "polydg/fem/affine_simplex_map.hpp"

namespace polydg {
namespace device::detail {

template <int Dim, class Coefficients>
__global__ void diffusion_range_kernel(DeviceQuadratureMeshView<Dim> mesh, Index element_count,
                                       Coefficients coefficients, DiffusionRange<Dim>* ranges) {
  const Index e = Index(blockIdx.x * blockDim.x + threadIdx.x);
  if (e >= element_count) return;
  const int p = mesh.degrees[e];
  const Index rule_begin = mesh.element_rule_offsets[p];
  const Index rule_end = mesh.element_rule_offsets[p + 1];
  DiffusionRange<Dim> range;
  bool first = true;
  for (Index s = mesh.simplex_offsets[e]; s < mesh.simplex_offsets[e + 1]; ++s)
    for (Index q = rule_begin; q < rule_end; ++q) {
      const Point<Dim> x = map_reference_point<Dim, Dim>(
          mesh.simplex_vertices + GlobalIndex(s) * (Dim + 1), mesh.element_rule_points[q]);
      const Tensor<Dim> a = coefficients.diffusion(x);
      for (int i = 0; i < Dim; ++i)
        for (int j = 0; j < Dim; ++j) {
          range.lower[i][j] = first ? a[i][j] : fmin(range.lower[i][j], a[i][j]);
          range.upper[i][j] = first ? a[i][j] : fmax(range.upper[i][j], a[i][j]);
        }
      first = false;
    }
  ranges[e] = range;
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
  device::detail::diffusion_range_kernel<Dim, Coefficients>
      <<<static_cast<unsigned>((count + threads - 1) / threads), threads, 0, stream>>>(
          mesh.view(), count, coefficients, ranges);
  device::detail::check_cuda(cudaGetLastError(), "diffusion range kernel", __FILE__, __LINE__);
}

}  // namespace polydg
