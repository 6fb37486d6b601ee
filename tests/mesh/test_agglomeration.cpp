#define BOOST_TEST_MODULE agglomeration
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "captured_warnings.hpp"
#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

// The centroid of a fine triangle.
Point<2> centroid(const SimplexMesh<2>& mesh, Index c) {
  const auto p = mesh.cell_points(c);
  return (1.0 / 3.0) * (p[0] + p[1] + p[2]);
}

// Checks the partition is dense and every element non-empty and connected through interior
// facets (breadth-first search on the dual graph).
template <int Dim>
void check_valid_partition(const SimplexMesh<Dim>& mesh, const Agglomeration& result) {
  BOOST_REQUIRE_EQUAL(Index(result.element_of_cell.size()), mesh.cell_count());
  std::vector<Index> size(result.element_count, 0);
  for (Index e : result.element_of_cell) {
    BOOST_REQUIRE(e >= 0 && e < result.element_count);
    ++size[e];
  }
  for (Index e = 0; e < result.element_count; ++e) BOOST_REQUIRE_GT(size[e], 0);

  const CellAdjacency graph = cell_adjacency(mesh);
  std::vector<char> reached(mesh.cell_count(), 0);
  std::vector<Index> reached_count(result.element_count, 0);
  std::vector<char> started(result.element_count, 0);
  for (Index seed = 0; seed < mesh.cell_count(); ++seed) {
    const Index e = result.element_of_cell[seed];
    if (started[e]) continue;
    started[e] = 1;
    std::vector<Index> queue{seed};
    reached[seed] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (Index next : graph.neighbours_of(queue[head]))
        if (!reached[next] && result.element_of_cell[next] == e) {
          reached[next] = 1;
          queue.push_back(next);
        }
    BOOST_TEST_CONTEXT("element " << e) { BOOST_CHECK_EQUAL(Index(queue.size()), size[e]); }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(dual_graph_is_symmetric_and_counts_interior_facets) {
  const SimplexMesh<2> mesh = unit_square_mesh(6, 0.2);
  const CellAdjacency graph = cell_adjacency(mesh);
  const Index interior = mesh.facet_count() - mesh.boundary_facet_count();
  BOOST_CHECK_EQUAL(Index(graph.neighbours.size()), 2 * interior);
  for (Index c = 0; c < mesh.cell_count(); ++c)
    for (Index d : graph.neighbours_of(c)) {
      const auto back = graph.neighbours_of(d);
      BOOST_CHECK(std::find(back.begin(), back.end(), c) != back.end());
    }
}

BOOST_AUTO_TEST_CASE(metis_partition_covers_all_cells_with_connected_elements) {
  const SimplexMesh<2> mesh = unit_square_mesh(24, 0.2, 3);  // 1152 cells
  for (Index requested : {2, 7, 40, 150}) {
    BOOST_TEST_CONTEXT(requested << " elements requested") {
      const Agglomeration result = agglomerate(mesh, requested);
      check_valid_partition(mesh, result);
      BOOST_CHECK_EQUAL(result.requested_count, requested);
      BOOST_CHECK_LE(std::abs(result.element_count - requested), std::max(1, requested / 10));
    }
  }
}

BOOST_AUTO_TEST_CASE(tiny_parts_stay_connected) {
  // About 3 cells per element (as in the seed paper's background meshes): METIS's contiguity
  // is least reliable here.
  const SimplexMesh<2> mesh = unit_square_mesh(30, 0.2, 11);  // 1800 cells
  const Agglomeration result = agglomerate(mesh, 600);
  check_valid_partition(mesh, result);
  BOOST_CHECK_LE(std::abs(result.element_count - 600), 60);
}

BOOST_AUTO_TEST_CASE(recursive_bisection_gives_connected_elements) {
  const SimplexMesh<2> mesh = unit_square_mesh(30, 0.2, 11);
  AgglomerationOptions options;
  options.method = PartitionMethod::recursive_bisection;
  for (Index requested : {9, 450}) {
    BOOST_TEST_CONTEXT(requested << " elements requested") {
      const Agglomeration result = agglomerate(mesh, requested, options);
      check_valid_partition(mesh, result);
      BOOST_CHECK_LE(std::abs(result.element_count - requested), std::max(1, requested / 10));
    }
  }
}

template <int Dim>
void check_greedy_growth(const SimplexMesh<Dim>& mesh, std::initializer_list<Index> requests) {
  AgglomerationOptions options;
  options.method = PartitionMethod::greedy_growth;
  for (Index requested : requests) {
    BOOST_TEST_CONTEXT(requested << " elements requested") {
      const Agglomeration result = agglomerate(mesh, requested, options);
      check_valid_partition(mesh, result);
      BOOST_CHECK_EQUAL(result.requested_count, requested);
      BOOST_CHECK_LE(std::abs(result.element_count - requested), std::max(1, requested / 10));
      // Sizes within [mean / 2, 2 mean + 1] on this mesh: parts stuck below half the mean
      // join a neighbour (which may then exceed the mean).
      std::vector<Index> size(result.element_count, 0);
      for (Index e : result.element_of_cell) ++size[e];
      const double mean = double(mesh.cell_count()) / double(result.element_count);
      for (Index e = 0; e < result.element_count; ++e) {
        BOOST_TEST_CONTEXT("element " << e << " of " << size[e] << " cells") {
          BOOST_CHECK_GE(double(size[e]), std::floor(0.5 * mean));
          BOOST_CHECK_LE(double(size[e]), std::ceil(2.0 * mean) + 1);
        }
      }
      // Deterministic: the same call, the same partition.
      BOOST_CHECK(agglomerate(mesh, requested, options).element_of_cell == result.element_of_cell);
    }
  }
}

BOOST_AUTO_TEST_CASE(greedy_growth_gives_connected_even_elements) {
  // Tiny parts (where METIS is slow) and larger ones, down to one element and up to all but
  // one cell.
  check_greedy_growth(unit_square_mesh(30, 0.2, 11), {2, 9, 450, 600, 1799});  // 1800 cells
  // Tetrahedra, 4 and 2 per part: parts get stuck (their neighbours taken) far more often than
  // in 2D, and must neither cascade into a few huge parts nor fall short of the count.
  check_greedy_growth(unit_cube_mesh(8, 0.1, 3), {768, 1536, 100});  // 3072 cells
}

BOOST_AUTO_TEST_CASE(target_cells_per_element) {
  const SimplexMesh<2> mesh = unit_square_mesh(24, 0.2);
  const Agglomeration result = agglomerate_by_cell_count(mesh, 16.0);
  check_valid_partition(mesh, result);
  BOOST_CHECK_EQUAL(result.requested_count, 72);  // 1152 / 16
  BOOST_CHECK_LE(std::abs(result.element_count - 72), 7);
  BOOST_CHECK_EQUAL(agglomerate_by_cell_count(mesh, 1.0).element_count, mesh.cell_count());
  BOOST_CHECK_EQUAL(agglomerate_by_cell_count(mesh, 1e9).element_count, 1);
}

BOOST_AUTO_TEST_CASE(no_agglomeration_is_the_identity) {
  const SimplexMesh<2> mesh = unit_square_mesh(10, 0.2);
  const Agglomeration result = agglomerate(mesh, mesh.cell_count());
  BOOST_CHECK_EQUAL(result.element_count, mesh.cell_count());
  for (Index c = 0; c < mesh.cell_count(); ++c) BOOST_CHECK_EQUAL(result.element_of_cell[c], c);
  BOOST_CHECK_EQUAL(result.disconnected_parts, 0);
  BOOST_CHECK_EQUAL(result.empty_parts, 0);
}

BOOST_AUTO_TEST_CASE(one_element) {
  const SimplexMesh<2> mesh = unit_square_mesh(5);
  const Agglomeration result = agglomerate(mesh, 1);
  BOOST_CHECK_EQUAL(result.element_count, 1);
  for (Index e : result.element_of_cell) BOOST_CHECK_EQUAL(e, 0);
}

BOOST_AUTO_TEST_CASE(same_seed_same_partition) {
  const SimplexMesh<2> mesh = unit_square_mesh(20, 0.2, 5);
  AgglomerationOptions options;
  options.seed = 42;
  const Agglomeration first = agglomerate(mesh, 33, options);
  const Agglomeration second = agglomerate(mesh, 33, options);
  BOOST_CHECK(first.element_of_cell == second.element_of_cell);
}

BOOST_AUTO_TEST_CASE(parts_above_the_largest_part_factor_are_cut_by_greedy_growth) {
  // At factor 1 every METIS part above the mean (3 cells) is cut: the parts of 4 on this mesh.
  const SimplexMesh<2> mesh = unit_square_mesh(32, 0.2);  // 2048 cells, 683 elements asked
  const Index requested = 683;
  const double mean = double(mesh.cell_count()) / double(requested);
  AgglomerationOptions keep, cut;
  keep.largest_part_factor = 0;
  keep.merge_fraction = cut.merge_fraction = 0;  // every piece an element: METIS's parts show
  cut.largest_part_factor = 1;
  const Agglomeration metis = agglomerate(mesh, requested, keep);
  const Agglomeration result = agglomerate(mesh, requested, cut);
  check_valid_partition(mesh, result);
  BOOST_REQUIRE_EQUAL(metis.disconnected_parts, 0);  // so metis's elements are METIS's parts
  std::vector<Index> metis_size(metis.element_count, 0), size(result.element_count, 0);
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    ++metis_size[metis.element_of_cell[c]];
    ++size[result.element_of_cell[c]];
  }
  const Index above_mean = Index(std::count_if(metis_size.begin(), metis_size.end(),
                                               [&](Index n) { return double(n) > mean; }));
  BOOST_REQUIRE_GT(above_mean, 0);  // else nothing is tested
  BOOST_CHECK_EQUAL(metis.split_parts, 0);
  BOOST_CHECK_EQUAL(result.split_parts, above_mean);
  BOOST_CHECK_EQUAL(result.requested_count, requested);
  BOOST_CHECK_GE(result.element_count, metis.element_count + above_mean);
  // A cut, not a new partition: every element lies in one of METIS's parts, and the parts at
  // or below the mean are untouched.
  std::vector<Index> parent(result.element_count, -1), cells_inside(metis.element_count, 0);
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    Index& p = parent[result.element_of_cell[c]];
    if (p < 0) p = metis.element_of_cell[c];
    BOOST_REQUIRE_EQUAL(p, metis.element_of_cell[c]);
  }
  for (Index e = 0; e < result.element_count; ++e)
    if (double(metis_size[parent[e]]) <= mean)
      BOOST_CHECK_EQUAL(size[e], metis_size[parent[e]]);
    else
      BOOST_CHECK_LT(size[e], metis_size[parent[e]]);
  // The default factor (8) leaves this mesh's parts (at most 4 cells) as METIS made them.
  AgglomerationOptions by_default;
  by_default.merge_fraction = 0;
  BOOST_CHECK(agglomerate(mesh, requested, by_default).element_of_cell == metis.element_of_cell);
}

