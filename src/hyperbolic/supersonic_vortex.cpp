// The supersonic vortex's mesh (include/polydg/hyperbolic/supersonic_vortex.hpp).
#include "polydg/hyperbolic/supersonic_vortex.hpp"

#include <numbers>
#include <string>
#include <utility>

#include "polydg/core/error.hpp"

namespace polydg::hyperbolic {

SimplexMesh<2> supersonic_vortex_mesh(int level, const SupersonicVortex& vortex) {
  require(level >= 0 && level <= 8, "supersonic_vortex_mesh: level ", level,
          " is outside 0..8 (180 · 4^level triangles)");
  const double r_inner = vortex.inner_radius, r_outer = vortex.outer_radius;
  require(r_inner > 0 && r_outer > r_inner, "supersonic_vortex_mesh: radii ", r_inner, " and ",
          r_outer, " are not 0 < r_i < r_o");
  const Index radial = Index(6) << level, angular = Index(15) << level;
  const auto vertex = [&](Index i, Index j) { return i * (angular + 1) + j; };

  std::vector<Point<2>> vertices;
  vertices.reserve(std::size_t((radial + 1) * (angular + 1)));
  for (Index i = 0; i <= radial; ++i) {
    // The outermost ring at r_o exactly, not r_i + (r_o − r_i) · 1 rounded.
    const double r = i == radial ? r_outer : r_inner + (r_outer - r_inner) * double(i) / radial;
    for (Index j = 0; j <= angular; ++j) {
      const double theta = 0.5 * std::numbers::pi * double(j) / angular;
      // The straight edges exactly on the axes (cos(π/2) rounds to 6e-17, not 0).
      if (j == 0)
        vertices.push_back({r, 0.0});
      else if (j == angular)
        vertices.push_back({0.0, r});
      else
        vertices.push_back({r * std::cos(theta), r * std::sin(theta)});
    }
  }

  std::vector<SimplexMesh<2>::Cell> cells;
  cells.reserve(std::size_t(2 * radial * angular));
  for (Index i = 0; i < radial; ++i)
    for (Index j = 0; j < angular; ++j) {
      const Index a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1),
                  d = vertex(i, j + 1);
      // Counter-clockwise: (r, θ) ↦ x has positive Jacobian r.
      cells.push_back({a, b, c});
      cells.push_back({a, c, d});
    }

  std::vector<SimplexMesh<2>::TaggedFacet> tags;
  for (Index j = 0; j < angular; ++j) {
    tags.push_back({{vertex(0, j), vertex(0, j + 1)}, SupersonicVortex::inner_wall_tag});
    tags.push_back({{vertex(radial, j), vertex(radial, j + 1)}, SupersonicVortex::outer_wall_tag});
  }
  for (Index i = 0; i < radial; ++i) {
    tags.push_back({{vertex(i, 0), vertex(i + 1, 0)}, SupersonicVortex::inflow_tag});
    tags.push_back({{vertex(i, angular), vertex(i + 1, angular)}, SupersonicVortex::outflow_tag});
  }
  return SimplexMesh<2>(std::move(vertices), std::move(cells), {}, std::move(tags),
                        MeshSource{"supersonic vortex mesh, level " + std::to_string(level), {}});
}

}  // namespace polydg::hyperbolic
