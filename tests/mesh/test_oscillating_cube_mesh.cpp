// oscillating_cube_mesh (polydg/mesh/generators.hpp): unit_cube_mesh's tetrahedra, each scaled
// along z by 1 + a sin sin at its z edge (so none is inverted: the cells keep unit_cube_mesh's
// vertex order, and each has a positive volume), filling {0 <= z <= top} (the volume of the
// tetrahedra is the volume under the top triangles, and 1 without perturbation), the top
// face's vertices on z = 1 + a sin(2πwx) sin(2πwy), the other faces flat and tagged as in
// unit_cube_mesh, the perturbation by column and height within its bound; bad arguments
// refused by name.
#define BOOST_TEST_MODULE mesh_oscillating_cube_mesh
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "error_message.hpp"
#include "polydg/mesh/generators.hpp"

using namespace polydg;
using testing::contains;
using testing::error_message;

namespace {

double top(double amplitude, int waves, double x, double y) {
  const double w = 2 * std::numbers::pi * waves;
  return 1 + amplitude * std::sin(w * x) * std::sin(w * y);
}

// Six times the signed volume of the cell in its stored vertex order.
double six_signed_volume(const SimplexMesh<3>& mesh, Index c) {
  const auto p = mesh.cell_points(c);
  const Point<3> a = p[1] - p[0], b = p[2] - p[0], d = p[3] - p[0];
  return (a[1] * b[2] - a[2] * b[1]) * d[0] + (a[2] * b[0] - a[0] * b[2]) * d[1] +
         (a[0] * b[1] - a[1] * b[0]) * d[2];
}

struct Case {
  int n, waves;
  double amplitude;
};

}  // namespace

