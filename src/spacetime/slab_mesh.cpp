#include "polydg/spacetime/slab_mesh.hpp"

#include <algorithm>

#include "polydg/core/error.hpp"

namespace polydg {

SimplexMesh<3> extrude_to_slab(const SimplexMesh<2>& spatial, double t0, double t1) {
  require(t1 > t0, "extrude_to_slab: empty time interval [", t0, ", ", t1, "]");
  const Index n = spatial.vertex_count();
  std::vector<Point<3>> vertices(2 * std::size_t(n));
  for (Index v = 0; v < n; ++v) {
    const Point<2>& p = spatial.vertices()[v];
    vertices[v] = {{p[0], p[1], t0}};
    vertices[v + n] = {{p[0], p[1], t1}};
  }
  // Prism with bottom vertices a < b < c (global numbers) and tops a', b', c': each lateral
  // quad is cut from the bottom of its smaller vertex to the top of its larger one, which
  // gives the tetrahedra (a b c c'), (a b b' c'), (a a' b' c').
  std::vector<SimplexMesh<3>::Cell> cells;
  std::vector<int> regions;
  cells.reserve(3 * std::size_t(spatial.cell_count()));
  regions.reserve(cells.capacity());
  for (Index k = 0; k < spatial.cell_count(); ++k) {
    auto sorted = spatial.cell(k);
    std::sort(sorted.begin(), sorted.end());
    const Index a = sorted[0], b = sorted[1], c = sorted[2];
    cells.push_back({a, b, c, c + n});
    cells.push_back({a, b, b + n, c + n});
    cells.push_back({a, a + n, b + n, c + n});
    for (int j = 0; j < 3; ++j) regions.push_back(spatial.cell_region(k));
  }
  // Tags: lateral faces keep the spatial edge's tag, bottom and top triangles get theirs.
  std::vector<SimplexMesh<3>::TaggedFacet> tags;
  for (Index f = 0; f < spatial.facet_count(); ++f) {
    if (!spatial.is_boundary_facet(f)) continue;
    auto edge = spatial.facet_vertices(f);  // ascending
    const Index p = edge[0], q = edge[1];
    const int tag = spatial.facet_tag(f);
    tags.push_back({{p, q, q + n}, tag});  // the cut runs from p (bottom) to q' (top)
    tags.push_back({{p, p + n, q + n}, tag});
  }
  for (Index k = 0; k < spatial.cell_count(); ++k) {
    const auto& cell = spatial.cell(k);
    tags.push_back({{cell[0], cell[1], cell[2]}, slab_bottom_tag});
    tags.push_back({{cell[0] + n, cell[1] + n, cell[2] + n}, slab_top_tag});
  }
  MeshSource source{
      spatial.source().name + " x [" + std::to_string(t0) + ", " + std::to_string(t1) + "]", {}};
  return SimplexMesh<3>(std::move(vertices), std::move(cells), std::move(regions), std::move(tags),
                        std::move(source));
}

namespace {
PolytopicMesh<3> slab_from(const PolytopicMesh<2>& spatial, std::vector<int> degrees) {
  auto fine = std::make_shared<const SimplexMesh<3>>(extrude_to_slab(spatial.fine_mesh()));
  std::vector<Index> element_of_tetrahedron(std::size_t(fine->cell_count()));
  for (Index c = 0; c < fine->cell_count(); ++c)
    element_of_tetrahedron[c] = spatial.element_of_cell(c / 3);
  return PolytopicMesh<3>(fine, element_of_tetrahedron, std::move(degrees));
}
}  // namespace

PolytopicMesh<3> make_slab_mesh(const PolytopicMesh<2>& spatial) {
  return slab_from(spatial, {spatial.degrees().begin(), spatial.degrees().end()});
}

PolytopicMesh<3> make_slab_mesh(const PolytopicMesh<2>& spatial, int degree) {
  return slab_from(spatial, std::vector<int>(std::size_t(spatial.element_count()), degree));
}

}  // namespace polydg
