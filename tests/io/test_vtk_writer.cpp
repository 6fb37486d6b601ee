#define BOOST_TEST_MODULE vtk_writer
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/io/vtk_writer.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "vtu_test_reader.hpp"

using namespace polydg;
using polydg::testing::error_names;
namespace fs = std::filesystem;

namespace {

fs::path output_directory() { return testing::vtu_output_directory("polydg_test_vtk_writer"); }

// Reads the polygons back and checks the structure and each polygon's shoelace area against
// the element's measure.
void check_polygon_file(const fs::path& path, const PolytopicMesh<2>& mesh) {
  const std::string xml = testing::read_file(path);
  BOOST_CHECK(xml.find("<VTKFile type=\"UnstructuredGrid\"") != std::string::npos);
  const long n_points = testing::attribute(xml, "NumberOfPoints");
  const long n_cells = testing::attribute(xml, "NumberOfCells");
  BOOST_REQUIRE_EQUAL(n_cells, mesh.element_count());
  const std::vector<double> points = testing::data_array(xml, "Points");
  const std::vector<double> connectivity = testing::data_array(xml, "connectivity");
  const std::vector<double> offsets = testing::data_array(xml, "offsets");
  const std::vector<double> types = testing::data_array(xml, "types");
  const std::vector<double> ids = testing::data_array(xml, "element_id");
  const std::vector<double> measures = testing::data_array(xml, "measure");
  BOOST_REQUIRE_EQUAL(long(points.size()), 3 * n_points);
  BOOST_REQUIRE_EQUAL(long(offsets.size()), n_cells);
  BOOST_REQUIRE_EQUAL(long(types.size()), n_cells);
  BOOST_REQUIRE_EQUAL(long(measures.size()), n_cells);
  BOOST_REQUIRE_EQUAL(offsets.back(), double(connectivity.size()));
  for (double v : connectivity) BOOST_REQUIRE(v >= 0 && v < n_points);
  for (const char* name : {"degree", "box_coverage", "faces", "fine_cells", "roundness"})
    BOOST_CHECK_EQUAL(long(testing::data_array(xml, name).size()), n_cells);

  double total = 0;
  for (long k = 0; k < n_cells; ++k) {
    BOOST_CHECK_EQUAL(types[k], 7.0);  // VTK_POLYGON
    BOOST_CHECK_EQUAL(ids[k], double(k));
    const long begin = k == 0 ? 0 : long(offsets[k - 1]), end = long(offsets[k]);
    BOOST_REQUIRE_GE(end - begin, 3);
    double twice_area = 0;
    for (long i = begin; i < end; ++i) {
      const long a = long(connectivity[i]), b = long(connectivity[i + 1 < end ? i + 1 : begin]);
      twice_area += points[3 * a] * points[3 * b + 1] - points[3 * b] * points[3 * a + 1];
    }
    BOOST_CHECK_CLOSE_FRACTION(0.5 * twice_area, mesh.element_measure(k), 1e-12);
    BOOST_CHECK_EQUAL(measures[k], mesh.element_measure(k));
    total += 0.5 * twice_area;
  }
  BOOST_CHECK_CLOSE_FRACTION(total, mesh.fine_mesh().total_measure(), 1e-12);
}

// Reads the polyhedra back and checks the structure, that each cell's points are those of its
// faces, that it has one triangle per fine facet of its element's boundary, and that the
// divergence theorem over its triangles (Σ (a × b) · c / 6: positive only if they point
// outward) gives the element's measure. The cells come in ascending order of their point
// count; element_id says which element each is.
void check_polyhedron_file(const fs::path& path, const PolytopicMesh<3>& mesh) {
  const std::string xml = testing::read_file(path);
  const long n_points = testing::attribute(xml, "NumberOfPoints");
  const long n_cells = testing::attribute(xml, "NumberOfCells");
  BOOST_REQUIRE_EQUAL(n_cells, mesh.element_count());
  const std::vector<double> points = testing::data_array(xml, "Points");
  const std::vector<double> connectivity = testing::data_array(xml, "connectivity");
  const std::vector<double> offsets = testing::data_array(xml, "offsets");
  const std::vector<double> types = testing::data_array(xml, "types");
  const std::vector<double> faces = testing::data_array(xml, "faces");
  const std::vector<double> face_offsets = testing::data_array(xml, "faceoffsets");
  // The cell data "faces" (the element's face count) comes after the Cells' own "faces".
  const std::string cell_data = xml.substr(xml.find("<CellData>"));
  const std::vector<double> ids = testing::data_array(cell_data, "element_id");
  const std::vector<double> measures = testing::data_array(cell_data, "measure");
  BOOST_REQUIRE_EQUAL(long(points.size()), 3 * n_points);
  BOOST_REQUIRE_EQUAL(long(offsets.size()), n_cells);
  BOOST_REQUIRE_EQUAL(long(types.size()), n_cells);
  BOOST_REQUIRE_EQUAL(long(face_offsets.size()), n_cells);
  BOOST_REQUIRE_EQUAL(long(ids.size()), n_cells);
  BOOST_REQUIRE_EQUAL(face_offsets.back(), double(faces.size()));
  BOOST_REQUIRE_EQUAL(offsets.back(), double(connectivity.size()));
  for (const char* name : {"degree", "box_coverage", "faces", "fine_cells", "roundness"})
    BOOST_CHECK_EQUAL(long(testing::data_array(cell_data, name).size()), n_cells);
  const auto point = [&](long v) {
    BOOST_REQUIRE(v >= 0 && v < n_points);
    return Point<3>{points[3 * v], points[3 * v + 1], points[3 * v + 2]};
  };

  std::vector<long> sorted_ids(ids.begin(), ids.end());
  std::sort(sorted_ids.begin(), sorted_ids.end());
  for (long k = 0; k < n_cells; ++k) BOOST_REQUIRE_EQUAL(sorted_ids[k], k);
  double total = 0;
  std::size_t previous_point_count = 0;
  for (long k = 0; k < n_cells; ++k) {
    const Index e = Index(ids[k]);
    BOOST_CHECK_EQUAL(types[k], 42.0);  // VTK_POLYHEDRON
    std::vector<long> cell_points;
    for (long i = k == 0 ? 0 : long(offsets[k - 1]); i < long(offsets[k]); ++i)
      cell_points.push_back(long(connectivity[i]));
    BOOST_CHECK_GE(cell_points.size(), previous_point_count);
    previous_point_count = cell_points.size();

    long at = k == 0 ? 0 : long(face_offsets[k - 1]);
    const long triangles = long(faces[at++]);
    long boundary_facets = long(mesh.element_boundary_facets(e).size());
    for (Index i : mesh.element_interfaces(e))
      boundary_facets += long(mesh.interface_facets(i).size());
    BOOST_CHECK_EQUAL(triangles, boundary_facets);
    std::vector<long> face_points;
    double volume = 0;
    for (long t = 0; t < triangles; ++t) {
      BOOST_REQUIRE_EQUAL(faces[at], 3.0);
      const long a = long(faces[at + 1]), b = long(faces[at + 2]), c = long(faces[at + 3]);
      face_points.insert(face_points.end(), {a, b, c});
      const Point<3> x = point(a), y = point(b), z = point(c);
      volume += (x[1] * y[2] - x[2] * y[1]) * z[0] + (x[2] * y[0] - x[0] * y[2]) * z[1] +
                (x[0] * y[1] - x[1] * y[0]) * z[2];
      at += 4;
    }
    BOOST_CHECK_EQUAL(at, long(face_offsets[k]));
    std::sort(face_points.begin(), face_points.end());
    face_points.erase(std::unique(face_points.begin(), face_points.end()), face_points.end());
    std::sort(cell_points.begin(), cell_points.end());
    BOOST_CHECK(cell_points == face_points);
    volume /= 6;
    BOOST_CHECK_CLOSE_FRACTION(volume, mesh.element_measure(e), 1e-12);
    BOOST_CHECK_EQUAL(measures[k], mesh.element_measure(e));
    total += volume;
  }
  BOOST_CHECK_CLOSE_FRACTION(total, mesh.fine_mesh().total_measure(), 1e-12);
}

}  // namespace

