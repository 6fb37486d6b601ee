// QuadraturePieces::slab_prisms: a slab integrated over its prisms and lateral rectangles
// covers the same domain as over its tetrahedra and assembles the same matrix (same
// discretisation, fewer points); meshes that are not slabs are refused.
#define BOOST_TEST_MODULE spacetime_slab_prisms
#include <omp.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "relative_difference.hpp"
#include "same_bits.hpp"
#include "test_meshes.hpp"

using namespace polydg;

using testing::relative_difference;

namespace {

PolytopicMesh<2> polygons(int n, int p) {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 7));
  return PolytopicMesh<2>(fine, agglomerate_by_cell_count(*fine, 6).element_of_cell, p);
}

BoundaryConditions slab_conditions() {
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  return conditions;
}

// Σ over the pieces of weight × measure ratio, per element and per interface.
template <class Rule>
double piece_measure(const Point<3>* vertices, const Rule& rule, int k) {
  double sum = 0;
  for (double w : rule.weights) sum += w;
  return sum *
         (k == 3 ? affine_measure_ratio<3, 3>(vertices) : affine_measure_ratio<2, 3>(vertices));
}

}  // namespace

BOOST_AUTO_TEST_CASE(prisms_cover_the_elements_and_interfaces_with_fewer_pieces) {
  const PolytopicMesh<3> slab = make_slab_mesh(polygons(8, 2));
  const QuadratureMesh<3> tetrahedra(slab, slab_conditions());
  const QuadratureMesh<3> prisms(slab, slab_conditions(), QuadraturePieces::slab_prisms);
  BOOST_TEST(prisms.simplex_vertices.size() * 3 == tetrahedra.simplex_vertices.size());
  BOOST_TEST(prisms.interface_facet_vertices.size() * 2 ==
             tetrahedra.interface_facet_vertices.size());
  BOOST_TEST(prisms.boundary_facet_vertices.size() == tetrahedra.boundary_facet_vertices.size());
  BOOST_TEST(prisms.interface_count() == tetrahedra.interface_count());
  const auto& volume_rule =
      element_piece_rule<3>(QuadraturePieces::slab_prisms, SlabRules::tensor, 4);
  double worst = 0;
  for (Index e = 0; e < prisms.element_count(); ++e) {
    double volume = 0;
    for (Index s = prisms.element_simplex_offsets[e]; s < prisms.element_simplex_offsets[e + 1];
         ++s)
      volume += piece_measure(prisms.simplex_vertices[s].data(), volume_rule, 3);
    worst = std::max(worst,
                     std::fabs(volume - prisms.element_measures[e]) / prisms.element_measures[e]);
  }
  BOOST_TEST(worst < 1e-13, "element volumes: " << worst);
  const auto& rectangle_rule =
      interface_piece_rule<3>(QuadraturePieces::slab_prisms, SlabRules::tensor, 4);
  const auto& triangle_rule =
      interface_piece_rule<3>(QuadraturePieces::simplices, SlabRules::tensor, 4);
  worst = 0;
  for (Index i = 0; i < prisms.interface_count(); ++i) {
    double rectangles = 0, triangles = 0;
    for (Index f = prisms.interface_facet_offsets[i]; f < prisms.interface_facet_offsets[i + 1];
         ++f) {
      rectangles += piece_measure(prisms.interface_facet_vertices[f].data(), rectangle_rule, 2);
      // a lateral rectangle: its normal has no time component
      BOOST_TEST(std::fabs(prisms.interface_facet_normals[f][2]) < 1e-14);
    }
    for (Index f = tetrahedra.interface_facet_offsets[i];
         f < tetrahedra.interface_facet_offsets[i + 1]; ++f)
      triangles += piece_measure(tetrahedra.interface_facet_vertices[f].data(), triangle_rule, 2);
    worst = std::max(worst, std::fabs(rectangles - triangles) / triangles);
  }
  BOOST_TEST(worst < 1e-13, "interface areas: " << worst);
}

