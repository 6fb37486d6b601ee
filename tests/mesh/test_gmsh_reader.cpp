#define BOOST_TEST_MODULE gmsh_reader
#include <algorithm>
#include <bit>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "captured_warnings.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/mesh/gmsh_reader.hpp"

using namespace polydg;

namespace {

const std::string data_dir = std::string(POLYDG_TEST_DATA_DIR) + "/gmsh/";

// ---- building and corrupting small in-memory files ----------------------------------------

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The unit square as two triangles (physical surface 10) with its four sides tagged 1..4.
const std::vector<std::string> square_msh2 = {
    "$MeshFormat",       // 1
    "2.2 0 8",           // 2
    "$EndMeshFormat",    // 3
    "$Nodes",            // 4
    "4",                 // 5
    "1 0 0 0",           // 6
    "2 1 0 0",           // 7
    "3 1 1 0",           // 8
    "4 0 1 0",           // 9
    "$EndNodes",         // 10
    "$Elements",         // 11
    "6",                 // 12
    "1 1 2 1 1 1 2",     // 13
    "2 1 2 2 2 2 3",     // 14
    "3 1 2 3 3 3 4",     // 15
    "4 1 2 4 4 4 1",     // 16
    "5 2 2 10 1 1 2 3",  // 17
    "6 2 2 10 1 1 3 4",  // 18
    "$EndElements",      // 19
};

// The same square in MSH 4.1 with sparse node tags 10, 20, 30, 40: curve 1 (bottom and right)
// in physical group 1, curve 2 (top and left) in group 2, the surface in group 10.
const std::vector<std::string> square_msh4 = {
    "$MeshFormat",           // 1
    "4.1 0 8",               // 2
    "$EndMeshFormat",        // 3
    "$Entities",             // 4
    "0 2 1 0",               // 5
    "1 0 0 0 1 1 0 1 1 0",   // 6
    "2 0 0 0 1 1 0 1 2 0",   // 7
    "1 0 0 0 1 1 0 1 10 0",  // 8
    "$EndEntities",          // 9
    "$Nodes",                // 10
    "1 4 10 40",             // 11
    "2 1 0 4",               // 12
    "10",                    // 13
    "20",                    // 14
    "30",                    // 15
    "40",                    // 16
    "0 0 0",                 // 17
    "1 0 0",                 // 18
    "1 1 0",                 // 19
    "0 1 0",                 // 20
    "$EndNodes",             // 21
    "$Elements",             // 22
    "3 6 1 6",               // 23
    "1 1 1 2",               // 24
    "1 10 20",               // 25
    "2 20 30",               // 26
    "1 2 1 2",               // 27
    "3 30 40",               // 28
    "4 40 10",               // 29
    "2 1 2 2",               // 30
    "5 10 20 30",            // 31
    "6 10 30 40",            // 32
    "$EndElements",          // 33
};

std::vector<std::string> with_line(std::vector<std::string> lines, int number,
                                   const std::string& text) {
  lines.at(number - 1) = text;
  return lines;
}
std::vector<std::string> without_line(std::vector<std::string> lines, int number) {
  lines.erase(lines.begin() + (number - 1));
  return lines;
}
std::vector<std::string> with_inserted_line(std::vector<std::string> lines, int number,
                                            const std::string& text) {
  lines.insert(lines.begin() + (number - 1), text);
  return lines;
}
std::vector<std::string> first_lines(std::vector<std::string> lines, int count) {
  lines.resize(count);
  return lines;
}

// The unit square of square_msh4 as MSH 4.1 binary, in either byte order and size_t width.
class BinaryMsh41 {
 public:
  BinaryMsh41(bool big_endian, int size_bytes) : big_endian_(big_endian), size_bytes_(size_bytes) {}

