#pragma once
/// The explicit path's stage limiters on the GPU (docs/theory.md, "Explicit path for
/// conservation laws", limiting): DeviceBarthJespersenLimiter and DevicePositivityFix run the
/// CPU's per-element loop bodies — barth_jespersen_modes (slope_limiter.hpp) and
/// positivity_fix_modes (positivity.hpp), POLYDG_HD functions over ResidualView — with one
/// thread per element on the coefficients of a DeviceExplicitTriangleDG, each element's modes
/// in registers, for DeviceTimeStepper's stage limiter (device_explicit_dg.cuh); and
/// DeviceLimiterAndPositivityFix both in one kernel:
///
///   ExplicitTriangleDG dg(mesh, 1, problem.gas);
///   const BarthJespersenLimiter limiter(dg);
///   const PositivityFix positivity(dg);
///   DeviceExplicitTriangleDG device_dg(dg);
///   const DeviceBarthJespersenLimiter device_limiter(device_dg, limiter);
///   const DevicePositivityFix device_positivity(device_dg, positivity);
///   const DeviceLimiterAndPositivityFix both(device_limiter, device_positivity);
///   const auto limit = [&](device::DeviceBuffer<double>& v) { both(v); };
///   auto u = device_dg.upload(dg.project(initial));
///   limit(u);
///   DeviceTimeStepper(device_dg, TimeScheme::ssp_rk2, limit).advance(u, 0.0, 0.2, boundary, 0.5);
///
/// In place, without races: the limiter's element c reads the modes 0 (the means) of its facet
/// neighbours and writes only its own modes ≥ 1, and the means are never written, so no thread
/// writes what another reads, and the result does not depend on the order in which the elements
/// run: no separate array of means is needed. The positivity fix reads and writes element c
/// only. Hence DeviceLimiterAndPositivityFix can run both in one kernel, each element's modes
/// loaded into registers once (LocalElementModes) and stored once, where changed. Both are thus deterministic, and equal to the CPU's on the same data up to rounding
/// (nvcc contracts a·b + c into fused multiply-adds; device_explicit_dg.cuh).
///
/// The CPU objects are the set-up: their point tables (the limiter's points, the basis at the
/// vertices) and ε are uploaded once; the CPU objects and their solver may go afterwards, the
/// DeviceExplicitTriangleDG must outlive these. The limiter launches and returns; the
/// positivity fix waits for the device (8 bytes back) so that it can throw, as the CPU's does,
/// before the next stage runs on an inadmissible state.
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"

namespace polydg::hyperbolic {

namespace detail {

/// "Every mean admissible" in DevicePositivityFix's first-failure flag: all bits set, what a
/// byte-wise memset can write, and larger than any element index.
inline constexpr unsigned long long no_failed_element = ULLONG_MAX;

/// One thread per element: the limiter (with `linear_values`) and/or the positivity fix (with
/// `vertex_values`; null: not applied) of element c, on its modes in registers
/// (LocalElementModes: one load, one store of the modes that changed), in that order; an
/// element whose mean is not admissible lowers *first_failed to its index. The one atomic is a
/// min, whose result does not depend on the order of the threads: the least such element, as
/// the CPU's reduction finds. The same loop bodies as the CPU's (barth_jespersen_modes,
/// positivity_fix_modes), so the same arithmetic. N = the basis size (p = 1..4). A template
/// (Gas is Euler) so that every translation unit may define it: nvcc ignores `inline` on a
/// kernel.
template <int M, int N, class Gas>
__global__ void __launch_bounds__(element_block_size)
    device_stage_limiter_kernel(ResidualView g, Gas gas, const double* linear_values,
                                int point_count, const double* vertex_values, double epsilon,
                                double* u, unsigned long long* first_failed) {
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= g.elements) return;
  LocalElementModes<M, N> modes;
  modes.load(g, u, Index(c));
  if (linear_values != nullptr)
    barth_jespersen_modes<M>(g, linear_values, point_count, Index(c), u, modes);
  if (vertex_values != nullptr) {
    if constexpr (M == 4) {
      if (!positivity_fix_modes(g, gas, vertex_values, epsilon, modes))
        atomicMin(first_failed, static_cast<unsigned long long>(c));
    }
  }
  modes.store_changes(g, u, Index(c));
}

/// Blocks of element_block_size threads for one thread per element.
inline unsigned element_blocks(Index elements) {
  return unsigned((std::int64_t(elements) + element_block_size - 1) / element_block_size);
}

/// The stage limiter kernel for the solver's basis size (p = 1..4: N = 3, 6, 10, 15).
template <int M, class Gas>
void launch_stage_limiter(const ResidualView& g, const Gas& gas, const double* linear_values,
                          int point_count, const double* vertex_values, double epsilon, double* u,
                          unsigned long long* first_failed) {
  const unsigned blocks = element_blocks(g.elements);
  const auto launch = [&](auto size) {
    constexpr int n = decltype(size)::value;
    device_stage_limiter_kernel<M, n, Gas><<<blocks, element_block_size>>>(
        g, gas, linear_values, point_count, vertex_values, epsilon, u, first_failed);
  };
  switch (g.basis_size) {
    case 3:
      launch(std::integral_constant<int, 3>{});
      break;
    case 6:
      launch(std::integral_constant<int, 6>{});
      break;
    case 10:
      launch(std::integral_constant<int, 10>{});
      break;
    case 15:
      launch(std::integral_constant<int, 15>{});
      break;
    default:
      raise("device stage limiters: no kernel for ", g.basis_size, " modes (p = 1..4 only)");
  }
  POLYDG_CUDA_CHECK_LAUNCH("device_stage_limiter_kernel");
}

}  // namespace detail

