#pragma once
// The kernels of DeviceExplicitPolygonDG (polydg/cuda/device_explicit_polygon_dg.cuh): one GPU
// thread per element or sub-facet running explicit_polygon_dg.hpp's POLYDG_HD loop bodies as
// they are — the same arithmetic as the CPU's, so equal to it up to fused multiply-adds — plus
// the wave-speed reduction of ExplicitPolygonDG::max_wave_speed. Templates, so that every
// translation unit may define them (nvcc ignores `inline` on a kernel).
#include <cstdint>

#include "polydg/core/types.hpp"
#include "polydg/detail/hyperbolic/device_explicit_kernels.cuh"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"

namespace polydg::hyperbolic::detail {

inline constexpr int polygon_block_size = 128;

/// Pass 0: legendre_coefficients_kernel for each element.
template <int M>
__global__ void __launch_bounds__(polygon_block_size)
    polygon_legendre_kernel(PolygonResidualView g, const double* u, double* legendre) {
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < g.elements) legendre_coefficients_kernel<M>(g, u, Index(c), legendre);
}

/// Pass 1: polygon_facet_flux_kernel for each sub-facet.
template <class Law, class Boundary>
__global__ void __launch_bounds__(polygon_block_size)
    polygon_facet_kernel(PolygonResidualView g, Law law, Boundary boundary, const double* legendre,
                         double t, double* flux) {
  const std::int64_t f = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (f < g.facets) polygon_facet_flux_kernel(g, law, boundary, legendre, t, Index(f), flux);
}

/// Pass 2: polygon_element_residual_kernel for each element, r = R(u).
template <class Law>
__global__ void __launch_bounds__(polygon_block_size)
    polygon_element_kernel(PolygonResidualView g, Law law, const double* legendre, double t,
                           const double* flux, double* r) {
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < g.elements) polygon_element_residual_kernel(g, law, legendre, t, flux, Index(c), r);
}

/// ExplicitPolygonDG::max_wave_speed's loop for each element, reduced per block into
/// partials[blockIdx.x]. The bad point is s · volume_points + q of the sub-triangle s (numbered
/// by element) and its point q, so the least is the CPU's first: least element, then point.
template <class Law>
__global__ void __launch_bounds__(reduction_block_size)
    polygon_wave_speed_kernel(PolygonResidualView g, Law law, const double* u,
                              WaveSpeedPartials partials) {
  constexpr int m = Law::variables;
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double speed = 0;
  long long bad_point = no_bad_point;
  if (c < g.elements) {
    double legendre[m][max_polygon_basis_size];
    double phi[max_polygon_basis_size];
    g.to_legendre<m>(u, Index(c), legendre);
    for (Index s = g.element_triangle_offsets[c]; s < g.element_triangle_offsets[c + 1]; ++s)
      for (int q = 0; q < g.volume_points; ++q) {
        const Point<2> x = g.volume_point(s, q);
        g.legendre_values(Index(c), x, phi);
        const State<m> uq = g.local_state_at<m>(legendre, phi);
        if (!law.is_physical(uq)) {
          const long long point = static_cast<long long>(s) * g.volume_points + q;
          bad_point = point < bad_point ? point : bad_point;
          continue;
        }
        const double sample = sampled_max_wave_speed(law, uq, x, partials.time);
        speed = speed < sample ? sample : speed;
      }
  }
  reduce_wave_speed_block(speed, bad_point, partials.speed + blockIdx.x,
                          partials.bad_point + blockIdx.x);
}

}  // namespace polydg::hyperbolic::detail
