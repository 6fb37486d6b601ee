#pragma once
/// The rotating hill (docs/theory.md, "Explicit path for conservation laws"): the scalar smooth
/// test of the explicit path, u_t − 2πy u_x + 2πx u_y = 0 on [−1, 1]², a Gaussian of radius
/// 0.15 centred at (0.2, 0) at t = 0 and turned once about the origin per unit time, with the
/// exact solution as boundary data. One definition for the programs that run it
/// (examples/euler.cpp, perf/bench_explicit.cu, perf/explicit_accuracy.cu).
///
///   using namespace polydg::hyperbolic;
///   const SimplexMesh<2> mesh = rotating_hill_mesh(2);       // 2 (8 · 2²)² triangles
///   ExplicitTriangleDG dg(mesh, 3, rotating_hill_law());
///   auto u = dg.project([](const Point<2>& x) { return RotatingHill{}(x, 0.0); });
///   TimeStepper(dg, TimeScheme::rk4).advance(u, 0.0, 1.0, exact_boundary(RotatingHill{}), 0.9);
///   const double error = dg.l2_errors(u, RotatingHill{}, 1.0)[0];
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::hyperbolic {

/// The exact solution at (x, t), also the boundary data (exact_boundary(RotatingHill{})).
/// Trivially copyable with a POLYDG_HD call: usable in the GPU kernels.
struct RotatingHill {
  POLYDG_HD State<1> operator()(const Point<2>& x, double t) const {
    // The point turned back by 2πt, measured from the hill's starting centre.
    const double c = std::cos(2 * std::numbers::pi * t), s = std::sin(2 * std::numbers::pi * t);
    const double dx = x[0] * c + x[1] * s - 0.2;
    const double dy = -x[0] * s + x[1] * c;
    return State<1>{{std::exp(-(dx * dx + dy * dy) / (2 * 0.15 * 0.15))}};
  }
};

/// The law: a(x) = 2π (−y, x), one turn per unit time.
inline LinearAdvection<RotatingVelocity> rotating_hill_law() {
  return {RotatingVelocity{{0.0, 0.0}, 2 * std::numbers::pi}};
}

/// [−1, 1]² with 8 · 2^level squares per side, two triangles each: 2 (8 · 2^level)² triangles,
/// unit_square_mesh's boundary tags. Throws polydg::Error for a level outside 0..8 (8.4 million
/// triangles).
inline SimplexMesh<2> rotating_hill_mesh(int level) {
  require(level >= 0 && level <= 8, "rotating_hill_mesh: level ", level,
          " is outside 0..8 (2 (8 · 2^level)² triangles)");
  return square_mesh(8 << level, -1.0, 1.0);
}

}  // namespace polydg::hyperbolic
