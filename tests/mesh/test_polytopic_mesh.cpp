#define BOOST_TEST_MODULE polytopic_mesh
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <set>
#include <sstream>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/mesh/simplex_geometry.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

std::shared_ptr<const SimplexMesh<2>> square(int n, double perturbation = 0.0,
                                             std::uint64_t seed = 1) {
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, perturbation, seed));
}

// The unit cube split into n³ cubes of 6 tetrahedra each (Kuhn: one tetrahedron per ordering
// of the axes along the cube's main diagonal, conforming across cubes). Boundary tags
// 1..6 for x = 0, x = 1, y = 0, y = 1, z = 0, z = 1.
std::shared_ptr<const SimplexMesh<3>> cube(int n) {
  const auto [vertices, cells] = testing::kuhn_unit_cube(n);
  // Build once untagged to find the boundary facets, then tag them by position.
  const WarningHandler previous = set_warning_handler([](const std::string&) {});
  const SimplexMesh<3> untagged(vertices, cells);
  set_warning_handler(previous);
  std::vector<SimplexMesh<3>::TaggedFacet> tags;
  for (Index f = 0; f < untagged.facet_count(); ++f) {
    if (!untagged.is_boundary_facet(f)) continue;
    const auto p = untagged.facet_points(f);
    const Point<3> center = (1.0 / 3.0) * (p[0] + p[1] + p[2]);
    int tag = 0;
    for (int d = 0; d < 3; ++d) {
      if (std::abs(center[d]) < 1e-12) tag = 2 * d + 1;
      if (std::abs(center[d] - 1) < 1e-12) tag = 2 * d + 2;
    }
    tags.push_back({untagged.facet_vertices(f), tag});
  }
  return std::make_shared<const SimplexMesh<3>>(vertices, cells, std::vector<int>{}, tags);
}

template <int Dim>
PolytopicMesh<Dim> agglomerated(std::shared_ptr<const SimplexMesh<Dim>> mesh, Index elements,
                                const PolytopicMeshOptions& options = {}) {
  const Agglomeration agglomeration = agglomerate(*mesh, elements);
  return PolytopicMesh<Dim>(mesh, agglomeration.element_of_cell, 2, options);
}

// Every interior fine facet between two elements belongs to exactly one interface, whose pair
// is (smaller, larger) and whose cells are the facet's cells on the right sides; interfaces
// are sorted and unique; element_interfaces lists each interface at both its elements.
template <int Dim>
void check_interfaces(const PolytopicMesh<Dim>& mesh) {
  const SimplexMesh<Dim>& fine = mesh.fine_mesh();
  std::vector<Index> interface_of_facet(fine.facet_count(), -1);
  for (Index i = 0; i < mesh.interface_count(); ++i) {
    const auto& pair = mesh.interface_elements(i);
    BOOST_REQUIRE_LT(pair[0], pair[1]);
    if (i > 0) BOOST_REQUIRE(mesh.interface_elements(i - 1) < pair);  // sorted, no duplicates
    BOOST_REQUIRE(!mesh.interface_facets(i).empty());
    for (const auto& facet : mesh.interface_facets(i)) {
      BOOST_REQUIRE_EQUAL(interface_of_facet[facet.facet], -1);
      interface_of_facet[facet.facet] = i;
      for (int s = 0; s < 2; ++s) {
        BOOST_CHECK_EQUAL(mesh.element_of_cell(facet.cells[s]), pair[s]);
        const auto& cell_facets = fine.cell_facets(facet.cells[s]);
        BOOST_CHECK(std::find(cell_facets.begin(), cell_facets.end(), facet.facet) !=
                    cell_facets.end());
      }
    }
  }
  for (Index f = 0; f < fine.facet_count(); ++f) {
    const bool cut = !fine.is_boundary_facet(f) && mesh.element_of_cell(fine.facet_cells(f)[0]) !=
                                                       mesh.element_of_cell(fine.facet_cells(f)[1]);
    BOOST_CHECK_EQUAL(cut, interface_of_facet[f] >= 0);
  }
  Index listed = 0;
  for (Index e = 0; e < mesh.element_count(); ++e) {
    Index previous_neighbour = -1;
    for (Index i : mesh.element_interfaces(e)) {
      const auto& pair = mesh.interface_elements(i);
      BOOST_REQUIRE(pair[0] == e || pair[1] == e);
      const Index other = mesh.neighbour(i, e);
      BOOST_CHECK_NE(other, e);
      BOOST_CHECK_GT(other, previous_neighbour);  // ordered by neighbour
      previous_neighbour = other;
      ++listed;
    }
  }
  BOOST_CHECK_EQUAL(listed, 2 * mesh.interface_count());
}

