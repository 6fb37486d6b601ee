#define BOOST_TEST_MODULE simplex_mesh
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "captured_warnings.hpp"
#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/simplex_mesh.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using polydg::testing::error_names;
using testing::contains;
using testing::error_message;

BOOST_AUTO_TEST_CASE(unit_square_counts_measures_and_tags) {
  for (int n : {1, 3, 8}) {
    const SimplexMesh<2> mesh = unit_square_mesh(n, 0.25, 7);
    BOOST_TEST(mesh.vertex_count() == (n + 1) * (n + 1));
    BOOST_TEST(mesh.cell_count() == 2 * n * n);
    BOOST_TEST(mesh.facet_count() == 3 * n * n + 2 * n);  // Euler: V − E + F = 1
    BOOST_TEST(mesh.boundary_facet_count() == 4 * n);
    BOOST_TEST(std::abs(mesh.total_measure() - 1.0) < 1e-14);
    BOOST_TEST((mesh.boundary_tag_values() == std::vector<int>{1, 2, 3, 4}));
    double boundary_length = 0;
    for (Index f = 0; f < mesh.facet_count(); ++f) {
      if (!mesh.is_boundary_facet(f)) {
        BOOST_TEST(mesh.facet_tag(f) == interior_facet_tag);
        continue;
      }
      boundary_length += mesh.facet_measure(f);
      // The outward normal of a boundary facet matches its tag's side of the square.
      const Point<2> normal = mesh.facet_unit_normal(f);
      const Point<2> expected[] = {{{0, -1}}, {{1, 0}}, {{0, 1}}, {{-1, 0}}};
      const Point<2> want = expected[mesh.facet_tag(f) - 1];
      BOOST_TEST(std::abs(normal[0] - want[0]) + std::abs(normal[1] - want[1]) < 1e-14);
    }
    BOOST_TEST(std::abs(boundary_length - 4.0) < 1e-14);
  }
}

BOOST_AUTO_TEST_CASE(largest_allowed_perturbation_never_folds_a_triangle) {
  // The constructor throws on a folded or degenerate triangle; try many seeds at the bound.
  for (std::uint64_t seed = 1; seed <= 40; ++seed)
    BOOST_CHECK_NO_THROW(unit_square_mesh(1 + int(seed % 13), 0.25, seed));
  BOOST_TEST(error_names([] { unit_square_mesh(4, 0.26); },
                         {"unit_square_mesh: perturbation 0.26", "outside [0, 0.25]"}));
  BOOST_TEST(error_names([] { unit_square_mesh(0); },
                         {"unit_square_mesh: n = 0 cells per side; need 1 <= n <= 32000"}));
}

BOOST_AUTO_TEST_CASE(normals_of_interior_facets_point_from_first_to_second_cell) {
  const SimplexMesh<2> mesh = unit_square_mesh(4, 0.25, 3);
  for (Index f = 0; f < mesh.facet_count(); ++f) {
    if (mesh.is_boundary_facet(f)) continue;
    const auto [first, second] = mesh.facet_cells(f);
    Point<2> centroid[2] = {};
    for (int s = 0; s < 2; ++s)
      for (const auto& p : mesh.cell_points(s == 0 ? first : second)) centroid[s] += (1.0 / 3) * p;
    BOOST_TEST(dot(mesh.facet_unit_normal(f), centroid[1] - centroid[0]) > 0);
    // cell_facets is consistent with facet_cells.
    for (Index c : {first, second}) {
      const auto& facets = mesh.cell_facets(c);
      BOOST_TEST(std::count(facets.begin(), facets.end(), f) == 1);
    }
  }
}

// Facets are numbered in the lexicographic order of their sorted vertex tuples (the boundary
// tags are matched by binary search on it), each is a facet of the cells it names, and every
// facet of every cell is one of them.
template <int Dim>
void check_facet_numbering(const SimplexMesh<Dim>& mesh) {
  for (Index f = 0; f + 1 < mesh.facet_count(); ++f)
    BOOST_TEST((mesh.facet_vertices(f) < mesh.facet_vertices(f + 1)),
               "facets " << f << ", " << f + 1);
  for (Index f = 0; f < mesh.facet_count(); ++f) {
    const auto [first, second] = mesh.facet_cells(f);
    BOOST_TEST((mesh.is_boundary_facet(f) ? second < 0 : first < second));
    for (Index c : {first, second}) {
      if (c < 0) continue;
      auto cell = mesh.cell(c);
      std::sort(cell.begin(), cell.end());
      const auto facet = mesh.facet_vertices(f);
      BOOST_TEST(std::includes(cell.begin(), cell.end(), facet.begin(), facet.end()));
    }
  }
  std::size_t cell_facets = 0;
  for (Index c = 0; c < mesh.cell_count(); ++c) cell_facets += mesh.cell_facets(c).size();
  BOOST_TEST(cell_facets == std::size_t(2 * mesh.facet_count() - mesh.boundary_facet_count()));
}

BOOST_AUTO_TEST_CASE(facets_are_numbered_in_vertex_order) {
  check_facet_numbering(unit_square_mesh(7, 0.2, 5));
  const auto cube = testing::kuhn_unit_cube(4);
  check_facet_numbering(SimplexMesh<3>(cube.vertices, cube.cells, {}, {}));
}

