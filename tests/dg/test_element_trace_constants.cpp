#define BOOST_TEST_MODULE dg_element_trace_constants
// The default penalty's element constants T_κ = λ_κ / (Dim + 1) (element_trace_constants.hpp)
// against values known in closed form:
// * on the unit square (cube) with Γ_κ = the two faces x = 0 and x = 1, λ = p (p + 1) for
//   W = P_{p−1}: along every line in x a polynomial of degree q = p − 1 has
//   w(0)² + w(1)² ≤ (q + 1)(q + 2) ∫_0^1 w² dx (the largest eigenvalue of the rank-two form of
//   the orthonormal Legendre values at ±1), with equality for a function of x alone; the same
//   holds for a slab's W = P_{p−1}(x) ⊗ P_p(t) and P_{p−1}(x, t);
// * for P_1, W is the constants and λ = |Γ_κ| / |κ| (interface facets counted ½), with |∂κ|
//   from the PolytopicMesh.
#include <boost/test/unit_test.hpp>
#include <memory>
#include <vector>

#include "polydg/dg/assembler.hpp"
#include "polydg/dg/element_trace_constants.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_solver.hpp"

using namespace polydg;

namespace {

// The unit square as one element of degree p.
PolytopicMesh<2> unit_square_element(int p) {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(4, 0.2, 3));
  const std::vector<Index> one_element(std::size_t(fine->cell_count()), 0);
  return PolytopicMesh<2>(fine, one_element, p);
}

// Dirichlet on the faces x = 0 (tag 4) and x = 1 (tag 2), Neumann on y = 0, 1 (tags 1, 3).
BoundaryConditions dirichlet_left_and_right() {
  BoundaryConditions conditions(BoundaryKind::neumann);
  conditions.set(2, BoundaryKind::dirichlet).set(4, BoundaryKind::dirichlet);
  return conditions;
}

}  // namespace

BOOST_AUTO_TEST_CASE(square_with_two_dirichlet_faces_has_the_one_dimensional_constant) {
  for (int p = 1; p <= 6; ++p) {
    const QuadratureMesh<2> mesh(unit_square_element(p), dirichlet_left_and_right());
    const GeometryArray<double> constants = compute_element_trace_constants(mesh);
    BOOST_REQUIRE_EQUAL(constants.size(), 1u);
    BOOST_TEST_CONTEXT("p = " << p)
    BOOST_TEST(constants[0] == p * (p + 1) / 3.0, boost::test_tools::tolerance(1e-11));
  }
}

BOOST_AUTO_TEST_CASE(slab_with_two_dirichlet_faces_has_the_one_dimensional_constant) {
  // The top (Neumann) and bottom (previous_slab) faces are not in Γ_κ; neither are y = 0, 1.
  const BoundaryConditions conditions = slab_boundary_conditions(dirichlet_left_and_right());
  for (int p = 1; p <= 4; ++p)
    for (BasisSpace space : {BasisSpace::total_degree, BasisSpace::total_degree_times_last})
      for (QuadraturePieces pieces : {QuadraturePieces::simplices, QuadraturePieces::slab_prisms}) {
        QuadratureMesh<3> mesh(make_slab_mesh(unit_square_element(p)), conditions, pieces);
        AssemblyOptions options;
        options.space = space;
        options.pieces = pieces;
        apply_assembly_options(mesh, options);
        BOOST_TEST_CONTEXT("p = " << p << ", PQ " << (space != BasisSpace::total_degree)
                                  << ", prisms " << (pieces == QuadraturePieces::slab_prisms)) {
          BOOST_REQUIRE_EQUAL(mesh.element_trace_constants.size(), 1u);
          BOOST_TEST(mesh.element_trace_constants[0] == p * (p + 1) / 4.0,
                     boost::test_tools::tolerance(1e-11));
          // A short time step maps the slab onto [0, 0.01]: T_κ does not change.
          map_last_coordinate(mesh, 0, 1, 0.5, 0.51);
          BOOST_TEST(compute_element_trace_constants(mesh)[0] == p * (p + 1) / 4.0,
                     boost::test_tools::tolerance(1e-10));
        }
      }
}

BOOST_AUTO_TEST_CASE(p1_constant_is_the_boundary_to_measure_ratio_on_agglomerates) {
  // λ_κ = (|∂κ ∩ ∂Ω| + ½ |∂κ \ ∂Ω|) / |κ| with every tag Dirichlet (interfaces count ½).
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(24, 0.2, 5));
  for (double cells : {4.0, 16.0, 64.0}) {
    const PolytopicMesh<2> mesh(fine, agglomerate_by_cell_count(*fine, cells).element_of_cell, 1);
    const QuadratureMesh<2> quadrature_mesh(mesh, BoundaryConditions::all_dirichlet());
    const GeometryArray<double> constants = compute_element_trace_constants(quadrature_mesh);
    for (Index e = 0; e < mesh.element_count(); ++e) {
      double on_boundary = 0;
      for (const auto& facet : mesh.element_boundary_facets(e))
        on_boundary += fine->facet_measure(facet.facet);
      const double weighted = on_boundary + 0.5 * (mesh.element_boundary_measure(e) - on_boundary);
      BOOST_TEST(constants[e] == weighted / (3 * mesh.element_measure(e)),
                 boost::test_tools::tolerance(1e-12));
    }
  }
}

BOOST_AUTO_TEST_CASE(constants_grow_with_the_degree) {
  // W_κ grows with p, so λ_κ cannot decrease.
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(16, 0.2, 9));
  const Agglomeration parts = agglomerate_by_cell_count(*fine, 32);
  std::vector<double> previous;
  for (int p = 1; p <= 5; ++p) {
    const PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
    const GeometryArray<double> constants = compute_element_trace_constants(
        QuadratureMesh<2>(mesh, BoundaryConditions::all_dirichlet()));
    for (Index e = 0; p > 1 && e < mesh.element_count(); ++e)
      BOOST_TEST(constants[e] >= previous[e] * (1 - 1e-12));
    previous.assign(constants.begin(), constants.end());
  }
}

BOOST_AUTO_TEST_CASE(assembly_without_the_constants_is_refused) {
  const QuadratureMesh<2> mesh(unit_square_element(2), BoundaryConditions::all_dirichlet());
  BOOST_CHECK_EXCEPTION(require_penalty_data(mesh, "error norms"), Error, [](const Error& error) {
    const std::string message = error.what();
    return message.find("error norms") != std::string::npos &&
           message.find("element_trace") != std::string::npos &&
           message.find("apply_assembly_options") != std::string::npos;
  });
}
