#pragma once
/// Boundary conditions of the Euler equations chosen by mesh tag, as a boundary functor of the
/// explicit DG solver (explicit_dg.hpp; docs/theory.md, "Explicit path for conservation laws"):
///
///   EulerBoundary boundary{gas};
///   boundary.inflow(1, gas.conserved({8.0, {7.14, -4.125}, 116.5}))   // ghost = given state
///       .outflow(2)                                                   // ghost = inside state
///       .reflecting_wall(3);                                          // ghost = mirror state
///   boundary.require_covers(mesh);        // every boundary tag of the mesh has a rule
///   stepper.advance(u, 0.0, 0.2, boundary, 0.5);
///
/// Ghost states, with u the inside trace at the boundary Gauss point and n the facet's outward
/// unit normal; the LLF flux is then taken between u and the ghost state:
///  * inflow: the given state (the flux upwinds it where the flow enters);
///  * outflow: u itself, so the flux is F(u)·n — exact where the flow leaves supersonically,
///    and a simple non-reflecting approximation elsewhere;
///  * reflecting wall: gas.wall_state(u, n), the mirror state with the facet's normal.
///
/// Trivially copyable with a POLYDG_HD call operator (a kernel's by-value argument): a fixed
/// table of at most max_rules (tag, kind, state) rules searched linearly, which for a handful
/// of tags costs less than the flux. A tag without a rule gets a NaN ghost state: device code
/// cannot throw, and the NaN reaches the residual, which the solver's checks report at the next
/// step; call require_covers on the host first to get a message naming the tag instead.
#include <limits>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::hyperbolic {

enum class EulerBoundaryKind : int { inflow, outflow, reflecting_wall };

struct EulerBoundary {
  static constexpr int max_rules = 8;
  struct Rule {
    int tag;
    EulerBoundaryKind kind;
    /// The inflow state (conserved variables); unused for the other kinds.
    State<4> state;
  };

  Euler gas{};
  int rule_count = 0;
  Rule rules[max_rules] = {};

  /// Adds a rule (host). Throws polydg::Error for a tag that already has one, a full table, or
  /// (inflow) a state that is not physical.
  EulerBoundary& inflow(int tag, const State<4>& state) {
    require(gas.is_physical(state), "EulerBoundary: the inflow state of tag ", tag, " has density ",
            state[0], " and pressure ", gas.pressure(state), ": not physical");
    return add({tag, EulerBoundaryKind::inflow, state});
  }
  EulerBoundary& outflow(int tag) { return add({tag, EulerBoundaryKind::outflow, {}}); }
  EulerBoundary& reflecting_wall(int tag) {
    return add({tag, EulerBoundaryKind::reflecting_wall, {}});
  }

  /// The rule of `tag`, or nullptr.
  POLYDG_HD const Rule* find(int tag) const {
    for (int r = 0; r < rule_count; ++r)
      if (rules[r].tag == tag) return &rules[r];
    return nullptr;
  }

  /// Throws polydg::Error naming the first boundary tag of `mesh` that has no rule.
  void require_covers(const SimplexMesh<2>& mesh) const {
    for (int tag : mesh.boundary_tag_values())
      require(find(tag) != nullptr, "EulerBoundary: boundary tag ", tag, " of '",
              mesh.source().name, "' has no rule (inflow, outflow or reflecting_wall)");
  }

  POLYDG_HD State<4> operator()(const State<4>& u, const Point<2>&, const Point<2>& n, double,
                                int tag) const {
    // The same search as find, unrolled so that every rule is read at a fixed offset: a GPU
    // kernel then reads the table where its arguments are, whereas a pointer into it (find)
    // makes every thread copy the whole functor (about 400 bytes) to its local memory, which
    // cost the facet kernel DRAM traffic.
    POLYDG_UNROLL
    for (int r = 0; r < max_rules; ++r)
      if (r < rule_count && rules[r].tag == tag) {
        switch (rules[r].kind) {
          case EulerBoundaryKind::inflow:
            return rules[r].state;
          case EulerBoundaryKind::reflecting_wall:
            return gas.wall_state(u, n);
          default:  // outflow
            return u;
        }
      }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {{nan, nan, nan, nan}};
  }

 private:
  EulerBoundary& add(const Rule& rule) {
    require(find(rule.tag) == nullptr, "EulerBoundary: tag ", rule.tag, " has a rule already");
    require(rule_count < max_rules, "EulerBoundary: more than ", max_rules, " rules (adding tag ",
            rule.tag, ")");
    rules[rule_count++] = rule;
    return *this;
  }
};

}  // namespace polydg::hyperbolic
