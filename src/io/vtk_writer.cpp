#include "polydg/io/vtk_writer.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "vtu_xml_writer.hpp"

namespace polydg {

namespace {

// Renumbers the fine vertices that the cells use to 0..n−1 (in ascending fine order) and
// rewrites the connectivity; returns the points of the fine vertices written.
template <int Dim>
std::vector<Point<Dim>> compact_vertices(const std::vector<Point<Dim>>& fine_vertices,
                                         std::vector<Index>& connectivity) {
  const Index fine_vertex_count = Index(fine_vertices.size());
  std::vector<Index> new_index(fine_vertex_count, -1);
  for (Index v : connectivity) new_index[v] = 0;
  std::vector<Point<Dim>> written;
  for (Index v = 0; v < fine_vertex_count; ++v)
    if (new_index[v] == 0) {
      new_index[v] = Index(written.size());
      written.push_back(fine_vertices[v]);
    }
  for (Index& v : connectivity) v = new_index[v];
  return written;
}

// Opens the .vtu file and writes it up to the cell data arrays: points, cells (CSR, offsets[0]
// = 0) of VTK type `type`, and the opening of the CellData section.
template <int Dim>
io::VtuXmlWriter open_with_cells(const std::filesystem::path& path,
                                 const std::vector<Point<Dim>>& points,
                                 const std::vector<GlobalIndex>& offsets,
                                 const std::vector<Index>& connectivity, int type) {
  io::VtuXmlWriter file(path, "VTK writer");
  file.begin(GlobalIndex(points.size()), GlobalIndex(offsets.size()) - 1);
  file.points(std::span<const Point<Dim>>(points));
  file.cells(offsets, connectivity, type);
  file.begin_cell_data();
  return file;
}

// The cell data of a polytopic mesh file, one value per cell, and the end of the file; cell k
// is element cell_element[k].
template <int Dim>
void write_element_data_and_finish(io::VtuXmlWriter& file, const PolytopicMesh<Dim>& mesh,
                                   std::span<const Index> cell_element) {
  const std::size_t n_cells = cell_element.size();
  std::vector<Index> ids(n_cells), faces(n_cells), fine_cells(n_cells);
  std::vector<int> degrees(n_cells);
  std::vector<double> box_coverage(n_cells), roundness(n_cells), measure(n_cells);
  for (std::size_t k = 0; k < n_cells; ++k) {
    const Index e = cell_element[k];
    ids[k] = e;
    degrees[k] = mesh.element_degree(e);
    box_coverage[k] = mesh.element_box_coverage(e);
    faces[k] = mesh.element_face_count(e);
    fine_cells[k] = mesh.element_fine_cell_count(e);
    roundness[k] = mesh.element_roundness(e);
    measure[k] = mesh.element_measure(e);
  }
  file.data_array("Int32", "element_id", ids);
  file.data_array("Int32", "degree", degrees);
  file.data_array("Float64", "box_coverage", box_coverage);
  file.data_array("Int32", "faces", faces);
  file.data_array("Int32", "fine_cells", fine_cells);
  file.data_array("Float64", "roundness", roundness);
  file.data_array("Float64", "measure", measure);
  file.end_cell_data();
  file.finish();
}

// The outward triangles of element e's boundary: each facet of its fine tetrahedra whose other
// side is ∂Ω or another element's cell. SimplexMesh stores its cells positively oriented, and
// the faces of a positive tetrahedron (0, 1, 2, 3) read counter-clockwise from outside are
// (1, 2, 3), (0, 3, 2), (0, 1, 3), (0, 2, 1): the faces opposite vertex 0, 1, 2, 3.
void add_element_boundary_triangles(const PolytopicMesh<3>& mesh, Index e,
                                    std::vector<std::array<Index, 3>>& triangles) {
  constexpr int outward_face[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  const SimplexMesh<3>& fine = mesh.fine_mesh();
  for (Index c : mesh.element_cells(e)) {
    const SimplexMesh<3>::Cell& cell = fine.cell(c);
    for (int opposite = 0; opposite < 4; ++opposite) {
      const auto& sides = fine.facet_cells(fine.cell_facets(c)[opposite]);
      const Index other = sides[0] == c ? sides[1] : sides[0];
      if (other >= 0 && mesh.element_of_cell(other) == e) continue;
      const auto& face = outward_face[opposite];
      triangles.push_back({cell[face[0]], cell[face[1]], cell[face[2]]});
    }
  }
}

template <int Dim>
void write_simplex_mesh(const std::filesystem::path& path, const SimplexMesh<Dim>& mesh,
                        std::span<const Index> element_of_cell) {
  const Index n_cells = mesh.cell_count();
  require(element_of_cell.empty() || Index(element_of_cell.size()) == n_cells, "VTK writer: '",
          path.string(), "': ", element_of_cell.size(), " element ids given for ", n_cells,
          " cells");
  std::vector<GlobalIndex> offsets{0};
  std::vector<Index> connectivity;
  connectivity.reserve((Dim + 1) * std::size_t(n_cells));
  // SimplexMesh's positive orientation is VTK's for triangles and tetrahedra.
  for (Index c = 0; c < n_cells; ++c) {
    for (Index v : mesh.cell(c)) connectivity.push_back(v);
    offsets.push_back(GlobalIndex(connectivity.size()));
  }
  const std::vector<Point<Dim>> points = compact_vertices(mesh.vertices(), connectivity);
  std::vector<int> regions(n_cells);
  for (Index c = 0; c < n_cells; ++c) regions[c] = mesh.cell_region(c);

  io::VtuXmlWriter file = open_with_cells(path, points, offsets, connectivity,
                                          Dim == 2 ? io::vtk_triangle : io::vtk_tetra);
  file.data_array("Int32", "region", regions);
  if (!element_of_cell.empty())
    file.data_array("Int32", "element_id",
                    std::vector<Index>(element_of_cell.begin(), element_of_cell.end()));
  file.end_cell_data();
  file.finish();
}

}  // namespace

void write_polytopic_mesh_vtu(const std::filesystem::path& path, const PolytopicMesh<2>& mesh) {
  const Index n_elements = mesh.element_count();
  std::vector<GlobalIndex> offsets{0};
  std::vector<Index> connectivity;
  Index unreachable_holes = 0;
  for (Index e = 0; e < n_elements; ++e) {
    std::vector<Index> polygon = element_polygon(mesh, e);
    if (polygon.empty()) {
      ++unreachable_holes;
      const auto outer = mesh.element_loop(e, 0);
      polygon.assign(outer.begin(), outer.end());
    }
    connectivity.insert(connectivity.end(), polygon.begin(), polygon.end());
    offsets.push_back(GlobalIndex(connectivity.size()));
  }
  if (unreachable_holes > 0)
    warn(detail::concatenate("VTK writer: '", path.string(), "': ", unreachable_holes,
                             " elements have a hole that no interior fine edge reaches; only "
                             "their outer boundary is written"));
  const std::vector<Point<2>> points = compact_vertices(mesh.fine_mesh().vertices(), connectivity);
  io::VtuXmlWriter file = open_with_cells(path, points, offsets, connectivity, io::vtk_polygon);
  std::vector<Index> cell_element(n_elements);
  std::iota(cell_element.begin(), cell_element.end(), Index(0));
  write_element_data_and_finish(file, mesh, cell_element);
}

void write_polytopic_mesh_vtu(const std::filesystem::path& path, const PolytopicMesh<3>& mesh) {
  const Index n_elements = mesh.element_count();
  // Per element: its boundary triangles (fine vertex numbers) and the sorted distinct vertices
  // of those triangles, the polyhedron's points.
  std::vector<std::vector<std::array<Index, 3>>> element_triangles(n_elements);
  std::vector<std::vector<Index>> element_vertices(n_elements);
  for (Index e = 0; e < n_elements; ++e) {
    add_element_boundary_triangles(mesh, e, element_triangles[e]);
    std::vector<Index>& vertices = element_vertices[e];
    for (const auto& triangle : element_triangles[e])
      vertices.insert(vertices.end(), triangle.begin(), triangle.end());
    std::sort(vertices.begin(), vertices.end());
    vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
  }
  // The cells in ascending order of their point count (then of the element): meshio's reader
  // (5.x) puts the polyhedra into blocks in the order their point counts first appear, but
  // their cell data into blocks in ascending point count, and rejects or mismatches the file
  // unless the two orders agree.
  std::vector<Index> cell_element(n_elements);
  std::iota(cell_element.begin(), cell_element.end(), Index(0));
  std::stable_sort(cell_element.begin(), cell_element.end(), [&](Index a, Index b) {
    return element_vertices[a].size() < element_vertices[b].size();
  });

  std::vector<GlobalIndex> offsets{0}, face_offsets{0};
  std::vector<Index> connectivity;
  std::vector<std::array<Index, 3>> triangles;
  for (Index e : cell_element) {
    connectivity.insert(connectivity.end(), element_vertices[e].begin(), element_vertices[e].end());
    offsets.push_back(GlobalIndex(connectivity.size()));
    triangles.insert(triangles.end(), element_triangles[e].begin(), element_triangles[e].end());
    face_offsets.push_back(GlobalIndex(triangles.size()));
  }
  // Renumber the triangles' vertices as the points are renumbered: append them to the
  // connectivity for compact_vertices, then split them off again.
  const std::size_t cell_point_count = connectivity.size();
  for (const auto& triangle : triangles)
    connectivity.insert(connectivity.end(), triangle.begin(), triangle.end());
  const std::vector<Point<3>> points = compact_vertices(mesh.fine_mesh().vertices(), connectivity);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) triangles[t][k] = connectivity[cell_point_count + 3 * t + k];
  connectivity.resize(cell_point_count);

  io::VtuXmlWriter file(path, "VTK writer");
  file.begin(GlobalIndex(points.size()), GlobalIndex(n_elements));
  file.points(std::span<const Point<3>>(points));
  file.polyhedra(offsets, connectivity, face_offsets, triangles);
  file.begin_cell_data();
  write_element_data_and_finish(file, mesh, cell_element);
}

void write_simplex_mesh_vtu(const std::filesystem::path& path, const SimplexMesh<2>& mesh,
                            std::span<const Index> element_of_cell) {
  write_simplex_mesh(path, mesh, element_of_cell);
}

void write_simplex_mesh_vtu(const std::filesystem::path& path, const SimplexMesh<3>& mesh,
                            std::span<const Index> element_of_cell) {
  write_simplex_mesh(path, mesh, element_of_cell);
}

}  // namespace polydg
