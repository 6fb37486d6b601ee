#include <cmath>

#include "cube_grid.hpp"
#include "polydg/core/error.hpp"
#include "polydg/mesh/generators.hpp"
#include "square_grid.hpp"

namespace polydg {

SimplexMesh<3> oscillating_cube_mesh(int n, double amplitude, int waves, double perturbation,
                                     std::uint64_t seed) {
  require(n >= 1 && n <= 640, "oscillating_cube_mesh: n = ", n,
          " cubes per side; need 1 <= n <= 640 (6n³ tetrahedra must fit the 32-bit Index)");
  require(waves >= 0, "oscillating_cube_mesh: waves = ", waves, "; need waves >= 0");
  require(n >= 4 * waves, "oscillating_cube_mesh: ", n, " cubes per side cannot resolve ", waves,
          " waves; need n >= 4 * waves = ", 4 * waves);
  // Written so that NaN fails too.
  require(std::abs(amplitude) < 1, "oscillating_cube_mesh: amplitude ", amplitude,
          " outside (-1, 1) (at |amplitude| >= 1 the map z -> z (1 + amplitude sin sin) flattens "
          "or inverts the tetrahedra under the troughs)");
  require(perturbation >= 0 && perturbation <= 0.25, "oscillating_cube_mesh: perturbation ",
          perturbation, " outside [0, 0.25] (larger offsets can fold tetrahedra)");
  const detail::CubeGrid grid{n};
  const double largest_offset = perturbation / n;
  const auto offset = [&](std::uint64_t index) {
    return largest_offset * (2 * detail::hashed_uniform(seed, index) - 1);
  };
  std::vector<Point<3>> vertices(grid.vertex_count());
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) {
        const Index v = grid.vertex(i, j, k);
        Point<3> x = grid.reference_point(i, j, k);
        if (perturbation > 0) {
          // x and y by column (vertex (i, j, 0)'s numbers), so that z edges stay along z; z
          // per vertex. The indices 3v + d never meet: d = 0, 1 for columns, 2 for heights.
          const std::uint64_t column = grid.vertex(i, j, 0);
          if (i > 0 && i < n && j > 0 && j < n) {
            x[0] += offset(3 * column);
            x[1] += offset(3 * column + 1);
            if (k > 0 && k < n) x[2] += offset(3 * std::uint64_t(v) + 2);
          }
        }
        x[2] *= 1 + amplitude * detail::sine_wave(waves, x[0]) * detail::sine_wave(waves, x[1]);
        vertices[v] = x;
      }
  return SimplexMesh<3>(std::move(vertices), grid.cells(), {}, grid.face_tags(),
                        MeshSource{"oscillating_cube_mesh", {}});
}

}  // namespace polydg
