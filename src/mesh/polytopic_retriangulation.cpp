// Retriangulation of a 2D polytopic element for quadrature: the element's boundary polygon
// with straight vertices dropped, cut into triangles by ear clipping (about one triangle per
// face instead of one per fine cell). Quadrature is exact on any triangulation, so only
// coverage matters, which the area check at the end confirms.
#include <cmath>

#include "polytopic_construction.hpp"

namespace polydg::detail {

namespace {

double orientation(const Point<2>& a, const Point<2>& b, const Point<2>& c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// p in the closed triangle (a, b, c), counter-clockwise.
bool in_triangle(const Point<2>& p, const Point<2>& a, const Point<2>& b, const Point<2>& c) {
  return orientation(a, b, p) >= 0 && orientation(b, c, p) >= 0 && orientation(c, a, p) >= 0;
}

// The loop's corners: vertex b between a and c is dropped when the edges a→b and b→c point the
// same way within `tolerance` (|sin| of the turn, which is the normals' difference).
std::vector<Index> corners_of(const std::vector<Point<2>>& vertices, std::span<const Index> loop,
                              double tolerance) {
  std::vector<Index> corners;
  const std::size_t n = loop.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Point<2>& a = vertices[loop[(k + n - 1) % n]];
    const Point<2>& b = vertices[loop[k]];
    const Point<2>& c = vertices[loop[(k + 1) % n]];
    const Point<2> in = b - a, out = c - b;
    const double lengths = std::sqrt(dot(in, in) * dot(out, out));
    const double turn = in[0] * out[1] - in[1] * out[0];
    const bool straight = dot(in, out) > 0 && std::abs(turn) <= tolerance * lengths;
    if (!straight) corners.push_back(loop[k]);
  }
  return corners;
}

}  // namespace

bool triangulate_polygon(const std::vector<Point<2>>& vertices, std::span<const Index> outer_loop,
                         double measure, double tolerance,
                         std::vector<std::array<Index, 3>>& triangles) {
  triangles.clear();
  const std::vector<Index> corners = corners_of(vertices, outer_loop, tolerance);
  const int n = int(corners.size());
  if (n < 3) return false;

  // Corners in a doubly linked cycle; clip ears (convex corners whose triangle holds no other
  // remaining corner — only non-convex ones can be inside) until a triangle is left.
  std::vector<int> previous(n), next(n);
  for (int k = 0; k < n; ++k) {
    previous[k] = (k + n - 1) % n;
    next[k] = (k + 1) % n;
  }
  const auto point = [&](int k) -> const Point<2>& { return vertices[corners[k]]; };
  const auto convex = [&](int k) {
    return orientation(point(previous[k]), point(k), point(next[k])) > 0;
  };
  const auto is_ear = [&](int k) {
    if (!convex(k)) return false;
    const int a = previous[k], c = next[k];
    for (int j = next[c]; j != a; j = next[j])
      if (!convex(j) && in_triangle(point(j), point(a), point(k), point(c))) return false;
    return true;
  };
  int remaining = n, k = 0, tries = 0;
  while (remaining > 3) {
    if (is_ear(k)) {
      triangles.push_back({corners[previous[k]], corners[k], corners[next[k]]});
      next[previous[k]] = next[k];
      previous[next[k]] = previous[k];
      k = next[k];
      --remaining;
      tries = 0;
    } else {
      k = next[k];
      if (++tries > remaining) {  // a full turn without an ear: not a simple polygon
        triangles.clear();
        return false;
      }
    }
  }
  if (orientation(point(previous[k]), point(k), point(next[k])) <= 0) {
    triangles.clear();
    return false;
  }
  triangles.push_back({corners[previous[k]], corners[k], corners[next[k]]});

  double area = 0;
  for (const auto& t : triangles)
    area += 0.5 * orientation(vertices[t[0]], vertices[t[1]], vertices[t[2]]);
  if (std::abs(area - measure) > 1e-12 * measure) {
    triangles.clear();
    return false;
  }
  return true;
}

}  // namespace polydg::detail
