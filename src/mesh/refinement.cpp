#include "polydg/mesh/refinement.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"

namespace polydg {

namespace {

// The edges of a mesh, numbered in the order of their sorted vertex pairs (a, b), a < b: per
// vertex a, its larger neighbours b ascending (CSR by the smaller vertex). One number per edge
// whichever cells share it, which is what makes the refined mesh conforming.
struct EdgeNumbering {
  std::vector<std::size_t> offsets;  // per vertex a: its edges are offsets[a] .. offsets[a+1]
  std::vector<Index> larger;         // the other vertex b of each edge

  std::size_t edge_count() const { return larger.size(); }
  std::size_t edge(Index a, Index b) const {
    if (a > b) std::swap(a, b);
    const auto begin = larger.begin() + std::ptrdiff_t(offsets[std::size_t(a)]);
    const auto end = larger.begin() + std::ptrdiff_t(offsets[std::size_t(a) + 1]);
    return std::size_t(std::lower_bound(begin, end, b) - larger.begin());
  }
};

template <int Dim>
EdgeNumbering number_edges(const SimplexMesh<Dim>& mesh) {
  const std::size_t n_vertices = std::size_t(mesh.vertex_count());
  const auto for_each_edge = [&](auto&& visit) {
    for (const auto& cell : mesh.cells())
      for (int i = 0; i <= Dim; ++i)
        for (int j = i + 1; j <= Dim; ++j)
          visit(std::min(cell[i], cell[j]), std::max(cell[i], cell[j]));
  };
  // Every cell's copy of an edge, grouped by the smaller vertex (a counting sort) ...
  std::vector<std::size_t> copy_offsets(n_vertices + 1, 0);
  for_each_edge([&](Index a, Index) { ++copy_offsets[std::size_t(a) + 1]; });
  std::partial_sum(copy_offsets.begin(), copy_offsets.end(), copy_offsets.begin());
  std::vector<Index> copies(copy_offsets[n_vertices]);
  {
    std::vector<std::size_t> next(copy_offsets.begin(), copy_offsets.end() - 1);
    for_each_edge([&](Index a, Index b) { copies[next[std::size_t(a)]++] = b; });
  }
  // ... then each vertex's few copies sorted and made unique.
  EdgeNumbering edges;
  edges.offsets.assign(n_vertices + 1, 0);
  edges.larger.reserve(copies.size() / 2);
  for (std::size_t a = 0; a < n_vertices; ++a) {
    const auto begin = copies.begin() + std::ptrdiff_t(copy_offsets[a]);
    const auto end = copies.begin() + std::ptrdiff_t(copy_offsets[a + 1]);
    std::sort(begin, end);
    edges.larger.insert(edges.larger.end(), begin, std::unique(begin, end));
    edges.offsets[a + 1] = edges.larger.size();
  }
  return edges;
}

using Triangle = std::array<Index, 3>;
using Tetrahedron = std::array<Index, 4>;

// The children of a positively oriented cell in terms of its vertices v[i] and edge midpoints
// m[i][j], each child positively oriented.
//
// Triangle: three corner triangles, which are the parent scaled by 1/2 about a vertex, and the
// middle one, the parent turned by 180° about its centroid and scaled by 1/2 (v2 v0 v1 go to
// m01 m12 m02): all keep the parent's orientation.
//
// Tetrahedron: Bey's children (docs/theory.md, "Uniform refinement") in his vertex order — the
// corners 1-4, then the octahedron cut along m02–m13 — except that the two of them whose order
// is negatively oriented (Bey's T6 and T8) are stored with that order rotated by one place,
// (y1 y2 y3 y0): an odd permutation that is again an order Bey's rule keeps the congruence
// classes with. (Swapping two vertices, as SimplexMesh does with negative cells, is not.)
std::array<Triangle, 4> children_of(const Triangle& v, const Index (&m)[3][3]) {
  return {Triangle{v[0], m[0][1], m[0][2]}, Triangle{m[0][1], v[1], m[1][2]},
          Triangle{m[0][2], m[1][2], v[2]}, Triangle{m[0][1], m[1][2], m[0][2]}};
}

std::array<Tetrahedron, 8> children_of(const Tetrahedron& v, const Index (&m)[4][4]) {
  return {Tetrahedron{v[0], m[0][1], m[0][2], m[0][3]},      // T1
          Tetrahedron{m[0][1], v[1], m[1][2], m[1][3]},      // T2
          Tetrahedron{m[0][2], m[1][2], v[2], m[2][3]},      // T3
          Tetrahedron{m[0][3], m[1][3], m[2][3], v[3]},      // T4
          Tetrahedron{m[0][1], m[0][2], m[0][3], m[1][3]},   // T5
          Tetrahedron{m[0][2], m[1][2], m[1][3], m[0][1]},   // T6: (m01 m02 m12 m13) rotated
          Tetrahedron{m[0][2], m[0][3], m[1][3], m[2][3]},   // T7
          Tetrahedron{m[1][2], m[1][3], m[2][3], m[0][2]}};  // T8: (m02 m12 m13 m23) rotated
}

}  // namespace

template <int Dim>
SimplexMesh<Dim> refine(const SimplexMesh<Dim>& mesh) {
  using Cell = typename SimplexMesh<Dim>::Cell;
  using Facet = typename SimplexMesh<Dim>::Facet;
  constexpr int children_per_cell = Dim == 2 ? 4 : 8;
  constexpr int children_per_facet = Dim == 2 ? 2 : 4;
  const std::string& name = mesh.source().name;
  require(mesh.cell_count() > 0, "refine: ", name, " has no cells");

  const EdgeNumbering edges = number_edges(mesh);
  const std::uint64_t index_limit = std::uint64_t(std::numeric_limits<Index>::max());
  const std::uint64_t refined_cells = std::uint64_t(mesh.cell_count()) * children_per_cell;
  const std::uint64_t refined_vertices = std::uint64_t(mesh.vertex_count()) + edges.edge_count();
  require(refined_cells <= index_limit && refined_vertices <= index_limit, "refine: ", name,
          " refined would have ", refined_cells, " cells and ", refined_vertices,
          " vertices; the 32-bit Index holds at most ", index_limit);

  // Vertices: the old ones, then the edge midpoints in edge order.
  std::vector<Point<Dim>> vertices(mesh.vertices());
  vertices.reserve(std::size_t(refined_vertices));
  for (std::size_t a = 0; a + 1 < edges.offsets.size(); ++a)
    for (std::size_t e = edges.offsets[a]; e < edges.offsets[a + 1]; ++e)
      vertices.push_back(0.5 *
                         (mesh.vertices()[a] + mesh.vertices()[std::size_t(edges.larger[e])]));
  const auto midpoint = [&](Index a, Index b) {
    return Index(std::size_t(mesh.vertex_count()) + edges.edge(a, b));
  };

  std::vector<Cell> cells;
  std::vector<int> regions;
  cells.reserve(std::size_t(refined_cells));
  regions.reserve(std::size_t(refined_cells));
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    const Cell& cell = mesh.cell(c);
    Index m[Dim + 1][Dim + 1] = {};
    for (int i = 0; i <= Dim; ++i)
      for (int j = i + 1; j <= Dim; ++j) m[i][j] = m[j][i] = midpoint(cell[i], cell[j]);
    for (const Cell& child : children_of(cell, m)) {
      cells.push_back(child);
      regions.push_back(mesh.cell_region(c));
    }
  }

