#define BOOST_TEST_MODULE solution_vtu
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/l2_projection.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/io/pvd_writer.hpp"
#include "polydg/io/solution_vtu.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "vtu_test_reader.hpp"

using namespace polydg;
using polydg::testing::contains;
using polydg::testing::error_names;
namespace fs = std::filesystem;

namespace {

fs::path output_directory() { return testing::vtu_output_directory("polydg_test_solution_vtu"); }

// A quadratic: lies in P_2 of every element.
double quadratic(const Point<2>& x) {
  return 0.3 - 1.2 * x[0] + 0.7 * x[1] + 2.0 * x[0] * x[0] - 0.9 * x[0] * x[1] + 0.4 * x[1] * x[1];
}

PolytopicMesh<2> agglomerated_square(int degree) {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(6, 0.15, 3));
  const Agglomeration agglomeration = agglomerate_by_cell_count(*fine, 6.0);
  return PolytopicMesh<2>(fine, agglomeration.element_of_cell, degree);
}

// The written points, from the file's Points (three coordinates each, z = 0 in 2D).
template <int Dim>
std::vector<Point<Dim>> written_points(const std::string& xml, long expected_points) {
  const std::vector<double> coordinates = testing::data_array(xml, "Points");
  BOOST_REQUIRE_EQUAL(long(coordinates.size()), 3 * expected_points);
  std::vector<Point<Dim>> points(static_cast<std::size_t>(expected_points));
  for (long k = 0; k < expected_points; ++k)
    for (int i = 0; i < Dim; ++i) points[k][i] = coordinates[3 * k + i];
  return points;
}

// What the 2D and 3D files share: u = `function` at every written point; the cell data
// (element ids, degrees, r^Dim cells per quadrature sub-simplex of each element); "exact" =
// `function` and "error" ≈ 0 at every point when `with_exact`, neither array otherwise.
template <int Dim>
void check_point_and_cell_data(const std::string& xml, const PolytopicMesh<Dim>& mesh, int r,
                               const std::vector<Point<Dim>>& points, long expected_cells,
                               double (*function)(const Point<Dim>&), bool with_exact) {
  const long expected_points = long(points.size());
  const std::vector<double> u = testing::data_array(xml, "u");
  BOOST_REQUIRE_EQUAL(long(u.size()), expected_points);
  for (long k = 0; k < expected_points; ++k) BOOST_CHECK_SMALL(u[k] - function(points[k]), 1e-12);

  const std::vector<double> ids = testing::data_array(xml, "element_id");
  const std::vector<double> degrees = testing::data_array(xml, "degree");
  BOOST_REQUIRE_EQUAL(long(ids.size()), expected_cells);
  BOOST_REQUIRE_EQUAL(long(degrees.size()), expected_cells);
  std::vector<long> cells_of_element(mesh.element_count(), 0);
  for (long k = 0; k < expected_cells; ++k) {
    const Index e = Index(ids[k]);
    BOOST_REQUIRE(e >= 0 && e < mesh.element_count());
    BOOST_CHECK_EQUAL(degrees[k], double(mesh.element_degree(e)));
    ++cells_of_element[e];
  }
  long cells_per_simplex = 1;
  for (int i = 0; i < Dim; ++i) cells_per_simplex *= r;
  for (Index e = 0; e < mesh.element_count(); ++e)
    BOOST_CHECK_EQUAL(cells_of_element[e],
                      long(mesh.element_simplices(e).size()) * cells_per_simplex);

  BOOST_CHECK_EQUAL(xml.find("Name=\"exact\"") != std::string::npos, with_exact);
  if (with_exact) {
    const std::vector<double> exact = testing::data_array(xml, "exact");
    const std::vector<double> error = testing::data_array(xml, "error");
    BOOST_REQUIRE_EQUAL(long(exact.size()), expected_points);
    BOOST_REQUIRE_EQUAL(long(error.size()), expected_points);
    for (long k = 0; k < expected_points; ++k) {
      BOOST_CHECK_EQUAL(exact[k], function(points[k]));
      BOOST_CHECK_SMALL(error[k], 1e-12);
    }
  }
}