BOOST_AUTO_TEST_CASE(tetrahedra_are_the_cubes_scaled_along_their_z_edge) {
  for (const Case& c : {Case{4, 1, 0.5}, Case{8, 2, -0.9}, Case{4, 1, 0.999}}) {
    BOOST_TEST_CONTEXT("n = " << c.n << ", waves " << c.waves << ", amplitude " << c.amplitude) {
      const SimplexMesh<3> mesh = oscillating_cube_mesh(c.n, c.amplitude, c.waves);
      const SimplexMesh<3> cube = unit_cube_mesh(c.n);
      BOOST_REQUIRE(mesh.cells() == cube.cells());
      double volume = 0;
      for (Index cell = 0; cell < mesh.cell_count(); ++cell) {
        BOOST_TEST(six_signed_volume(mesh, cell) > 0);
        // The edge whose two vertices share x and y: the tetrahedron is scaled by the factor
        // of that column.
        int along_z = 0;
        double factor = 0;
        const auto p = mesh.cell_points(cell);
        for (int a = 0; a < 4; ++a)
          for (int b = a + 1; b < 4; ++b)
            if (p[a][0] == p[b][0] && p[a][1] == p[b][1]) {
              ++along_z;
              factor = top(c.amplitude, c.waves, p[a][0], p[a][1]);
            }
        BOOST_REQUIRE_EQUAL(along_z, 1);
        BOOST_TEST(mesh.cell_measure(cell) == factor * cube.cell_measure(cell),
                   boost::test_tools::tolerance(1e-12));
        volume += mesh.cell_measure(cell);
      }
      // Whole waves on the grid: the top triangles' heights average to exactly 1.
      BOOST_TEST(std::abs(volume - 1) <= 1e-12);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_domain_lies_under_the_oscillating_top) {
  for (double perturbation : {0.0, 0.25})
    for (const Case& c : {Case{4, 1, 0.5}, Case{8, 2, -0.9}}) {
      BOOST_TEST_CONTEXT("n = " << c.n << ", waves " << c.waves << ", amplitude " << c.amplitude
                                << ", perturbation " << perturbation) {
        const SimplexMesh<3> mesh =
            oscillating_cube_mesh(c.n, c.amplitude, c.waves, perturbation, 3);
        BOOST_TEST(mesh.cell_count() == 6 * c.n * c.n * c.n);
        // Not one tetrahedron was reordered by the mesh's constructor: all kept the flat cube's
        // orientation.
        BOOST_REQUIRE(mesh.cells() == unit_cube_mesh(c.n).cells());
        double volume = 0;
        for (Index cell = 0; cell < mesh.cell_count(); ++cell) {
          BOOST_TEST(six_signed_volume(mesh, cell) > 0);
          volume += mesh.cell_measure(cell);
        }
        std::map<int, double> area;
        Index boundary = 0;
        double volume_under_top = 0;  // Σ over the top triangles: projected area × mean height
        for (Index f = 0; f < mesh.facet_count(); ++f) {
          if (!mesh.is_boundary_facet(f)) continue;
          ++boundary;
          const int tag = mesh.facet_tag(f);
          area[tag] += mesh.facet_measure(f);
          const auto p = mesh.facet_points(f);
          for (const Point<3>& x : p) {
            if (tag == 6) {
              BOOST_TEST(std::abs(x[2] - top(c.amplitude, c.waves, x[0], x[1])) <= 1e-14);
            } else {
              const int axis = (tag - 1) / 2;
              BOOST_TEST(x[axis] == double((tag - 1) % 2), "tag " << tag);
            }
          }
          if (tag == 6) {
            const double projected = 0.5 * std::abs((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                                                    (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]));
            volume_under_top += projected * (p[0][2] + p[1][2] + p[2][2]) / 3;
          }
        }
        BOOST_TEST(boundary == 12 * c.n * c.n);
        BOOST_TEST(area.size() == 6u);
        for (int tag = 1; tag <= 5; ++tag)
          BOOST_TEST(std::abs(area[tag] - 1) <= 1e-13, "tag " << tag);
        BOOST_TEST(area[6] > 1.01);  // the waves add surface
        BOOST_TEST(volume == volume_under_top, boost::test_tools::tolerance(1e-12));
        if (perturbation == 0) BOOST_TEST(std::abs(volume - 1) <= 1e-12);
      }
    }
}

BOOST_AUTO_TEST_CASE(columns_and_heights_move_within_the_bound_and_by_the_seed) {
  const int n = 4;
  const double perturbation = 0.25;
  const SimplexMesh<3> structured = unit_cube_mesh(n);
  const SimplexMesh<3> perturbed = oscillating_cube_mesh(n, 0.0, 1, perturbation, 9);
  const SimplexMesh<3> again = oscillating_cube_mesh(n, 0.0, 1, perturbation, 9);
  const SimplexMesh<3> other = oscillating_cube_mesh(n, 0.0, 1, perturbation, 10);
  BOOST_TEST(perturbed.vertices() == again.vertices());
  BOOST_TEST(!(perturbed.vertices() == other.vertices()));
  const auto vertex = [n](int i, int j, int k) { return (k * (n + 1) + j) * (n + 1) + i; };
  double largest = 0;
  bool moved_xy = false, moved_z = false;
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) {
        const Point<3>& x = perturbed.vertices()[vertex(i, j, k)];
        const Point<3>& reference = structured.vertices()[vertex(i, j, k)];
        const Point<3>& bottom = perturbed.vertices()[vertex(i, j, 0)];
        BOOST_TEST((x[0] == bottom[0] && x[1] == bottom[1]), "column " << i << ", " << j);
        for (int d = 0; d < 3; ++d) largest = std::max(largest, std::abs(x[d] - reference[d]));
        moved_xy = moved_xy || x[0] != reference[0];
        moved_z = moved_z || x[2] != reference[2];
        if (k == 0 || k == n) BOOST_TEST(x[2] == reference[2]);
      }
  BOOST_TEST(moved_xy);
  BOOST_TEST(moved_z);
  BOOST_TEST(largest <= perturbation / n);
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_refused) {
  BOOST_TEST(contains(error_message([] { oscillating_cube_mesh(0, 0.5, 0); }), "n = 0"));
  BOOST_TEST(contains(error_message([] { oscillating_cube_mesh(4, 1.0, 1); }),
                      "amplitude 1 outside (-1, 1)"));
  BOOST_TEST(contains(error_message([] { oscillating_cube_mesh(4, -1.5, 1); }),
                      "amplitude -1.5 outside (-1, 1)"));
  BOOST_TEST(contains(
      error_message([] { oscillating_cube_mesh(4, std::numeric_limits<double>::quiet_NaN(), 1); }),
      "outside (-1, 1)"));
  BOOST_TEST(contains(error_message([] { oscillating_cube_mesh(4, 0.5, -1); }), "waves = -1"));
  BOOST_TEST(contains(error_message([] { oscillating_cube_mesh(7, 0.5, 2); }),
                      "7 cubes per side cannot resolve 2 waves; need n >= 4 * waves = 8"));
  BOOST_TEST(contains(error_message([] { oscillating_cube_mesh(4, 0.5, 1, 0.5); }),
                      "perturbation 0.5 outside [0, 0.25]"));
  BOOST_TEST(
      contains(error_message([] { oscillating_cube_mesh(4, 0.5, 1, -0.1); }), "perturbation"));
}
