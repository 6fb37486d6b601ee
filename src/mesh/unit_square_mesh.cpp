#include "polydg/core/error.hpp"
#include "polydg/mesh/generators.hpp"
#include "square_grid.hpp"

namespace polydg {

SimplexMesh<2> unit_square_mesh(int n, double perturbation, std::uint64_t seed) {
  require(n >= 1 && n <= 32000, "unit_square_mesh: n = ", n,
          " cells per side; need 1 <= n <= 32000 (2n² triangles must fit the 32-bit Index)");
  require(perturbation >= 0 && perturbation <= 0.25, "unit_square_mesh: perturbation ",
          perturbation, " outside [0, 0.25] (larger offsets can fold triangles)");
  const detail::SquareGrid grid{n};
  const double largest_offset = perturbation / n;

  std::vector<Point<2>> vertices(grid.vertex_count());
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const Index v = grid.vertex(i, j);
      Point<2> p = grid.reference_point(i, j);
      if (perturbation > 0 && i > 0 && i < n && j > 0 && j < n)
        for (int d = 0; d < 2; ++d)
          p[d] += largest_offset * (2 * detail::hashed_uniform(seed, 2 * std::uint64_t(v) + d) - 1);
      vertices[v] = p;
    }
  return SimplexMesh<2>(std::move(vertices), grid.cells(), {}, grid.side_tags(),
                        MeshSource{"unit_square_mesh", {}});
}

SimplexMesh<2> square_mesh(int n, double low, double high, double perturbation,
                           std::uint64_t seed) {
  require(low < high, "square_mesh: the side [", low, ", ", high, "] is empty");
  const SimplexMesh<2> unit = unit_square_mesh(n, perturbation, seed);
  std::vector<Point<2>> vertices = unit.vertices();
  for (auto& x : vertices) x = Point<2>{low + (high - low) * x[0], low + (high - low) * x[1]};
  std::vector<SimplexMesh<2>::TaggedFacet> tags;
  for (Index f = 0; f < unit.facet_count(); ++f)
    if (unit.is_boundary_facet(f)) tags.push_back({unit.facet_vertices(f), unit.facet_tag(f)});
  return SimplexMesh<2>(std::move(vertices), unit.cells(), {}, std::move(tags),
                        MeshSource{"square_mesh", {}});
}

}  // namespace polydg
