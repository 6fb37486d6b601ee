#include "polydg/io/vtk_writer.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <limits>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"

namespace polydg {

namespace {

constexpr int vtk_triangle = 5;
constexpr int vtk_polygon = 7;

// An unstructured grid of 2D points and cells, written in VTK's XML format.
class VtuFile {
 public:
  explicit VtuFile(const std::filesystem::path& path) : path_(path), out_(path) {
    require(bool(out_), "VTK writer: cannot open '", path.string(), "' for writing");
    out_ << std::setprecision(std::numeric_limits<double>::max_digits10);
  }

  void begin(Index point_count, Index cell_count) {
    out_ << "<?xml version=\"1.0\"?>\n"
         << "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
            "header_type=\"UInt64\">\n"
         << "  <UnstructuredGrid>\n"
         << "    <Piece NumberOfPoints=\"" << point_count << "\" NumberOfCells=\"" << cell_count
         << "\">\n";
  }

  void points(const std::vector<Point<2>>& all_vertices, const std::vector<Index>& written) {
    out_ << "      <Points>\n"
         << "        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" "
            "format=\"ascii\">\n";
    for (Index v : written)
      out_ << "          " << all_vertices[v][0] << ' ' << all_vertices[v][1] << " 0\n";
    out_ << "        </DataArray>\n      </Points>\n";
  }

  // Cells as CSR: cell k has connectivity[offsets[k] .. offsets[k+1]); VTK wants the end
  // offsets only.
  void cells(const std::vector<Index>& offsets, const std::vector<Index>& connectivity, int type) {
    out_ << "      <Cells>\n";
    array_begin("Int64", "connectivity");
    for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
      out_ << "         ";
      for (Index i = offsets[k]; i < offsets[k + 1]; ++i) out_ << ' ' << connectivity[i];
      out_ << '\n';
    }
    array_end();
    array_begin("Int64", "offsets");
    write_values(std::span<const Index>(offsets).subspan(1));
    array_end();
    array_begin("UInt8", "types");
    write_values(std::vector<int>(offsets.size() - 1, type));
    array_end();
    out_ << "      </Cells>\n      <CellData>\n";
  }

  template <class T>
  void cell_data(const char* type, const char* name, const std::vector<T>& values) {
    array_begin(type, name);
    write_values(std::span<const T>(values));
    array_end();
  }

  void end() {
    out_ << "      </CellData>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
    out_.close();
    require(!out_.fail(), "VTK writer: writing '", path_.string(), "' failed");
  }

 private:
  void array_begin(const char* type, const char* name) {
    out_ << "        <DataArray type=\"" << type << "\" Name=\"" << name
         << "\" format=\"ascii\">\n";
  }
  void array_end() { out_ << "        </DataArray>\n"; }
  template <class T>
  void write_values(std::span<const T> values) {
    for (std::size_t k = 0; k < values.size(); ++k)
      out_ << (k % 8 == 0 ? "          " : " ") << values[k] << (k % 8 == 7 ? "\n" : "");
    if (values.size() % 8 != 0) out_ << '\n';
  }
  template <class T>
  void write_values(const std::vector<T>& values) {
    write_values(std::span<const T>(values));
  }

  std::filesystem::path path_;
  std::ofstream out_;
};

// Renumbers the fine vertices that the cells use to 0..n−1 (in ascending fine order) and
// rewrites the connectivity; returns the fine vertices written.
std::vector<Index> compact_vertices(Index fine_vertex_count, std::vector<Index>& connectivity) {
  std::vector<Index> new_index(fine_vertex_count, -1);
  for (Index v : connectivity) new_index[v] = 0;
  std::vector<Index> written;
  for (Index v = 0; v < fine_vertex_count; ++v)
    if (new_index[v] == 0) {
      new_index[v] = Index(written.size());
      written.push_back(v);
    }
  for (Index& v : connectivity) v = new_index[v];
  return written;
}

}  // namespace

void write_polytopic_mesh_vtu(const std::filesystem::path& path, const PolytopicMesh<2>& mesh) {
  const Index n_elements = mesh.element_count();
  std::vector<Index> offsets{0}, connectivity;
  Index unreachable_holes = 0;
  for (Index e = 0; e < n_elements; ++e) {
    std::vector<Index> polygon = element_polygon(mesh, e);
    if (polygon.empty()) {
      ++unreachable_holes;
      const auto outer = mesh.element_loop(e, 0);
      polygon.assign(outer.begin(), outer.end());
    }
    connectivity.insert(connectivity.end(), polygon.begin(), polygon.end());
    offsets.push_back(Index(connectivity.size()));
  }
  if (unreachable_holes > 0)
    warn(detail::concatenate("VTK writer: '", path.string(), "': ", unreachable_holes,
                             " elements have a hole that no interior fine edge reaches; only "
                             "their outer boundary is written"));
  const std::vector<Index> written =
      compact_vertices(mesh.fine_mesh().vertex_count(), connectivity);

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

  VtuFile file(path);
  file.begin(Index(written.size()), n_elements);
  file.points(mesh.fine_mesh().vertices(), written);
  file.cells(offsets, connectivity, vtk_polygon);
  file.cell_data("Int32", "element_id", ids);
  file.cell_data("Int32", "degree", degrees);
  file.cell_data("Float64", "box_coverage", box_coverage);
  file.cell_data("Int32", "faces", faces);
  file.cell_data("Int32", "fine_cells", fine_cells);
  file.cell_data("Float64", "roundness", roundness);
  file.cell_data("Float64", "measure", measure);
  file.end();
}

void write_simplex_mesh_vtu(const std::filesystem::path& path, const SimplexMesh<2>& mesh,
                            std::span<const Index> element_of_cell) {
  const Index n_cells = mesh.cell_count();
  require(element_of_cell.empty() || Index(element_of_cell.size()) == n_cells, "VTK writer: '",
          path.string(), "': ", element_of_cell.size(), " element ids given for ", n_cells,
          " cells");
  std::vector<Index> offsets{0}, connectivity;
  connectivity.reserve(3 * std::size_t(n_cells));
  for (Index c = 0; c < n_cells; ++c) {
    for (Index v : mesh.cell(c)) connectivity.push_back(v);
    offsets.push_back(Index(connectivity.size()));
  }
  const std::vector<Index> written = compact_vertices(mesh.vertex_count(), connectivity);
  std::vector<int> regions(n_cells);
  for (Index c = 0; c < n_cells; ++c) regions[c] = mesh.cell_region(c);

  VtuFile file(path);
  file.begin(Index(written.size()), n_cells);
  file.points(mesh.vertices(), written);
  file.cells(offsets, connectivity, vtk_triangle);
  file.cell_data("Int32", "region", regions);
  if (!element_of_cell.empty())
    file.cell_data("Int32", "element_id",
                   std::vector<Index>(element_of_cell.begin(), element_of_cell.end()));
  file.end();
}

}  // namespace polydg
