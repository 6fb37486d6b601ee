// map_last_coordinate moves a slab's quadrature mesh onto another time interval: times move
// (the end points exactly), space does not; cells and lateral facets scale with the interval,
// bottom and top faces do not. Two maps in a row agree with the one composed map (what
// DeviceAssembler relies on to bring its host mesh up to date). Bad intervals and meshes whose
// facets are oblique to the last axis are refused.
#define BOOST_TEST_MODULE spacetime_map_last_coordinate
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/log.hpp"
#include "polydg/dg/last_coordinate_map.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using testing::contains;
using testing::error_message;

namespace {

QuadratureMesh<3> slab_quadrature_mesh() {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(8, 0.2, 7));
  const PolytopicMesh<2> polygons(fine, agglomerate_by_cell_count(*fine, 6).element_of_cell, 1);
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  return QuadratureMesh<3>(make_slab_mesh(polygons), conditions, QuadraturePieces::slab_prisms);
}

// Every point of `moved` is `original`'s with the last coordinate mapped: 0 → t0, 1 → t1.
template <class Records>
void check_points(const Records& original, const Records& moved, double t0, double t1) {
  for (std::size_t r = 0; r < original.size(); ++r)
    for (std::size_t v = 0; v < original[r].size(); ++v) {
      BOOST_TEST(moved[r][v][0] == original[r][v][0]);
      BOOST_TEST(moved[r][v][1] == original[r][v][1]);
      BOOST_TEST(moved[r][v][2] == (original[r][v][2] == 0 ? t0 : t1));
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(times_move_space_stays_and_measures_scale) {
  const QuadratureMesh<3> original = slab_quadrature_mesh();
  QuadratureMesh<3> moved = original;
  map_last_coordinate(moved, 0, 1, 0.5, 0.75);  // scale 1/4: every product below is exact
  check_points(original.simplex_vertices, moved.simplex_vertices, 0.5, 0.75);
  check_points(original.interface_facet_vertices, moved.interface_facet_vertices, 0.5, 0.75);
  check_points(original.boundary_facet_vertices, moved.boundary_facet_vertices, 0.5, 0.75);
  for (std::size_t e = 0; e < original.element_boxes.size(); ++e) {
    BOOST_TEST(moved.element_boxes[e].lower[2] == 0.5);
    BOOST_TEST(moved.element_boxes[e].upper[2] == 0.75);
    BOOST_TEST(moved.element_measures[e] == original.element_measures[e] / 4);
  }
  for (std::size_t f = 0; f < original.interface_facet_measures.size(); ++f) {
    BOOST_TEST(moved.interface_facet_measures[f] == original.interface_facet_measures[f] / 4);
    BOOST_TEST(moved.interface_facet_cell_measures[f][0] ==
               original.interface_facet_cell_measures[f][0] / 4);
    BOOST_TEST((moved.interface_facet_normals[f] == original.interface_facet_normals[f]));
  }
  int bottom_and_top = 0;
  for (std::size_t f = 0; f < original.boundary_facet_measures.size(); ++f) {
    const bool orthogonal = std::abs(original.boundary_facet_normals[f][2]) > 0.5;
    bottom_and_top += orthogonal;
    BOOST_TEST(moved.boundary_facet_measures[f] ==
               original.boundary_facet_measures[f] / (orthogonal ? 1 : 4));
    BOOST_TEST(moved.boundary_facet_cell_measures[f] ==
               original.boundary_facet_cell_measures[f] / 4);
  }
  BOOST_TEST(bottom_and_top > 0);
  BOOST_TEST(bottom_and_top < int(original.boundary_facet_measures.size()));
}

BOOST_AUTO_TEST_CASE(two_maps_agree_with_the_composed_one) {
  QuadratureMesh<3> stepwise = slab_quadrature_mesh();
  QuadratureMesh<3> direct = stepwise;
  map_last_coordinate(stepwise, 0, 1, 0.1, 0.3);
  map_last_coordinate(stepwise, 0.1, 0.3, 0.3, 0.7);
  // The composed map, as DeviceAssembler composes it: the images of 0 and 1 under both maps.
  const LastCoordinateMap first(0, 1, 0.1, 0.3), second(0.1, 0.3, 0.3, 0.7);
  map_last_coordinate(direct, 0, 1, second(first(0)), second(first(1)));
  BOOST_TEST(second(first(0)) == 0.3);
  BOOST_TEST(second(first(1)) == 0.7);
  // Points: the same bits (slab vertices lie on the interval's ends).
  BOOST_TEST((direct.simplex_vertices == stepwise.simplex_vertices));
  BOOST_TEST((direct.interface_facet_vertices == stepwise.interface_facet_vertices));
  BOOST_TEST((direct.boundary_facet_vertices == stepwise.boundary_facet_vertices));
  // Measures: two roundings against one.
  for (std::size_t e = 0; e < direct.element_measures.size(); ++e)
    BOOST_TEST(stepwise.element_measures[e] == direct.element_measures[e],
               boost::test_tools::tolerance(1e-15));
  for (std::size_t f = 0; f < direct.interface_facet_measures.size(); ++f)
    BOOST_TEST(stepwise.interface_facet_measures[f] == direct.interface_facet_measures[f],
               boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(bad_intervals_and_oblique_facets_are_refused) {
  QuadratureMesh<3> slab = slab_quadrature_mesh();
  BOOST_TEST(contains(error_message([&] { map_last_coordinate(slab, 0, 1, 0.5, 0.5); }),
                      "empty interval [0, 1] or [0.5, 0.5]"));
  BOOST_TEST(
      contains(error_message([&] { map_last_coordinate(slab, 1, 0, 0, 1); }), "empty interval"));
  // A Kuhn cube's tetrahedra have facets oblique to z.
  const auto [vertices, cells] = testing::kuhn_unit_cube(2);
  const WarningHandler previous = set_warning_handler([](const std::string&) {});
  const auto fine = std::make_shared<const SimplexMesh<3>>(vertices, cells);
  set_warning_handler(previous);
  std::vector<Index> element_of_cell(std::size_t(fine->cell_count()));
  for (std::size_t c = 0; c < element_of_cell.size(); ++c) element_of_cell[c] = Index(c);
  QuadratureMesh<3> cube(PolytopicMesh<3>(fine, element_of_cell, 1),
                         BoundaryConditions::all_dirichlet());
  const std::string oblique = error_message([&] { map_last_coordinate(cube, 0, 1, 1, 2); });
  BOOST_TEST(contains(oblique, "interface sub-facet"), oblique);
  BOOST_TEST(contains(oblique, "neither parallel nor orthogonal"), oblique);
}
