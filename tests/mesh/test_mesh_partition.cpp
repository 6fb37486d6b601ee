#define BOOST_TEST_MODULE mesh_partition
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

// A perturbed unit square of 2 n² triangles agglomerated into `elements` elements numbered
// along a Hilbert curve (the order the partition must keep within each part).
PolytopicMesh<2> square_mesh(int n, Index elements, std::vector<int> degrees = {}) {
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 3));
  AgglomerationOptions options;
  options.element_order = ElementOrder::hilbert_curve;
  const Agglomeration agglomeration = agglomerate(*fine, elements, options);
  if (degrees.empty()) return PolytopicMesh<2>(fine, agglomeration.element_of_cell, 2);
  degrees.resize(std::size_t(agglomeration.element_count), 1);
  return PolytopicMesh<2>(fine, agglomeration.element_of_cell, degrees);
}

// The Kuhn unit cube (6 n³ tetrahedra, boundary untagged) agglomerated into `elements`.
PolytopicMesh<3> cube_mesh(int n, Index elements) {
  const auto [vertices, cells] = testing::kuhn_unit_cube(n);
  const WarningHandler previous = set_warning_handler([](const std::string&) {});
  auto fine = std::make_shared<const SimplexMesh<3>>(vertices, cells);
  set_warning_handler(previous);
  const Agglomeration agglomeration = agglomerate(*fine, elements);
  return PolytopicMesh<3>(fine, agglomeration.element_of_cell, 1);
}

// Element adjacency by brute force from the fine mesh (not from the interfaces the partition
// reads): elements a ≠ b are neighbours when a fine interior facet has a cell in each.
template <int Dim>
std::set<std::pair<Index, Index>> neighbour_pairs(const PolytopicMesh<Dim>& mesh) {
  const SimplexMesh<Dim>& fine = mesh.fine_mesh();
  std::set<std::pair<Index, Index>> pairs;
  for (Index f = 0; f < fine.facet_count(); ++f) {
    if (fine.is_boundary_facet(f)) continue;
    const auto& cells = fine.facet_cells(f);
    const Index a = mesh.element_of_cell(cells[0]), b = mesh.element_of_cell(cells[1]);
    if (a != b) pairs.insert({std::min(a, b), std::max(a, b)});
  }
  return pairs;
}

// Every property of the file comment of mesh_partition.hpp, checked from the definitions.
template <int Dim>
void check_partition(const PolytopicMesh<Dim>& mesh, const MeshPartition& partition, int parts) {
  const Index n = mesh.element_count();
  BOOST_TEST_REQUIRE(partition.part_count == parts);
  BOOST_TEST_REQUIRE(partition.part_of_element.size() == std::size_t(n));
  BOOST_TEST_REQUIRE(partition.part_begin.size() == std::size_t(parts) + 1);
  BOOST_TEST(partition.part_begin.front() == 0);
  BOOST_TEST(partition.part_begin.back() == n);

  // Inverse permutations; part r's elements are exactly the new range [begin_r, begin_{r+1}),
  // so every element is in exactly one part; old order kept within a part.
  for (Index e = 0; e < n; ++e) {
    BOOST_TEST_REQUIRE(partition.old_from_new[partition.new_from_old[e]] == e);
    const int r = partition.part_of_element[e];
    BOOST_TEST_REQUIRE((r >= 0 && r < parts));
    const Index renumbered = partition.new_from_old[e];
    BOOST_TEST((renumbered >= partition.part_begin[r] && renumbered < partition.part_begin[r + 1]));
  }
  for (int r = 0; r < parts; ++r) {
    BOOST_TEST(partition.part_begin[r] <= partition.part_begin[r + 1]);
    for (Index k = partition.part_begin[r]; k + 1 < partition.part_begin[r + 1]; ++k)
      BOOST_TEST(partition.old_from_new[k] < partition.old_from_new[k + 1]);
  }

  // Ghosts: exactly the neighbours in other parts, sorted, unique; halo interface counts.
  std::vector<std::set<Index>> expected(static_cast<std::size_t>(parts));
  std::vector<Index> expected_halo(std::size_t(parts), 0);
  for (const auto& [a, b] : neighbour_pairs(mesh)) {
    const int part_a = partition.part_of_element[a], part_b = partition.part_of_element[b];
    if (part_a == part_b) continue;
    expected[part_a].insert(partition.new_from_old[b]);
    expected[part_b].insert(partition.new_from_old[a]);
    ++expected_halo[part_a];
    ++expected_halo[part_b];
  }
  for (int r = 0; r < parts; ++r) {
    BOOST_TEST_CONTEXT("part " << r) {
      const std::vector<Index> wanted(expected[r].begin(), expected[r].end());
      BOOST_TEST(partition.ghosts[r] == wanted, boost::test_tools::per_element());
      BOOST_TEST(partition.ghost_count(r) == Index(wanted.size()));
      BOOST_TEST(partition.halo_interface_counts[r] == expected_halo[r]);
      // Symmetry: a ghost g of part r has one of r's elements among part(g)'s ghosts.
      for (Index g : partition.ghosts[r]) {
        const int owner = partition.part_of_element[partition.old_from_new[g]];
        BOOST_TEST(owner != r);
        const auto& theirs = partition.ghosts[owner];
        BOOST_TEST(std::any_of(theirs.begin(), theirs.end(), [&](Index h) {
          return h >= partition.part_begin[r] && h < partition.part_begin[r + 1];
        }));
      }
    }
  }

  // Weights: the quadrature cost, summed per part.
  std::vector<GlobalIndex> part_weights(std::size_t(parts), 0);
  for (Index e = 0; e < n; ++e) {
    BOOST_TEST(partition.element_weights[e] == element_quadrature_cost(mesh, e));
    part_weights[partition.part_of_element[e]] += partition.element_weights[e];
  }
  BOOST_TEST(partition.part_weights == part_weights, boost::test_tools::per_element());
}