/// BarthJespersenLimiter on the device: the same points and kernel (the file comment).
template <ConservationLaw Law>
class DeviceBarthJespersenLimiter {
 public:
  using Vector = device::DeviceBuffer<double>;

  /// Uploads `limiter`'s point table; `limiter` must be of the solver `dg` was made from (its
  /// point count is checked against dg's edge points). dg is referenced: it must outlive this.
  DeviceBarthJespersenLimiter(const DeviceExplicitTriangleDG<Law>& dg,
                              const BarthJespersenLimiter<Law>& limiter)
      : dg_(dg),
        points_(limiter.points()),
        point_values_(limiter.point_values()),
        point_count_(int(limiter.point_values().size() / 2)) {
    const int expected = points_ == LimiterPoints::vertices ? 3 : 3 * dg.view().edge_points;
    require(point_count_ == expected, "DeviceBarthJespersenLimiter: the limiter has ", point_count_,
            " points, the solver's ", expected, ": it was made for a solver of another degree");
  }

  LimiterPoints points() const { return points_; }

  /// Limits u (the solver's coefficient layout) in place; does not wait for the device. Throws
  /// polydg::Error for a wrong size.
  void operator()(Vector& u) const {
    require(u.size() == dg_.coefficient_count(), "DeviceBarthJespersenLimiter: ", u.size(),
            " coefficients, expected ", dg_.coefficient_count());
    if (dg_.degree() == 0 || dg_.element_count() == 0) return;  // no slopes, or nothing
    detail::launch_stage_limiter<Law::variables>(dg_.view(), dg_.law(), point_values_.data(),
                                                 point_count_, nullptr, 0.0, u.data(), nullptr);
  }

  /// The uploaded point table and its point count (for DeviceLimiterAndPositivityFix).
  const double* point_values() const { return point_values_.data(); }
  int point_count() const { return point_count_; }
  const DeviceExplicitTriangleDG<Law>& solver() const { return dg_; }

 private:
  const DeviceExplicitTriangleDG<Law>& dg_;
  LimiterPoints points_;
  device::DeviceBuffer<double> point_values_;
  int point_count_;
};

/// PositivityFix on the device: the same ε, check points and kernel (the file comment).
class DevicePositivityFix {
 public:
  using Vector = device::DeviceBuffer<double>;

  /// Uploads `fix`'s ε and vertex table; `fix` must be of the solver `dg` was made from (the
  /// basis size is checked). dg is referenced: it must outlive this.
  DevicePositivityFix(const DeviceExplicitTriangleDG<Euler>& dg, const PositivityFix& fix)
      : dg_(dg),
        epsilon_(fix.epsilon()),
        vertex_values_(fix.vertex_values()),
        first_failed_(1),
        first_failed_host_(1) {
    require(fix.vertex_values().size() == 3 * std::size_t(dg.basis_size()),
            "DevicePositivityFix: the fix's vertex table has ", fix.vertex_values().size(),
            " values, the solver's 3 x ", dg.basis_size(),
            ": it was made for a solver of another degree");
  }