  std::string square() {
    text("$MeshFormat\n4.1 1 " + std::to_string(size_bytes_) + "\n");
    put_int(1);
    text("\n$EndMeshFormat\n$Entities\n");
    for (int count : {0, 2, 1, 0}) put_size(count);
    for (int physical : {1, 2}) curve_entity(physical, physical);
    curve_entity(1, 10);  // the surface: same layout as a curve
    text("\n$EndEntities\n$Nodes\n");
    for (int value : {1, 4, 10, 40}) put_size(value);
    put_int(2), put_int(1), put_int(0), put_size(4);
    for (int tag : {10, 20, 30, 40}) put_size(tag);
    for (double xyz : {0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0.}) put_double(xyz);
    text("\n$EndNodes\n$Elements\n");
    for (int value : {3, 6, 1, 6}) put_size(value);
    block(1, 1, 1, {{1, 10, 20}, {2, 20, 30}});
    block(1, 2, 1, {{3, 30, 40}, {4, 40, 10}});
    block(2, 1, 2, {{5, 10, 20, 30}, {6, 10, 30, 40}});
    text("\n$EndElements\n");
    return bytes_;
  }

 private:
  void text(const std::string& s) { bytes_ += s; }
  void put_bytes(const void* value, int count) {
    const auto* bytes = static_cast<const char*>(value);
    const bool native_little = std::endian::native == std::endian::little;
    for (int i = 0; i < count; ++i)
      bytes_ += bytes[(big_endian_ == native_little) ? count - 1 - i : i];
  }
  void put_int(int value) { put_bytes(&value, 4); }
  void put_size(std::uint64_t value) {
    if (size_bytes_ == 8) return put_bytes(&value, 8);
    const auto narrow = std::uint32_t(value);
    put_bytes(&narrow, 4);
  }
  void put_double(double value) { put_bytes(&value, 8); }
  void curve_entity(int tag, int physical) {
    put_int(tag);
    for (double box : {0., 0., 0., 1., 1., 0.}) put_double(box);
    put_size(1), put_int(physical), put_size(0);
  }
  void block(int dimension, int entity, int type, const std::vector<std::vector<int>>& elements) {
    put_int(dimension), put_int(entity), put_int(type), put_size(elements.size());
    for (const auto& element : elements)
      for (int tag : element) put_size(tag);
  }

  bool big_endian_;
  int size_bytes_;
  std::string bytes_;
};

template <int Dim>
SimplexMesh<Dim> read_text(const std::string& text, const std::string& name = "test.msh") {
  std::istringstream in(text);
  return read_gmsh<Dim>(in, name);
}

// The message of the polydg::Error that reading `text` must throw.
template <int Dim = 2>
std::string read_error(const std::string& text, const std::string& name = "test.msh") {
  try {
    read_text<Dim>(text, name);
  } catch (const Error& error) {
    return error.what();
  }
  BOOST_FAIL("no polydg::Error thrown");
  return {};
}

// Checks that reading `lines` fails with a message naming test.msh, `line` and `reason`.
template <int Dim = 2>
void check_error(const std::vector<std::string>& lines, long line, const std::string& reason) {
  const std::string message = read_error<Dim>(join_lines(lines));
  BOOST_TEST_INFO("message: " << message);
  BOOST_TEST(message.find("test.msh:" + std::to_string(line) + ":") != std::string::npos);
  BOOST_TEST(message.find(reason) != std::string::npos);
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// ---- comparing meshes ----------------------------------------------------------------------

template <int Dim>
std::map<int, double> measure_by_region(const SimplexMesh<Dim>& mesh) {
  std::map<int, double> measure;
  for (Index c = 0; c < mesh.cell_count(); ++c)
    measure[mesh.cell_region(c)] += mesh.cell_measure(c);
  return measure;
}

template <int Dim>
std::map<int, double> boundary_measure_by_tag(const SimplexMesh<Dim>& mesh) {
  std::map<int, double> measure;
  for (Index f = 0; f < mesh.facet_count(); ++f)
    if (mesh.is_boundary_facet(f)) measure[mesh.facet_tag(f)] += mesh.facet_measure(f);
  return measure;
}

bool close(double a, double b, double tolerance = 1e-12) { return std::abs(a - b) <= tolerance; }

template <int Dim>
void check_same_mesh(const SimplexMesh<Dim>& a, const SimplexMesh<Dim>& b) {
  BOOST_TEST(a.vertex_count() == b.vertex_count());
  BOOST_REQUIRE(a.cell_count() == b.cell_count());
  BOOST_REQUIRE(a.facet_count() == b.facet_count());
  // Gmsh writes ASCII coordinates with 16 digits, binary ones exactly: allow the last bit.
  double largest_difference = 0;
  for (Index c = 0; c < a.cell_count(); ++c) {
    for (int i = 0; i <= Dim; ++i)
      for (int k = 0; k < Dim; ++k)
        largest_difference =
            std::max(largest_difference, std::abs(a.cell_points(c)[i][k] - b.cell_points(c)[i][k]));
    BOOST_TEST(a.cell_region(c) == b.cell_region(c));
  }
  BOOST_TEST(largest_difference < 1e-14);
  for (Index f = 0; f < a.facet_count(); ++f) BOOST_TEST(a.facet_tag(f) == b.facet_tag(f));
}

}  // namespace

// ---- valid input ---------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(msh2_square_has_area_regions_and_tags) {
  const SimplexMesh<2> mesh = read_text<2>(join_lines(square_msh2));
  BOOST_TEST(mesh.vertex_count() == 4);
  BOOST_TEST(mesh.cell_count() == 2);
  BOOST_TEST(close(mesh.total_measure(), 1.0));
  BOOST_TEST((measure_by_region(mesh) == std::map<int, double>{{10, 1.0}}));
  BOOST_TEST((mesh.boundary_tag_values() == std::vector<int>{1, 2, 3, 4}));
}