// METIS keeps max part weight ≤ tolerance × mean, moving whole elements: a part just under the
// limit may take one more element, so max / mean ≤ tolerance + (largest element weight) / mean.
void check_balance(const MeshPartition& partition) {
  const GlobalIndex total = std::accumulate(partition.element_weights.begin(),
                                            partition.element_weights.end(), GlobalIndex(0));
  const double mean = double(total) / partition.part_count;
  const GlobalIndex heaviest =
      *std::max_element(partition.element_weights.begin(), partition.element_weights.end());
  const double bound = mesh_partition_imbalance_tolerance + double(heaviest) / mean;
  BOOST_TEST_MESSAGE("imbalance " << partition.load_imbalance() << ", bound " << bound << ", "
                                  << partition.disconnected_part_count << " disconnected parts");
  BOOST_TEST(partition.load_imbalance() <= bound);
  BOOST_TEST(partition.empty_part_count == 0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(two_dimensional_agglomerated_mesh) {
  const PolytopicMesh<2> mesh = square_mesh(24, 150);
  for (int parts : {2, 4, 7}) {
    BOOST_TEST_CONTEXT(parts << " parts") {
      const MeshPartition partition = partition_mesh(mesh, parts);
      check_partition(mesh, partition, parts);
      check_balance(partition);
    }
  }
}

BOOST_AUTO_TEST_CASE(mixed_degrees_balance_quadrature_cost_not_element_count) {
  // Every third element has degree 4, the rest degree 1: their rules differ in points, so the
  // weights differ and parts balance the weight.
  std::vector<int> degrees(400);
  for (std::size_t e = 0; e < degrees.size(); ++e) degrees[e] = e % 3 == 0 ? 4 : 1;
  const PolytopicMesh<2> mesh = square_mesh(24, 150, degrees);
  // Points per sub-simplex: cost / sub-simplices, compared without division.
  const GlobalIndex simplices_0 = GlobalIndex(mesh.element_simplices(0).size());
  const GlobalIndex simplices_1 = GlobalIndex(mesh.element_simplices(1).size());
  BOOST_TEST(element_quadrature_cost(mesh, 0) * simplices_1 >
             element_quadrature_cost(mesh, 1) * simplices_0);
  const MeshPartition partition = partition_mesh(mesh, 5);
  check_partition(mesh, partition, 5);
  check_balance(partition);
}

BOOST_AUTO_TEST_CASE(three_dimensional_agglomerated_mesh) {
  const PolytopicMesh<3> mesh = cube_mesh(6, 120);
  for (int parts : {3, 8}) {
    BOOST_TEST_CONTEXT(parts << " parts") {
      const MeshPartition partition = partition_mesh(mesh, parts);
      check_partition(mesh, partition, parts);
      check_balance(partition);
    }
  }
}

BOOST_AUTO_TEST_CASE(one_part_is_the_identity) {
  const PolytopicMesh<2> mesh = square_mesh(12, 30);
  const MeshPartition partition = partition_mesh(mesh, 1);
  check_partition(mesh, partition, 1);
  std::vector<Index> identity(std::size_t(mesh.element_count()));
  std::iota(identity.begin(), identity.end(), 0);
  BOOST_TEST(partition.new_from_old == identity, boost::test_tools::per_element());
  BOOST_TEST(partition.ghosts[0].empty());
  BOOST_TEST(partition.halo_interface_counts[0] == 0);
  BOOST_TEST(partition.load_imbalance() == 1.0);
}

BOOST_AUTO_TEST_CASE(as_many_parts_as_elements) {
  const PolytopicMesh<2> mesh = square_mesh(8, 10);
  const int parts = int(mesh.element_count());
  const MeshPartition partition = partition_mesh(mesh, parts);
  check_partition(mesh, partition, parts);
  BOOST_TEST_MESSAGE(partition.empty_part_count << " empty parts of " << parts);
}

BOOST_AUTO_TEST_CASE(same_seed_same_partition) {
  const PolytopicMesh<3> mesh = cube_mesh(5, 80);
  const MeshPartition first = partition_mesh(mesh, 6), second = partition_mesh(mesh, 6);
  BOOST_TEST(first.part_of_element == second.part_of_element, boost::test_tools::per_element());
  BOOST_TEST(first.new_from_old == second.new_from_old, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(bad_part_counts_are_refused_naming_the_counts) {
  const PolytopicMesh<2> mesh = square_mesh(8, 10);
  const std::string elements = std::to_string(mesh.element_count());
  BOOST_TEST(error_names([&] { partition_mesh(mesh, 0); },
                         {"partition_mesh: 0 parts requested for a mesh of " + elements +
                          " elements; need at least 1 part"}));
  BOOST_TEST(error_names([&] { partition_mesh(mesh, -2); }, {"-2 parts requested"}));
  const int too_many = int(mesh.element_count()) + 1;
  BOOST_TEST(error_names([&] { partition_mesh(mesh, too_many); },
                         {"partition_mesh: " + std::to_string(too_many) +
                              " parts requested for a mesh of only " + elements + " elements",
                          "would own no element"}));
}

BOOST_AUTO_TEST_CASE(ghost_layers_are_the_elements_within_k_interfaces) {
  const PolytopicMesh<2> mesh = square_mesh(24, 150);
  const MeshPartition partition = partition_mesh(mesh, 4);
  // Graph distances from each part, by brute force over the fine mesh's facets.
  const auto pairs = neighbour_pairs(mesh);
  const Index n = mesh.element_count();
  for (int layers : {1, 2, 3}) {
    BOOST_TEST_CONTEXT(layers << " layers") {
      const MeshPartition widened = with_ghost_layers(partition, mesh, layers);
      BOOST_TEST(widened.ghost_layers == layers);
      BOOST_TEST(widened.new_from_old == partition.new_from_old, boost::test_tools::per_element());
      for (int part = 0; part < 4; ++part) {
        std::vector<int> distance(std::size_t(n), -1);
        for (Index e = 0; e < n; ++e)
          if (partition.part_of_element[std::size_t(e)] == part) distance[std::size_t(e)] = 0;
        for (int d = 1; d <= layers; ++d)
          for (const auto& [a, b] : pairs)
            for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}})
              if (distance[std::size_t(from)] == d - 1 && distance[std::size_t(to)] < 0)
                distance[std::size_t(to)] = d;
        std::vector<Index> expected;
        for (Index e = 0; e < n; ++e)
          if (distance[std::size_t(e)] > 0)
            expected.push_back(partition.new_from_old[std::size_t(e)]);
        std::sort(expected.begin(), expected.end());
        BOOST_TEST(widened.ghosts[std::size_t(part)] == expected, boost::test_tools::per_element());
      }
    }
  }
  BOOST_TEST(error_names([&] { with_ghost_layers(partition, mesh, 0); },
                         {"with_ghost_layers: 0 ghost layers; need at least 1"}));
  BOOST_TEST(error_names([&] { with_ghost_layers(with_ghost_layers(partition, mesh, 2), mesh, 2); },
                         {"with 2 ghost layer(s)", "widen the one-layer partition"}));
}