// Every fine boundary facet is listed exactly once, at the element of its cell, with its tag.
template <int Dim>
void check_boundary_facets(const PolytopicMesh<Dim>& mesh) {
  const SimplexMesh<Dim>& fine = mesh.fine_mesh();
  std::vector<int> seen(fine.facet_count(), 0);
  for (Index e = 0; e < mesh.element_count(); ++e)
    for (const auto& b : mesh.element_boundary_facets(e)) {
      BOOST_REQUIRE(fine.is_boundary_facet(b.facet));
      ++seen[b.facet];
      BOOST_CHECK_EQUAL(b.cell, fine.facet_cells(b.facet)[0]);
      BOOST_CHECK_EQUAL(mesh.element_of_cell(b.cell), e);
      BOOST_CHECK_EQUAL(b.tag, fine.facet_tag(b.facet));
      BOOST_CHECK_GE(b.tag, 1);
    }
  for (Index f = 0; f < fine.facet_count(); ++f)
    BOOST_CHECK_EQUAL(seen[f], fine.is_boundary_facet(f) ? 1 : 0);
  BOOST_CHECK_EQUAL(mesh.boundary_facet_count(), fine.boundary_facet_count());
}

// Measures add up; boxes contain every vertex and are attained; diameters by brute force.
template <int Dim>
void check_geometry(const PolytopicMesh<Dim>& mesh) {
  const SimplexMesh<Dim>& fine = mesh.fine_mesh();
  double total = 0;
  for (Index e = 0; e < mesh.element_count(); ++e) {
    double measure = 0;
    std::set<Index> vertices;
    for (Index c : mesh.element_cells(e)) {
      measure += fine.cell_measure(c);
      vertices.insert(fine.cell(c).begin(), fine.cell(c).end());
    }
    BOOST_CHECK_CLOSE(mesh.element_measure(e), measure, 1e-10);
    total += mesh.element_measure(e);
    const Box<Dim>& box = mesh.element_box(e);
    for (int d = 0; d < Dim; ++d) {
      bool lower_attained = false, upper_attained = false;
      for (Index v : vertices) {
        const Point<Dim>& p = fine.vertices()[v];
        BOOST_CHECK(p[d] >= box.lower[d] && p[d] <= box.upper[d]);
        lower_attained = lower_attained || p[d] == box.lower[d];
        upper_attained = upper_attained || p[d] == box.upper[d];
      }
      BOOST_CHECK(lower_attained && upper_attained);
    }
    BOOST_CHECK_GE(mesh.element_box_coverage(e), 1.0 - 1e-12);
    double diameter = 0;
    for (Index a : vertices)
      for (Index b : vertices) {
        const Point<Dim> d = fine.vertices()[a] - fine.vertices()[b];
        diameter = std::max(diameter, std::sqrt(dot(d, d)));
      }
    BOOST_CHECK_CLOSE(mesh.element_diameter(e), diameter, 1e-12);
    BOOST_CHECK(mesh.element_roundness(e) > 0 && mesh.element_roundness(e) <= 1);
    BOOST_CHECK_GE(mesh.element_face_count(e), Dim + 1);
  }
  BOOST_CHECK_CLOSE(total, fine.total_measure(), 1e-10);
}

// Breadth-first search over interior facets inside each element.
template <int Dim>
void check_connected(const PolytopicMesh<Dim>& mesh) {
  const SimplexMesh<Dim>& fine = mesh.fine_mesh();
  for (Index e = 0; e < mesh.element_count(); ++e) {
    std::set<Index> reached{mesh.element_cells(e)[0]};
    std::vector<Index> queue{mesh.element_cells(e)[0]};
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (Index f : fine.cell_facets(queue[head]))
        for (Index c : fine.facet_cells(f))
          if (c >= 0 && mesh.element_of_cell(c) == e && reached.insert(c).second)
            queue.push_back(c);
    BOOST_CHECK_EQUAL(Index(reached.size()), mesh.element_fine_cell_count(e));
  }
}

double shoelace(const SimplexMesh<2>& fine, std::span<const Index> loop) {
  double twice = 0;
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const Point<2>& a = fine.vertices()[loop[k]];
    const Point<2>& b = fine.vertices()[loop[(k + 1) % loop.size()]];
    twice += a[0] * b[1] - a[1] * b[0];
  }
  return 0.5 * twice;
}

