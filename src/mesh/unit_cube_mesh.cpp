#include "cube_grid.hpp"
#include "polydg/core/error.hpp"
#include "polydg/mesh/generators.hpp"
#include "square_grid.hpp"

namespace polydg {

SimplexMesh<3> unit_cube_mesh(int n, double perturbation, std::uint64_t seed) {
  require(n >= 1 && n <= 640, "unit_cube_mesh: n = ", n,
          " cubes per side; need 1 <= n <= 640 (6n³ tetrahedra must fit the 32-bit Index)");
  require(perturbation >= 0 && perturbation <= 0.2, "unit_cube_mesh: perturbation ", perturbation,
          " outside [0, 0.2] (larger offsets can fold tetrahedra)");
  const detail::CubeGrid grid{n};
  const double largest_offset = perturbation / n;
  std::vector<Point<3>> vertices(grid.vertex_count());
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) {
        const Index v = grid.vertex(i, j, k);
        Point<3> x = grid.reference_point(i, j, k);
        if (perturbation > 0 && i > 0 && i < n && j > 0 && j < n && k > 0 && k < n)
          for (int d = 0; d < 3; ++d)
            x[d] += largest_offset *
                    (2 * detail::hashed_uniform(seed, 3 * std::uint64_t(v) + std::uint64_t(d)) - 1);
        vertices[v] = x;
      }
  return SimplexMesh<3>(std::move(vertices), grid.cells(), {}, grid.face_tags(),
                        MeshSource{"unit_cube_mesh", {}});
}

}  // namespace polydg