// Every element of a slab has its bottom face (previous_slab) first, up to
// element_boundary_previous_slab_ends, and its top face (the triangles of its polygon at the later
// time level, normal along +e_t) last, from element_boundary_top_begins on: exactly the facets
// with the bottom and the top tag, each covering the polygon's area; the facets between are the
// domain's sides, none with a top normal.
BOOST_AUTO_TEST_CASE(bottom_faces_come_first_and_top_faces_last_in_each_element) {
  const PolytopicMesh<2> base = polygons(10, 1);
  const PolytopicMesh<3> slab = make_slab_mesh(base);
  for (const QuadraturePieces pieces :
       {QuadraturePieces::simplices, QuadraturePieces::slab_prisms}) {
    const QuadratureMesh<3> mesh(slab, slab_conditions(), pieces);
    BOOST_TEST(mesh.element_boundary_top_begins.size() == std::size_t(mesh.element_count()));
    BOOST_TEST(mesh.element_boundary_previous_slab_ends.size() ==
               std::size_t(mesh.element_count()));
    Index lateral = 0;
    for (Index e = 0; e < mesh.element_count(); ++e) {
      const Index begin = mesh.element_boundary_offsets[e],
                  end = mesh.element_boundary_offsets[e + 1];
      const Index bottom_end = mesh.element_boundary_previous_slab_ends[e];
      const Index top = mesh.element_boundary_top_begins[e];
      BOOST_TEST_REQUIRE((begin <= bottom_end && bottom_end <= top && top <= end));
      // the bottom and the top face: the element's polygon's triangles, all of them there
      BOOST_TEST(bottom_end - begin == base.element_cells(e).size());
      BOOST_TEST(end - top == base.element_cells(e).size());
      double bottom_area = 0, top_area = 0;
      for (Index f = begin; f < end; ++f) {
        BOOST_TEST(is_last_axis_top(mesh.boundary_facet_normals[f]) == (f >= top));
        BOOST_TEST((mesh.boundary_facet_tags[f] == slab_top_tag) == (f >= top));
        BOOST_TEST((mesh.boundary_facet_tags[f] == slab_bottom_tag) == (f < bottom_end));
        BOOST_TEST((mesh.boundary_facet_kinds[f] == BoundaryKind::previous_slab) ==
                   (f < bottom_end));
        if (f >= top) top_area += mesh.boundary_facet_measures[f];
        if (f < bottom_end) bottom_area += mesh.boundary_facet_measures[f];
        if (f >= bottom_end && f < top) ++lateral;
      }
      for (const double area : {bottom_area, top_area})
        BOOST_TEST(std::fabs(area - base.element_measure(e)) <= 1e-14 * base.element_measure(e));
    }
    BOOST_TEST(lateral > 0);  // the domain's sides: between the bottom and the top faces
  }
}

// The previous_slab facets lead whatever their normal: with the top tag previous_slab too, the
// bottom and the top faces both make up the leading run, and no top run is left.
BOOST_AUTO_TEST_CASE(previous_slab_facets_lead_whatever_their_normal) {
  const PolytopicMesh<2> base = polygons(10, 1);
  const PolytopicMesh<3> slab = make_slab_mesh(base);
  BoundaryConditions conditions = slab_conditions();
  conditions.set(slab_top_tag, BoundaryKind::previous_slab);
  const QuadratureMesh<3> mesh(slab, conditions, QuadraturePieces::slab_prisms);
  for (Index e = 0; e < mesh.element_count(); ++e) {
    const Index begin = mesh.element_boundary_offsets[e],
                end = mesh.element_boundary_offsets[e + 1];
    const Index leading_end = mesh.element_boundary_previous_slab_ends[e];
    BOOST_TEST(leading_end - begin == 2 * Index(base.element_cells(e).size()));
    BOOST_TEST(mesh.element_boundary_top_begins[e] == end);
    for (Index f = begin; f < end; ++f)
      BOOST_TEST((mesh.boundary_facet_kinds[f] == BoundaryKind::previous_slab) ==
                 (f < leading_end));
  }
}