// Reads the file back and checks counts, VTK_TRIANGLE cells, cell data, and u (and u, error when
// `with_exact`) against the quadratic at the written points.
void check_solution_file(const fs::path& path, const PolytopicMesh<2>& mesh, int r,
                         bool with_exact) {
  const std::string xml = testing::read_file(path);
  const long expected_points = long(mesh.simplex_count()) * (r + 1) * (r + 2) / 2;
  const long expected_cells = long(mesh.simplex_count()) * r * r;
  BOOST_REQUIRE_EQUAL(testing::attribute(xml, "NumberOfPoints"), expected_points);
  BOOST_REQUIRE_EQUAL(testing::attribute(xml, "NumberOfCells"), expected_cells);
  BOOST_CHECK_EQUAL(long(testing::data_array(xml, "connectivity").size()), 3 * expected_cells);
  BOOST_CHECK_EQUAL(testing::data_array(xml, "offsets").back(), 3.0 * expected_cells);
  check_point_and_cell_data(xml, mesh, r, written_points<2>(xml, expected_points), expected_cells,
                            quadratic, with_exact);
}

// (type, name) of every `tag` (DataArray, PDataArray) between `open` and `close` in `xml`, in
// file order.
std::vector<std::pair<std::string, std::string>> declared_arrays(const std::string& xml,
                                                                 const std::string& open,
                                                                 const std::string& close,
                                                                 const std::string& tag) {
  const std::size_t begin = xml.find(open), end = xml.find(close);
  BOOST_REQUIRE(begin != std::string::npos && end != std::string::npos);
  const std::string section = xml.substr(begin, end - begin);
  const std::regex array("<" + tag + " type=\"([A-Za-z0-9]+)\" Name=\"([A-Za-z_]+)\"");
  std::vector<std::pair<std::string, std::string>> arrays;
  for (auto match = std::sregex_iterator(section.begin(), section.end(), array);
       match != std::sregex_iterator(); ++match)
    arrays.emplace_back((*match)[1], (*match)[2]);
  return arrays;
}

// Per element id: the (x, y, u) of its cells' corners, cell after cell, as a file lists them.
std::map<Index, std::vector<double>> corners_by_element(const std::string& xml) {
  const std::vector<double> points = testing::data_array(xml, "Points");
  const std::vector<double> u = testing::data_array(xml, "u");
  const std::vector<double> connectivity = testing::data_array(xml, "connectivity");
  const std::vector<double> ids = testing::data_array(xml, "element_id");
  BOOST_REQUIRE_EQUAL(connectivity.size(), 3 * ids.size());
  std::map<Index, std::vector<double>> corners;
  for (std::size_t k = 0; k < ids.size(); ++k)
    for (int c = 0; c < 3; ++c) {
      const std::size_t point = std::size_t(connectivity[3 * k + c]);
      corners[Index(ids[k])].insert(corners[Index(ids[k])].end(),
                                    {points[3 * point], points[3 * point + 1], u[point]});
    }
  return corners;
}

// 3D: a linear and a quadratic function, in P_1 and P_2 of every element.
double linear_3d(const Point<3>& x) { return 0.4 - 1.3 * x[0] + 0.6 * x[1] + 2.1 * x[2]; }
double quadratic_3d(const Point<3>& x) {
  return linear_3d(x) + 1.5 * x[0] * x[0] - 0.8 * x[1] * x[2] + 0.5 * x[2] * x[2];
}

PolytopicMesh<3> agglomerated_cube(int degree) {
  const auto fine = std::make_shared<const SimplexMesh<3>>(unit_cube_mesh(3, 0.1, 5));
  const Agglomeration agglomeration = agglomerate_by_cell_count(*fine, 12.0);
  return PolytopicMesh<3>(fine, agglomeration.element_of_cell, degree);
}

