#pragma once
// The CUDA kernels of DeviceExplicitTriangleDG and DeviceTimeStepper
// (polydg/cuda/device_explicit_dg.cuh; docs/theory.md, "Explicit path for conservation laws").
// They read the arrays of explicit_dg.hpp's ResidualView, with device pointers, in the same
// layouts, and call the same POLYDG_HD functions for the physics (Law::flux, the wave speed,
// local_lax_friedrichs_flux, the boundary functor, ResidualView's indexing).
//
// Two families:
//  * generic_*: one thread per facet / element running explicit_dg.hpp's facet_flux_kernel and
//    element_residual_kernel as they are (any degree; run-time basis size, so the per-thread
//    accumulators of max_dubiner_basis_size entries live in local memory), then the stage
//    update and the wave speed in kernels of their own.
//  * fixed_degree_*<Degree>: the same loops with the basis size N and the edge point count
//    Q = p + 1 as compile-time constants, so the loops over modes, variables and edge points
//    unroll and the per-thread arrays stay in registers. The facet kernel reads each side's
//    coefficients once for all Q points (the CPU re-reads them per point; each sum still runs
//    over the modes in the same order). The element kernel keeps one accumulator: the surface
//    terms are scaled by 1/|det J| as they are added instead of once at the end (half the
//    registers of a volume and a surface array). Where an element has few coefficients
//    (m·N ≤ largest_fused_update_size) it ends with the Runge–Kutta stage update (StageUpdate)
//    and, at a step's last stage, the next step's wave speed on the new coefficients
//    (WaveSpeedPartials), so the residual never goes through memory; otherwise it writes the
//    residual, and stage_update_kernel and fixed_degree_wave_speed_kernel follow.
// With nvcc's contraction of a·b + c into fused multiply-adds, both families agree with the CPU
// to rounding, not bit for bit. Each value is written by one thread in a fixed sequence of
// operations and the reductions are max / min (exact, so independent of their order): no
// atomics, and every run gives the same bits.
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/dubiner_basis.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/numerical_flux.hpp"

namespace polydg::hyperbolic::detail {

/// Threads per block of the element kernels (the fixed-degree ones take up to 255 registers per
/// thread for Euler at p = 3, 4: 128 threads keep two blocks per multiprocessor).
inline constexpr int element_block_size = 128;
inline constexpr int facet_block_size = 128;
/// Threads per block of the stand-alone wave-speed kernel, the reduction's last pass and the
/// pointwise stage update.
inline constexpr int reduction_block_size = 256;
/// The degrees with fixed-degree kernels; above, the generic ones.
inline constexpr int largest_fixed_degree = 4;
/// The most coefficients per element (m·N) for which the fixed-degree element kernel applies
/// the stage update itself. Fusing saves writing and reading the residual, but the update's
/// loads of y and the RK4 sum come at the end of a kernel that, with m·N accumulators, runs few
/// threads per multiprocessor, and they are slow there; a pointwise kernel at full occupancy
/// moves them faster. Measured on an H200 (RK4, seconds per element-step, fused / separate):
/// Euler p = 1 (m·N = 12) 1.28e-9 / 1.33e-9, p = 2 (24) 2.63e-9 / 2.52e-9, p = 4 (60)
/// 10.8e-9 / 8.3e-9; linear advection p = 2 (6) 0.73e-9 / 0.81e-9, p = 4 (15) 2.48e-9 / 2.30e-9.
inline constexpr int largest_fused_update_size = 12;
/// "No non-physical state found" in the reduction of WaveSpeedPartials::bad_point.
inline constexpr long long no_bad_point = LLONG_MAX;

/// The basis size of degree p, as a constant expression.
template <int Degree>
inline constexpr int fixed_basis_size = dubiner_index(Degree + 1, 0);

/// Whether the fixed-degree element kernel of Law at Degree applies the stage update itself.
template <class Law, int Degree>
inline constexpr bool fuses_stage_update =
    Law::variables* fixed_basis_size<Degree> <= largest_fused_update_size;

/// What the element kernel (or, where it writes the residual, stage_update_kernel) makes of the
/// residual R_k = R(u)_k at coefficient k: the Runge–Kutta stage formulas of
/// explicit_time_stepping.hpp, written the same way (same operands, same order):
///   residual   out = R
///   combine    out = start_weight·start + stage_weight·(u + rate_weight·R); without `start`
///              (null), out = stage_weight·(u + rate_weight·R)
///   rk4_stage  sum = R (first_rk4_stage) or sum + 2R;  out = start + rate_weight·R
///   rk4_final  out = start + rate_weight·(sum + R)
/// Element c reads and writes only its own entries of u, start, sum and out, so out may be u
/// or start (updates in place).
struct StageUpdate {
  enum class Kind : int { residual, combine, rk4_stage, rk4_final };
  Kind kind = Kind::residual;
  double* out = nullptr;
  const double* start = nullptr;
  double* sum = nullptr;
  double start_weight = 0, stage_weight = 1, rate_weight = 0;
  bool first_rk4_stage = false;

