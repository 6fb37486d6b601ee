#include "polydg/io/vtk_writer.hpp"

#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "vtu_xml_writer.hpp"

namespace polydg {

namespace {

// Renumbers the fine vertices that the cells use to 0..n−1 (in ascending fine order) and
// rewrites the connectivity; returns the points of the fine vertices written.
std::vector<Point<2>> compact_vertices(const std::vector<Point<2>>& fine_vertices,
                                       std::vector<Index>& connectivity) {
  const Index fine_vertex_count = Index(fine_vertices.size());
  std::vector<Index> new_index(fine_vertex_count, -1);
  for (Index v : connectivity) new_index[v] = 0;
  std::vector<Point<2>> written;
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
io::VtuXmlWriter open_with_cells(const std::filesystem::path& path,
                                 const std::vector<Point<2>>& points,
                                 const std::vector<GlobalIndex>& offsets,
                                 const std::vector<Index>& connectivity, int type) {
  io::VtuXmlWriter file(path, "VTK writer");
  file.begin(GlobalIndex(points.size()), GlobalIndex(offsets.size()) - 1);
  file.points(points);
  file.cells(offsets, connectivity, type);
  file.begin_cell_data();
  return file;
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

  std::vector<Index> ids(n_elements), faces(n_elements), fine_cells(n_elements);
  std::vector<int> degrees(n_elements);
  std::vector<double> box_coverage(n_elements), roundness(n_elements), measure(n_elements);
  for (Index e = 0; e < n_elements; ++e) {
    ids[e] = e;
    degrees[e] = mesh.element_degree(e);
    box_coverage[e] = mesh.element_box_coverage(e);
    faces[e] = mesh.element_face_count(e);
    fine_cells[e] = mesh.element_fine_cell_count(e);
    roundness[e] = mesh.element_roundness(e);
    measure[e] = mesh.element_measure(e);
  }

  io::VtuXmlWriter file = open_with_cells(path, points, offsets, connectivity, io::vtk_polygon);
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

void write_simplex_mesh_vtu(const std::filesystem::path& path, const SimplexMesh<2>& mesh,
                            std::span<const Index> element_of_cell) {
  const Index n_cells = mesh.cell_count();
  require(element_of_cell.empty() || Index(element_of_cell.size()) == n_cells, "VTK writer: '",
          path.string(), "': ", element_of_cell.size(), " element ids given for ", n_cells,
          " cells");
  std::vector<GlobalIndex> offsets{0};
  std::vector<Index> connectivity;
  connectivity.reserve(3 * std::size_t(n_cells));
  for (Index c = 0; c < n_cells; ++c) {
    for (Index v : mesh.cell(c)) connectivity.push_back(v);
    offsets.push_back(GlobalIndex(connectivity.size()));
  }
  const std::vector<Point<2>> points = compact_vertices(mesh.vertices(), connectivity);
  std::vector<int> regions(n_cells);
  for (Index c = 0; c < n_cells; ++c) regions[c] = mesh.cell_region(c);

  io::VtuXmlWriter file = open_with_cells(path, points, offsets, connectivity, io::vtk_triangle);
  file.data_array("Int32", "region", regions);
  if (!element_of_cell.empty())
    file.data_array("Int32", "element_id",
                    std::vector<Index>(element_of_cell.begin(), element_of_cell.end()));
  file.end_cell_data();
  file.finish();
}

}  // namespace polydg