// The 3D file: counts (r³ tetrahedra of (r+1)(r+2)(r+3)/6 points per fine tetrahedron), VTK_TETRA
// cells of positive volume that add up to the cube's, cell data, and u (and u, error when
// `with_exact`) against `function` at every written point.
void check_solution_file(const fs::path& path, const PolytopicMesh<3>& mesh, int r,
                         double (*function)(const Point<3>&), bool with_exact) {
  const std::string xml = testing::read_file(path);
  const long expected_points = long(mesh.simplex_count()) * (r + 1) * (r + 2) * (r + 3) / 6;
  const long expected_cells = long(mesh.simplex_count()) * r * r * r;
  BOOST_REQUIRE_EQUAL(testing::attribute(xml, "NumberOfPoints"), expected_points);
  BOOST_REQUIRE_EQUAL(testing::attribute(xml, "NumberOfCells"), expected_cells);
  const std::vector<Point<3>> points = written_points<3>(xml, expected_points);

  const std::vector<double> connectivity = testing::data_array(xml, "connectivity");
  const std::vector<double> types = testing::data_array(xml, "types");
  BOOST_REQUIRE_EQUAL(long(connectivity.size()), 4 * expected_cells);
  BOOST_CHECK_EQUAL(testing::data_array(xml, "offsets").back(), 4.0 * expected_cells);
  BOOST_TEST(types == std::vector<double>(std::size_t(expected_cells), 10.0));  // VTK_TETRA
  double total = 0, smallest = 1;
  for (long k = 0; k < expected_cells; ++k) {
    const Point<3> x = points[std::size_t(connectivity[4 * k])];
    const Point<3> a = points[std::size_t(connectivity[4 * k + 1])] - x,
                   b = points[std::size_t(connectivity[4 * k + 2])] - x,
                   c = points[std::size_t(connectivity[4 * k + 3])] - x;
    const double volume = ((a[1] * b[2] - a[2] * b[1]) * c[0] + (a[2] * b[0] - a[0] * b[2]) * c[1] +
                           (a[0] * b[1] - a[1] * b[0]) * c[2]) /
                          6;
    smallest = std::min(smallest, volume);
    total += volume;
  }
  BOOST_TEST(smallest > 0);
  BOOST_TEST(total == mesh.fine_mesh().total_measure(), boost::test_tools::tolerance(1e-12));
  check_point_and_cell_data(xml, mesh, r, points, expected_cells, function, with_exact);
}

}  // namespace

BOOST_AUTO_TEST_CASE(projected_quadratic_round_trips) {
  const PolytopicMesh<2> mesh = agglomerated_square(2);
  const std::vector<double> u_h = l2_project(mesh, quadratic);
  const fs::path path = output_directory() / "projected_quadratic.vtu";
  write_solution_vtu(path, mesh, u_h);  // default r = p = 2
  check_solution_file(path, mesh, 2, false);
}

BOOST_AUTO_TEST_CASE(subdivisions_and_exact_solution) {
  const PolytopicMesh<2> mesh = agglomerated_square(3);
  const std::vector<double> u_h = l2_project(mesh, quadratic);
  const fs::path path = output_directory() / "projected_quadratic_r4.vtu";
  SolutionVtuOptions options;
  options.subdivisions = 4;
  options.exact_solution = quadratic;
  write_solution_vtu(path, mesh, u_h, options);
  check_solution_file(path, mesh, 4, true);

  options.subdivisions = 1;  // the sub-triangles themselves
  write_solution_vtu(path, mesh, u_h, options);
  check_solution_file(path, mesh, 1, true);
}

BOOST_AUTO_TEST_CASE(bad_input_is_reported) {
  const PolytopicMesh<2> mesh = agglomerated_square(1);
  const std::vector<double> u_h = l2_project(mesh, quadratic);
  const fs::path path = output_directory() / "no_such_folder" / "solution.vtu";
  try {
    write_solution_vtu(path, mesh, u_h);
    BOOST_ERROR("writing into a missing folder succeeded");
  } catch (const Error& error) {
    BOOST_CHECK(std::string(error.what()).find(path.string()) != std::string::npos);
  }
  const fs::path good = output_directory() / "bad_input.vtu";
  BOOST_TEST(
      error_names([&] { write_solution_vtu(good, mesh, std::vector<double>(u_h.size() + 1)); },
                  {"solution VTU writer: '" + good.string() + "'",
                   "the DG function has " + std::to_string(u_h.size() + 1) + " coefficients",
                   "need " + std::to_string(u_h.size())}));
  SolutionVtuOptions options;
  options.subdivisions = -1;
  BOOST_TEST(error_names(
      [&] { write_solution_vtu(good, mesh, u_h, options); },
      {"solution VTU writer: '" + good.string() + "'", "subdivisions = -1 is outside 0..64"}));
}

