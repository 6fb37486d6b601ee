#pragma once
// The kernels of DeviceExplicitPolygonDG (polydg/cuda/device_explicit_polygon_dg.cuh): one GPU
// thread per element or sub-facet running explicit_polygon_dg.hpp's POLYDG_HD loop bodies as
// they are — the same arithmetic as the CPU's, so equal to it up to fused multiply-adds — plus
// the wave-speed reduction of ExplicitPolygonDG::max_wave_speed. Degree: the polynomial degree
// as a compile-time constant for p ≤ largest_fixed_polygon_degree (loops of constant length,
// per-thread arrays in registers), −1 above (run time, arrays in local memory). Templates, so
// that every translation unit may define them (nvcc ignores `inline` on a kernel).
#include <cstdint>

#include "polydg/core/types.hpp"
#include "polydg/detail/hyperbolic/device_explicit_kernels.cuh"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"

namespace polydg::hyperbolic::detail {

inline constexpr int polygon_block_size = 128;

/// The largest degree with kernels of compile-time sizes; above, Degree = −1 (run time).
inline constexpr int largest_fixed_polygon_degree = 4;

/// Pass 0: legendre_coefficients_kernel for each element of [first, end).
template <int Degree, int M>
__global__ void __launch_bounds__(polygon_block_size)
    polygon_legendre_kernel(PolygonResidualView g, const double* u, double* legendre, Index first,
                            Index end) {
  const std::int64_t c = first + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < end) legendre_coefficients_kernel<M, Degree>(g, u, Index(c), legendre);
}

/// Pass 1: polygon_facet_flux_kernel for each selected sub-facet.
template <int Degree, class Law, class Boundary>
__global__ void __launch_bounds__(polygon_block_size)
    polygon_facet_kernel(PolygonResidualView g, Law law, Boundary boundary, const double* legendre,
                         double t, double* flux, FacetSelection selection) {
  const Index f = selection.facet(std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                  g.facet_element, g.facets);
  if (f >= 0)
    polygon_facet_flux_kernel<Law, Boundary, Degree>(g, law, boundary, legendre, t, f, flux);
}

/// Pass 2 for each element with the stage update fused: the residual's entry k of element c
/// (polygon_element_integrals, then orthonormal_integral) goes straight into
/// update.out[k] = update.apply(k, u, R_k), so R never goes through memory. Element c reads and
/// writes only its own entries of u and the update's vectors: out may be u (StageUpdate).
template <int Degree, class Law>
__global__ void __launch_bounds__(polygon_block_size)
    polygon_element_kernel(PolygonResidualView g, Law law, const double* legendre, double t,
                           const double* flux, const double* u, StageUpdate update) {
  constexpr int m = Law::variables;
  const std::int64_t thread = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (thread >= g.elements) return;
  const Index c = Index(thread);
  double integral[m][polygon_basis_capacity<Degree>];
  polygon_element_integrals<Law, Degree>(g, law, legendre, t, flux, c, integral);
  POLYDG_UNROLL
  for (int v = 0; v < m; ++v) {
    POLYDG_UNROLL
    for (int i = 0; i < g.loop_size<Degree>(); ++i) {
      const std::size_t k = g.coefficient(c, v, i);
      update.out[k] = update.apply(k, u, g.orthonormal_integral<Degree>(integral[v], c, i));
    }
  }
}

/// ExplicitPolygonDG::max_wave_speed's loop for each element, reduced per block into
/// partials[blockIdx.x]. The bad point is the index k of the residual rule's point (numbered
/// by element), so the least is the CPU's first: least element, then point.
template <int Degree, class Law>
__global__ void __launch_bounds__(reduction_block_size)
    polygon_wave_speed_kernel(PolygonResidualView g, Law law, const double* u,
                              WaveSpeedPartials partials) {
  constexpr int m = Law::variables;
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double speed = 0;
  long long bad_point = no_bad_point;
  if (c < g.elements && partials.counts(c)) {
    double legendre[m][polygon_basis_capacity<Degree>];
    double phi[polygon_basis_capacity<Degree>];
    g.to_legendre<m, Degree>(u, Index(c), legendre);
    for (Index k = g.element_point_offsets[c]; k < g.element_point_offsets[c + 1]; ++k) {
      const Point<2> x = g.rule_point(k);
      g.legendre_values<Degree>(Index(c), x, phi);
      const State<m> uq = g.local_state_at<m, Degree>(legendre, phi);
      if (!law.is_physical(uq)) {
        bad_point = k < bad_point ? k : bad_point;
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
