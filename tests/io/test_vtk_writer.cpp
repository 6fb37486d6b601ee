#define BOOST_TEST_MODULE vtk_writer
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

BOOST_AUTO_TEST_CASE(unwritable_path_names_the_path) {
  const SimplexMesh<2> fine = unit_square_mesh(2);
  const fs::path path = output_directory() / "no_such_folder" / "mesh.vtu";
  try {
    write_simplex_mesh_vtu(path, fine);
    BOOST_ERROR("writing into a missing folder succeeded");
  } catch (const Error& error) {
    BOOST_CHECK(std::string(error.what()).find(path.string()) != std::string::npos);
  }
}
