#include "vtu_xml_writer.hpp"

#include <iomanip>
#include <limits>
#include <utility>

#include "polydg/core/error.hpp"

namespace polydg::io {

namespace {
// The VTKFile attributes, and the Points array's type, name and components: the same in a .vtu
// and in the .pvtu that lists it (PPoints).
constexpr const char* points_attributes =
    "type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"";
constexpr const char* file_attributes =
    "version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\"";
}  // namespace

VtuXmlWriter::VtuXmlWriter(const std::filesystem::path& path, std::string writer_name)
    : path_(path), writer_name_(std::move(writer_name)), out_(path) {
  require(bool(out_), writer_name_, ": cannot open '", path.string(), "' for writing");
  out_ << std::setprecision(std::numeric_limits<double>::max_digits10);
}

void VtuXmlWriter::begin(GlobalIndex point_count, GlobalIndex cell_count) {
  out_ << "<?xml version=\"1.0\"?>\n"
       << "<VTKFile type=\"UnstructuredGrid\" " << file_attributes << ">\n"
       << "  <UnstructuredGrid>\n"
       << "    <Piece NumberOfPoints=\"" << point_count << "\" NumberOfCells=\"" << cell_count
       << "\">\n";
}

void VtuXmlWriter::points(std::span<const Point<2>> points) {
  out_ << "      <Points>\n"
       << "        <DataArray " << points_attributes << " format=\"ascii\">\n";
  for (const Point<2>& x : points) out_ << "          " << x[0] << ' ' << x[1] << " 0\n";
  out_ << "        </DataArray>\n      </Points>\n";
}

void VtuXmlWriter::points(std::span<const Point<3>> points) {
  out_ << "      <Points>\n"
       << "        <DataArray " << points_attributes << " format=\"ascii\">\n";
  for (const Point<3>& x : points)
    out_ << "          " << x[0] << ' ' << x[1] << ' ' << x[2] << '\n';
  out_ << "        </DataArray>\n      </Points>\n";
}

void VtuXmlWriter::cells(std::span<const GlobalIndex> offsets, std::span<const Index> connectivity,
                         int type) {
  out_ << "      <Cells>\n";
  cell_arrays(offsets, connectivity, type);
  out_ << "      </Cells>\n";
}

void VtuXmlWriter::cell_arrays(std::span<const GlobalIndex> offsets,
                               std::span<const Index> connectivity, int type) {
  array_begin("Int64", "connectivity");
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
    out_ << "         ";
    for (GlobalIndex i = offsets[k]; i < offsets[k + 1]; ++i) out_ << ' ' << connectivity[i];
    out_ << '\n';
  }
  array_end();
  array_begin("Int64", "offsets");
  write_values(offsets.subspan(1));
  array_end();
  array_begin("UInt8", "types");
  write_values(std::span<const int>(std::vector<int>(offsets.size() - 1, type)));
  array_end();
}

void VtuXmlWriter::triangles(std::span<const Index> connectivity) {
  std::vector<GlobalIndex> offsets(connectivity.size() / 3 + 1);
  for (std::size_t k = 0; k < offsets.size(); ++k) offsets[k] = 3 * GlobalIndex(k);
  cells(offsets, connectivity, vtk_triangle);
}

void VtuXmlWriter::tetrahedra(std::span<const Index> connectivity) {
  std::vector<GlobalIndex> offsets(connectivity.size() / 4 + 1);
  for (std::size_t k = 0; k < offsets.size(); ++k) offsets[k] = 4 * GlobalIndex(k);
  cells(offsets, connectivity, vtk_tetra);
}

void VtuXmlWriter::polyhedra(std::span<const GlobalIndex> offsets,
                             std::span<const Index> connectivity,
                             std::span<const GlobalIndex> face_offsets,
                             std::span<const std::array<Index, 3>> face_triangles) {
  out_ << "      <Cells>\n";
  cell_arrays(offsets, connectivity, vtk_polyhedron);
  // One line per cell: its face count, then "3 a b c" per triangle.
  array_begin("Int64", "faces");
  std::vector<GlobalIndex> ends;
  GlobalIndex written = 0;
  for (std::size_t k = 0; k + 1 < face_offsets.size(); ++k) {
    out_ << "          " << face_offsets[k + 1] - face_offsets[k];
    for (GlobalIndex f = face_offsets[k]; f < face_offsets[k + 1]; ++f) {
      const auto& [a, b, c] = face_triangles[f];
      out_ << "  3 " << a << ' ' << b << ' ' << c;
    }
    out_ << '\n';
    written += 1 + 4 * (face_offsets[k + 1] - face_offsets[k]);
    ends.push_back(written);
  }
  array_end();
  array_begin("Int64", "faceoffsets");
  write_values(std::span<const GlobalIndex>(ends));
  array_end();
  out_ << "      </Cells>\n";
}

void VtuXmlWriter::begin_point_data(const char* scalars) {
  out_ << "      <PointData Scalars=\"" << scalars << "\">\n";
}
void VtuXmlWriter::end_point_data() { out_ << "      </PointData>\n"; }
void VtuXmlWriter::begin_cell_data() { out_ << "      <CellData>\n"; }
void VtuXmlWriter::end_cell_data() { out_ << "      </CellData>\n"; }

void VtuXmlWriter::finish() {
  out_ << "    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
  out_.close();
  require(!out_.fail(), writer_name_, ": writing '", path_.string(), "' failed");
}

void VtuXmlWriter::array_begin(const char* type, const char* name) {
  out_ << "        <DataArray type=\"" << type << "\" Name=\"" << name << "\" format=\"ascii\">\n";
}
void VtuXmlWriter::array_end() { out_ << "        </DataArray>\n"; }

void write_pvtu(const std::filesystem::path& path, const std::string& writer_name,
                const char* scalars, std::span<const DataArrayDeclaration> point_arrays,
                std::span<const DataArrayDeclaration> cell_arrays,
                std::span<const std::string> piece_sources) {
  std::ofstream out(path);
  require(bool(out), writer_name, ": cannot open '", path.string(), "' for writing");
  const auto declare = [&](std::span<const DataArrayDeclaration> arrays) {
    for (const DataArrayDeclaration& array : arrays)
      out << "      <PDataArray type=\"" << array.type << "\" Name=\"" << array.name << "\"/>\n";
  };
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"PUnstructuredGrid\" " << file_attributes << ">\n"
      << "  <PUnstructuredGrid GhostLevel=\"0\">\n"
      << "    <PPointData Scalars=\"" << scalars << "\">\n";
  declare(point_arrays);
  out << "    </PPointData>\n    <PCellData>\n";
  declare(cell_arrays);
  out << "    </PCellData>\n"
      << "    <PPoints>\n      <PDataArray " << points_attributes << "/>\n    </PPoints>\n";
  for (const std::string& source : piece_sources)
    out << "    <Piece Source=\"" << source << "\"/>\n";
  out << "  </PUnstructuredGrid>\n</VTKFile>\n";
  out.close();
  require(!out.fail(), writer_name, ": writing '", path.string(), "' failed");
}

}  // namespace polydg::io
