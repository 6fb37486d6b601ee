#define BOOST_TEST_MODULE agglomeration_hierarchy
// AgglomerationHierarchy and make_prolongation (polydg/dg/agglomeration_hierarchy.hpp,
// polydg/dg/prolongation.hpp):
//  * degree levels first: the finest mesh at p, p − 1, ..., 1;
//  * every level is a connected agglomeration of the same fine mesh, each of its elements a
//    union of the finer level's elements (nested), with about 4 (2D) / 8 (3D) finer elements
//    each, down to at most coarsest_dofs unknowns;
//  * the prolongation reproduces every coarse polynomial on the fine elements: a random coarse
//    DG function and its prolongation agree at quadrature points of every fine element to 1e-13
//    relative, on p = 1..3 and on an hp mesh (a coarse element takes its children's lowest
//    degree);
//  * meshes that are not nested, or a coarse degree above a fine one, are refused naming the
//    element.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "error_message.hpp"
#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/fem/mapped_quadrature.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using testing::contains;
using testing::error_message;

namespace {

std::shared_ptr<const SimplexMesh<2>> square(int n) {
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 7));
}

template <int Dim>
void check_nested(const AgglomerationHierarchy<Dim>& hierarchy) {
  for (int level = 0; level + 1 < hierarchy.level_count(); ++level) {
    const PolytopicMesh<Dim>& fine = hierarchy.mesh(level);
    const PolytopicMesh<Dim>& coarse = hierarchy.mesh(level + 1);
    BOOST_TEST_INFO_SCOPE("level " << level);
    BOOST_TEST(&fine.fine_mesh() == &coarse.fine_mesh());
    std::vector<Index> parent(std::size_t(fine.element_count()), -1);
    for (Index c = 0; c < fine.fine_mesh().cell_count(); ++c) {
      Index& known = parent[fine.element_of_cell(c)];
      BOOST_TEST((known < 0 || known == coarse.element_of_cell(c)));
      known = coarse.element_of_cell(c);
    }
    BOOST_TEST(hierarchy.prolongation(level).coarse_of_fine == parent);
    const double ratio = double(fine.element_count()) / double(coarse.element_count());
    BOOST_TEST_MESSAGE("level " << level << ": " << fine.element_count() << " -> "
                                << coarse.element_count() << " elements (" << ratio << ")");
    // About the factor asked for (Dim == 2: 4); METIS's parts and the repair move it a little.
    const double factor = Dim == 2 ? 4.0 : 8.0;
    BOOST_TEST(ratio > 0.6 * factor);
    BOOST_TEST(ratio < 1.6 * factor);
  }
}

/// max over fine quadrature points of |prolonged − coarse| / max |coarse|.
template <int Dim>
double prolongation_error(const PolytopicMesh<Dim>& fine, const PolytopicMesh<Dim>& coarse,
                          const Prolongation& prolongation) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<double> coarse_values(std::size_t(prolongation.coarse_dof_count()));
  for (double& v : coarse_values) v = uniform(random);
  std::vector<double> fine_values(std::size_t(prolongation.fine_dof_count()), 0.0);
  for (Index e = 0; e < fine.element_count(); ++e) {
    const Index parent = prolongation.coarse_of_fine[e];
    const GlobalIndex n = prolongation.fine_offsets[e + 1] - prolongation.fine_offsets[e];
    const GlobalIndex m =
        prolongation.coarse_offsets[parent + 1] - prolongation.coarse_offsets[parent];
    const double* block = prolongation.values.data() + prolongation.block_offsets[e];
    for (GlobalIndex i = 0; i < n; ++i)
      for (GlobalIndex j = 0; j < m; ++j)
        fine_values[prolongation.fine_offsets[e] + i] +=
            block[i * m + j] * coarse_values[prolongation.coarse_offsets[parent] + j];
  }
  double difference = 0, largest = 0;
  for (Index e = 0; e < fine.element_count(); ++e) {
    const Index parent = prolongation.coarse_of_fine[e];
    const QuadratureRule<Dim>& reference = simplex_rule<Dim>(2 * fine.element_degree(e) + 1);
    for (const auto& simplex : fine.element_simplices(e)) {
      const QuadratureRule<Dim> rule = map_to_simplex(reference, fine.simplex_points(simplex));
      for (const Point<Dim>& x : rule.points) {
        const double u_coarse = evaluate_dg_function<Dim>(
            coarse.element_degree(parent), coarse.element_box(parent),
            coarse_values.data() + prolongation.coarse_offsets[parent], x);
        const double u_fine =
            evaluate_dg_function<Dim>(fine.element_degree(e), fine.element_box(e),
                                      fine_values.data() + prolongation.fine_offsets[e], x);
        difference = std::max(difference, std::abs(u_fine - u_coarse));
        largest = std::max(largest, std::abs(u_coarse));
      }
    }
  }
  return difference / largest;
}

}  // namespace

