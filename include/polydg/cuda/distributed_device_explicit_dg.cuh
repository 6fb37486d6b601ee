#pragma once
/// DistributedDeviceExplicitDG: a device explicit DG solver (DeviceExplicitTriangleDG,
/// DeviceExplicitPolygonDG) of one rank's part of a partitioned mesh (RankSubmesh: owned
/// elements, then ghosts) made a discretisation of the whole mesh for DeviceTimeStepper under
/// `mpiexec -n R`, one GPU per rank: the device twin of DistributedExplicitDG
/// (polydg/hyperbolic/distributed_explicit_dg.hpp), with the same rules.
///
///   const RankSubmesh<2> part = rank_submesh(fine, element_of_cell, partition, rank, cut_tag);
///   ExplicitTriangleDG local(*part.mesh, p, law);
///   DeviceExplicitTriangleDG device_local(local);
///   const ElementHalo halo(partition, rank);
///   DistributedDeviceExplicitDG dg(device_local, halo, cut_tag);   // collective
///   auto u = device_local.upload(local.project(initial));           // ghosts too
///   DeviceTimeStepper(dg, TimeScheme::rk4).advance(u, 0, t_end, boundary, cfl);
///
/// * Each stage's facet kernels read the ghosts' entries of their input fresh from the owners
///   (DeviceElementHalo: gathered on the device, exchanged through pinned host memory, scattered
///   back), written into the stepper's vector: ghost entries are scratch, and an owned
///   element's residual is the whole mesh's. A ghost's is not (its facets at the cut,
///   `cut_tag`, see the inside state) and is overwritten by the next exchange before any use.
/// * Overlap (HaloExchange::overlapped, the default): the gather is launched, then the fluxes of
///   the facets with no ghost side, which run while the host exchanges the messages; the
///   facets with a ghost side (listed once, here) follow the scatter. HaloExchange::blocking
///   exchanges first (the same results, bit for bit: each facet's flux is computed once either
///   way; for A/B timing).
/// * The wave speed, its CFL step and the checks of non-physical states read the owned elements
///   only (count_only_first_elements on the local solver), reduced over the ranks once per
///   step; a non-physical state on one rank throws the same error on every rank. min_K h_K is
///   reduced once, here. So every rank takes the same steps: those of one GPU on the whole
///   mesh, up to the order of sums in a ghost's geometry.
/// * stage_limiter(limiter): a failure on one rank thrown on every rank, a
///   DeviceDeferredStageLimiter kept deferred (one wait per step). The limiter of an owned
///   element reads its neighbours' means: with one ghost layer, the ghosts are fetched before
///   it (an exchange not overlapped); with two (with_ghost_layers(partition, mesh, 2)) the
///   first layer's residual, hence its means, is the rank's own, and no exchange is needed:
///   one per stage instead of two (docs/performance.md, "Explicit solver on several ranks").
///   The second layer's values, and the first's after a limiter, are stale until the next
///   stage's exchange, which fetches both layers.
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/cuda/device_element_halo.cuh"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/detail/hyperbolic/device_explicit_kernels.cuh"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/distributed_explicit_dg.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/hyperbolic/explicit_discretisation.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg::hyperbolic {

/// Whether DistributedDeviceExplicitDG overlaps the halo exchange with the facets that need no
/// ghost (the file comment).
enum class HaloExchange { overlapped, blocking };

template <class DeviceLocal>
class DistributedDeviceExplicitDG {
 public:
  using Law = discretisation_law<DeviceLocal>;
  using Vector = device::DeviceBuffer<double>;
  static constexpr const char* name = "DistributedDeviceExplicitDG";

  /// Collective on PETSC_COMM_WORLD (min_K h_K over the ranks). `local` on the rank's
  /// RankSubmesh and `halo` of the same partition and rank must outlive this object; from now
  /// on local's wave speeds count its owned elements only. Throws polydg::Error when their
  /// element counts differ.
  DistributedDeviceExplicitDG(DeviceLocal& local, const ElementHalo& halo, int cut_tag,
                              HaloExchange exchange = HaloExchange::overlapped)
      : local_(local),
        halo_(halo),
        device_halo_(halo, checked_values_per_element(local, halo)),
        cut_tag_(cut_tag),
        exchange_(exchange),
        smallest_size_(-petsc::max_over_ranks(-local.min_size())),
        halo_facets_(facets_with_a_ghost_side(local, halo.owned_count())) {
    local_.count_only_first_elements(halo.owned_count());
  }

  const Law& law() const { return local_.law(); }
  int degree() const { return local_.degree(); }
  std::size_t coefficient_count() const { return local_.coefficient_count(); }
  Index owned_count() const { return halo_.owned_count(); }
  DeviceLocal& local() { return local_; }
  /// The local facets with a ghost side (computed after the exchange when overlapped).
  Index halo_facet_count() const { return Index(halo_facets_.size()); }

  /// λ_max over every rank's owned elements (collective); throws on every rank where a state
  /// is not physical on one.
  double max_wave_speed(const Vector& u, double t) const {
    require_size(u.size(), "max_wave_speed");
    const detail::WaveSpeedResult result =
        over_ranks(local_.finish_wave_speed(local_.launch_wave_speed(u.data(), t)));
    if (result.bad_point != detail::no_bad_point)
      report_non_physical(u.data(), t, result.bad_point);
    return result.speed;
  }
  /// The whole mesh's Δt = cfl · min_K h_K / (λ_max (2p + 1)) (collective).
  double stable_time_step(const Vector& u, double t, double cfl) const {
    check_cfl(cfl);
    return time_step_for_speed(max_wave_speed(u, t), cfl);
  }
  double time_step_for_speed(double speed, double cfl) const {
    check_cfl(cfl);
    if (speed <= 0) return std::numeric_limits<double>::infinity();
    return cfl * smallest_size_ / (speed * (2 * degree() + 1));
  }

  /// Collective over the neighbours: the ghosts' entries of u from their owners (for output of
  /// the ghosts, or a residual of them).
  void refresh_ghosts(Vector& u) const {
    require_size(u.size(), "refresh_ghosts");
    device_halo_.exchange(u.data());
  }

  /// A DeviceTimeStepper stage limiter: the ghosts' entries from their owners (with one ghost
  /// layer; the file comment), then `limiter` (kept by reference when given as an lvalue: it
  /// must outlive the stepper).
  template <class Limiter>
  auto stage_limiter(Limiter&& limiter) const {
    return HaloStageLimiter<Limiter>{this, std::forward<Limiter>(limiter)};
  }

 private:
  template <class, DeviceStageLimiter>
  friend class DeviceTimeStepper;

  template <class Limiter>
  struct HaloStageLimiter {
    const DistributedDeviceExplicitDG* dg;
    Limiter limiter;  // a reference for an lvalue (stage_limiter)
    using Plain = std::remove_cvref_t<Limiter>;

    void operator()(Vector& v) {
      dg->ghosts_for_limiter(v);
      // A limiter that fails on one rank (a positivity fix meeting an inadmissible mean) fails
      // on every rank: none waits for ever at the next exchange.
      petsc::on_every_rank([&] { std::invoke(limiter, v); });
    }
    int launch(Vector& v, const detail::WaveSpeedPartials& partials) const requires
        DeviceDeferredStageLimiter<Plain> {
      dg->ghosts_for_limiter(v);
      return limiter.launch(v, partials);
    }
    void check() const requires DeviceDeferredStageLimiter<Plain> {
      petsc::on_every_rank([&] { limiter.check(); });
    }
  };

  /// What a limiter needs of the ghosts: their means, the rank's own with two ghost layers.
  void ghosts_for_limiter(Vector& v) const {
    if (halo_.ghost_layers() < 2) refresh_ghosts(v);
  }

  /// A bad point on another rank (WaveSpeedResult::bad_point).
  static constexpr long long elsewhere = -1;

  /// The facets of local's view with an element ≥ owned (a ghost) on either side, ascending.
  static device::DeviceBuffer<Index> facets_with_a_ghost_side(const DeviceLocal& local,
                                                              Index owned) {
    const Index facets = local.view_.facets;
    std::vector<Index> facet_element(2 * std::size_t(facets));
    if (facets > 0)
      device::copy_device_to_host(facet_element.data(), local.view_.facet_element,
                                  facet_element.size() * sizeof(Index));
    std::vector<Index> listed;
    for (Index f = 0; f < facets; ++f)
      if (facet_element[std::size_t(f)] >= owned ||
          facet_element[std::size_t(facets) + std::size_t(f)] >= owned)
        listed.push_back(f);
    return device::DeviceBuffer<Index>(std::span<const Index>(listed));
  }

  static std::size_t checked_values_per_element(const DeviceLocal& local, const ElementHalo& halo) {
    require(local.element_count() == halo.local_count(), name, ": the solver has ",
            local.element_count(), " elements, the halo ", halo.local_count(),
            " (owned and ghosts): not the same rank's part");
    return halo.local_count() == 0 ? 0
                                   : local.coefficient_count() / std::size_t(halo.local_count());
  }

  void require_size(std::size_t size, const char* what) const {
    require(size == coefficient_count(), name, "::", what, ": ", size, " coefficients, expected ",
            coefficient_count());
  }
  static void check_cfl(double cfl) {
    require(cfl > 0 && std::isfinite(cfl), name, ": CFL number ", cfl, " is not positive");
  }

  // DeviceTimeStepper's stage interface: the local solver's, the halo before each residual's
  // facets, the wave speed reduced over the ranks.
  detail::WaveSpeedPartials partials(double time) const { return local_.partials(time); }

  /// The exchange and the local facet kernels, overlapped or not. u: the stepper's vector, its
  /// ghosts rewritten.
  template <class Boundary>
  void launch_facets(double* u, double t, const Boundary& boundary) {
    const detail::CutOrBoundary<Law, Boundary> rank_boundary{boundary, cut_tag_};
    if (exchange_ == HaloExchange::blocking) {
      device_halo_.exchange(u);
      local_.launch_facets(u, t, rank_boundary);
      return;
    }
    const Index owned = halo_.owned_count();
    device_halo_.start(u);
    local_.launch_facets(u, t, rank_boundary, detail::FacetSelection{owned});
    device_halo_.finish(u);
    local_.launch_facets(
        u, t, rank_boundary,
        detail::FacetSelection{owned, true, halo_facets_.data(), halo_facet_count()});
  }
  template <class Boundary>
  int run_stage(double* u, double t, const Boundary& boundary, const detail::StageUpdate& update,
                const detail::WaveSpeedPartials& partials, bool facets_launched = false) {
    if (!facets_launched) launch_facets(u, t, boundary);
    return local_.run_stage(u, t, detail::CutOrBoundary<Law, Boundary>{boundary, cut_tag_}, update,
                            partials, true);
  }
  int launch_wave_speed(const double* u, double t) const { return local_.launch_wave_speed(u, t); }
  void launch_finish_wave_speed(int blocks) const { local_.launch_finish_wave_speed(blocks); }
  detail::WaveSpeedResult wait_for_wave_speed() const {
    return over_ranks(local_.wait_for_wave_speed());
  }

  /// The largest speed over the ranks, and this rank's bad point, `elsewhere` if only another
  /// rank has one (collective).
  static detail::WaveSpeedResult over_ranks(detail::WaveSpeedResult result) {
    const bool bad_here = result.bad_point != detail::no_bad_point;
    double largest[2] = {result.speed, bad_here ? 1.0 : 0.0};  // one reduction per step
    petsc::max_over_ranks(largest);
    result.speed = largest[0];
    if (largest[1] > 0 && !bad_here) result.bad_point = elsewhere;
    return result;
  }

  /// Collective: the local solver's error where the bad point is this rank's, thrown on every
  /// rank (the first failing rank's message).
  [[noreturn]] void report_non_physical(const double* u, double t, long long bad_point) const {
    petsc::on_every_rank([&] {
      if (bad_point != elsewhere) local_.report_non_physical(u, t, bad_point);
    });
    raise(name, ": a state that is not physical at t = ", t, " on some rank");
  }

  DeviceLocal& local_;
  const ElementHalo& halo_;
  DeviceElementHalo device_halo_;
  int cut_tag_;
  HaloExchange exchange_;
  double smallest_size_;
  device::DeviceBuffer<Index> halo_facets_;
};

}  // namespace polydg::hyperbolic
