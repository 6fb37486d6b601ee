#define BOOST_TEST_MODULE refinement
// Uniform red refinement (docs/theory.md, "Uniform refinement"): exact counts, conformity,
// measures and tags kept to rounding, positive orientation, and for tetrahedra Bey's bounds
// on the shapes of the descendants (at most 3 congruence classes per tetrahedron, quality at
// least 1/8 of the ancestor's).
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "captured_warnings.hpp"
#include "error_message.hpp"
#include "polydg/core/small_determinant.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/refinement.hpp"
#include "polydg/mesh/simplex_geometry.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using testing::contains;
using testing::error_message;

namespace {

const std::string data_dir = std::string(POLYDG_TEST_DATA_DIR) + "/gmsh/";
constexpr double eps = std::numeric_limits<double>::epsilon();

template <int Dim>
double length(const Point<Dim>& v) {
  return std::sqrt(dot(v, v));
}

template <int Dim>
double longest_edge(const SimplexMesh<Dim>& mesh, Index c) {
  const auto p = mesh.cell_points(c);
  double longest = 0;
  for (int i = 0; i <= Dim; ++i)
    for (int j = i + 1; j <= Dim; ++j) longest = std::max(longest, length<Dim>(p[i] - p[j]));
  return longest;
}

// The edges of a mesh as sorted vertex pairs.
template <int Dim>
std::set<std::pair<Index, Index>> edges_of(const SimplexMesh<Dim>& mesh) {
  std::set<std::pair<Index, Index>> edges;
  for (const auto& cell : mesh.cells())
    for (int i = 0; i <= Dim; ++i)
      for (int j = i + 1; j <= Dim; ++j)
        edges.insert({std::min(cell[i], cell[j]), std::max(cell[i], cell[j])});
  return edges;
}

// Sums in long double, so that the comparisons below see the terms' rounding, not the sum's.
template <int Dim>
std::map<int, long double> boundary_measure_by_tag(const SimplexMesh<Dim>& mesh) {
  std::map<int, long double> measures;
  for (Index f = 0; f < mesh.facet_count(); ++f)
    if (mesh.is_boundary_facet(f)) measures[mesh.facet_tag(f)] += mesh.facet_measure(f);
  return measures;
}

template <int Dim>
std::map<int, long double> measure_by_region(const SimplexMesh<Dim>& mesh) {
  std::map<int, long double> measures;
  for (Index c = 0; c < mesh.cell_count(); ++c)
    measures[mesh.cell_region(c)] += mesh.cell_measure(c);
  return measures;
}

// Sums of positive terms, each a few ulps off: the sums agree to a few ulps relative (the
// long double sums add nothing); 1e-12 is far above that and far below any lost cell or facet.
bool same_sums(const std::map<int, long double>& a, const std::map<int, long double>& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [key, value] : a) {
    const auto other = b.find(key);
    if (other == b.end() || std::abs(value - other->second) > 1e-12 * value) return false;
  }
  return true;
}

// Everything that holds for one red refinement of any mesh (docs/theory.md).
template <int Dim>
void check_one_refinement(const SimplexMesh<Dim>& mesh, const SimplexMesh<Dim>& fine) {
  constexpr Index children = Dim == 2 ? 4 : 8;
  const Index edge_count = Index(edges_of(mesh).size());
  // Exact counts: every edge gets one midpoint (shared: conforming), every cell 2^Dim children;
  // a hanging node would leave extra boundary facets inside the mesh.
  BOOST_TEST(fine.cell_count() == children * mesh.cell_count());
  BOOST_TEST(fine.vertex_count() == mesh.vertex_count() + edge_count);
  BOOST_TEST(fine.boundary_facet_count() == (Dim == 2 ? 2 : 4) * mesh.boundary_facet_count());
  BOOST_TEST(fine.facet_count() == (Dim == 2 ? 2 * mesh.facet_count() + 3 * mesh.cell_count()
                                             : 4 * mesh.facet_count() + 8 * mesh.cell_count()));
  // The old vertices keep their numbers and places.
  for (Index v = 0; v < mesh.vertex_count(); ++v)
    BOOST_TEST((fine.vertices()[v] == mesh.vertices()[v]), "vertex " << v);

  // Cells c·children .. c·children + children − 1 are cell c's, with its region, positively
  // oriented in their stored order, and their measures add up to c's. Rounding: each midpoint
  // is within half an ulp of its coordinates (at most X in magnitude), which moves a child's
  // determinant (products of Dim coordinate differences of at most L) by a few eps·X·L^(Dim−1);
  // 64 of those covers the children and their sum.
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    const double longest = longest_edge(mesh, c);
    double largest_coordinate = longest;
    for (const auto& p : mesh.cell_points(c))
      for (int i = 0; i < Dim; ++i)
        largest_coordinate = std::max(largest_coordinate, std::abs(p[i]));
    double children_measure = 0;
    for (Index k = children * c; k < children * (c + 1); ++k) {
      const auto p = fine.cell_points(k);
      BOOST_TEST(simplex_signed_measure<Dim>(p.data()) > 0, "child " << k);
      BOOST_TEST(fine.cell_region(k) == mesh.cell_region(c));
      children_measure += fine.cell_measure(k);
    }
    BOOST_TEST(
        std::abs(children_measure - mesh.cell_measure(c)) <=
            64 * eps * largest_coordinate * std::pow(longest, Dim - 1),
        "cell " << c << ": children " << children_measure << ", parent " << mesh.cell_measure(c));
  }
  BOOST_TEST(same_sums(measure_by_region(fine), measure_by_region(mesh)));
  BOOST_TEST(same_sums(boundary_measure_by_tag(fine), boundary_measure_by_tag(mesh)));
  BOOST_TEST((fine.boundary_tag_values() == mesh.boundary_tag_values()));
}