  /// Asks L2 for the entries of start and sum that apply(k, ...) will read: issued when the
  /// element kernel starts, they arrive while it computes the residual (no registers held).
  __device__ void prefetch(std::size_t k) const {
    const bool reads_start = kind == Kind::rk4_stage || kind == Kind::rk4_final ||
                             (kind == Kind::combine && start != nullptr);
    const bool reads_sum = kind == Kind::rk4_final || (kind == Kind::rk4_stage && !first_rk4_stage);
    if (reads_start) asm volatile("prefetch.global.L2 [%0];" ::"l"(start + k));
    if (reads_sum) asm volatile("prefetch.global.L2 [%0];" ::"l"(sum + k));
  }

  /// The new value of entry k (u: the stage's input vector); updates sum[k] for rk4_stage.
  __device__ double apply(std::size_t k, const double* u, double rate) const {
    switch (kind) {
      case Kind::residual:
        return rate;
      case Kind::combine: {
        const double moved = stage_weight * (u[k] + rate_weight * rate);
        return start ? start_weight * start[k] + moved : moved;
      }
      case Kind::rk4_stage:
        sum[k] = first_rk4_stage ? rate : sum[k] + 2.0 * rate;
        return start[k] + rate_weight * rate;
      case Kind::rk4_final:
        return start[k] + rate_weight * (sum[k] + rate);
    }
    return rate;
  }
};

/// Per-block results of a wave-speed reduction: the largest speed and the least
/// element · volume_points + q of a volume point q whose state is not physical (no_bad_point if
/// none). speed == nullptr: no wave speed wanted.
struct WaveSpeedPartials {
  double* speed = nullptr;
  long long* bad_point = nullptr;
  /// The time at which the speeds are taken (of the coefficients they are taken from).
  double time = 0;
  /// Only the elements below this count are reduced: on a rank's part of a partitioned mesh,
  /// its owned elements (the ghosts' coefficients are stale between exchanges).
  Index elements = std::numeric_limits<Index>::max();

  __host__ __device__ bool counts(std::int64_t element) const { return element < elements; }
};

/// The facets a facet kernel computes: all (the default); those whose elements are all below
/// `ghosts_from` (on a rank's part of a partitioned mesh, the facets it can compute before the
/// ghosts' coefficients arrive); or, `listed`, the list_count facets of `list` (those with a
/// ghost side, computed after). DistributedDeviceExplicitDG overlaps its halo exchange so.
struct FacetSelection {
  Index ghosts_from = std::numeric_limits<Index>::max();
  bool listed = false;
  const Index* list = nullptr;
  Index list_count = 0;