BOOST_AUTO_TEST_CASE(msh4_ascii_and_binary_squares_match_msh2) {
  const SimplexMesh<2> reference = read_text<2>(join_lines(square_msh4));
  BOOST_TEST(close(reference.total_measure(), 1.0));
  BOOST_TEST((measure_by_region(reference) == std::map<int, double>{{10, 1.0}}));
  BOOST_TEST((boundary_measure_by_tag(reference) == std::map<int, double>{{1, 2.0}, {2, 2.0}}));
  // Same nodes in the same order as the MSH 2 square: the meshes agree cell by cell.
  const SimplexMesh<2> msh2 = read_text<2>(join_lines(square_msh2));
  for (Index c = 0; c < 2; ++c) BOOST_TEST((reference.cell_points(c) == msh2.cell_points(c)));
  for (bool big_endian : {false, true})
    for (int size_bytes : {8, 4}) {
      BOOST_TEST_CONTEXT("big endian " << big_endian << ", size_t of " << size_bytes) {
        check_same_mesh(reference, read_text<2>(BinaryMsh41(big_endian, size_bytes).square()));
      }
    }
}

BOOST_AUTO_TEST_CASE(node_tags_far_apart_are_mapped) {
  // Tag 30 becomes 3·10⁹: too sparse for a lookup vector, so the reader keeps a hash map.
  std::vector<std::string> lines = with_line(square_msh4, 15, "3000000000");
  lines = with_line(lines, 26, "2 20 3000000000");
  lines = with_line(lines, 28, "3 3000000000 40");
  lines = with_line(lines, 31, "5 10 20 3000000000");
  lines = with_line(lines, 32, "6 10 3000000000 40");
  check_same_mesh(read_text<2>(join_lines(square_msh4)), read_text<2>(join_lines(lines)));
  check_error(with_line(lines, 32, "6 10 30 40"), 32,
              "element refers to node 30, which $Nodes does not define");
}

BOOST_AUTO_TEST_CASE(crlf_line_ends_and_unknown_sections_are_accepted) {
  std::vector<std::string> lines = with_inserted_line(square_msh2, 4, "$Comments");
  lines = with_inserted_line(lines, 5, "made by hand");
  lines = with_inserted_line(lines, 6, "$EndComments");
  std::string text;
  for (const std::string& line : lines) text += line + "\r\n";
  BOOST_TEST(close(read_text<2>(text).total_measure(), 1.0));
}