// Winding-number test of point p against the element's loops.
bool inside(const PolytopicMesh<2>& mesh, Index e, const Point<2>& p) {
  int winding = 0;
  for (Index k = 0; k < mesh.element_loop_count(e); ++k) {
    const auto loop = mesh.element_loop(e, k);
    for (std::size_t i = 0; i < loop.size(); ++i) {
      const Point<2>& a = mesh.fine_mesh().vertices()[loop[i]];
      const Point<2>& b = mesh.fine_mesh().vertices()[loop[(i + 1) % loop.size()]];
      const double side = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
      if (a[1] <= p[1] && b[1] > p[1] && side > 0) ++winding;
      if (a[1] > p[1] && b[1] <= p[1] && side < 0) --winding;
    }
  }
  return winding != 0;
}

// Ring partition of the unit square (n divisible by 6): element 0 the ring
// [1/6, 5/6]² \ [2/6, 4/6]², element 1 the centre square, element 2 the outer frame.
std::vector<Index> ring_partition(const SimplexMesh<2>& mesh) {
  std::vector<Index> part(mesh.cell_count());
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    const auto p = mesh.cell_points(c);
    const Point<2> x = (1.0 / 3.0) * (p[0] + p[1] + p[2]);
    const auto within = [&](double lo, double hi) {
      return x[0] > lo && x[0] < hi && x[1] > lo && x[1] < hi;
    };
    part[c] = within(2.0 / 6, 4.0 / 6) ? 1 : within(1.0 / 6, 5.0 / 6) ? 0 : 2;
  }
  return part;
}

}  // namespace

BOOST_AUTO_TEST_CASE(agglomerated_square) {
  const PolytopicMesh<2> mesh = agglomerated(square(20, 0.2, 7), 30);
  check_connected(mesh);
  check_interfaces(mesh);
  check_boundary_facets(mesh);
  check_geometry(mesh);
  BOOST_CHECK_EQUAL(mesh.simplex_count(), mesh.fine_mesh().cell_count());
  for (Index e = 0; e < mesh.element_count(); ++e) {
    BOOST_CHECK_EQUAL(mesh.element_degree(e), 2);
    BOOST_CHECK_EQUAL(mesh.element_simplices(e).size(), mesh.element_cells(e).size());
  }
}

BOOST_AUTO_TEST_CASE(no_agglomeration_gives_the_fine_mesh) {
  const auto fine = square(8, 0.2);
  const Agglomeration identity = agglomerate(*fine, fine->cell_count());
  const PolytopicMesh<2> mesh(fine, identity.element_of_cell, 1);
  BOOST_CHECK_EQUAL(mesh.element_count(), fine->cell_count());
  BOOST_CHECK_EQUAL(mesh.interface_count(), fine->facet_count() - fine->boundary_facet_count());
  check_interfaces(mesh);
  check_boundary_facets(mesh);
  for (Index i = 0; i < mesh.interface_count(); ++i)
    BOOST_CHECK_EQUAL(mesh.interface_facets(i).size(), 1u);
  for (Index e = 0; e < mesh.element_count(); ++e) {
    BOOST_CHECK_EQUAL(mesh.element_face_count(e), 3);
    BOOST_CHECK_EQUAL(mesh.element_loop_count(e), 1);
    BOOST_CHECK_EQUAL(mesh.element_loop(e, 0).size(), 3u);
    BOOST_CHECK_CLOSE(shoelace(*fine, mesh.element_loop(e, 0)), mesh.element_measure(e), 1e-10);
  }
}

BOOST_AUTO_TEST_CASE(one_square_element) {
  const PolytopicMesh<2> mesh(square(4), std::vector<Index>(32, 0), 3);
  BOOST_CHECK_EQUAL(mesh.element_count(), 1);
  BOOST_CHECK_EQUAL(mesh.interface_count(), 0);
  BOOST_CHECK_EQUAL(mesh.element_face_count(0), 4);  // one per side (tags 1..4)
  BOOST_CHECK_CLOSE(mesh.element_box_coverage(0), 1.0, 1e-12);
  BOOST_CHECK_CLOSE(mesh.element_roundness(0), std::numbers::pi / 4, 1e-12);
  BOOST_CHECK_CLOSE(mesh.element_diameter(0), std::sqrt(2.0), 1e-12);
  BOOST_CHECK_CLOSE(mesh.element_boundary_measure(0), 4.0, 1e-12);
  BOOST_CHECK_EQUAL(mesh.element_loop(0, 0).size(), 16u);

  PolytopicMeshOptions options;
  options.retriangulate = true;
  const PolytopicMesh<2> coarse(square(4), std::vector<Index>(32, 0), 3, options);
  BOOST_CHECK_EQUAL(coarse.simplex_count(), 2);  // the square's four corners
  BOOST_CHECK_EQUAL(coarse.retriangulation_fallback_count(), 0);
}