  /// Threads to launch over a view of `facets` facets.
  Index threads(Index facets) const { return listed ? list_count : facets; }
  /// Thread `thread`'s facet, or −1 where it has none (facet_element: the view's [side · facets
  /// + f] array).
  __device__ Index facet(std::int64_t thread, const Index* facet_element, Index facets) const {
    if (listed) return thread < list_count ? list[thread] : -1;
    if (thread >= facets) return -1;
    const Index f = Index(thread);
    const bool local = facet_element[f] < ghosts_from &&
                       facet_element[std::size_t(facets) + std::size_t(f)] < ghosts_from;
    return local ? f : -1;
  }
};

/// The reduction's result (one per object, copied to the host).
struct WaveSpeedResult {
  double speed;
  long long bad_point;
};

/// ExplicitTriangleDG::max_wave_speed's loop body for one volume point: a non-physical state
/// marks the point, else the largest speed over the four directions is kept (a < b ? b : a, as
/// std::max: a NaN speed never replaces a number).
template <class Law>
__device__ void accumulate_wave_speed(const ResidualView& g, const Law& law,
                                      const State<Law::variables>& uq, Index c, int q, double t,
                                      double& speed, long long& bad_point) {
  if (!law.is_physical(uq)) {
    const long long point = static_cast<long long>(c) * g.volume_points + q;
    bad_point = point < bad_point ? point : bad_point;
    return;
  }
  const double s = sampled_max_wave_speed(law, uq, g.volume_point(c, q), t);
  speed = speed < s ? s : speed;
}

/// accumulate_wave_speed at each volume point of element c from its modes held by the thread,
/// modes[v][i] (N = the basis size), each point's sum over the modes in ascending order: the
/// fixed-degree kernels' and the stage limiter's wave speed of the coefficients in registers.
template <int N, class Law>
__device__ void accumulate_element_wave_speed(const ResidualView& g, const Law& law,
                                              const double (&modes)[Law::variables][N], Index c,
                                              double t, double& speed, long long& bad_point) {
  constexpr int m = Law::variables;
  for (int q = 0; q < g.volume_points; ++q) {
    const double* phi = g.volume_values + std::size_t(q) * N;
    State<m> uq;
    POLYDG_UNROLL
    for (int v = 0; v < m; ++v) {
      double sum = 0;
      POLYDG_UNROLL
      for (int i = 0; i < N; ++i) sum += modes[v][i] * phi[i];
      uq[v] = sum;
    }
    accumulate_wave_speed(g, law, uq, c, q, t, speed, bad_point);
  }
}

/// Max of `speed` and min of `bad_point` over the block, written by thread 0 to *block_speed
/// and *block_bad_point. Every thread of the block must call it (it synchronises); blockDim.x a
/// multiple of 32, at most 1024.
__device__ inline void reduce_wave_speed_block(double speed, long long bad_point,
                                               double* block_speed, long long* block_bad_point) {
  __shared__ double warp_speed[32];
  __shared__ long long warp_bad_point[32];
  const auto reduce_warp = [](double& s, long long& b) {
    for (int offset = 16; offset > 0; offset /= 2) {
      const double other_speed = __shfl_down_sync(0xffffffffu, s, offset);
      const long long other_bad = __shfl_down_sync(0xffffffffu, b, offset);
      s = s < other_speed ? other_speed : s;
      b = other_bad < b ? other_bad : b;
    }
  };
  reduce_warp(speed, bad_point);
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  if (lane == 0) {
    warp_speed[warp] = speed;
    warp_bad_point[warp] = bad_point;
  }
  __syncthreads();
  if (warp == 0) {
    const int warps = int(blockDim.x) / 32;
    speed = lane < warps ? warp_speed[lane] : 0.0;
    bad_point = lane < warps ? warp_bad_point[lane] : no_bad_point;
    reduce_warp(speed, bad_point);
    if (lane == 0) {
      *block_speed = speed;
      *block_bad_point = bad_point;
    }
  }
}

/// One thread per element: ExplicitTriangleDG::max_wave_speed's loop (volume_state, the CPU's
/// accessor, at run-time basis size), reduced per block into partials[blockIdx.x].
template <class Law>
__global__ void __launch_bounds__(reduction_block_size)
    wave_speed_kernel(ResidualView g, Law law, const double* u, WaveSpeedPartials partials) {
  constexpr int m = Law::variables;
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double speed = 0;
  long long bad_point = no_bad_point;
  if (c < g.elements && partials.counts(c))
    for (int q = 0; q < g.volume_points; ++q)
      accumulate_wave_speed(g, law, g.volume_state<m>(u, Index(c), q), Index(c), q, partials.time,
                            speed, bad_point);
  reduce_wave_speed_block(speed, bad_point, partials.speed + blockIdx.x,
                          partials.bad_point + blockIdx.x);
}

/// wave_speed_kernel at a fixed degree: the coefficients read once into registers, each
/// point's sum over the modes in the same order.
template <int Degree, class Law>
__global__ void __launch_bounds__(reduction_block_size)
    fixed_degree_wave_speed_kernel(ResidualView g, Law law, const double* u,
                                   WaveSpeedPartials partials) {
  constexpr int m = Law::variables;
  constexpr int n = fixed_basis_size<Degree>;
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double speed = 0;
  long long bad_point = no_bad_point;
  if (c < g.elements && partials.counts(c)) {
    double coefficients[m][n];
    POLYDG_UNROLL
    for (int v = 0; v < m; ++v) {
      POLYDG_UNROLL
      for (int i = 0; i < n; ++i) coefficients[v][i] = u[g.coefficient(Index(c), v, i)];
    }
    accumulate_element_wave_speed<n>(g, law, coefficients, Index(c), partials.time, speed,
                                     bad_point);
  }
  reduce_wave_speed_block(speed, bad_point, partials.speed + blockIdx.x,
                          partials.bad_point + blockIdx.x);
}

/// One block: the per-block partials [0, blocks) into *result.
inline __global__ void __launch_bounds__(reduction_block_size)
    finish_wave_speed_kernel(const double* block_speed, const long long* block_bad_point,
                             int blocks, WaveSpeedResult* result) {
  double speed = 0;
  long long bad_point = no_bad_point;
  for (int b = int(threadIdx.x); b < blocks; b += int(blockDim.x)) {
    speed = speed < block_speed[b] ? block_speed[b] : speed;
    bad_point = block_bad_point[b] < bad_point ? block_bad_point[b] : bad_point;
  }
  reduce_wave_speed_block(speed, bad_point, &result->speed, &result->bad_point);
}

/// Generic path, pass 1: explicit_dg.hpp's facet_flux_kernel for facet f.
template <class Law, class Boundary>
__global__ void __launch_bounds__(facet_block_size)
    generic_facet_kernel(ResidualView g, Law law, Boundary boundary, const double* u, double t,
                         double* flux, FacetSelection selection) {
  const Index f = selection.facet(std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                  g.facet_element, g.facets);
  if (f >= 0) facet_flux_kernel(g, law, boundary, u, t, f, flux);
}

/// Generic path, pass 2: explicit_dg.hpp's element_residual_kernel for element c, into r.
template <class Law>
__global__ void __launch_bounds__(element_block_size)
    generic_element_kernel(ResidualView g, Law law, const double* u, double t, const double* flux,
                           double* r) {
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < g.elements) element_residual_kernel(g, law, u, t, flux, Index(c), r);
}