BOOST_AUTO_TEST_CASE(real_square_with_hole_reads_the_same_in_three_formats) {
  const auto v22 = read_gmsh<2>(data_dir + "square_hole_v22.msh");
  const auto v41 = read_gmsh<2>(data_dir + "square_hole_v41.msh");
  const auto v41_binary = read_gmsh<2>(data_dir + "square_hole_v41_binary.msh");
  // [0,1]² minus a disk of radius 1/4 whose circle has 32 equal chords.
  const double pi = std::numbers::pi;
  BOOST_TEST(close(v41.total_measure(), 1 - std::sin(pi / 16)));
  BOOST_TEST((measure_by_region(v41).size() == 1 && measure_by_region(v41).count(10) == 1));
  const auto lengths = boundary_measure_by_tag(v41);
  BOOST_TEST(lengths.size() == 2u);
  BOOST_TEST(close(lengths.at(1), 4.0));
  BOOST_TEST(close(lengths.at(2), 32 * 2 * 0.25 * std::sin(pi / 32)));
  check_same_mesh(v41, v22);
  check_same_mesh(v41, v41_binary);
}

BOOST_AUTO_TEST_CASE(real_l_shape_takes_the_first_of_several_physical_groups) {
  for (const char* file : {"l_shape_v41.msh", "l_shape_v22.msh"}) {
    BOOST_TEST_CONTEXT(file) {
      testing::CapturedWarnings warnings;
      const auto mesh = read_gmsh<2>(data_dir + file);
      BOOST_TEST(close(mesh.total_measure(), 0.75));
      // Surfaces are in groups (1, 3) and (2, 3); re-entrant curves in (12, 13).
      const auto regions = measure_by_region(mesh);
      BOOST_TEST(regions.size() == 2u);
      BOOST_TEST(close(regions.at(1), 0.5));
      BOOST_TEST(close(regions.at(2), 0.25));
      const auto lengths = boundary_measure_by_tag(mesh);
      BOOST_TEST(lengths.size() == 2u);
      BOOST_TEST(close(lengths.at(11), 3.0));
      BOOST_TEST(close(lengths.at(12), 1.0));
      // MSH 2 repeats each triangle once per group: the copies are dropped with a warning.
      BOOST_TEST(warnings.contain("repeat an earlier one") ==
                 (file == std::string("l_shape_v22.msh")));
    }
  }
  check_same_mesh(read_gmsh<2>(data_dir + "l_shape_v41.msh"),
                  read_gmsh<2>(data_dir + "l_shape_v22.msh"));
}

BOOST_AUTO_TEST_CASE(real_mesh_without_physical_groups_gets_region_and_tag_zero) {
  for (const char* file : {"no_physical_v41.msh", "no_physical_v22.msh"}) {
    BOOST_TEST_CONTEXT(file) {
      testing::CapturedWarnings warnings;
      const auto mesh = read_gmsh<2>(data_dir + file);
      BOOST_TEST(close(mesh.total_measure(), 1.5));  // the trapezoid (0,0) (2,0) (1.5,1) (0.5,1)
      BOOST_TEST((measure_by_region(mesh).count(0) == 1 && measure_by_region(mesh).size() == 1));
      BOOST_TEST((mesh.boundary_tag_values() == std::vector<int>{untagged_boundary_tag}));
      BOOST_TEST(warnings.contain("have no tag"));  // the constructor's one warning
    }
  }
}

