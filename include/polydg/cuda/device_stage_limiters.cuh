#pragma once
/// The explicit path's stage limiters on the GPU (docs/theory.md, "Explicit path for
/// conservation laws", limiting): DeviceBarthJespersenLimiter and DevicePositivityFix run the
/// CPU's per-element loop bodies — barth_jespersen_modes (slope_limiter.hpp) and
/// positivity_fix_modes (positivity.hpp), POLYDG_HD functions over ResidualView — with one
/// thread per element on the coefficients of a DeviceExplicitTriangleDG, for DeviceTimeStepper's
/// stage limiter (device_explicit_dg.cuh); DeviceLimiterAndPositivityFix runs both in one
/// kernel, the stage limiter of an Euler run:
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
/// Registers: for p ≤ largest_local_modes_degree (explicit_dg.hpp; p = 1..4, N = 3, 6, 10, 15
/// modes) a thread loads its element's m·N coefficients once into a LocalElementModes, runs the
/// loop bodies on them, and stores the modes ≥ 1 of the variables that changed, nothing where
/// nothing did; the limiter's other reads are its neighbours' means and the mesh's connectivity,
/// the fix's none (the point tables are the same for every thread). Above p = 4 it works in
/// place (ElementModes: every mode read from u at each use), as the CPU does there.
///
/// In place, without races: the limiter's element c reads the modes 0 (the means) of its facet
/// neighbours and writes only its own modes ≥ 1; the positivity fix reads and writes element c
/// only, and also never writes a mode 0. So no thread writes anything another thread reads, and
/// the result does not depend on the order in which the elements run: no separate array of means
/// is needed. The same argument covers the fused kernel: element c's thread may limit and fix c
/// while its neighbours' threads limit and fix them, since all it reads of them are their means,
/// which neither step changes; c's limiter sees the same neighbour means as a limiter kernel of
/// its own would, and c's fix the limited modes of c, as after it. Hence
/// DeviceLimiterAndPositivityFix gives the bits of DeviceBarthJespersenLimiter and then
/// DevicePositivityFix, with one pass over u instead of two. All are deterministic, and equal to
/// the CPU's on the same data up to rounding (nvcc contracts a·b + c into fused multiply-adds;
/// device_explicit_dg.cuh).
///
/// The CPU objects are the set-up: their point tables (the limiter's points, the basis at the
/// fix's check points) and ε are uploaded once; the CPU objects and their solver may go afterwards,
/// the DeviceExplicitTriangleDG must outlive these. The limiter launches and returns. Called as
/// functions, the positivity fix (alone or fused) waits for the device so that it can throw, as
/// the CPU's does, before the next stage runs on an inadmissible state; handed to
/// DeviceTimeStepper as they are, all three launch without waiting, the fix records its first
/// failure and the stepper has it thrown after the wait it makes once per step anyway, and the
/// last stage's kernel also reduces the next step's wave speed (launch, check).
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

/// The stage limiters of element c on its modes (ElementModes or LocalElementModes): the slope
/// limiter where `linear_values` is given (not null: its table of `linear_count` points), then,
/// for Euler, the positivity fix where `check_values` is (its table of `check_count` points); an
/// element whose mean is not admissible lowers *first_failed to its index. The one atomic is a
/// min, whose result does not depend on the order of the threads: the least such element, as
/// the CPU's reduction finds. The same loop bodies as the CPU's (barth_jespersen_modes,
/// positivity_fix_modes), so the same arithmetic.
template <class Law, class Modes>
__device__ void limit_element(const ResidualView& g, const Law& law, const double* linear_values,
                              int linear_count, const double* check_values, int check_count,
                              double epsilon, Index c, double* u, unsigned long long* first_failed,
                              Modes& modes) {
  if (linear_values != nullptr)
    barth_jespersen_modes<Law::variables>(g, linear_values, linear_count, c, u, modes);
  if constexpr (std::is_same_v<Law, Euler>) {
    if (check_values != nullptr &&
        !positivity_fix_modes(law, check_values, check_count, epsilon, modes))
      atomicMin(first_failed, static_cast<unsigned long long>(c));
  }
}