/// Generic path: out[k] = update.apply(k, u, rate[k]) for k < count (pointwise).
inline __global__ void __launch_bounds__(reduction_block_size)
    stage_update_kernel(StageUpdate update, const double* u, const double* rate,
                        std::size_t count) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) update.out[k] = update.apply(k, u, rate[k]);
}

/// u_h of element c at the Q = p + 1 Gauss points of its local edge `edge` read with
/// `orientation` (ResidualView::edge_state at every q): the coefficients are read once, each
/// point's sum still runs over the modes in ascending order from 0.
template <int Degree, int M>
__device__ void edge_traces(const ResidualView& g, const double* u, Index c, int edge,
                            int orientation, State<M> (&traces)[Degree + 1]) {
  constexpr int n = fixed_basis_size<Degree>;
  constexpr int points = Degree + 1;
  // The table of (edge, orientation): phi[q * n + i] = φ_i at point q.
  const double* phi = g.edge_values + std::size_t(edge * 2 + orientation) * points * n;
  POLYDG_UNROLL
  for (int q = 0; q < points; ++q) {
    POLYDG_UNROLL
    for (int v = 0; v < M; ++v) traces[q][v] = 0;
  }
  POLYDG_UNROLL
  for (int v = 0; v < M; ++v) {
    POLYDG_UNROLL
    for (int i = 0; i < n; ++i) {
      const double coefficient = u[g.coefficient(c, v, i)];
      POLYDG_UNROLL
      for (int q = 0; q < points; ++q) traces[q][v] += coefficient * phi[q * n + i];
    }
  }
}