BOOST_AUTO_TEST_CASE(agglomerated_square_as_polygons) {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(16, 0.2, 9));
  const Agglomeration agglomeration = agglomerate(*fine, 20);
  const PolytopicMesh<2> mesh(fine, agglomeration.element_of_cell, 2);
  const fs::path path = output_directory() / "polytopic_unit_square.vtu";
  write_polytopic_mesh_vtu(path, mesh);
  check_polygon_file(path, mesh);
  // What the meshio check (check_vtu_with_meshio.py) expects: cell count and total area.
  std::ofstream(output_directory() / "polytopic_unit_square.expected")
      << mesh.element_count() << ' ' << fine->total_measure() << '\n';
}

BOOST_AUTO_TEST_CASE(elements_with_holes_are_written_with_a_slit) {
  // A ring around a centre square inside an outer frame: the ring and the frame have holes.
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(12, 0.2, 3));
  std::vector<Index> part(fine->cell_count());
  for (Index c = 0; c < fine->cell_count(); ++c) {
    const auto p = fine->cell_points(c);
    const Point<2> x = (1.0 / 3.0) * (p[0] + p[1] + p[2]);
    const auto within = [&](double lo, double hi) {
      return x[0] > lo && x[0] < hi && x[1] > lo && x[1] < hi;
    };
    part[c] = within(4.0 / 12, 8.0 / 12) ? 1 : within(2.0 / 12, 10.0 / 12) ? 0 : 2;
  }
  const PolytopicMesh<2> mesh(fine, part, 1);
  BOOST_REQUIRE_EQUAL(mesh.element_loop_count(0), 2);
  BOOST_REQUIRE_EQUAL(mesh.element_loop_count(2), 2);
  const fs::path path = output_directory() / "polytopic_ring.vtu";
  write_polytopic_mesh_vtu(path, mesh);
  check_polygon_file(path, mesh);
}

