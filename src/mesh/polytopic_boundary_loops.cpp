// Boundary loops of 2D polytopic elements: tracing them from the element's boundary facets,
// and joining an element's loops into a single polygon with zero-width slits.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "polydg/core/error.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polytopic_construction.hpp"

namespace polydg {

namespace {

double cross(const Point<2>& a, const Point<2>& b) { return a[0] * b[1] - a[1] * b[0]; }

double signed_area(const std::vector<Point<2>>& vertices, const std::vector<Index>& loop) {
  double twice_area = 0;
  for (std::size_t k = 0; k < loop.size(); ++k)
    twice_area += cross(vertices[loop[k]], vertices[loop[(k + 1) % loop.size()]]);
  return 0.5 * twice_area;
}

}  // namespace

namespace detail {

std::vector<std::vector<Index>> trace_boundary_loops(const SimplexMesh<2>& mesh,
                                                     std::span<const ElementSide> sides,
                                                     Index element) {
  // Each side as a directed edge with the element on its left: cells are counter-clockwise,
  // so the facet opposite local vertex i runs from vertex i+1 to vertex i+2.
  struct Edge {
    Index from, to;
    bool operator<(const Edge& other) const {
      return from != other.from ? from < other.from : to < other.to;
    }
  };
  std::vector<Edge> edges;
  edges.reserve(sides.size());
  for (const ElementSide& side : sides) {
    const auto& cell = mesh.cell(side.cell);
    const auto& facets = mesh.cell_facets(side.cell);
    const int i = int(std::find(facets.begin(), facets.end(), side.facet) - facets.begin());
    edges.push_back({cell[(i + 1) % 3], cell[(i + 2) % 3]});
  }
  std::sort(edges.begin(), edges.end());
  const auto& vertices = mesh.vertices();

  std::vector<char> used(edges.size(), 0);
  std::vector<std::vector<Index>> loops;
  for (std::size_t start = 0; start < edges.size(); ++start) {
    if (used[start]) continue;
    std::vector<Index> loop;
    std::size_t current = start;
    do {
      used[current] = 1;
      loop.push_back(edges[current].from);
      const Index v = edges[current].to;
      const auto first = std::lower_bound(edges.begin(), edges.end(), Edge{v, -1});
      auto last = first;
      while (last != edges.end() && last->from == v) ++last;
      require(first != last, "PolytopicMesh: element ", element,
              ": the boundary is not closed at fine vertex ", v);
      // Where the boundary touches itself (several edges leave v), turn counter-clockwise
      // from the edge we came along: that stays in the exterior wedge we travelled beside, so
      // the loop bounds one piece of the exterior (the outside, or one hole).
      std::size_t next = std::size_t(first - edges.begin());
      if (last - first > 1) {
        const Point<2> back = vertices[edges[current].from] - vertices[v];
        double best_angle = 10;
        for (auto it = first; it != last; ++it) {
          const Point<2> out = vertices[it->to] - vertices[v];
          double angle = std::atan2(cross(back, out), dot(back, out));
          if (angle <= 0) angle += 2 * std::numbers::pi;
          if (angle < best_angle) {
            best_angle = angle;
            next = std::size_t(it - edges.begin());
          }
        }
      }
      require(next == start || !used[next], "PolytopicMesh: element ", element,
              ": the boundary passes fine vertex ", v, " inconsistently");
      current = next;
    } while (current != start);
    loops.push_back(std::move(loop));
  }

  // The outer loop (largest signed area, the only positive one) first.
  std::size_t outer = 0;
  double largest = -1e300;
  for (std::size_t k = 0; k < loops.size(); ++k) {
    const double area = signed_area(vertices, loops[k]);
    if (area > largest) {
      largest = area;
      outer = k;
    }
  }
  std::rotate(loops.begin(), loops.begin() + outer, loops.begin() + outer + 1);
  return loops;
}

}  // namespace detail

std::vector<Index> element_polygon(const PolytopicMesh<2>& mesh, Index e) {
  const Index loop_count = mesh.element_loop_count(e);
  const auto outer = mesh.element_loop(e, 0);
  std::vector<Index> polygon(outer.begin(), outer.end());
  if (loop_count == 1) return polygon;

  // The element's fine vertices (local numbering) and the fine edges between them.
  const SimplexMesh<2>& fine = mesh.fine_mesh();
  std::vector<Index> local_vertices;
  for (Index c : mesh.element_cells(e))
    for (Index v : fine.cell(c)) local_vertices.push_back(v);
  std::sort(local_vertices.begin(), local_vertices.end());
  local_vertices.erase(std::unique(local_vertices.begin(), local_vertices.end()),
                       local_vertices.end());
  const Index n_local = Index(local_vertices.size());
  const auto local = [&](Index v) {
    return Index(std::lower_bound(local_vertices.begin(), local_vertices.end(), v) -
                 local_vertices.begin());
  };
  std::vector<std::vector<Index>> adjacent(n_local);
  for (Index c : mesh.element_cells(e)) {
    const auto& cell = fine.cell(c);
    for (int i = 0; i < 3; ++i) {
      const Index a = local(cell[i]), b = local(cell[(i + 1) % 3]);
      adjacent[a].push_back(b);
      adjacent[b].push_back(a);
    }
  }
  std::vector<char> on_loop(n_local, 0);
  for (Index k = 0; k < loop_count; ++k)
    for (Index v : mesh.element_loop(e, k)) on_loop[local(v)] = 1;

  // Join holes one at a time: a breadth-first search from the hole's vertices through
  // interior vertices finds the nearest vertex of the polygon built so far.
  std::vector<Index> pending;
  for (Index k = 1; k < loop_count; ++k) pending.push_back(k);
  std::vector<Index> parent(n_local);
  std::vector<char> in_polygon(n_local);
  std::vector<Index> queue;
  while (!pending.empty()) {
    bool joined = false;
    for (std::size_t h = 0; h < pending.size() && !joined; ++h) {
      const auto hole = mesh.element_loop(e, pending[h]);
      std::fill(in_polygon.begin(), in_polygon.end(), 0);
      for (Index v : polygon) in_polygon[local(v)] = 1;
      std::fill(parent.begin(), parent.end(), -2);  // -2: not reached, -1: a hole vertex
      queue.clear();
      Index target = -1;
      for (Index v : hole) {
        parent[local(v)] = -1;
        queue.push_back(local(v));
        if (target < 0 && in_polygon[local(v)]) target = local(v);  // the hole touches it
      }
      for (std::size_t head = 0; head < queue.size() && target < 0; ++head)
        for (Index next : adjacent[queue[head]]) {
          if (parent[next] != -2 || (on_loop[next] && !in_polygon[next])) continue;
          parent[next] = queue[head];
          if (in_polygon[next]) {
            target = next;
            break;
          }
          queue.push_back(next);
        }
      if (target < 0) continue;

      // path: target = p0, p1, ..., pk (a hole vertex).
      std::vector<Index> path;
      for (Index v = target; v >= 0; v = parent[v]) path.push_back(local_vertices[v]);
      const Index entry = path.back();
      const std::size_t entry_position =
          std::size_t(std::find(hole.begin(), hole.end(), entry) - hole.begin());
      const std::size_t position =
          std::size_t(std::find(polygon.begin(), polygon.end(), path.front()) - polygon.begin());
      std::vector<Index> joined_polygon(polygon.begin(), polygon.begin() + position + 1);
      joined_polygon.insert(joined_polygon.end(), path.begin() + 1, path.end());
      for (std::size_t k = 1; k < hole.size(); ++k)
        joined_polygon.push_back(hole[(entry_position + k) % hole.size()]);
      joined_polygon.push_back(entry);
      joined_polygon.insert(joined_polygon.end(), path.rbegin() + 1, path.rend());
      joined_polygon.insert(joined_polygon.end(), polygon.begin() + position + 1, polygon.end());
      polygon = std::move(joined_polygon);
      pending.erase(pending.begin() + std::ptrdiff_t(h));
      joined = true;
    }
    if (!joined) return {};
  }
  return polygon;
}

}  // namespace polydg
