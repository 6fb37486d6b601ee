#include "cube_grid.hpp"

#include <array>

namespace polydg::detail {

namespace {

// The Kuhn orders of the axes, and the corners (grid coordinates) of the tetrahedron of cube
// (i, j, k) that steps along them.
constexpr int kuhn_orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

std::array<std::array<int, 3>, 4> kuhn_corners(int i, int j, int k, const int (&order)[3]) {
  std::array<std::array<int, 3>, 4> corners;
  corners[0] = {i, j, k};
  for (int step = 0; step < 3; ++step) {
    corners[step + 1] = corners[step];
    ++corners[step + 1][order[step]];
  }
  return corners;
}

}  // namespace

Point<3> CubeGrid::reference_point(int i, int j, int k) const {
  // i == n gives exactly 1, as in the square grid: the faces are exactly the planes.
  return {
      {i == n ? 1.0 : double(i) / n, j == n ? 1.0 : double(j) / n, k == n ? 1.0 : double(k) / n}};
}

std::vector<SimplexMesh<3>::Cell> CubeGrid::cells() const {
  std::vector<SimplexMesh<3>::Cell> result;
  result.reserve(std::size_t(6) * n * n * n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& order : kuhn_orders) {
          const auto corners = kuhn_corners(i, j, k, order);
          SimplexMesh<3>::Cell cell;
          for (int c = 0; c < 4; ++c) cell[c] = vertex(corners[c][0], corners[c][1], corners[c][2]);
          result.push_back(cell);
        }
  return result;
}

std::vector<SimplexMesh<3>::TaggedFacet> CubeGrid::face_tags() const {
  std::vector<SimplexMesh<3>::TaggedFacet> tags;
  tags.reserve(std::size_t(12) * n * n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& order : kuhn_orders) {
          const auto corners = kuhn_corners(i, j, k, order);
          // A face of the tetrahedron on a side of the cube: its three vertices share that
          // side's coordinate.
          for (int skip = 0; skip < 4; ++skip) {
            SimplexMesh<3>::Facet facet;
            std::array<std::array<int, 3>, 3> face;
            for (int c = 0, f = 0; c < 4; ++c)
              if (c != skip) {
                face[f] = corners[c];
                facet[f++] = vertex(corners[c][0], corners[c][1], corners[c][2]);
              }
            for (int axis = 0; axis < 3; ++axis)
              for (int side = 0; side < 2; ++side) {
                const int value = side == 0 ? 0 : n;
                if (face[0][axis] == value && face[1][axis] == value && face[2][axis] == value)
                  tags.push_back({facet, 2 * axis + side + 1});
              }
          }
        }
  return tags;
}

}  // namespace polydg::detail