BOOST_AUTO_TEST_CASE(real_tetrahedral_box_in_three_formats) {
  const auto v41 = read_gmsh<3>(data_dir + "box_v41.msh");
  BOOST_TEST(close(v41.total_measure(), 1.0));  // [0,1]×[0,2]×[0,1/2]
  BOOST_TEST((measure_by_region(v41).size() == 1 && measure_by_region(v41).count(7) == 1));
  const auto areas = boundary_measure_by_tag(v41);
  BOOST_TEST(areas.size() == 3u);
  BOOST_TEST(close(areas.at(1), 2.0));
  BOOST_TEST(close(areas.at(2), 2.0));
  BOOST_TEST(close(areas.at(3), 3.0));
  check_same_mesh(v41, read_gmsh<3>(data_dir + "box_v41_binary.msh"));
  check_same_mesh(v41, read_gmsh<3>(data_dir + "box_v22.msh"));
}

BOOST_AUTO_TEST_CASE(mesh_dimension_of_files) {
  BOOST_TEST(gmsh_mesh_dimension(data_dir + "square_hole_v41_binary.msh") == 2);
  BOOST_TEST(gmsh_mesh_dimension(data_dir + "l_shape_v22.msh") == 2);
  BOOST_TEST(gmsh_mesh_dimension(data_dir + "box_v41.msh") == 3);
  BOOST_TEST(gmsh_mesh_dimension(data_dir + "box_v41_binary.msh") == 3);
  std::istringstream in(join_lines(square_msh4));
  BOOST_TEST(gmsh_mesh_dimension(in, "test.msh") == 2);
}

// ---- wrong dimension and unsupported elements ----------------------------------------------