BOOST_AUTO_TEST_CASE(boundary_loops_trace_the_element_counter_clockwise) {
  const PolytopicMesh<2> mesh = agglomerated(square(16, 0.2, 2), 12);
  const SimplexMesh<2>& fine = mesh.fine_mesh();
  for (Index e = 0; e < mesh.element_count(); ++e) {
    double area = 0;
    std::size_t edges = 0;
    for (Index k = 0; k < mesh.element_loop_count(e); ++k) {
      const auto loop = mesh.element_loop(e, k);
      area += shoelace(fine, loop);
      edges += loop.size();
      if (k == 0) BOOST_CHECK_GT(shoelace(fine, loop), 0);
      if (k > 0) BOOST_CHECK_LT(shoelace(fine, loop), 0);
    }
    BOOST_CHECK_CLOSE(area, mesh.element_measure(e), 1e-10);
    std::size_t sides = mesh.element_boundary_facets(e).size();
    for (Index i : mesh.element_interfaces(e)) sides += mesh.interface_facets(i).size();
    BOOST_CHECK_EQUAL(edges, sides);  // every boundary facet once
  }
}

BOOST_AUTO_TEST_CASE(retriangulation_covers_each_element_with_fewer_triangles) {
  for (double perturbation : {0.0, 0.2}) {
    BOOST_TEST_CONTEXT("perturbation " << perturbation) {
      PolytopicMeshOptions options;
      options.retriangulate = true;
      const PolytopicMesh<2> mesh = agglomerated(square(24, perturbation, 4), 40, options);
      const SimplexMesh<2>& fine = mesh.fine_mesh();
      Index with_holes = 0;
      for (Index e = 0; e < mesh.element_count(); ++e) {
        if (mesh.element_loop_count(e) > 1) ++with_holes;
        double area = 0;
        for (const auto& simplex : mesh.element_simplices(e)) {
          const auto points = mesh.simplex_points(simplex);
          const double signed_area = simplex_signed_measure<2>(points.data());
          BOOST_CHECK_GT(signed_area, 0);
          area += signed_area;
          BOOST_CHECK(inside(mesh, e, (1.0 / 3.0) * (points[0] + points[1] + points[2])));
        }
        BOOST_CHECK_CLOSE_FRACTION(area, mesh.element_measure(e), 1e-12);
        BOOST_CHECK_LE(mesh.element_simplices(e).size(), mesh.element_cells(e).size());
      }
      BOOST_CHECK_EQUAL(mesh.retriangulation_fallback_count(), with_holes);
      BOOST_CHECK_LT(mesh.simplex_count(), fine.cell_count() / 2);
      check_interfaces(mesh);  // interfaces stay the fine facets
    }
  }
}

BOOST_AUTO_TEST_CASE(elements_with_holes) {
  const auto fine = square(6);
  PolytopicMeshOptions options;
  options.retriangulate = true;
  const PolytopicMesh<2> mesh(fine, ring_partition(*fine), std::vector<int>{1, 2, 3}, options);
  BOOST_CHECK_EQUAL(mesh.element_loop_count(0), 2);
  BOOST_CHECK_EQUAL(mesh.element_loop_count(1), 1);
  BOOST_CHECK_EQUAL(mesh.element_loop_count(2), 2);
  BOOST_CHECK_EQUAL(mesh.retriangulation_fallback_count(), 2);  // the ring and the frame
  BOOST_CHECK_EQUAL(mesh.element_simplices(0).size(), mesh.element_cells(0).size());
  BOOST_CHECK_EQUAL(mesh.element_simplices(1).size(), 2u);  // the centre square
  BOOST_CHECK_EQUAL(mesh.element_face_count(0), 8);         // 4 outer + 4 inner sides
  BOOST_CHECK_EQUAL(mesh.element_face_count(1), 4);
  BOOST_CHECK_EQUAL(mesh.element_face_count(2), 8);
  BOOST_CHECK_EQUAL(mesh.interface_count(), 2);
  BOOST_CHECK_CLOSE(mesh.element_box_coverage(1), 1.0, 1e-12);
  BOOST_CHECK_EQUAL(mesh.element_degree(2), 3);
  for (Index e = 0; e < 3; ++e) {
    const std::vector<Index> polygon = element_polygon(mesh, e);
    BOOST_REQUIRE(!polygon.empty());
    BOOST_CHECK_CLOSE(shoelace(*fine, polygon), mesh.element_measure(e), 1e-10);
    // Consecutive polygon vertices are joined by fine edges of the element.
    for (std::size_t k = 0; k < polygon.size(); ++k) {
      const Index a = polygon[k], b = polygon[(k + 1) % polygon.size()];
      bool edge = false;
      for (Index c : mesh.element_cells(e)) {
        const auto& cell = fine->cell(c);
        edge = edge ||
               (std::count(cell.begin(), cell.end(), a) && std::count(cell.begin(), cell.end(), b));
      }
      BOOST_CHECK(edge);
    }
  }
  check_interfaces(mesh);
  check_boundary_facets(mesh);
  check_geometry(mesh);
}

