#pragma once
/// What an explicit time stepper needs from a DG semi-discretisation du/dt = R(u, t) of a
/// conservation law (docs/theory.md, "Explicit path for conservation laws"): the concept that
/// ExplicitTriangleDG (explicit_dg.hpp) and ExplicitPolygonDG (explicit_polygon_dg.hpp) both
/// satisfy, so that one Runge–Kutta driver serves triangles and polygons.
///
///   law()                                   the ConservationLaw (its type: discretisation_law)
///   coefficient_count()                     length of the flat coefficient vector u
///   residual(u, t, boundary, r)             r = R(u) at time t, boundary a BoundaryCondition
///   stable_time_step(u, t, cfl)             the CFL step from the current state (throws on a
///                                           non-physical state)
///
/// The coefficient vector is flat and the stage updates of a Runge–Kutta scheme are pointwise on
/// it, so a stepper needs nothing about the basis or the layout. The residual is checked with
/// reflecting walls as a representative boundary functor (every law has wall_state).
#include <concepts>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"

namespace polydg::hyperbolic {

/// The law type of a discretisation: what its law() returns, without const and reference.
template <class Discretisation>
using discretisation_law =
    std::remove_cvref_t<decltype(std::declval<const Discretisation&>().law())>;

template <class Discretisation>
concept ExplicitDiscretisation = ConservationLaw<discretisation_law<Discretisation>> &&
    requires(Discretisation& dg, const Discretisation& const_dg, std::span<const double> u,
             std::span<double> r, double t, double cfl,
             const ReflectingWalls<discretisation_law<Discretisation>>& walls) {
  { const_dg.coefficient_count() } -> std::convertible_to<std::size_t>;
  dg.residual(u, t, walls, r);
  { const_dg.stable_time_step(u, t, cfl) } -> std::convertible_to<double>;
};

}  // namespace polydg::hyperbolic