BOOST_AUTO_TEST_CASE(fine_triangles_with_element_ids) {
  const SimplexMesh<2> fine = unit_square_mesh(6, 0.2);
  const Agglomeration agglomeration = agglomerate(fine, 5);
  const fs::path path = output_directory() / "simplex_unit_square.vtu";
  write_simplex_mesh_vtu(path, fine, agglomeration.element_of_cell);
  const std::string xml = testing::read_file(path);
  BOOST_CHECK_EQUAL(testing::attribute(xml, "NumberOfCells"), fine.cell_count());
  BOOST_CHECK_EQUAL(testing::attribute(xml, "NumberOfPoints"), fine.vertex_count());
  const std::vector<double> types = testing::data_array(xml, "types");
  const std::vector<double> offsets = testing::data_array(xml, "offsets");
  const std::vector<double> element_ids = testing::data_array(xml, "element_id");
  BOOST_REQUIRE_EQUAL(Index(element_ids.size()), fine.cell_count());
  for (Index c = 0; c < fine.cell_count(); ++c) {
    BOOST_CHECK_EQUAL(types[c], 5.0);  // VTK_TRIANGLE
    BOOST_CHECK_EQUAL(offsets[c], 3.0 * (c + 1));
    BOOST_CHECK_EQUAL(element_ids[c], double(agglomeration.element_of_cell[c]));
  }
  BOOST_CHECK_EQUAL(long(testing::data_array(xml, "region").size()), fine.cell_count());
  BOOST_TEST(
      error_names([&] { write_simplex_mesh_vtu(path, fine, std::vector<Index>(3, 0)); },
                  {"VTK writer: '" + path.string() + "'",
                   "3 element ids given for " + std::to_string(fine.cell_count()) + " cells"}));
}

BOOST_AUTO_TEST_CASE(agglomerated_cube_as_polyhedra) {
  const auto fine = std::make_shared<const SimplexMesh<3>>(unit_cube_mesh(4, 0.1, 7));
  const Agglomeration agglomeration = agglomerate_by_cell_count(*fine, 12.0);
  const PolytopicMesh<3> mesh(fine, agglomeration.element_of_cell, 2);
  BOOST_REQUIRE_GT(mesh.element_count(), 10);
  const fs::path path = output_directory() / "polytopic_unit_cube.vtu";
  write_polytopic_mesh_vtu(path, mesh);
  check_polyhedron_file(path, mesh);
  // What the meshio check (check_polyhedra_with_meshio.py) expects: cell count and volume.
  std::ofstream(output_directory() / "polytopic_unit_cube.expected")
      << mesh.element_count() << ' ' << fine->total_measure() << '\n';
}