BOOST_AUTO_TEST_CASE(pvd_series_lists_its_files_and_names_a_path_it_cannot_write) {
  const fs::path folder = output_directory() / "pvd_series";
  fs::create_directories(folder);
  PvdWriter pvd(folder / "series.pvd");
  pvd.add(0.5, folder / "u_1.vtu");
  pvd.add(1.0, folder / "u_2.vtu");
  const std::string xml = testing::read_file(folder / "series.pvd");
  BOOST_TEST(contains(xml, "<DataSet timestep=\"0.5\" part=\"0\" file=\"u_1.vtu\"/>"), xml);
  BOOST_TEST(contains(xml, "<DataSet timestep=\"1\" part=\"0\" file=\"u_2.vtu\"/>"), xml);

  const fs::path missing = output_directory() / "no_such_folder" / "series.pvd";
  PvdWriter unwritable(missing);
  BOOST_TEST(error_names([&] { unwritable.add(0.5, folder / "u_1.vtu"); },
                         {"PvdWriter: cannot write " + missing.string()}));
}

// Two pieces of one solution (the even and the odd elements, as two ranks could own them) and
// their .pvtu: each piece holds its elements only, with their serial ids, the serial file's
// corners and values, and "rank"; together they are the serial file; the .pvtu lists both
// and declares exactly the pieces' arrays.
BOOST_AUTO_TEST_CASE(pieces_and_pvtu_reproduce_the_serial_file) {
  const PolytopicMesh<2> mesh = agglomerated_square(2);
  const std::vector<double> u_h = l2_project(mesh, quadratic);
  SolutionVtuOptions options;
  options.exact_solution = quadratic;
  const fs::path folder = output_directory() / "pieces";
  fs::create_directories(folder);
  write_solution_vtu(folder / "serial.vtu", mesh, u_h, options);
  const std::string serial = testing::read_file(folder / "serial.vtu");

  const fs::path pvtu = folder / "split.pvtu";
  BOOST_TEST(solution_vtu_piece_path(pvtu, 1) == folder / "split_1.vtu");
  const int pieces = 2;
  std::map<Index, std::vector<double>> joined;
  long cells = 0;
  for (int rank = 0; rank < pieces; ++rank) {
    std::vector<Index> elements;
    std::vector<double> coefficients;
    Index offset = 0;
    for (Index e = 0; e < mesh.element_count(); ++e) {
      const Index size = basis_size(2, mesh.element_degree(e));
      if (e % pieces == rank) {
        elements.push_back(e);
        coefficients.insert(coefficients.end(), u_h.begin() + offset, u_h.begin() + offset + size);
      }
      offset += size;
    }
    write_solution_vtu_piece(solution_vtu_piece_path(pvtu, rank), mesh, elements, coefficients,
                             rank, options);
    const std::string piece = testing::read_file(solution_vtu_piece_path(pvtu, rank));
    const std::vector<double> ranks = testing::data_array(piece, "rank");
    BOOST_TEST(ranks == std::vector<double>(ranks.size(), double(rank)));
    cells += long(ranks.size());
    for (auto& [e, corners] : corners_by_element(piece)) {
      BOOST_TEST(e % pieces == rank);
      BOOST_TEST(joined.count(e) == 0u, "element " << e << " in two pieces");
      joined[e] = std::move(corners);
    }
    BOOST_TEST((declared_arrays(piece, "<PointData", "</PointData>", "DataArray") ==
                declared_arrays(serial, "<PointData", "</PointData>", "DataArray")));
  }
  BOOST_TEST(cells == testing::attribute(serial, "NumberOfCells"));
  BOOST_TEST((joined == corners_by_element(serial)));  // the same sampling: equal doubles

  write_solution_pvtu_file(pvtu, pieces, bool(options.exact_solution));
  const std::string xml = testing::read_file(pvtu);
  BOOST_TEST(contains(xml, "<VTKFile type=\"PUnstructuredGrid\""), xml);
  BOOST_TEST(contains(xml, "<Piece Source=\"split_0.vtu\"/>\n    <Piece Source=\"split_1.vtu\"/>"),
             xml);
  const std::string piece = testing::read_file(solution_vtu_piece_path(pvtu, 0));
  BOOST_TEST((declared_arrays(xml, "<PPointData", "</PPointData>", "PDataArray") ==
              declared_arrays(piece, "<PointData", "</PointData>", "DataArray")));
  BOOST_TEST((declared_arrays(xml, "<PCellData", "</PCellData>", "PDataArray") ==
              declared_arrays(piece, "<CellData", "</CellData>", "DataArray")));
  BOOST_TEST((declared_arrays(xml, "<PPoints", "</PPoints>", "PDataArray") ==
              declared_arrays(piece, "<Points", "</Points>", "DataArray")));
  BOOST_TEST(declared_arrays(xml, "<PCellData", "</PCellData>", "PDataArray").back().second ==
             "rank");

  // Without an exact solution neither the pieces nor the .pvtu have "exact" and "error".
  write_solution_pvtu_file(pvtu, 1, false);
  BOOST_TEST(
      (declared_arrays(testing::read_file(pvtu), "<PPointData", "</PPointData>", "PDataArray") ==
       (std::vector<std::pair<std::string, std::string>>{{"Float64", "u"}})));
}

