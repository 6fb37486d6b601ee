// The double Mach reflection's mesh and boundary functor
// (include/polydg/hyperbolic/double_mach_reflection.hpp).
#include "polydg/hyperbolic/double_mach_reflection.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"

namespace polydg::hyperbolic {

SimplexMesh<2> double_mach_reflection_mesh(int resolution, const DoubleMachReflection& problem) {
  require(resolution >= 1 && resolution <= 2000, "double_mach_reflection_mesh: resolution ",
          resolution, " is outside 1..2000 (about 8 · resolution² triangles)");
  const double x0 = problem.wall_start, length = problem.length, height = problem.height;
  require(height > 0 && x0 > 0 && x0 < length, "double_mach_reflection_mesh: sizes length ", length,
          ", height ", height, ", wall start ", x0, " are not 0 < wall start < length, height > 0");
  // Cells of height h = height / resolution; columns of width close to h on either side of x_0.
  const double h = height / resolution;
  const int columns_before = std::max(1, int(std::lround(x0 / h)));
  const int columns_after = std::max(1, int(std::lround((length - x0) / h)));
  const int columns = columns_before + columns_after, rows = resolution;
  std::vector<double> xs(columns + 1), ys(rows + 1);
  for (int i = 0; i <= columns_before; ++i) xs[i] = x0 * i / columns_before;
  for (int i = 1; i <= columns_after; ++i)
    xs[columns_before + i] = i == columns_after ? length : x0 + (length - x0) * i / columns_after;
  for (int j = 0; j <= rows; ++j) ys[j] = j == rows ? height : height * j / rows;

  const auto vertex = [&](int i, int j) { return Index(j) * (columns + 1) + i; };
  std::vector<Point<2>> vertices;
  vertices.reserve(std::size_t(columns + 1) * (rows + 1));
  for (int j = 0; j <= rows; ++j)
    for (int i = 0; i <= columns; ++i) vertices.push_back({xs[i], ys[j]});

  std::vector<SimplexMesh<2>::Cell> cells;
  cells.reserve(2 * std::size_t(columns) * rows);
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < columns; ++i) {
      const Index a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1),
                  d = vertex(i, j + 1);
      // Alternating diagonals: no preferred direction over two cells (counter-clockwise).
      if ((i + j) % 2 == 0) {
        cells.push_back({a, b, c});
        cells.push_back({a, c, d});
      } else {
        cells.push_back({a, b, d});
        cells.push_back({b, c, d});
      }
    }

  std::vector<SimplexMesh<2>::TaggedFacet> tags;
  for (int i = 0; i < columns; ++i) {
    tags.push_back({{vertex(i, 0), vertex(i + 1, 0)},
                    i < columns_before ? DoubleMachReflection::bottom_inflow_tag
                                       : DoubleMachReflection::wall_tag});
    tags.push_back({{vertex(i, rows), vertex(i + 1, rows)}, DoubleMachReflection::top_tag});
  }
  for (int j = 0; j < rows; ++j) {
    tags.push_back({{vertex(0, j), vertex(0, j + 1)}, DoubleMachReflection::left_tag});
    tags.push_back({{vertex(columns, j), vertex(columns, j + 1)}, DoubleMachReflection::right_tag});
  }
  return SimplexMesh<2>(
      std::move(vertices), std::move(cells), {}, std::move(tags),
      MeshSource{"double Mach reflection mesh, resolution " + std::to_string(resolution), {}});
}

DoubleMachReflectionBoundary double_mach_reflection_boundary(const DoubleMachReflection& problem) {
  DoubleMachReflectionBoundary boundary{problem, EulerBoundary{problem.gas}};
  const State<4> post_shock = problem.gas.conserved(problem.post_shock());
  boundary.fixed.inflow(DoubleMachReflection::left_tag, post_shock)
      .inflow(DoubleMachReflection::bottom_inflow_tag, post_shock)
      .reflecting_wall(DoubleMachReflection::wall_tag)
      .outflow(DoubleMachReflection::right_tag);
  return boundary;
}

}  // namespace polydg::hyperbolic