/// Fixed-degree pass 1, facet f: facet_flux_kernel with the traces of edge_traces.
template <int Degree, class Law, class Boundary>
__global__ void __launch_bounds__(facet_block_size)
    fixed_degree_facet_kernel(ResidualView g, Law law, Boundary boundary, const double* u, double t,
                              double* flux, FacetSelection selection) {
  constexpr int m = Law::variables;
  constexpr int points = Degree + 1;
  const Index f = selection.facet(std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                  g.facet_element, g.facets);
  if (f < 0) return;
  const std::size_t fc = std::size_t(g.facets);
  const Index left = g.facet_element[f];
  const Index right = g.facet_element[fc + f];
  const Point<2> n{g.facet_normal[f], g.facet_normal[fc + f]};
  State<m> u_left[points], u_right[points];
  edge_traces<Degree, m>(g, u, left, g.facet_local_edge[f], g.facet_orientation[f], u_left);
  if (right >= 0)
    edge_traces<Degree, m>(g, u, right, g.facet_local_edge[fc + f], g.facet_orientation[fc + f],
                           u_right);
  POLYDG_UNROLL
  for (int q = 0; q < points; ++q) {
    const double s = g.edge_parameters[q];
    const Point<2> x{g.facet_origin[f] + s * g.facet_tangent[f],
                     g.facet_origin[fc + f] + s * g.facet_tangent[fc + f]};
    const State<m> outside =
        right >= 0 ? u_right[q] : State<m>(boundary(u_left[q], x, n, t, g.facet_tag[f]));
    const State<m> value = local_lax_friedrichs_flux(law, u_left[q], outside, n, x, t);
    POLYDG_UNROLL
    for (int v = 0; v < m; ++v) flux[g.flux_entry(f, v, q)] = value[v];
  }
}