BOOST_AUTO_TEST_CASE(hole_that_touches_the_outer_boundary_at_a_vertex) {
  // 3×3 squares: element 0 is the ring of squares around the centre without the corner square
  // (0, 0); its two ends touch at the vertex (1/3, 1/3), where the outer loop and the loop
  // around the centre hole meet. Element 1 is the corner square, element 2 the centre.
  const auto fine = square(3);
  std::vector<Index> part(fine->cell_count(), 0);
  for (Index c = 0; c < fine->cell_count(); ++c) {
    const Index square_index = c / 2;
    if (square_index == 0) part[c] = 1;
    if (square_index == 4) part[c] = 2;
  }
  PolytopicMeshOptions options;
  options.retriangulate = true;
  const PolytopicMesh<2> mesh(fine, part, 1, options);
  BOOST_REQUIRE_EQUAL(mesh.element_loop_count(0), 2);
  BOOST_CHECK_EQUAL(mesh.element_loop(0, 1).size(), 4u);  // the centre square, clockwise
  BOOST_CHECK_CLOSE(shoelace(*fine, mesh.element_loop(0, 0)), 8.0 / 9, 1e-10);
  BOOST_CHECK_CLOSE(shoelace(*fine, mesh.element_loop(0, 1)), -1.0 / 9, 1e-10);
  BOOST_CHECK_EQUAL(mesh.retriangulation_fallback_count(), 1);
  const std::vector<Index> polygon = element_polygon(mesh, 0);
  BOOST_CHECK_EQUAL(polygon.size(), mesh.element_loop(0, 0).size() + 4);
  BOOST_CHECK_CLOSE(shoelace(*fine, polygon), mesh.element_measure(0), 1e-10);
  check_interfaces(mesh);
  check_geometry(mesh);
}

BOOST_AUTO_TEST_CASE(per_element_degrees_and_their_errors) {
  const auto fine = square(6);
  const std::vector<Index> part = ring_partition(*fine);
  BOOST_TEST(error_names([&] { PolytopicMesh<2>(fine, part, 0); },
                         {"PolytopicMesh: degree 0 (given for every element) is outside [1, 10]"}));
  BOOST_TEST(
      error_names([&] { PolytopicMesh<2>(fine, part, 11); },
                  {"PolytopicMesh: degree 11 (given for every element) is outside [1, 10]"}));
  BOOST_TEST(error_names(
      [&] {
        PolytopicMesh<2>(fine, part, std::vector<int>{1, 2});
      },
      {"PolytopicMesh: 2 degrees given for 3 elements"}));
  BOOST_TEST(error_names(
      [&] {
        PolytopicMesh<2>(fine, part, std::vector<int>{1, 2, 12});
      },
      {"PolytopicMesh: element 2 has degree 12 outside [1, 10]"}));
  const PolytopicMesh<2> mesh(fine, part, std::vector<int>{10, 1, 5});
  BOOST_CHECK_EQUAL(mesh.element_degree(0), 10);
  BOOST_CHECK_EQUAL(mesh.degrees()[1], 1);
}