BOOST_AUTO_TEST_CASE(bad_requests_throw) {
  const SimplexMesh<2> mesh = unit_square_mesh(4);
  const std::string cells = std::to_string(mesh.cell_count());  // 32
  const std::string need = "; need 1 <= elements <= cells";
  BOOST_TEST(
      error_names([&] { agglomerate(mesh, 0); },
                  {"agglomerate: 0 elements requested from a mesh of " + cells + " cells" + need}));
  BOOST_TEST(error_names(
      [&] { agglomerate(mesh, -3); },
      {"agglomerate: -3 elements requested from a mesh of " + cells + " cells" + need}));
  BOOST_TEST(error_names(
      [&] { agglomerate(mesh, mesh.cell_count() + 1); },
      {"agglomerate: 33 elements requested from a mesh of " + cells + " cells" + need}));
  BOOST_TEST(error_names([&] { agglomerate_by_cell_count(mesh, 0.5); },
                         {"agglomerate_by_cell_count: 0.5 cells per element requested; need a "
                          "finite number >= 1"}));
  const std::vector<Index> too_short(mesh.cell_count() - 1, 0);
  BOOST_TEST(error_names([&] { repair_partition(mesh, too_short); },
                         {"repair_partition: 31 labels given for " + cells + " cells"}));
  std::vector<Index> negative(mesh.cell_count(), 0);
  negative[3] = -1;
  BOOST_TEST(error_names([&] { repair_partition(mesh, negative); },
                         {"repair_partition: cell 3 has negative label -1"}));
  AgglomerationOptions bad;
  bad.merge_fraction = -1;
  BOOST_TEST(error_names([&] { agglomerate(mesh, 4, bad); },
                         {"agglomeration: merge_fraction -1 must be finite and >= 0"}));
  AgglomerationOptions below_one;
  below_one.largest_part_factor = 0.5;
  BOOST_TEST(error_names([&] { agglomerate(mesh, 4, below_one); },
                         {"agglomerate: largest_part_factor 0.5 must be 0 (keep METIS's parts) "
                          "or a finite number >= 1"}));
}