// QuadratureMesh fills its arrays in parallel, each item's pieces at offsets from a first
// pass: one thread and several give the same arrays, byte for byte, for both piece kinds.
BOOST_AUTO_TEST_CASE(quadrature_meshes_do_not_depend_on_the_thread_count) {
  const PolytopicMesh<3> slab = make_slab_mesh(polygons(12, 2));
  for (const QuadraturePieces pieces :
       {QuadraturePieces::simplices, QuadraturePieces::slab_prisms}) {
    omp_set_num_threads(1);
    const QuadratureMesh<3> serial(slab, slab_conditions(), pieces);
    omp_set_num_threads(std::max(2, omp_get_num_procs()));
    const QuadratureMesh<3> parallel(slab, slab_conditions(), pieces);
    BOOST_TEST(serial.boundary_facet_vertices.size() > 0);
    BOOST_TEST(testing::same_bits(serial.element_boxes, parallel.element_boxes));
    BOOST_TEST(testing::same_bits(serial.element_degrees, parallel.element_degrees));
    BOOST_TEST(testing::same_bits(serial.element_measures, parallel.element_measures));
    BOOST_TEST(
        testing::same_bits(serial.element_simplex_offsets, parallel.element_simplex_offsets));
    BOOST_TEST(testing::same_bits(serial.simplex_vertices, parallel.simplex_vertices));
    BOOST_TEST(testing::same_bits(serial.elements_by_degree, parallel.elements_by_degree));
    BOOST_TEST(testing::same_bits(serial.interface_elements, parallel.interface_elements));
    BOOST_TEST(
        testing::same_bits(serial.interface_facet_offsets, parallel.interface_facet_offsets));
    BOOST_TEST(
        testing::same_bits(serial.interface_facet_vertices, parallel.interface_facet_vertices));
    BOOST_TEST(
        testing::same_bits(serial.interface_facet_normals, parallel.interface_facet_normals));
    BOOST_TEST(
        testing::same_bits(serial.interface_facet_measures, parallel.interface_facet_measures));
    BOOST_TEST(testing::same_bits(serial.interface_facet_cell_measures,
                                  parallel.interface_facet_cell_measures));
    BOOST_TEST(testing::same_bits(serial.interfaces_by_degree, parallel.interfaces_by_degree));
    BOOST_TEST(
        testing::same_bits(serial.element_boundary_offsets, parallel.element_boundary_offsets));
    BOOST_TEST(testing::same_bits(serial.element_boundary_top_begins,
                                  parallel.element_boundary_top_begins));
    BOOST_TEST(testing::same_bits(serial.element_boundary_previous_slab_ends,
                                  parallel.element_boundary_previous_slab_ends));
    BOOST_TEST(
        testing::same_bits(serial.boundary_facet_vertices, parallel.boundary_facet_vertices));
    BOOST_TEST(testing::same_bits(serial.boundary_facet_normals, parallel.boundary_facet_normals));
    BOOST_TEST(
        testing::same_bits(serial.boundary_facet_measures, parallel.boundary_facet_measures));
    BOOST_TEST(testing::same_bits(serial.boundary_facet_cell_measures,
                                  parallel.boundary_facet_cell_measures));
    BOOST_TEST(testing::same_bits(serial.boundary_facet_tags, parallel.boundary_facet_tags));
    BOOST_TEST(testing::same_bits(serial.boundary_facet_kinds, parallel.boundary_facet_kinds));
  }
}