BOOST_AUTO_TEST_CASE(tetrahedra_read_as_2d_are_refused) {
  check_error(with_line(square_msh2, 18, "6 4 2 10 1 1 2 3 4"), 18,
              "element type 4 (4-node tetrahedron) is 3-dimensional, but a 2-dimensional mesh "
              "was asked for");
  const std::string path = data_dir + "box_v41.msh";
  try {
    read_gmsh<2>(path);
    BOOST_FAIL("no error");
  } catch (const Error& error) {
    const std::string message = error.what();
    BOOST_TEST(message.find(path + ":") != std::string::npos);
    BOOST_TEST(message.find("4-node tetrahedron") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(triangle_mesh_read_as_3d_has_no_tetrahedra) {
  const std::string message = read_error<3>(join_lines(square_msh2));
  BOOST_TEST(message.find("test.msh: no tetrahedra") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(second_order_and_quadrangle_elements_are_refused) {
  check_error(with_line(square_msh2, 18, "6 9 2 10 1 1 2 3 4 1 2"), 18,
              "unsupported element type 9 (6-node second-order triangle)");
  check_error(with_line(square_msh2, 18, "6 9 2 10 1 1 2 3 4 1 2"), 18, "use first-order elements");
  check_error(with_line(square_msh2, 18, "6 3 2 10 1 1 2 3 4"), 18,
              "unsupported element type 3 (4-node quadrangle)");
  check_error(with_line(square_msh4, 30, "2 1 9 2"), 30,
              "unsupported element type 9 (6-node second-order triangle)");
  // A real second-order Gmsh file: refused at its triangle block's header line.
  const std::string path = data_dir + "square_order2_v41.msh";
  const std::string text = file_text(path);
  long header_line = 1;
  for (std::size_t i = 0; i < text.find("$Elements\n"); ++i) header_line += text[i] == '\n';
  header_line += 2;  // "$Elements", then the section header, then the first block header
  const std::string message = read_error(text, path);
  BOOST_TEST_INFO(message);
  BOOST_TEST(message.find(path + ":" + std::to_string(header_line) + ":") != std::string::npos);
  BOOST_TEST(message.find("unsupported element type 9") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(unknown_element_type) {
  check_error(with_line(square_msh2, 17, "5 77 2 10 1 1 2 3"), 17, "unknown element type 77");
  check_error(with_line(square_msh4, 24, "1 1 77 2"), 24, "unknown element type 77");
}

// ---- structural errors ---------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(truncated_files) {
  check_error(first_lines(square_msh2, 15), 15, "unexpected end of file inside $Elements");
  check_error(first_lines(square_msh4, 14), 14, "unexpected end of file inside $Nodes");
  check_error(first_lines(square_msh2, 18), 18, "$EndElements missing");
  // A binary file cut inside $Elements: the error names the section and the byte in it.
  const std::string binary = BinaryMsh41(false, 8).square();
  const std::size_t elements = binary.find("$Elements\n") + std::strlen("$Elements\n");
  const long elements_line =
      1 + long(std::count(binary.begin(), binary.begin() + elements - 1, '\n'));
  const std::string message = read_error(binary.substr(0, elements + 50));
  BOOST_TEST_INFO(message);
  BOOST_TEST(message.find("test.msh:" + std::to_string(elements_line) +
                          ": binary $Elements section, byte ") != std::string::npos);
  BOOST_TEST(message.find("unexpected end of file") != std::string::npos);
  // A real binary file cut in the middle.
  const std::string real = file_text(data_dir + "box_v41_binary.msh");
  BOOST_TEST(read_error<3>(real.substr(0, real.size() / 2)).find("unexpected end of file") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(missing_sections) {
  check_error(without_line(square_msh2, 1), 1, "missing $MeshFormat");
  check_error({}, 0, "empty file");
  // Without $Nodes, $Elements comes first; without $Elements, the file ends too early.
  std::vector<std::string> no_nodes(square_msh2.begin(), square_msh2.begin() + 3);
  no_nodes.insert(no_nodes.end(), square_msh2.begin() + 10, square_msh2.end());
  check_error(no_nodes, 4, "$Elements before $Nodes");
  check_error(first_lines(square_msh2, 10), 10, "end of file without an $Elements section");
  std::vector<std::string> only_format(square_msh2.begin(), square_msh2.begin() + 3);
  check_error(only_format, 3, "end of file without a $Nodes section");
}

BOOST_AUTO_TEST_CASE(unsupported_versions) {
  check_error(with_line(square_msh2, 2, "3.0 0 8"), 2, "unsupported MSH version 3.0");
  check_error(with_line(square_msh4, 2, "4.0 0 8"), 2, "unsupported MSH version 4.0");
  check_error(with_line(square_msh2, 2, "2.2 1 8"), 2, "binary MSH 2 is not supported");
  check_error(with_line(square_msh2, 1, "$NOD"), 1, "an MSH 1 file");
}

BOOST_AUTO_TEST_CASE(undefined_nodes) {
  check_error(with_line(square_msh2, 18, "6 2 2 10 1 1 3 9"), 18,
              "element refers to node 9, which $Nodes does not define");
  check_error(with_line(square_msh4, 32, "6 10 30 4"), 32,
              "element refers to node 4, which $Nodes does not define");
  check_error(with_line(square_msh2, 7, "1 1 0 0"), 7, "node tag 1 is defined twice");
}

BOOST_AUTO_TEST_CASE(non_numeric_fields) {
  check_error(with_line(square_msh2, 7, "2 1 zero 0"), 7, "expected y (a number), found 'zero'");
  check_error(with_line(square_msh2, 17, "5 2 2 10 1 1 x 3"), 17,
              "expected node number (an integer), found 'x'");
  check_error(with_line(square_msh2, 5, "four"), 5, "expected number of nodes (an integer)");
  check_error(with_line(square_msh4, 19, "1 1.0.0 0"), 19, "expected y (a number), found '1.0.0'");
  check_error(with_line(square_msh4, 28, "3 30 4O"), 28,
              "expected node tag (an integer), found '4O'");
  check_error(with_line(square_msh2, 6, "1 0 0"), 6,
              "expected 4 fields (node-number x y z), found 3");
}

BOOST_AUTO_TEST_CASE(counts_that_disagree_with_the_entries) {
  check_error(with_line(square_msh2, 12, "7"), 19,
              "$Elements ends after 6 of the 7 elements declared at line 12");
  check_error(with_line(square_msh2, 12, "5"), 18,
              "expected $EndElements after the 5 elements declared at line 12");
  check_error(with_line(square_msh2, 5, "5"), 10,
              "$Nodes ends after 4 of the 5 nodes declared at line 5");
  check_error(with_line(square_msh4, 23, "3 7 1 6"), 32,
              "$Elements (line 22) declares 7 elements, but its 3 blocks hold 6");
  check_error(with_line(square_msh4, 30, "2 1 2 3"), 33,
              "$Elements ends after 2 of the 3 elements declared at line 30");
  check_error(with_line(square_msh4, 11, "1 5 10 40"), 20,
              "$Nodes (line 10) declares 5 nodes, but its 1 blocks hold 4");
}

BOOST_AUTO_TEST_CASE(non_finite_and_non_planar_coordinates) {
  check_error(with_line(square_msh2, 8, "3 nan 1 0"), 8, "node 3 has a non-finite coordinate");
  check_error(with_line(square_msh4, 19, "1 inf 0"), 19, "node 30 has a non-finite coordinate");
  check_error(with_line(square_msh2, 8, "3 1 1 0.5"), 8,
              "a 2-dimensional mesh must lie in a plane z = constant");
  // A constant z ≠ 0 is a plane too.
  std::vector<std::string> lifted = square_msh2;
  for (int line = 6; line <= 9; ++line) lifted[line - 1] += "0";  // z = 0 → z = 00
  for (int line = 6; line <= 9; ++line) lifted[line - 1].back() = '3';
  BOOST_TEST(close(read_text<2>(join_lines(lifted)).total_measure(), 1.0));
}

BOOST_AUTO_TEST_CASE(degenerate_and_inverted_cells_name_their_line) {
  // Node 5 on the diagonal from node 1 to node 3: triangle 1 3 5 has zero area. (The file
  // now has $Elements at line 12, its count at 13 and the triangles at 18 and 19.)
  std::vector<std::string> lines = with_line(square_msh2, 5, "5");
  lines = with_inserted_line(lines, 10, "5 0.5 0.5 0");
  check_error(with_line(lines, 19, "6 2 2 10 1 1 3 5"), 19, "cell 1: degenerate cell");
  // Node 5 on the same side of the diagonal as node 2: triangle 1 3 5 folds over 1 2 3.
  lines = with_line(lines, 10, "5 0.8 0.2 0");
  check_error(with_line(lines, 19, "6 2 2 10 1 1 3 5"), 19, "inverted or folded cell");
  // Triangles 1 2 3, 1 3 4 and 1 3 5 all on the diagonal 1–3.
  lines = with_line(lines, 13, "7");
  lines = with_inserted_line(lines, 20, "7 2 2 10 1 1 3 5");
  check_error(lines, 20, "is shared by 3 cells");
}

BOOST_AUTO_TEST_CASE(msh4_entity_errors) {
  check_error(with_line(square_msh4, 30, "2 5 2 2"), 30,
              "element block of entity (dimension 2, tag 5), which $Entities does not define");
  check_error(with_line(square_msh4, 7, "2 0 0 0 1 1 0 1 2 0 5"), 7,
              "expected 10 fields in this entity, found 11");
  check_error(with_line(square_msh4, 7, "2 0 0 0 1 1 0 1 2"), 7,
              "expected at least 10 fields in this entity");
  check_error(with_line(square_msh4, 7, "1 0 0 0 1 1 0 1 2 0"), 7, "is defined twice");
  check_error(with_line(square_msh4, 7, "2 0 0 0 1 1 0 1 -2 0"), 7, "physical tag -2 is negative");
  check_error(with_line(square_msh4, 30, "1 1 2 2"), 30,
              "is 2-dimensional, but its block belongs to an entity of dimension 1");
}

BOOST_AUTO_TEST_CASE(unreadable_file) {
  try {
    read_gmsh<2>(data_dir + "no_such_file.msh");
    BOOST_FAIL("no error");
  } catch (const Error& error) {
    const std::string message = error.what();
    BOOST_TEST(message.find("cannot open Gmsh file '" + data_dir + "no_such_file.msh'") !=
                   std::string::npos,
               message);
  }
}
