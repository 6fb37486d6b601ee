#pragma once
/// DistributedExplicitDG: an explicit DG discretisation (ExplicitTriangleDG, ExplicitPolygonDG)
/// of one rank's part of a partitioned mesh (RankSubmesh: owned elements, then ghosts) made an
/// ExplicitDiscretisation of the whole mesh for TimeStepper under `mpiexec -n R`:
///
///   const MeshPartition partition = partition_mesh(polygons, ranks);
///   const RankSubmesh<2> part = rank_submesh(fine, element_of_cell, partition, rank, cut_tag);
///   ExplicitPolygonDG local(PolytopicMesh<2>(part.mesh, part.element_of_cell, p), p, law);
///   const ElementHalo halo(partition, rank);
///   DistributedExplicitDG dg(local, halo, cut_tag);
///   auto u = local.project(initial);                  // every local element, ghosts too
///   TimeStepper(dg, TimeScheme::rk4).advance(u, 0, t_end, boundary, cfl);
///
/// * residual(u, t, boundary, r): the ghosts' entries of u from their owners (ElementHalo, into
///   a copy: u is the stepper's and stays as given), then the local residual. An owned element's
///   neighbours are all local, so its residual is the whole mesh's; a ghost's is not (its facets
///   at the cut, `cut_tag`, get the inside state instead of `boundary`) and is never used.
/// * stable_time_step(u, t, cfl): the whole mesh's step, cfl · min_K h_K / (λ_max (2p + 1)),
///   with min_K h_K and λ_max (over each rank's owned elements: no exchange) reduced over the
///   ranks, so every rank takes the same steps (those of one rank on the whole mesh, up to the
///   order of sums in a ghost element's geometry). A state that is not physical on one rank
///   throws on every rank (no rank waits for ever).
/// * stage_limiter(limiter): a stage limiter for TimeStepper that fetches the ghosts' entries
///   first, since limiters read the neighbours' means: with the halo, an owned element is
///   limited as on one rank. A limiter that throws on one rank throws on every rank.
/// * Ghost entries of the stepper's vectors hold leftovers between calls; refresh_ghosts(u)
///   makes them their owners' (for output of the ghosts, say). The owned entries are the first
///   owned_count() of each variable's and mode's block (element-fastest layout).
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg::hyperbolic {

namespace detail {

/// A rank's boundary condition: `boundary` on the mesh's boundary, the inside state at the cut
/// (only ghosts have facets there, and their residual is thrown away). Holds `boundary` by
/// value: the device solvers copy it into their kernels (DistributedDeviceExplicitDG).
template <class Law, class Boundary>
struct CutOrBoundary {
  Boundary boundary;
  int cut_tag;
  POLYDG_HD State<Law::variables> operator()(const State<Law::variables>& u, const Point<2>& x,
                                             const Point<2>& n, double t, int tag) const {
    return tag == cut_tag ? u : State<Law::variables>(boundary(u, x, n, t, tag));
  }
};

}  // namespace detail

template <class Local>
class DistributedExplicitDG {
 public:
  using Law = std::remove_cvref_t<decltype(std::declval<const Local&>().law())>;

  /// `local` on the rank's RankSubmesh and `halo` of the same partition and rank must outlive
  /// this object. Throws polydg::Error when their element counts differ.
  DistributedExplicitDG(Local& local, const ElementHalo& halo, int cut_tag)
      : local_(local), halo_(halo), cut_tag_(cut_tag) {
    require(local.element_count() == halo.local_count(), "DistributedExplicitDG: the solver has ",
            local.element_count(), " elements, the halo ", halo.local_count(),
            " (owned and ghosts): not the same rank's part");
  }

  const Law& law() const { return local_.law(); }
  std::size_t coefficient_count() const { return local_.coefficient_count(); }
  Index owned_count() const { return halo_.owned_count(); }
  Local& local() { return local_; }

  template <BoundaryCondition<Law> Boundary>
  void residual(std::span<const double> u, double t, const Boundary& boundary,
                std::span<double> r) {
    const std::span<const double> current = with_current_ghosts(u);
    const detail::CutOrBoundary<Law, Boundary> at_cut_or_boundary{boundary, cut_tag_};
    local_.residual(current, t, at_cut_or_boundary, r);
  }

  double stable_time_step(std::span<const double> u, double t, double cfl) const {
    require(cfl > 0 && std::isfinite(cfl), "DistributedExplicitDG: CFL number ", cfl,
            " is not positive");
    // The owned elements' states only: every element is some rank's, and no exchange is needed.
    double speed = 0;
    petsc::on_every_rank([&] { speed = local_.max_wave_speed(u, t, owned_count()); });
    double largest[2] = {speed, -local_.min_element_size()};  // one reduction for both
    petsc::max_over_ranks(largest);
    if (largest[0] <= 0) return std::numeric_limits<double>::infinity();
    return cfl * -largest[1] / (largest[0] * (2 * local_.degree() + 1));
  }

  /// A TimeStepper stage limiter: the ghosts' entries from their owners, then `limiter`.
  template <class Limiter>
  auto stage_limiter(Limiter limiter) const {
    return [this, limiter](std::span<double> v) mutable {
      halo_.exchange(v);
      // A limiter that fails on one rank (a positivity fix meeting an inadmissible mean)
      // fails on every rank: none waits for ever at the next exchange.
      petsc::on_every_rank([&] { limiter(v); });
    };
  }

  void refresh_ghosts(std::span<double> u) const { halo_.exchange(u); }

 private:
  std::span<const double> with_current_ghosts(std::span<const double> u) const {
    copy_.assign(u.begin(), u.end());
    halo_.exchange(copy_);
    return copy_;
  }

  Local& local_;
  const ElementHalo& halo_;
  int cut_tag_;
  mutable std::vector<double> copy_;
};

}  // namespace polydg::hyperbolic