  // Boundary facets: the red refinement of each, every child with the parent's tag. (The
  // children of the cells on a boundary facet cover it with exactly these facets: Bey's cut
  // of the octahedron runs through its inside.)
  std::vector<typename SimplexMesh<Dim>::TaggedFacet> tags;
  tags.reserve(std::size_t(mesh.boundary_facet_count()) * children_per_facet);
  for (Index f = 0; f < mesh.facet_count(); ++f) {
    if (!mesh.is_boundary_facet(f)) continue;
    const Facet& v = mesh.facet_vertices(f);
    const int tag = mesh.facet_tag(f);
    if constexpr (Dim == 2) {
      const Index m01 = midpoint(v[0], v[1]);
      tags.push_back({{v[0], m01}, tag});
      tags.push_back({{m01, v[1]}, tag});
    } else {
      const Index m01 = midpoint(v[0], v[1]), m02 = midpoint(v[0], v[2]),
                  m12 = midpoint(v[1], v[2]);
      tags.push_back({{v[0], m01, m02}, tag});
      tags.push_back({{m01, v[1], m12}, tag});
      tags.push_back({{m02, m12, v[2]}, tag});
      tags.push_back({{m01, m12, m02}, tag});
    }
  }
  return SimplexMesh<Dim>(std::move(vertices), std::move(cells), std::move(regions),
                          std::move(tags), MeshSource{"refine(" + name + ")", {}});
}

template SimplexMesh<2> refine(const SimplexMesh<2>&);
template SimplexMesh<3> refine(const SimplexMesh<3>&);

}  // namespace polydg
