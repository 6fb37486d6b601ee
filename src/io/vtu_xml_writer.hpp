#pragma once
/// VtuXmlWriter: the ASCII VTK XML UnstructuredGrid (.vtu) file that the mesh and solution
/// writers fill, and write_pvtu, the PUnstructuredGrid (.pvtu) that lists such files as the
/// pieces of one data set (private to src/io).
///
/// The calls must come in file order: begin, points, cells (or triangles, tetrahedra,
/// polyhedra), then optionally a PointData and a CellData section with their arrays, then
/// finish. 2D points are written with z = 0; doubles are written with 17 significant digits
/// (exact round trip). Array values are written 8 per line. Errors name the file and start with
/// the writer's name given to the constructor.
#include <array>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg::io {

inline constexpr int vtk_triangle = 5;
inline constexpr int vtk_polygon = 7;
inline constexpr int vtk_tetra = 10;
inline constexpr int vtk_polyhedron = 42;

/// A DataArray's VTK type (Int32, Float64, ...) and name: what a .vtu writes and a .pvtu
/// declares.
struct DataArrayDeclaration {
  const char* type;
  const char* name;
};

class VtuXmlWriter {
 public:
  /// Opens `path` for writing; throws naming the path when it cannot be opened.
  VtuXmlWriter(const std::filesystem::path& path, std::string writer_name);

  /// The XML header and the Piece with its point and cell counts.
  void begin(GlobalIndex point_count, GlobalIndex cell_count);
  /// The Points section: (x, y, 0) per point.
  void points(std::span<const Point<2>> points);
  /// The Points section: (x, y, z) per point.
  void points(std::span<const Point<3>> points);
  /// The Cells section from CSR offsets (cell k has connectivity[offsets[k] .. offsets[k+1]),
  /// offsets[0] = 0), all of VTK cell type `type`. VTK wants the end offsets only.
  void cells(std::span<const GlobalIndex> offsets, std::span<const Index> connectivity, int type);
  /// The Cells section of triangles: three points each from `connectivity`.
  void triangles(std::span<const Index> connectivity);
  /// The Cells section of tetrahedra: four points each from `connectivity`.
  void tetrahedra(std::span<const Index> connectivity);
  /// The Cells section of VTK_POLYHEDRON cells: the cells' points as in cells(), and their faces
  /// in the XML "faces" / "faceoffsets" arrays that ParaView and meshio read: cell k's faces
  /// are the triangles face_triangles[face_offsets[k] .. face_offsets[k+1]) (face_offsets[0] =
  /// 0), written as [face count, then 3 and the three points of each face]; "faceoffsets"
  /// holds each cell's end in "faces".
  void polyhedra(std::span<const GlobalIndex> offsets, std::span<const Index> connectivity,
                 std::span<const GlobalIndex> face_offsets,
                 std::span<const std::array<Index, 3>> face_triangles);

  /// <PointData Scalars="scalars"> .. </PointData>.
  void begin_point_data(const char* scalars);
  void end_point_data();
  /// <CellData> .. </CellData>.
  void begin_cell_data();
  void end_cell_data();
  /// One DataArray of VTK type `type` (Int32, Float64, ...) inside a data section.
  template <class T>
  void data_array(const char* type, const char* name, std::span<const T> values) {
    array_begin(type, name);
    write_values(values);
    array_end();
  }
  template <class T>
  void data_array(const char* type, const char* name, const std::vector<T>& values) {
    data_array(type, name, std::span<const T>(values));
  }
  template <class T>
  void data_array(const DataArrayDeclaration& array, const std::vector<T>& values) {
    data_array(array.type, array.name, std::span<const T>(values));
  }

  /// Closes the Piece and the file; throws naming the path when writing failed.
  void finish();

 private:
  void array_begin(const char* type, const char* name);
  void array_end();
  // connectivity, offsets and types of cells(), without the section's tags.
  void cell_arrays(std::span<const GlobalIndex> offsets, std::span<const Index> connectivity,
                   int type);
  template <class T>
  void write_values(std::span<const T> values) {
    for (std::size_t k = 0; k < values.size(); ++k)
      out_ << (k % 8 == 0 ? "          " : " ") << values[k] << (k % 8 == 7 ? "\n" : "");
    if (values.size() % 8 != 0) out_ << '\n';
  }

  std::filesystem::path path_;
  std::string writer_name_;
  std::ofstream out_;
};

/// The .pvtu at `path` whose pieces are the .vtu files `piece_sources` (as written in the
/// file: relative to its folder), each with the Points of VtuXmlWriter::points and these
/// arrays in their PointData (Scalars = `scalars`) and CellData. Throws naming the path when
/// it cannot be written; the message starts with `writer_name`.
void write_pvtu(const std::filesystem::path& path, const std::string& writer_name,
                const char* scalars, std::span<const DataArrayDeclaration> point_arrays,
                std::span<const DataArrayDeclaration> cell_arrays,
                std::span<const std::string> piece_sources);

}  // namespace polydg::io