BOOST_AUTO_TEST_CASE(clockwise_cells_are_reoriented) {
  // Two triangles of the unit square, the second given clockwise.
  std::vector<Point<2>> vertices = {{{0, 0}}, {{1, 0}}, {{1, 1}}, {{0, 1}}};
  const SimplexMesh<2> mesh(vertices, {{0, 1, 2}, {0, 2, 3}}, {}, {});
  const SimplexMesh<2> flipped(vertices, {{0, 1, 2}, {0, 3, 2}}, {}, {});
  for (Index c = 0; c < 2; ++c) {
    BOOST_TEST(flipped.cell_measure(c) == 0.5);
    const auto p = flipped.cell_points(c);
    const double signed_area = 0.5 * ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                                      (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]));
    BOOST_TEST(signed_area > 0);
  }
  BOOST_TEST(flipped.facet_count() == mesh.facet_count());
}

BOOST_AUTO_TEST_CASE(tetrahedra_share_a_face) {
  std::vector<Point<3>> vertices = {
      {{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}, {{1, 1, 1}}};
  const SimplexMesh<3> mesh(vertices, {{0, 1, 2, 3}, {1, 2, 3, 4}}, {5, 6},
                            {{{0, 1, 2}, 11}, {{2, 1, 4}, 12}});
  BOOST_TEST(mesh.facet_count() == 7);
  BOOST_TEST(mesh.boundary_facet_count() == 6);
  BOOST_TEST(std::abs(mesh.cell_measure(0) - 1.0 / 6) < 1e-15);
  BOOST_TEST(std::abs(mesh.cell_measure(1) - 1.0 / 3) < 1e-15);
  BOOST_TEST(mesh.cell_region(1) == 6);
  int tagged = 0;
  for (Index f = 0; f < mesh.facet_count(); ++f) {
    if (mesh.facet_tag(f) == 11) {
      ++tagged;
      BOOST_TEST(std::abs(mesh.facet_measure(f) - 0.5) < 1e-15);
      const Point<3> n = mesh.facet_unit_normal(f);
      BOOST_TEST(std::abs(n[2] + 1.0) < 1e-15);  // the z = 0 face points down, out of the mesh
    }
    if (mesh.facet_tag(f) == 12) ++tagged;
  }
  BOOST_TEST(tagged == 2);
}

BOOST_AUTO_TEST_CASE(bad_cells_name_the_cell_and_line) {
  std::vector<Point<2>> v = {{{0, 0}}, {{1, 0}}, {{1, 1}}, {{0, 1}}};
  MeshSource source{"square.msh", {17, 18}};
  auto message = error_message([&] { SimplexMesh<2>(v, {{0, 1, 2}, {0, 2, 9}}, {}, {}, source); });
  BOOST_TEST(contains(message, "square.msh:18: cell 1"));
  BOOST_TEST(contains(message, "out of range"));

  message = error_message([&] { SimplexMesh<2>(v, {{0, 1, 1}}, {}, {}, source); });
  BOOST_TEST(contains(message, "square.msh:17: cell 0"));
  BOOST_TEST(contains(message, "appears twice"));

  std::vector<Point<2>> collinear = {{{0, 0}}, {{1, 0}}, {{2, 0}}};
  message = error_message([&] { SimplexMesh<2>(collinear, {{0, 1, 2}}, {}, {}, source); });
  BOOST_TEST(contains(message, "square.msh:17: cell 0: degenerate cell"));

  std::vector<Point<2>> not_finite = v;
  not_finite[2][1] = std::nan("");
  message = error_message([&] { SimplexMesh<2>(not_finite, {{0, 1, 2}}, {}, {}, source); });
  BOOST_TEST(contains(message, "vertex 2 has a non-finite coordinate"));

  message = error_message([&] { SimplexMesh<2>(v, {}, {}, {}, source); });
  BOOST_TEST(contains(message, "no cells"));
}

BOOST_AUTO_TEST_CASE(non_manifold_and_folded_meshes_are_rejected) {
  // Three triangles on the facet (0, 1).
  std::vector<Point<2>> v = {{{0, 0}}, {{1, 0}}, {{0.5, 1}}, {{0.5, -1}}, {{0.7, 2}}};
  auto message = error_message([&] { SimplexMesh<2>(v, {{0, 1, 2}, {0, 3, 1}, {0, 1, 4}}); });
  BOOST_TEST(contains(message, "facet (0, 1) is shared by 3 cells"));
  // Two triangles on the same side of their common facet: one folds over the other.
  message = error_message([&] { SimplexMesh<2>(v, {{0, 1, 2}, {0, 1, 4}}); });
  BOOST_TEST(contains(message, "overlaps cell 0"));
  BOOST_TEST(contains(message, "inverted or folded"));
}

BOOST_AUTO_TEST_CASE(untagged_boundary_gets_tag_zero_with_one_warning) {
  testing::CapturedWarnings warnings;
  std::vector<Point<2>> v = {{{0, 0}}, {{1, 0}}, {{1, 1}}, {{0, 1}}};
  const SimplexMesh<2> mesh(v, {{0, 1, 2}, {0, 2, 3}}, {}, {{{1, 0}, 4}, {{0, 2}, 9}, {{1, 3}, 9}});
  BOOST_TEST(warnings.messages.size() == 3u);  // untagged, interior tagged, unknown facet
  BOOST_TEST(contains(warnings.messages.at(0), "3 of 4 boundary facets have no tag"));
  BOOST_TEST((mesh.boundary_tag_values() == std::vector<int>{untagged_boundary_tag, 4}));
}