BOOST_AUTO_TEST_CASE(invalid_partitions_throw) {
  const auto fine = square(4);
  std::vector<Index> part(fine->cell_count(), 0);
  BOOST_TEST(error_names([&] { PolytopicMesh<2>(nullptr, part, 1); },
                         {"PolytopicMesh: no fine mesh given"}));
  BOOST_TEST(error_names([&] { PolytopicMesh<2>(fine, std::vector<Index>(5, 0), 1); },
                         {"PolytopicMesh: the partition has 5 entries for " +
                          std::to_string(fine->cell_count()) + " fine cells"}));
  part[3] = 2;  // element 1 is empty
  BOOST_TEST(error_names([&] { PolytopicMesh<2>(fine, part, 1); },
                         {"PolytopicMesh: element 1 has no fine cells"}));
  part[3] = -1;
  BOOST_TEST(error_names([&] { PolytopicMesh<2>(fine, part, 1); },
                         {"PolytopicMesh: fine cell 3 has negative element -1"}));
  // Two opposite corner triangles as element 1: not connected.
  std::fill(part.begin(), part.end(), 0);
  part.front() = part.back() = 1;
  BOOST_TEST(error_names([&] { PolytopicMesh<2>(fine, part, 1); },
                         {"PolytopicMesh: element 1 is not connected: only 1 of its 2 fine cells",
                          "reachable from cell 0"}));
}

BOOST_AUTO_TEST_CASE(the_fine_mesh_is_shared) {
  std::weak_ptr<const SimplexMesh<2>> watch;
  std::unique_ptr<PolytopicMesh<2>> mesh;
  {
    const auto fine = square(4);
    watch = fine;
    mesh = std::make_unique<PolytopicMesh<2>>(fine, std::vector<Index>(32, 0), 1);
  }
  BOOST_CHECK(!watch.expired());
  BOOST_CHECK_EQUAL(mesh->fine_mesh().cell_count(), 32);
}

BOOST_AUTO_TEST_CASE(quality_summary_table) {
  const PolytopicMesh<2> mesh = agglomerated(square(16, 0.2), 20);
  const QualitySummary summary = summarize_quality(mesh);
  BOOST_CHECK_EQUAL(summary.element_count, mesh.element_count());
  BOOST_CHECK_CLOSE(summary.fine_cells.mean, 512.0 / mesh.element_count(), 1e-10);
  BOOST_CHECK(summary.box_coverage.min >= 1.0 &&
              summary.box_coverage.min <= summary.box_coverage.mean &&
              summary.box_coverage.mean <= summary.box_coverage.max);
  BOOST_CHECK(summary.roundness.max <= 1.0);
  std::ostringstream table;
  print_quality_summary(table, summary);
  BOOST_CHECK(table.str().find("box coverage") != std::string::npos);
  BOOST_CHECK(table.str().find("roundness") != std::string::npos);
  BOOST_TEST_MESSAGE(table.str());
}

BOOST_AUTO_TEST_CASE(agglomerated_cube) {
  const auto fine = cube(4);  // 384 tetrahedra
  const PolytopicMesh<3> mesh = agglomerated(fine, 12);
  BOOST_CHECK_LE(std::abs(mesh.element_count() - 12), 2);
  check_connected(mesh);
  check_interfaces(mesh);
  check_boundary_facets(mesh);
  check_geometry(mesh);
  BOOST_CHECK_EQUAL(mesh.simplex_count(), fine->cell_count());
  const QualitySummary summary = summarize_quality(mesh);
  BOOST_CHECK_EQUAL(summary.dimension, 3);
}

BOOST_AUTO_TEST_CASE(cube_extremes) {
  const auto fine = cube(3);
  const PolytopicMesh<3> one(fine, std::vector<Index>(fine->cell_count(), 0), 1);
  BOOST_CHECK_EQUAL(one.element_face_count(0), 6);  // the cube's six planar tagged sides
  BOOST_CHECK_CLOSE(one.element_measure(0), 1.0, 1e-12);
  BOOST_CHECK_CLOSE(one.element_roundness(0), std::numbers::pi / 6, 1e-10);
  BOOST_CHECK_CLOSE(one.element_diameter(0), std::sqrt(3.0), 1e-12);

  const Agglomeration identity = agglomerate(*fine, fine->cell_count());
  const PolytopicMesh<3> each(fine, identity.element_of_cell, 1);
  BOOST_CHECK_EQUAL(each.interface_count(), fine->facet_count() - fine->boundary_facet_count());
  for (Index e = 0; e < each.element_count(); ++e) BOOST_CHECK_EQUAL(each.element_face_count(e), 4);
  check_interfaces(each);
}