/// One thread per element: limit_element on element c. N > 0 (the basis size, p ≤
/// largest_local_modes_degree): its modes in registers (LocalElementModes: one load, one store
/// of the variables that changed); N = 0: in place (ElementModes, any basis size; every mode read
/// from and written to u at each use, as the CPU does above p = 4). With partials.speed, also
/// the wave speed of the limited modes at partials.time, reduced per block as
/// fixed_degree_wave_speed_kernel does (the same sums in the same order), so that a time stepper
/// needs no pass of its own over the limited coefficients. A template (Law) so that every
/// translation unit may define it: nvcc ignores `inline` on a kernel.
template <class Law, int N>
__global__ void __launch_bounds__(element_block_size)
    device_stage_limiter_kernel(ResidualView g, Law law, const double* linear_values,
                                int linear_count, const double* check_values, int check_count,
                                double epsilon, double* u, unsigned long long* first_failed,
                                WaveSpeedPartials partials) {
  constexpr int m = Law::variables;
  const std::int64_t c = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double speed = 0;
  long long bad_point = no_bad_point;
  if (c < g.elements) {
    if constexpr (N > 0) {
      LocalElementModes<m, N> modes;
      modes.load(g, u, Index(c));
      limit_element(g, law, linear_values, linear_count, check_values, check_count, epsilon,
                    Index(c), u, first_failed, modes);
      modes.store_changes(g, u, Index(c));
      if (partials.speed && partials.counts(c))
        accumulate_element_wave_speed<N>(g, law, modes.a, Index(c), partials.time, speed,
                                         bad_point);
    } else {
      ElementModes modes(g, u, Index(c));
      limit_element(g, law, linear_values, linear_count, check_values, check_count, epsilon,
                    Index(c), u, first_failed, modes);
      if (partials.speed && partials.counts(c))
        for (int q = 0; q < g.volume_points; ++q)
          accumulate_wave_speed(g, law, g.volume_state<m>(u, Index(c), q), Index(c), q,
                                partials.time, speed, bad_point);
    }
  }
  // partials.speed is the same for the whole block: all of it reduces, or none.
  if (partials.speed)
    reduce_wave_speed_block(speed, bad_point, partials.speed + blockIdx.x,
                            partials.bad_point + blockIdx.x);
}

/// What DevicePositivityFix records of the first failure since its last check: the least
/// element whose mean was not admissible in the first call that found one, and that mean's
/// modes 0 (no_failed_element: none).
struct PositivityFailure {
  unsigned long long element;
  double mean_modes[4];
};

/// One thread, after a fix: where *first_failed names an element and nothing is recorded yet,
/// records it and its modes 0 in u (which no later step of the same call changes) into
/// *record and its host mirror (pinned memory, which the device writes directly: unified
/// addressing). A template so that every translation unit may define it.
template <int M>
__global__ void record_first_failure_kernel(const unsigned long long* first_failed, const double* u,
                                            int basis_size, Index elements,
                                            PositivityFailure* record,
                                            PositivityFailure* host_record) {
  const unsigned long long c = *first_failed;
  if (c == no_failed_element || record->element != no_failed_element) return;
  PositivityFailure failure;
  failure.element = c;
  for (int v = 0; v < M; ++v)
    failure.mean_modes[v] = u[std::size_t(v) * basis_size * std::size_t(elements) + c];
  *record = failure;
  *host_record = failure;
}

/// Blocks of element_block_size threads for one thread per element.
inline unsigned element_blocks(Index elements) {
  return unsigned((std::int64_t(elements) + element_block_size - 1) / element_block_size);
}