BOOST_AUTO_TEST_CASE(a_shortfall_of_more_than_a_tenth_is_warned_about) {
  // Below about two cells per element METIS leaves parts empty (agglomeration.hpp): 1800 cells
  // into 1200 parts comes out well short. The warning is given exactly when fewer than 90 % of
  // the requested elements come out, and names the counts, the empty parts and a count to ask.
  const SimplexMesh<2> mesh = unit_square_mesh(30, 0.2, 11);  // 1800 cells
  AgglomerationOptions greedy;
  greedy.method = PartitionMethod::greedy_growth;
  struct Case {
    Index requested;
    AgglomerationOptions options;
  };
  for (const Case& request : {Case{1200, {}}, Case{150, {}}, Case{600, {}}, Case{1200, greedy},
                              Case{1799, greedy}, Case{1800, {}}}) {
    BOOST_TEST_CONTEXT(request.requested << " elements requested, method "
                                         << int(request.options.method)) {
      testing::CapturedWarnings warnings;
      const Agglomeration result = agglomerate(mesh, request.requested, request.options);
      check_valid_partition(mesh, result);
      const bool short_by_more_than_a_tenth = 10 * result.element_count < 9 * request.requested;
      BOOST_TEST(warnings.messages.size() == (short_by_more_than_a_tenth ? 1u : 0u));
      if (!short_by_more_than_a_tenth) continue;
      const std::string& message = warnings.messages.front();
      BOOST_TEST(testing::contains(message, std::to_string(result.element_count) +
                                                " elements made of " +
                                                std::to_string(request.requested) + " requested"));
      if (result.empty_parts > 0)
        BOOST_TEST(testing::contains(
            message, std::to_string(result.empty_parts) + " parts came back empty"));
      BOOST_TEST(testing::contains(message, "request fewer elements (at most about 900)"));
    }
  }
  // The case the warning is for does occur (METIS with 1.5 cells per part).
  testing::CapturedWarnings warnings;
  const Agglomeration result = agglomerate(mesh, 1200);
  BOOST_TEST(result.empty_parts > 0);
  BOOST_TEST(warnings.messages.size() == 1u);
  // More elements than cells is an error, not a clamp.
  BOOST_TEST(testing::contains(testing::error_message([&] { agglomerate(mesh, 1801); }),
                               "1801 elements requested from a mesh of 1800 cells"));
}

