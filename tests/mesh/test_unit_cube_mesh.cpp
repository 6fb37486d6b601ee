// unit_cube_mesh (polydg/mesh/generators.hpp): 6n³ tetrahedra on (n + 1)³ vertices that fill
// the unit cube exactly (their volumes sum to 1, each positive, also perturbed at the largest
// offset allowed), 12n² boundary triangles whose tags name the six faces (each face's area 1,
// its vertices on its plane), interior vertices moved by at most perturbation / n per
// coordinate and the same for the same seed; bad arguments refused by name.
#define BOOST_TEST_MODULE mesh_unit_cube_mesh
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <map>

#include "error_message.hpp"
#include "polydg/mesh/generators.hpp"

using namespace polydg;
using testing::error_message;

BOOST_AUTO_TEST_CASE(the_cube_is_filled_and_its_faces_tagged) {
  for (double perturbation : {0.0, 0.2})
    for (int n : {1, 2, 5}) {
      BOOST_TEST_CONTEXT("n = " << n << ", perturbation " << perturbation) {
        const SimplexMesh<3> mesh = unit_cube_mesh(n, perturbation, 3);
        BOOST_TEST(mesh.cell_count() == 6 * n * n * n);
        BOOST_TEST(mesh.vertex_count() == (n + 1) * (n + 1) * (n + 1));
        double volume = 0, smallest = 1;
        for (Index c = 0; c < mesh.cell_count(); ++c) {
          volume += mesh.cell_measure(c);
          smallest = std::min(smallest, mesh.cell_measure(c));
        }
        BOOST_TEST(std::abs(volume - 1) <= 1e-13);
        BOOST_TEST(smallest > 0);
        // Boundary: 12n² triangles, two per boundary square, the six faces of area 1 each.
        std::map<int, double> area;
        Index boundary = 0;
        for (Index f = 0; f < mesh.facet_count(); ++f) {
          if (!mesh.is_boundary_facet(f)) continue;
          ++boundary;
          const int tag = mesh.facet_tag(f);
          area[tag] += mesh.facet_measure(f);
          const int axis = (tag - 1) / 2;
          const double plane = (tag - 1) % 2;
          for (Index v : mesh.facet_vertices(f)) BOOST_TEST(mesh.vertices()[v][axis] == plane);
        }
        BOOST_TEST(boundary == 12 * n * n);
        BOOST_TEST(area.size() == 6u);
        for (const auto& [tag, a] : area) BOOST_TEST(std::abs(a - 1) <= 1e-13, "tag " << tag);
      }
    }
}

BOOST_AUTO_TEST_CASE(interior_vertices_move_within_the_bound_and_by_the_seed) {
  const int n = 4;
  const SimplexMesh<3> structured = unit_cube_mesh(n);
  const SimplexMesh<3> perturbed = unit_cube_mesh(n, 0.2, 9);
  const SimplexMesh<3> again = unit_cube_mesh(n, 0.2, 9);
  const SimplexMesh<3> other = unit_cube_mesh(n, 0.2, 10);
  double largest = 0;
  bool moved = false, differs = false;
  for (Index v = 0; v < structured.vertex_count(); ++v)
    for (int d = 0; d < 3; ++d) {
      const double offset = std::abs(perturbed.vertices()[v][d] - structured.vertices()[v][d]);
      largest = std::max(largest, offset);
      moved = moved || offset > 0;
      BOOST_TEST(again.vertices()[v][d] == perturbed.vertices()[v][d]);
      differs = differs || other.vertices()[v][d] != perturbed.vertices()[v][d];
    }
  BOOST_TEST(moved);
  BOOST_TEST(differs);
  BOOST_TEST(largest <= 0.2 / n);
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_refused) {
  BOOST_TEST(testing::contains(error_message([] { unit_cube_mesh(0); }), "n = 0"));
  BOOST_TEST(testing::contains(error_message([] { unit_cube_mesh(2, 0.25); }),
                               "perturbation 0.25 outside [0, 0.2]"));
  BOOST_TEST(testing::contains(error_message([] { unit_cube_mesh(2, -0.1); }), "perturbation"));
}
