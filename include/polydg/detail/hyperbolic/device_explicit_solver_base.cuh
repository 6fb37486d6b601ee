#pragma once
// What DeviceExplicitTriangleDG and DeviceExplicitPolygonDG share (CRTP): the coefficient
// vectors (make_vector, upload, download, sizes checked), the wave-speed query and the CFL step
// built on the derived solver's launch_wave_speed / finish_wave_speed / report_non_physical,
// and the checks DeviceTimeStepper calls (require_size, check_cfl). Derived provides
//   static constexpr const char* name;            // in error messages
//   std::size_t coefficient_count() const;  int degree() const;  double min_size() const;
//   int launch_wave_speed(const double* u, double t) const;
//   WaveSpeedResult finish_wave_speed(int blocks) const;
//   [[noreturn]] void report_non_physical(const double* u, double t, long long point) const;
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/hyperbolic/device_explicit_kernels.cuh"

namespace polydg::hyperbolic::detail {

template <class Derived>
class DeviceExplicitSolverBase {
 public:
  using Vector = device::DeviceBuffer<double>;

  /// A device vector of coefficient_count() zeros.
  Vector make_vector() const {
    Vector u(self().coefficient_count());
    u.fill_zero();
    return u;
  }
  /// Host coefficients (the CPU solver's layout) to a new device vector / into `target`.
  Vector upload(std::span<const double> u) const {
    require_size(u.size(), "upload");
    return Vector(u);
  }
  void upload(std::span<const double> u, Vector& target) const {
    require_size(u.size(), "upload");
    require_size(target.size(), "upload (target)");
    target.assign(u);
  }
  std::vector<double> download(const Vector& u) const {
    require_size(u.size(), "download");
    return u.to_host();
  }
  void download(const Vector& u, std::span<double> target) const {
    require_size(u.size(), "download");
    require_size(target.size(), "download (target)");
    if (!target.empty()) device::copy_device_to_host(target.data(), u.data(), target.size_bytes());
  }

  /// λ_max as the CPU solver's max_wave_speed (the same points, directions and max); waits
  /// for the device. Throws polydg::Error naming the time, the element and the point of the
  /// first state that is not physical (least element, then least point).
  double max_wave_speed(const Vector& u, double t) const {
    require_size(u.size(), "max_wave_speed");
    const WaveSpeedResult result = self().finish_wave_speed(self().launch_wave_speed(u.data(), t));
    if (result.bad_point != no_bad_point) self().report_non_physical(u.data(), t, result.bad_point);
    return result.speed;
  }
  /// Δt = cfl · min_K h_K / (λ_max (2p + 1)), as the CPU solver's stable_time_step. Throws as
  /// max_wave_speed, and for a non-positive cfl.
  double stable_time_step(const Vector& u, double t, double cfl) const {
    check_cfl(cfl);
    return time_step_for_speed(max_wave_speed(u, t), cfl);
  }
  /// From now on max_wave_speed, the CFL step and the stepper's checks of non-physical states
  /// read only the first `owned` elements: on a rank's part of a partitioned mesh the rest are
  /// ghosts, whose coefficients are stale between halo exchanges (DistributedDeviceExplicitDG).
  void count_only_first_elements(Index owned) {
    require(owned >= 0 && owned <= self().element_count(), Derived::name, ": ", owned,
            " counted elements of ", self().element_count());
    static_cast<Derived&>(*this).wave_speed_.count_first_elements(owned);
  }
  /// Δt for a largest wave speed `speed` (stable_time_step's formula; ∞ for speed ≤ 0).
  double time_step_for_speed(double speed, double cfl) const {
    check_cfl(cfl);
    if (speed <= 0) return std::numeric_limits<double>::infinity();
    return cfl * self().min_size() / (speed * (2 * self().degree() + 1));
  }

 protected:
  void require_size(std::size_t size, const char* what) const {
    require(size == self().coefficient_count(), Derived::name, "::", what, ": ", size,
            " coefficients, expected ", self().coefficient_count());
  }
  static void check_cfl(double cfl) {
    require(cfl > 0 && std::isfinite(cfl), Derived::name, ": CFL number ", cfl, " is not positive");
  }
  static unsigned blocks_for(std::int64_t count, int block_size) {
    const std::int64_t blocks = (count + block_size - 1) / block_size;
    require(blocks <= std::numeric_limits<int>::max(), Derived::name, ": ", count,
            " items need more than 2^31 blocks of ", block_size, " threads");
    return unsigned(blocks);
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace polydg::hyperbolic::detail