// Refines `levels` times, checking each step; refinement adds no warning (every boundary facet
// of the refined mesh has its parent's tag, untagged_boundary_tag included).
template <int Dim>
SimplexMesh<Dim> refine_checked(SimplexMesh<Dim> mesh, int levels) {
  for (int level = 1; level <= levels; ++level) {
    BOOST_TEST_CONTEXT("level " << level) {
      testing::CapturedWarnings warnings;
      SimplexMesh<Dim> fine = refine(mesh);
      BOOST_TEST(warnings.messages.empty());
      check_one_refinement(mesh, fine);
      mesh = std::move(fine);
    }
  }
  return mesh;
}

// A tetrahedron's quality measure / longest edge³ (scale-free; 1/(6√2) for the regular one).
double quality(const SimplexMesh<3>& mesh, Index c) {
  return mesh.cell_measure(c) / std::pow(longest_edge(mesh, c), 3);
}

// One tetrahedron of no symmetry.
SimplexMesh<3> skewed_tetrahedron() {
  return SimplexMesh<3>(
      {{{0.1, 0.2, 0.05}}, {{1.3, 0.1, 0.2}}, {{0.4, 0.9, 0.1}}, {{0.3, 0.35, 1.1}}},
      {{0, 1, 2, 3}});
}

}  // namespace