/// device_stage_limiter_kernel for the solver's basis size: registers for p ≤
/// largest_local_modes_degree (N = 1, 3, 6, 10, 15), in place above. Returns the number of
/// blocks whose wave-speed partials were written (0 without partials.speed).
template <class Law>
int launch_stage_limiter(const ResidualView& g, const Law& law, const double* linear_values,
                         int linear_count, const double* check_values, int check_count,
                         double epsilon, double* u, unsigned long long* first_failed,
                         const WaveSpeedPartials& partials) {
  const unsigned blocks = element_blocks(g.elements);
  const auto launch = [&](auto size) {
    constexpr int n = decltype(size)::value;
    device_stage_limiter_kernel<Law, n>
        <<<blocks, element_block_size>>>(g, law, linear_values, linear_count, check_values,
                                         check_count, epsilon, u, first_failed, partials);
  };
  if (!with_local_modes_size(g.basis_size, launch)) launch(std::integral_constant<int, 0>{});
  POLYDG_CUDA_CHECK_LAUNCH("device_stage_limiter_kernel");
  return partials.speed ? int(blocks) : 0;
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
  void operator()(Vector& u) const { launch(u, {}); }

  /// operator(), and with partials.speed the wave speed of the limited u reduced per block in
  /// the same kernel (DeviceTimeStepper's DeviceDeferredStageLimiter); returns the number of
  /// blocks written. Does not wait.
  int launch(Vector& u, const detail::WaveSpeedPartials& partials) const {
    require(u.size() == dg_.coefficient_count(), "DeviceBarthJespersenLimiter: ", u.size(),
            " coefficients, expected ", dg_.coefficient_count());
    // p = 0 has no slopes: the kernel runs for the wave speed only, if asked.
    if (dg_.element_count() == 0 || (dg_.degree() == 0 && !partials.speed)) return 0;
    return detail::launch_stage_limiter(dg_.view(), dg_.law(),
                                        dg_.degree() == 0 ? nullptr : point_values_.data(),
                                        point_count_, nullptr, 0, 0.0, u.data(), nullptr, partials);
  }
  /// The limiter reports nothing.
  void check() const {}

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

/// PositivityFix on the device: the same ε, check-point table and loop body (the file comment).
///
/// Two ways to run it. operator() fixes, waits and throws at once, as the CPU's does. launch
/// and check split that for DeviceTimeStepper (DeviceDeferredStageLimiter), which waits for the
/// device once per step anyway: launch fixes without waiting and records the first failure (the
/// least element of the first call that found one, and its mean, which later calls cannot
/// change in the record); check, after the caller has waited for the device, throws for it.
/// The later stages of that step run on the inadmissible state, which costs nothing but time,
/// and the error is the one the first failing call would have thrown.
class DevicePositivityFix {
 public:
  using Vector = device::DeviceBuffer<double>;

  /// Uploads `fix`'s ε and check-point table; `fix` must be of the solver `dg` was made from
  /// (the table's size is checked against dg's basis size and point counts). dg is referenced:
  /// it must outlive this.
  DevicePositivityFix(const DeviceExplicitTriangleDG<Euler>& dg, const PositivityFix& fix)
      : dg_(dg),
        epsilon_(fix.epsilon()),
        check_values_(fix.check_point_values()),
        check_count_(fix.check_point_count()),
        first_failed_(1),
        record_(1),
        host_record_(1) {
    const ResidualView g = dg.view();
    const int expected = g.volume_points + 3 * g.edge_points + 3;
    require(check_count_ == expected &&
                fix.check_point_values().size() == std::size_t(expected) * g.basis_size,
            "DevicePositivityFix: the fix has ", check_count_, " check points, ",
            fix.check_point_values().size(), " values; the solver's ", expected, " x ",
            g.basis_size, ": it was made for a solver of another degree");
    clear_failure();
  }

  double epsilon() const { return epsilon_; }
  const DeviceExplicitTriangleDG<Euler>& solver() const { return dg_; }

  /// Fixes u in place and waits for the device. Throws polydg::Error for a wrong size, and,
  /// naming the first element (lowest index) whose mean is not admissible, after fixing all the
  /// others — PositivityFix's message, the mean read back from the device.
  void operator()(Vector& u) const {
    launch(u, nullptr, 0, {});
    wait_and_check();
  }

  /// The fix after the limiter (linear_values, linear_count: DeviceBarthJespersenLimiter's
  /// table; null: the fix alone) in one kernel, in one pass over u (the file comment), with
  /// partials.speed also the wave speed of the result reduced per block; returns the number of
  /// blocks written. Does not wait: a failure is recorded for check(). Throws polydg::Error for
  /// a wrong size.
  int launch(Vector& u, const double* linear_values, int linear_count,
             const detail::WaveSpeedPartials& partials) const {
    require(u.size() == dg_.coefficient_count(), "DevicePositivityFix: ", u.size(),
            " coefficients, expected ", dg_.coefficient_count());
    if (dg_.element_count() == 0) return 0;
    const int blocks = detail::launch_stage_limiter(
        dg_.view(), dg_.law(), linear_values, linear_count, check_values_.data(), check_count_,
        epsilon_, u.data(), first_failed_.data(), partials);
    detail::record_first_failure_kernel<4><<<1, 1>>>(first_failed_.data(), u.data(),
                                                     dg_.basis_size(), dg_.element_count(),
                                                     record_.data(), host_record_.data());
    POLYDG_CUDA_CHECK_LAUNCH("record_first_failure_kernel");
    return blocks;
  }
  int launch(Vector& u, const detail::WaveSpeedPartials& partials) const {
    return launch(u, nullptr, 0, partials);
  }

  /// After the device has finished the launches since the last check (the caller waited):
  /// throws the first recorded failure, as operator() would have (and clears it, so that the
  /// object can go on), else nothing.
  void check() const {
    const detail::PositivityFailure failure = host_record_[0];
    if (failure.element == detail::no_failed_element) return;
    clear_failure();
    State<4> mean;
    for (int v = 0; v < 4; ++v) mean[v] = failure.mean_modes[v] * 1.4142135623730951;  // φ_0 = √2
    raise("PositivityFix: the mean state of element ", failure.element, " has density ", mean[0],
          " and pressure ", dg_.law().pressure(mean),
          ": not admissible, so no scaling toward it is; the time step was too large for this "
          "flow (reduce the CFL number) or the data is not physical");
  }

  /// Waits for the device, then check().
  void wait_and_check() const {
    POLYDG_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    check();
  }

 private:
  void clear_failure() const {
    POLYDG_CUDA_CHECK(
        cudaMemsetAsync(first_failed_.data(), 0xff, sizeof(unsigned long long), nullptr));
    detail::PositivityFailure none{};
    none.element = detail::no_failed_element;
    host_record_[0] = none;
    record_.assign(std::span<const detail::PositivityFailure>(&none, 1));
  }

  const DeviceExplicitTriangleDG<Euler>& dg_;
  double epsilon_;
  device::DeviceBuffer<double> check_values_;
  int check_count_;
  // The least failed element of the current call, the first recorded failure, and its host
  // mirror. Mutable: operator() is const, as the CPU's; one call at a time per object.
  mutable device::DeviceBuffer<unsigned long long> first_failed_;
  mutable device::DeviceBuffer<detail::PositivityFailure> record_;
  mutable device::PinnedBuffer<detail::PositivityFailure> host_record_;
};

/// DeviceBarthJespersenLimiter and then DevicePositivityFix as one stage limiter, in one kernel
/// (one load and one store of each element's modes instead of two of each): race-free because
/// neither ever writes a mode 0 and the limiter reads only its neighbours' modes 0, so element c
/// may be limited and fixed while its neighbours are; the same results as the two in turn. Both
/// must be of one solver and outlive this. Pass it to DeviceTimeStepper as it is (not wrapped in
/// a lambda), so that the stepper waits once per step instead of once per stage and reduces the
/// wave speed in its kernel (launch, check: DevicePositivityFix).
class DeviceLimiterAndPositivityFix {
 public:
  using Vector = device::DeviceBuffer<double>;
  DeviceLimiterAndPositivityFix(const DeviceBarthJespersenLimiter<Euler>& limiter,
                                const DevicePositivityFix& fix)
      : limiter_(&limiter), fix_(&fix) {
    require(&limiter.solver() == &fix.solver(),
            "DeviceLimiterAndPositivityFix: the limiter and the fix are of different solvers");
  }
  /// Limits and fixes u in place and waits for the device; throws as DevicePositivityFix.
  void operator()(Vector& u) const {
    launch(u, {});
    fix_->wait_and_check();
  }
  /// Limits and fixes without waiting (DevicePositivityFix::launch); p = 0 has no slopes.
  int launch(Vector& u, const detail::WaveSpeedPartials& partials) const {
    const bool slopes = fix_->solver().degree() > 0;
    return fix_->launch(u, slopes ? limiter_->point_values() : nullptr,
                        slopes ? limiter_->point_count() : 0, partials);
  }
  /// DevicePositivityFix::check.
  void check() const { fix_->check(); }

 private:
  // Pointers, not references: the stepper keeps a copy, which may be assigned.
  const DeviceBarthJespersenLimiter<Euler>* limiter_;
  const DevicePositivityFix* fix_;
};

}  // namespace polydg::hyperbolic
