#pragma once
// The space-time problem of the assembly benchmark (docs/performance.md, "Assembly: the
// paper's Table 2 setting"): the heat
// demo's slab system on prisms κ × I_n — a = 1, w = (1, 1/2), c = 1, f = sin(x + t), g_D = 0,
// the bottom face reading the previous slab. Callable on host and device, so the CPU and GPU
// backends assemble exactly the same problem.
#include <cmath>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"

namespace polydg::bench {

struct HeatSource {
  POLYDG_HD double operator()(const Point<3>& x) const { return sin(x[0] + x[2]); }
};

/// The previous slab's trace in the benchmark: a smooth function of the point (the GPU reads
/// no stored solution here; the kernel's cost is the same).
struct PreviousSlabValue {
  POLYDG_HD double operator()(Index, const Point<3>& x) const { return cos(x[0]) * x[1]; }
};

inline auto heat_slab_coefficients() {
  return space_time_coefficients(make_coefficients<2>()
                                     .with_diffusion(1.0)
                                     .with_advection(Point<2>{{1.0, 0.5}})
                                     .with_reaction(1.0)
                                     .with_source(HeatSource{}));
}

inline BoundaryConditions heat_slab_conditions() {
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  return conditions;
}

}  // namespace polydg::bench