BOOST_AUTO_TEST_CASE(bad_pieces_are_reported) {
  const PolytopicMesh<2> mesh = agglomerated_square(1);
  const std::vector<double> u_h = l2_project(mesh, quadratic);
  const fs::path path = output_directory() / "bad_piece_0.vtu";
  const std::vector<Index> outside{0, mesh.element_count()};
  BOOST_TEST(error_names(
      [&] { write_solution_vtu_piece(path, mesh, outside, std::vector<double>(6), 0); },
      {"solution VTU writer: '" + path.string() + "'",
       "element " + std::to_string(mesh.element_count()) + " is not one of the mesh's"}));
  const std::vector<Index> two{3, 1};
  BOOST_TEST(
      error_names([&] { write_solution_vtu_piece(path, mesh, two, std::vector<double>(5), 0); },
                  {"the DG function has 5 coefficients", "need 6"}));
  const fs::path missing = output_directory() / "no_such_folder" / "u.pvtu";
  BOOST_TEST(error_names([&] { write_solution_pvtu_file(missing, 2, false); },
                         {"solution PVTU writer: cannot open '" + missing.string() + "'"}));
  BOOST_TEST(error_names([&] { write_solution_pvtu_file(missing, 0, false); }, {"0 pieces"}));
}

BOOST_AUTO_TEST_CASE(polyhedra_linear_function_round_trips) {
  const PolytopicMesh<3> mesh = agglomerated_cube(1);
  const std::vector<double> u_h = l2_project(mesh, linear_3d);
  const fs::path path = output_directory() / "projected_linear_3d.vtu";
  write_solution_vtu(path, mesh, u_h);  // default r = p = 1: the fine tetrahedra's vertices
  check_solution_file(path, mesh, 1, linear_3d, false);
  SolutionVtuOptions<3> options;
  options.subdivisions = 2;
  write_solution_vtu(path, mesh, u_h, options);
  check_solution_file(path, mesh, 2, linear_3d, false);
}

BOOST_AUTO_TEST_CASE(polyhedra_subdivisions_and_exact_solution) {
  const PolytopicMesh<3> mesh = agglomerated_cube(2);
  const std::vector<double> u_h = l2_project(mesh, quadratic_3d);
  const fs::path path = output_directory() / "projected_quadratic_3d.vtu";
  SolutionVtuOptions<3> options;
  options.exact_solution = quadratic_3d;
  write_solution_vtu(path, mesh, u_h, options);  // default r = p = 2
  check_solution_file(path, mesh, 2, quadratic_3d, true);
  options.subdivisions = 3;
  write_solution_vtu(path, mesh, u_h, options);
  check_solution_file(path, mesh, 3, quadratic_3d, true);
}

BOOST_AUTO_TEST_CASE(polyhedra_bad_input_is_reported) {
  const PolytopicMesh<3> mesh = agglomerated_cube(1);
  const std::vector<double> u_h = l2_project(mesh, linear_3d);
  const fs::path missing = output_directory() / "no_such_folder" / "solution_3d.vtu";
  BOOST_TEST(error_names([&] { write_solution_vtu(missing, mesh, u_h); },
                         {"solution VTU writer: cannot open '" + missing.string() + "'"}));
  const fs::path good = output_directory() / "bad_input_3d.vtu";
  BOOST_TEST(
      error_names([&] { write_solution_vtu(good, mesh, std::vector<double>(u_h.size() - 1)); },
                  {"solution VTU writer: '" + good.string() + "'",
                   "the DG function has " + std::to_string(u_h.size() - 1) + " coefficients",
                   "need " + std::to_string(u_h.size())}));
  SolutionVtuOptions<3> options;
  options.subdivisions = 65;
  BOOST_TEST(error_names(
      [&] { write_solution_vtu(good, mesh, u_h, options); },
      {"solution VTU writer: '" + good.string() + "'", "subdivisions = 65 is outside 0..64"}));
}