BOOST_AUTO_TEST_CASE(fine_tetrahedra_with_element_ids) {
  const SimplexMesh<3> fine = unit_cube_mesh(3, 0.1, 2);
  const Agglomeration agglomeration = agglomerate(fine, 10);
  const fs::path path = output_directory() / "simplex_unit_cube.vtu";
  write_simplex_mesh_vtu(path, fine, agglomeration.element_of_cell);
  const std::string xml = testing::read_file(path);
  BOOST_CHECK_EQUAL(testing::attribute(xml, "NumberOfCells"), fine.cell_count());
  BOOST_CHECK_EQUAL(testing::attribute(xml, "NumberOfPoints"), fine.vertex_count());
  const std::vector<double> points = testing::data_array(xml, "Points");
  const std::vector<double> connectivity = testing::data_array(xml, "connectivity");
  const std::vector<double> types = testing::data_array(xml, "types");
  const std::vector<double> offsets = testing::data_array(xml, "offsets");
  const std::vector<double> element_ids = testing::data_array(xml, "element_id");
  BOOST_REQUIRE_EQUAL(Index(connectivity.size()), 4 * fine.cell_count());
  BOOST_REQUIRE_EQUAL(Index(element_ids.size()), fine.cell_count());
  for (Index c = 0; c < fine.cell_count(); ++c) {
    BOOST_CHECK_EQUAL(types[c], 10.0);  // VTK_TETRA
    BOOST_CHECK_EQUAL(offsets[c], 4.0 * (c + 1));
    BOOST_CHECK_EQUAL(element_ids[c], double(agglomeration.element_of_cell[c]));
    // VTK's orientation: the fourth point on the side the first three's normal points to.
    std::array<Point<3>, 4> x;
    for (int v = 0; v < 4; ++v) {
      const std::size_t p = std::size_t(connectivity[4 * c + v]);
      x[v] = {points[3 * p], points[3 * p + 1], points[3 * p + 2]};
    }
    const Point<3> a = x[1] - x[0], b = x[2] - x[0], d = x[3] - x[0];
    const double six_volume = (a[1] * b[2] - a[2] * b[1]) * d[0] +
                              (a[2] * b[0] - a[0] * b[2]) * d[1] +
                              (a[0] * b[1] - a[1] * b[0]) * d[2];
    BOOST_CHECK_CLOSE_FRACTION(six_volume / 6, fine.cell_measure(c), 1e-12);
  }
  BOOST_CHECK_EQUAL(long(testing::data_array(xml, "region").size()), fine.cell_count());
  BOOST_TEST(
      error_names([&] { write_simplex_mesh_vtu(path, fine, std::vector<Index>(3, 0)); },
                  {"VTK writer: '" + path.string() + "'",
                   "3 element ids given for " + std::to_string(fine.cell_count()) + " cells"}));
}

BOOST_AUTO_TEST_CASE(unwritable_path_names_the_path) {
  const SimplexMesh<2> fine = unit_square_mesh(2);
  const fs::path path = output_directory() / "no_such_folder" / "mesh.vtu";
  try {
    write_simplex_mesh_vtu(path, fine);
    BOOST_ERROR("writing into a missing folder succeeded");
  } catch (const Error& error) {
    BOOST_CHECK(std::string(error.what()).find(path.string()) != std::string::npos);
  }
  const auto cube = std::make_shared<const SimplexMesh<3>>(unit_cube_mesh(2));
  const PolytopicMesh<3> polyhedra(cube, agglomerate(*cube, 4).element_of_cell, 1);
  BOOST_TEST(error_names([&] { write_polytopic_mesh_vtu(path, polyhedra); },
                         {"VTK writer: cannot open '" + path.string() + "' for writing"}));
}