BOOST_AUTO_TEST_CASE(repair_merges_a_small_detached_piece) {
  // Part 0: the left half plus a detached 8-cell block in the top-right corner; part 1: the
  // rest of the right half.
  const SimplexMesh<2> mesh = unit_square_mesh(8);
  std::vector<Index> part(mesh.cell_count());
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    const Point<2> x = centroid(mesh, c);
    part[c] = (x[0] < 0.5 || (x[0] > 0.75 && x[1] > 0.75)) ? 0 : 1;
  }
  const Agglomeration result = repair_partition(mesh, part);
  check_valid_partition(mesh, result);
  BOOST_CHECK_EQUAL(result.element_count, 2);
  BOOST_CHECK_EQUAL(result.disconnected_parts, 1);
  BOOST_CHECK_EQUAL(result.merged_pieces, 1);
  BOOST_CHECK_EQUAL(result.kept_pieces, 0);
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    const Point<2> x = centroid(mesh, c);
    BOOST_CHECK_EQUAL(result.element_of_cell[c], x[0] < 0.5 ? 0 : 1);
  }
}

BOOST_AUTO_TEST_CASE(repair_keeps_large_pieces_as_elements) {
  const SimplexMesh<2> mesh = unit_square_mesh(8);
  std::vector<Index> part(mesh.cell_count());
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    const Point<2> x = centroid(mesh, c);
    part[c] = (x[0] < 0.5 || (x[0] > 0.75 && x[1] > 0.75)) ? 0 : 1;
  }
  AgglomerationOptions keep_all;
  keep_all.merge_fraction = 0;
  const Agglomeration result = repair_partition(mesh, part, keep_all);
  check_valid_partition(mesh, result);
  BOOST_CHECK_EQUAL(result.element_count, 3);
  BOOST_CHECK_EQUAL(result.kept_pieces, 1);
  BOOST_CHECK_EQUAL(result.merged_pieces, 0);
}

BOOST_AUTO_TEST_CASE(repair_splits_scattered_labels_and_renumbers) {
  // Checkerboard of labels 5 and 9 on the squares: every square is a detached piece of its
  // label; labels 0..4 and 6..8 are empty.
  const SimplexMesh<2> mesh = unit_square_mesh(6, 0.1);
  std::vector<Index> part(mesh.cell_count());
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    const Index square = c / 2, i = square % 6, j = square / 6;
    part[c] = (i + j) % 2 == 0 ? 5 : 9;
  }
  const Agglomeration result = repair_partition(mesh, part);
  check_valid_partition(mesh, result);
  BOOST_CHECK_EQUAL(result.requested_count, 10);
  BOOST_CHECK_EQUAL(result.empty_parts, 8);
  BOOST_CHECK_EQUAL(result.disconnected_parts, 2);
  BOOST_CHECK_EQUAL(result.element_of_cell[0], 0);
  // Every square is a 2-cell piece, below half the mean label size (36 cells): all but the
  // largest piece of each label merge, so the two kept pieces absorb everything.
  BOOST_CHECK_EQUAL(result.merged_pieces, 34);
  BOOST_CHECK_EQUAL(result.element_count, 2);
}

BOOST_AUTO_TEST_CASE(a_connected_partition_is_left_alone) {
  const SimplexMesh<2> mesh = unit_square_mesh(12, 0.2);
  const Agglomeration metis = agglomerate(mesh, 10);
  const Agglomeration again = repair_partition(mesh, metis.element_of_cell);
  BOOST_CHECK(again.element_of_cell == metis.element_of_cell);
  BOOST_CHECK_EQUAL(again.disconnected_parts, 0);
}