BOOST_AUTO_TEST_CASE(triangles_split_into_four_similar_triangles) {
  for (int n : {1, 3, 7}) {
    BOOST_TEST_CONTEXT("unit square, n = " << n) {
      const SimplexMesh<2> mesh = unit_square_mesh(n, 0.2, 5);
      const SimplexMesh<2> fine = refine_checked(mesh, 2);
      // Twice refined: every cell is similar to its ancestor with ratio 1/4 (docs/theory.md), so
      // its sorted edge lengths are the ancestor's / 4 up to the midpoints' rounding.
      for (Index k = 0; k < fine.cell_count(); ++k) {
        const auto child = fine.cell_points(k), parent = mesh.cell_points(k / 16);
        std::array<double, 3> a, b;
        for (int i = 0; i < 3; ++i) {
          a[i] = length<2>(child[i] - child[(i + 1) % 3]);
          b[i] = length<2>(parent[i] - parent[(i + 1) % 3]) / 4;
        }
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        for (int i = 0; i < 3; ++i) BOOST_TEST(std::abs(a[i] - b[i]) <= 64 * eps, "cell " << k);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(tetrahedra_split_into_eight) {
  const auto cube = testing::kuhn_unit_cube(2);
  refine_checked(SimplexMesh<3>(cube.vertices, cube.cells), 2);
  refine_checked(skewed_tetrahedron(), 3);
}

BOOST_AUTO_TEST_CASE(gmsh_meshes_refined_twice_keep_tags_and_regions) {
  // l_shape: regions 1 and 2, tags 11 and 12; square_hole: a hole, tags 1 and 2;
  // no_physical: every boundary facet untagged (tag 0, warned once on reading, not again).
  for (const char* file : {"l_shape_v41.msh", "square_hole_v41.msh", "no_physical_v41.msh"}) {
    BOOST_TEST_CONTEXT(file) {
      const SimplexMesh<2> mesh = read_gmsh<2>(data_dir + file);
      const SimplexMesh<2> fine = refine_checked(mesh, 2);
      BOOST_TEST(same_sums(boundary_measure_by_tag(fine), boundary_measure_by_tag(mesh)));
      BOOST_TEST(same_sums(measure_by_region(fine), measure_by_region(mesh)));
      BOOST_TEST(contains(fine.source().name, file));
    }
  }
  // box: tags 1, 2, 3 on the bottom, top and sides, region 7.
  const SimplexMesh<3> box = read_gmsh<3>(data_dir + "box_v41.msh");
  const SimplexMesh<3> fine_box = refine_checked(box, 2);
  BOOST_TEST((fine_box.boundary_tag_values() == std::vector<int>{1, 2, 3}));
  BOOST_TEST(same_sums(boundary_measure_by_tag(fine_box), boundary_measure_by_tag(box)));
}

BOOST_AUTO_TEST_CASE(bey_descendants_are_freudenthal_paths_in_three_congruence_classes) {
  // Write the tetrahedron as x0 + A(K), K the path simplex (0, e1, e1+e2, e1+e2+e3), A's
  // columns x1−x0, x2−x1, x3−x2. Bey's theorem, with our rotation of the negatively oriented
  // children (docs/theory.md): every level-k descendant, in its stored order, is x0 + 2^−k A of
  // a lattice path z, z+s1, z+s1+s2, z+s1+s2+s3 whose steps are three distinct vectors of
  // {e1, e2, e3, −(e1+e2+e3)}; hence at most 3 congruence classes at every level.
  SimplexMesh<3> mesh = skewed_tetrahedron();
  const auto x = mesh.cell_points(0);
  double a[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = x[j + 1][i] - x[j][i];
  const double det = cofactor_determinant<3>(a);
  const auto lattice_coordinates = [&](const Point<3>& y, double scale) {  // scale A^−1 (y)
    Point<3> z;
    for (int j = 0; j < 3; ++j) {  // Cramer's rule
      double column_replaced[3][3];
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) column_replaced[r][c] = c == j ? y[r] : a[r][c];
      z[j] = scale * cofactor_determinant<3>(column_replaced) / det;
    }
    return z;
  };
  const Point<3> directions[4] = {{{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}, {{-1, -1, -1}}};
  for (int level = 1; level <= 3; ++level) {
    mesh = refine(mesh);
    const double scale = std::pow(2.0, level);
    std::vector<std::array<double, 6>> classes;  // sorted edge lengths of each class found
    for (Index c = 0; c < mesh.cell_count(); ++c) {
      BOOST_TEST_CONTEXT("level " << level << ", cell " << c) {
        const auto y = mesh.cell_points(c);
        const Point<3> z = lattice_coordinates(y[0] - x[0], scale);
        for (int i = 0; i < 3; ++i) BOOST_TEST(std::abs(z[i] - std::round(z[i])) < 1e-9);
        std::set<int> used;
        for (int step = 0; step < 3; ++step) {
          const Point<3> s = lattice_coordinates(y[step + 1] - y[step], scale);
          for (int d = 0; d < 4; ++d)
            if (length<3>(s - directions[d]) < 1e-9) used.insert(d);
        }
        BOOST_TEST(used.size() == 3u, "steps of three distinct lattice directions");

        std::array<double, 6> lengths;
        for (int i = 0, k = 0; i < 4; ++i)
          for (int j = i + 1; j < 4; ++j) lengths[k++] = length<3>(y[i] - y[j]);
        std::sort(lengths.begin(), lengths.end());
        const auto same = [&](const std::array<double, 6>& other) {
          for (int k = 0; k < 6; ++k)
            if (std::abs(other[k] - lengths[k]) > 1e-12 * lengths[5]) return false;
          return true;
        };
        if (std::none_of(classes.begin(), classes.end(), same)) classes.push_back(lengths);
      }
    }
    // Congruent tetrahedra have the same sorted edge lengths, so this counts at most as many
    // shapes as there are congruence classes.
    BOOST_TEST(classes.size() <= 3u, "level " << level << ": " << classes.size() << " shapes");
  }
}

BOOST_AUTO_TEST_CASE(tetrahedra_keep_their_quality_through_three_refinements) {
  // The descendants' edges are 2^−k A(e_i) or 2^−k A(e1 + e3), the latter at most 2^(1−k) L
  // long, and their volume is 8^−k |T|: measure / longest edge³ of every descendant stays
  // ≥ 1/8 of its ancestor's at every level (docs/theory.md). The descendants of cell c after k
  // refinements are cells c·8^k .. (c+1)·8^k − 1. On a Kuhn cube whose centre vertex is moved
  // (48 tetrahedra of several shapes) and on the skewed tetrahedron.
  auto cube = testing::kuhn_unit_cube(2);
  cube.vertices[13] = {{0.6, 0.45, 0.55}};  // (1, 1, 1)/2, moved by less than its altitudes
  for (const SimplexMesh<3>& original :
       {SimplexMesh<3>(cube.vertices, cube.cells), skewed_tetrahedron()}) {
    SimplexMesh<3> mesh = original;
    Index descendants = 1;
    for (int level = 1; level <= 3; ++level) {
      mesh = refine(mesh);
      descendants *= 8;
      double lowest_ratio = std::numeric_limits<double>::infinity();
      for (Index c = 0; c < mesh.cell_count(); ++c)
        lowest_ratio =
            std::min(lowest_ratio, quality(mesh, c) / quality(original, c / descendants));
      BOOST_TEST(lowest_ratio >= 1.0 / 8, "level " << level << ": lowest ratio " << lowest_ratio);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_mesh_without_cells_is_refused) {
  BOOST_TEST(
      contains(error_message([] { refine(SimplexMesh<2>()); }), "refine: mesh has no cells"));
  BOOST_TEST(contains(error_message([] { refine(SimplexMesh<3>()); }), "has no cells"));
}