/// Fixed-degree pass 2, element c: element_residual_kernel's volume term and facet gather
/// (one accumulator, the file comment). FuseUpdate: then update.apply per coefficient into
/// update.out and, with partials.speed, the wave speed of the new coefficients at
/// partials.time, reduced per block (every thread reaches the reduction: no early return).
/// Without (update and partials unused): R into update.out, and none of that code, whose
/// registers would crowd the residual's at high m·N.
template <int Degree, class Law, bool FuseUpdate>
__global__ void __launch_bounds__(element_block_size)
    fixed_degree_element_kernel(ResidualView g, Law law, const double* u, double t,
                                const double* flux, StageUpdate update,
                                WaveSpeedPartials partials) {
  constexpr int m = Law::variables;
  constexpr int n = fixed_basis_size<Degree>;
  constexpr int points = Degree + 1;
  const std::int64_t thread = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double speed = 0;
  long long bad_point = no_bad_point;
  if (thread < g.elements) {
    const Index c = Index(thread);
    const std::size_t k = std::size_t(g.elements);
    const std::size_t fc = std::size_t(g.facets);
    if (FuseUpdate && update.kind != StageUpdate::Kind::residual) {
      POLYDG_UNROLL
      for (int v = 0; v < m; ++v) {
        POLYDG_UNROLL
        for (int i = 0; i < n; ++i) update.prefetch(g.coefficient(c, v, i));
      }
    }
    // J⁻¹, row-major: ∂φ/∂x_i = Σ_j (J⁻¹)[j][i] ∂̂φ/∂r_j.
    const double a00 = g.inverse_jacobian[c], a01 = g.inverse_jacobian[k + c];
    const double a10 = g.inverse_jacobian[2 * k + c], a11 = g.inverse_jacobian[3 * k + c];
    double rate[m][n];
    POLYDG_UNROLL
    for (int v = 0; v < m; ++v) {
      POLYDG_UNROLL
      for (int i = 0; i < n; ++i) rate[v][i] = 0;
    }

    // Volume term, Σ_q w_q (J⁻¹F)·∇̂φ_i. The coefficients are read at every point (from L1):
    // holding all m·N of them beside the m·N accumulators would spill at p = 4.
    for (int q = 0; q < g.volume_points; ++q) {
      const double* phi = g.volume_values + std::size_t(q) * n;
      State<m> uq;
      POLYDG_UNROLL
      for (int v = 0; v < m; ++v) {
        double sum = 0;
        POLYDG_UNROLL
        for (int i = 0; i < n; ++i) sum += u[g.coefficient(c, v, i)] * phi[i];
        uq[v] = sum;
      }
      const Flux<m> fq = law.flux(uq, g.volume_point(c, q), t);
      const double w = g.volume_weights[q];
      double contravariant[2][m];
      POLYDG_UNROLL
      for (int v = 0; v < m; ++v) {
        contravariant[0][v] = w * (a00 * fq[0][v] + a01 * fq[1][v]);
        contravariant[1][v] = w * (a10 * fq[0][v] + a11 * fq[1][v]);
      }
      const double* grad = g.volume_gradients + std::size_t(q) * n * 2;
      POLYDG_UNROLL
      for (int i = 0; i < n; ++i) {
        POLYDG_UNROLL
        for (int v = 0; v < m; ++v)
          rate[v][i] += contravariant[0][v] * grad[2 * i] + contravariant[1][v] * grad[2 * i + 1];
      }
    }

    // Surface term: the three facets' fluxes, with the sign of this element's side (the flux is
    // along the normal out of side 0) and the mass 1/|det J| folded into the weight.
    const double inverse_mass = 1.0 / g.determinant[c];
    POLYDG_UNROLL
    for (int e = 0; e < 3; ++e) {
      const Index f = g.element_facet[e * k + c];
      const int side = g.element_facet_side[e * k + c];
      const int o = g.facet_orientation[side * fc + f];
      const double scale = (side == 0 ? g.facet_length[f] : -g.facet_length[f]) * inverse_mass;
      POLYDG_UNROLL
      for (int q = 0; q < points; ++q) {
        const double* phi = g.edge_values + ((std::size_t(e) * 2 + o) * points + q) * n;
        const double w = scale * g.edge_weights[q];
        POLYDG_UNROLL
        for (int v = 0; v < m; ++v) {
          const double wf = w * flux[g.flux_entry(f, v, q)];
          POLYDG_UNROLL
          for (int i = 0; i < n; ++i) rate[v][i] -= wf * phi[i];
        }
      }
    }

    // The stage update; `rate` then holds the new coefficients (for the wave speed).
    POLYDG_UNROLL
    for (int v = 0; v < m; ++v) {
      POLYDG_UNROLL
      for (int i = 0; i < n; ++i) {
        const std::size_t index = g.coefficient(c, v, i);
        const double value = FuseUpdate ? update.apply(index, u, rate[v][i]) : rate[v][i];
        update.out[index] = value;
        rate[v][i] = value;
      }
    }

    if (FuseUpdate && partials.speed && partials.counts(c))
      accumulate_element_wave_speed<n>(g, law, rate, c, partials.time, speed, bad_point);
  }
  // partials.speed is the same for the whole block: all of it reduces, or none.
  if (FuseUpdate && partials.speed)
    reduce_wave_speed_block(speed, bad_point, partials.speed + blockIdx.x,
                            partials.bad_point + blockIdx.x);
}

}  // namespace polydg::hyperbolic::detail