  double epsilon() const { return epsilon_; }
  const DeviceExplicitTriangleDG<Euler>& solver() const { return dg_; }

  /// Fixes u in place and waits for the device. Throws polydg::Error for a wrong size, and,
  /// naming the first element (lowest index) whose mean is not admissible, after fixing all the
  /// others — PositivityFix's message, the mean read back from the device.
  void operator()(Vector& u) const {
    require(u.size() == dg_.coefficient_count(), "DevicePositivityFix: ", u.size(),
            " coefficients, expected ", dg_.coefficient_count());
    run(u, nullptr, 0);
  }

  /// The fix after the limiter (linear_values, point_count: DeviceBarthJespersenLimiter's
  /// table) in one kernel: as the limiter, then operator(), but one pass over u. Throws as
  /// operator() does.
  void run(Vector& u, const double* linear_values, int point_count) const {
    require(u.size() == dg_.coefficient_count(), "DevicePositivityFix: ", u.size(),
            " coefficients, expected ", dg_.coefficient_count());
    if (dg_.element_count() == 0) return;
    POLYDG_CUDA_CHECK(
        cudaMemsetAsync(first_failed_.data(), 0xff, sizeof(unsigned long long), nullptr));
    detail::launch_stage_limiter<4>(dg_.view(), dg_.law(), linear_values, point_count,
                                    vertex_values_.data(), epsilon_, u.data(),
                                    first_failed_.data());
    POLYDG_CUDA_CHECK(cudaMemcpyAsync(first_failed_host_.data(), first_failed_.data(),
                                      sizeof(unsigned long long), cudaMemcpyDeviceToHost, nullptr));
    POLYDG_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    if (first_failed_host_[0] != detail::no_failed_element)
      report_inadmissible_mean(u, Index(first_failed_host_[0]));
  }

 private:
  /// PositivityFix's error for element c (an error path: the four means copied one by one).
  [[noreturn]] void report_inadmissible_mean(const Vector& u, Index c) const {
    State<4> mean;
    for (int v = 0; v < 4; ++v) {
      device::copy_device_to_host(&mean[v], u.data() + dg_.coefficient_index(c, v, 0),
                                  sizeof(double));
      mean[v] *= 1.4142135623730951;  // ū = √2 u_0 (φ_0 = √2)
    }
    raise("PositivityFix: the mean state of element ", c, " has density ", mean[0],
          " and pressure ", dg_.law().pressure(mean),
          ": not admissible, so no scaling toward it is; the time step was too large for this "
          "flow (reduce the CFL number) or the data is not physical");
  }

  const DeviceExplicitTriangleDG<Euler>& dg_;
  double epsilon_;
  device::DeviceBuffer<double> vertex_values_;
  // The least failed element: device flag and its host copy. Mutable: operator() is const, as
  // the CPU's; one call at a time per object.
  mutable device::DeviceBuffer<unsigned long long> first_failed_;
  mutable device::PinnedBuffer<unsigned long long> first_failed_host_;
};

/// DeviceBarthJespersenLimiter and then DevicePositivityFix as one stage limiter, in one kernel
/// (one load and one store of each element's modes instead of two of each): race-free because
/// neither ever writes a mode 0 and the limiter reads only its neighbours' modes 0, so element c
/// may be limited and fixed while its neighbours are; the same results as the two in turn. Both
/// must be of one solver and outlive this.
class DeviceLimiterAndPositivityFix {
 public:
  using Vector = device::DeviceBuffer<double>;
  DeviceLimiterAndPositivityFix(const DeviceBarthJespersenLimiter<Euler>& limiter,
                                const DevicePositivityFix& fix)
      : limiter_(limiter), fix_(fix) {
    require(&limiter.solver() == &fix.solver(),
            "DeviceLimiterAndPositivityFix: the limiter and the fix are of different solvers");
  }
  /// Limits and fixes u in place and waits for the device; throws as DevicePositivityFix.
  void operator()(Vector& u) const {
    if (fix_.solver().degree() == 0) return fix_(u);
    fix_.run(u, limiter_.point_values(), limiter_.point_count());
  }

 private:
  const DeviceBarthJespersenLimiter<Euler>& limiter_;
  const DevicePositivityFix& fix_;
};

}  // namespace polydg::hyperbolic