// The quadrature is exact for polynomial data on both piece kinds (and with both SlabRules on
// prisms), so with constant
// coefficients the two assemble the same matrix and rhs: without diffusion (no penalty) at
// every p, and with diffusion at p = 1, where the penalty's polytopic cap decides σ alone.
// PQ_p integrands have total degree up to 4p, which simplex rules of total degree 2p + 2 miss
// for p ≥ 2 (on tetrahedra, and on the lateral boundary triangles that prisms keep): both get
// 2p more degrees there.
BOOST_AUTO_TEST_CASE(prisms_and_tetrahedra_assemble_the_same_system) {
  const auto transport = make_coefficients<3>()
                             .with_advection(Point<3>{{0.7, -0.4, 1.0}})
                             .with_reaction(0.5)
                             .with_source([](const Point<3>& x) { return x[0] * x[2] + x[1]; })
                             .with_dirichlet([](const Point<3>& x) { return x[0] - x[2]; });
  const auto heat = transport.with_diffusion(Tensor<3>{{{1, 0.2, 0}, {0.2, 2, 0}, {0, 0, 0}}});
  for (int p = 1; p <= 3; ++p)
    for (BasisSpace space : {BasisSpace::total_degree, BasisSpace::total_degree_times_last}) {
      const PolytopicMesh<3> slab = make_slab_mesh(polygons(6, p));
      AssemblyOptions options;
      options.space = space;
      if (space == BasisSpace::total_degree_times_last) options.quadrature.extra += 2 * p;
      Assembler<3> tetrahedra(slab, slab_conditions(), options);
      options.pieces = QuadraturePieces::slab_prisms;
      for (SlabRules rules : {SlabRules::total_degree, SlabRules::tensor}) {
        options.slab_rules = rules;
        Assembler<3> prisms(slab, slab_conditions(), options);
        // PQ_p keeps the tensor rules whatever is asked (its products have degree 4p).
        BOOST_TEST((prisms.quadrature_mesh().slab_rules == slab_rules_for(space, rules)));
        const auto compare = [&](const auto& coefficients, const char* what) {
          BlockMatrix<double> a = tetrahedra.make_matrix(), b = prisms.make_matrix();
          std::vector<double> f = tetrahedra.make_vector(), g = prisms.make_vector();
          tetrahedra.assemble(coefficients, a, f);
          prisms.assemble(coefficients, b, g);
          const double matrix = relative_difference(b.values(), a.values());
          const double rhs = relative_difference(g, f);
          BOOST_TEST_MESSAGE(what << " p = " << p << " rules " << int(rules) << ": matrix "
                                  << matrix << ", rhs " << rhs);
          BOOST_TEST(matrix < 1e-13, what << " p = " << p << " matrix " << matrix);
          BOOST_TEST(rhs < 1e-13, what << " p = " << p << " rhs " << rhs);
        };
        compare(transport, "advection-reaction");
        if (p == 1) compare(heat, "with diffusion");
      }
    }
}

BOOST_AUTO_TEST_CASE(meshes_that_are_not_slabs_are_refused) {
  const auto message_of = [](const auto& build) {
    try {
      build();
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  const PolytopicMesh<2> flat = polygons(4, 1);
  const std::string two_d = message_of([&] {
    QuadratureMesh<2>(flat, BoundaryConditions::all_dirichlet(), QuadraturePieces::slab_prisms);
  });
  BOOST_TEST(two_d.find("slab_prisms needs a 3D space-time slab") != std::string::npos, two_d);
  // A Kuhn cube: cells 3k..3k+2 are three tetrahedra of a cube, not a prism between two levels.
  const auto [vertices, cells] = testing::kuhn_unit_cube(2);
  const WarningHandler previous = set_warning_handler([](const std::string&) {});
  const auto fine = std::make_shared<const SimplexMesh<3>>(vertices, cells);
  set_warning_handler(previous);
  std::vector<Index> one_element(std::size_t(fine->cell_count()), 0);
  const PolytopicMesh<3> cube(fine, one_element, 1);
  const std::string not_a_slab = message_of([&] {
    QuadratureMesh<3>(cube, BoundaryConditions::all_dirichlet(), QuadraturePieces::slab_prisms);
  });
  BOOST_TEST(not_a_slab.find("are not one prism") != std::string::npos, not_a_slab);
}