BOOST_AUTO_TEST_CASE(levels_are_nested_and_coarsen_by_the_factor) {
  const auto fine = square(48);  // 4608 triangles
  for (int p = 1; p <= 3; ++p) {
    const PolytopicMesh<2> mesh(fine, agglomerate_by_cell_count(*fine, 3).element_of_cell, p);
    HierarchyOptions options;
    options.coarsest_dofs = 200;
    options.degree_levels = false;  // agglomeration levels only (degree levels: below)
    const AgglomerationHierarchy<2> hierarchy(mesh, options);
    BOOST_TEST_INFO_SCOPE("p = " << p);
    BOOST_TEST(hierarchy.level_count() >= 3);
    check_nested(hierarchy);
    const int last = hierarchy.level_count() - 1;
    BOOST_TEST(hierarchy.dof_count(last) <= options.coarsest_dofs);
    BOOST_TEST(hierarchy.dof_count(last - 1) > options.coarsest_dofs);
    for (int level = 0; level + 1 < hierarchy.level_count(); ++level)
      BOOST_TEST(prolongation_error(hierarchy.mesh(level), hierarchy.mesh(level + 1),
                                    hierarchy.prolongation(level)) <= 1e-13);
  }
}

BOOST_AUTO_TEST_CASE(degree_levels_come_first) {
  const auto fine = square(16);
  const PolytopicMesh<2> mesh(fine, agglomerate_by_cell_count(*fine, 3).element_of_cell, 3);
  HierarchyOptions options;
  options.coarsest_dofs = 100;
  const AgglomerationHierarchy<2> hierarchy(mesh, options);
  BOOST_TEST_REQUIRE(hierarchy.level_count() >= 4);
  for (int level = 0; level < 3; ++level) {  // degrees 3, 2, 1 on the finest elements
    BOOST_TEST_INFO_SCOPE("level " << level);
    BOOST_TEST(hierarchy.mesh(level).element_count() == mesh.element_count());
    for (const int degree : hierarchy.mesh(level).degrees()) BOOST_TEST(degree == 3 - level);
  }
  BOOST_TEST(hierarchy.mesh(3).element_count() < mesh.element_count());
  for (int level = 0; level + 1 < hierarchy.level_count(); ++level)
    BOOST_TEST(prolongation_error(hierarchy.mesh(level), hierarchy.mesh(level + 1),
                                  hierarchy.prolongation(level)) <= 1e-13);
}

BOOST_AUTO_TEST_CASE(polyhedra_are_nested_and_prolongation_is_exact) {
  const auto cube = testing::kuhn_unit_cube(6);  // 1296 tetrahedra
  const auto fine = std::make_shared<const SimplexMesh<3>>(cube.vertices, cube.cells);
  const PolytopicMesh<3> mesh(fine, agglomerate_by_cell_count(*fine, 4).element_of_cell, 2);
  HierarchyOptions options;
  options.coarsest_dofs = 100;
  options.degree_levels = false;
  const AgglomerationHierarchy<3> hierarchy(mesh, options);
  BOOST_TEST(hierarchy.level_count() >= 2);
  check_nested(hierarchy);
  for (int level = 0; level + 1 < hierarchy.level_count(); ++level)
    BOOST_TEST(prolongation_error(hierarchy.mesh(level), hierarchy.mesh(level + 1),
                                  hierarchy.prolongation(level)) <= 1e-13);
}

BOOST_AUTO_TEST_CASE(coarse_degree_is_the_lowest_of_its_children) {
  const auto fine = square(24);
  const Agglomeration parts = agglomerate_by_cell_count(*fine, 3);
  std::vector<int> degrees(std::size_t(parts.element_count));
  for (Index e = 0; e < parts.element_count; ++e) degrees[e] = 1 + int(e % 3);
  const PolytopicMesh<2> mesh(fine, parts.element_of_cell, degrees);
  HierarchyOptions options;
  options.max_levels = 2;
  options.degree_levels = false;
  const AgglomerationHierarchy<2> hierarchy(mesh, options);
  BOOST_TEST_REQUIRE(hierarchy.level_count() == 2);
  const PolytopicMesh<2>& coarse = hierarchy.mesh(1);
  std::vector<int> lowest(std::size_t(coarse.element_count()), 100);
  for (Index e = 0; e < mesh.element_count(); ++e) {
    int& low = lowest[hierarchy.prolongation(0).coarse_of_fine[e]];
    low = std::min(low, mesh.element_degree(e));
  }
  for (Index k = 0; k < coarse.element_count(); ++k)
    BOOST_TEST(coarse.element_degree(k) == lowest[k]);
  BOOST_TEST(prolongation_error(mesh, coarse, hierarchy.prolongation(0)) <= 1e-13);
}

BOOST_AUTO_TEST_CASE(meshes_that_are_not_nested_are_refused) {
  const auto fine = square(12);
  const PolytopicMesh<2> a(fine, agglomerate(*fine, 40).element_of_cell, 1);
  AgglomerationOptions other;
  other.seed = 99;
  other.method = PartitionMethod::greedy_growth;
  const PolytopicMesh<2> b(fine, agglomerate(*fine, 15, other).element_of_cell, 1);
  BOOST_TEST(contains(error_message([&] { make_prolongation(a, b); }),
                      "is not inside one coarse element"));
  const PolytopicMesh<2> fine_p1(fine, agglomerate(*fine, 40).element_of_cell, 1);
  const Agglomeration coarse = coarsen_agglomeration(*fine, fine_p1.partition(), 10);
  const PolytopicMesh<2> coarse_p2(fine, coarse.element_of_cell, 2);
  BOOST_TEST(contains(error_message([&] { make_prolongation(fine_p1, coarse_p2); }),
                      "the coarse space is not inside the fine one"));
  BOOST_TEST(contains(error_message([&] { coarsen_agglomeration(*fine, fine_p1.partition(), 0); }),
                      "0 coarse elements requested"));
}
