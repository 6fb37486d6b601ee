#define BOOST_TEST_MODULE element_order
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/element_order.hpp"
#include "polydg/mesh/generators.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

// All cells of the 2^k-sided sub-grid at the origin, sorted along the curve: they must take the
// positions 0 .. 2^(k Dim) − 1 (the curve starts at the origin and fills that sub-grid first), and
// consecutive cells must share a face (differ by 1 in exactly one coordinate).
template <int Dim>
void check_curve_fills_corner_by_neighbours(int k) {
  const std::uint32_t side = std::uint32_t(1) << k;
  std::vector<std::pair<std::uint64_t, std::array<std::uint32_t, Dim>>> cells;
  std::array<std::uint32_t, Dim> cell{};
  for (std::uint64_t n = 0; n < std::uint64_t(1) << (k * Dim); ++n) {
    std::uint64_t rest = n;
    for (int i = 0; i < Dim; ++i, rest /= side) cell[i] = std::uint32_t(rest % side);
    cells.push_back({hilbert_index<Dim>(cell), cell});
  }
  std::sort(cells.begin(), cells.end());
  for (std::size_t n = 0; n < cells.size(); ++n) {
    BOOST_REQUIRE_EQUAL(cells[n].first, std::uint64_t(n));
    if (n == 0) continue;
    int distance = 0;
    for (int i = 0; i < Dim; ++i)
      distance += std::abs(int(cells[n].second[i]) - int(cells[n - 1].second[i]));
    BOOST_REQUIRE_EQUAL(distance, 1);
  }
}

// The centroid of fine cell c.
template <int Dim>
Point<Dim> centroid(const SimplexMesh<Dim>& mesh, Index c) {
  Point<Dim> sum{};
  for (const Point<Dim>& vertex : mesh.cell_points(c)) sum = sum + vertex;
  return (1.0 / (Dim + 1)) * sum;
}

// The n^Dim grid squares / cubes of the unit square / cube as elements: each cell's label is
// the square it lies in, and its coordinates are in `square_of`.
template <int Dim>
std::vector<Index> labels_by_square(const SimplexMesh<Dim>& mesh, int n,
                                    std::map<Index, std::array<int, Dim>>& square_of) {
  std::vector<Index> label(mesh.cell_count());
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    const Point<Dim> x = centroid(mesh, c);
    std::array<int, Dim> square{};
    Index flat = 0;
    for (int i = Dim - 1; i >= 0; --i) {
      square[i] = int(std::floor(x[i] * n));
      flat = flat * n + square[i];
    }
    label[c] = flat;
    square_of[flat] = square;
  }
  return label;
}

// Repairs the square labels in the Hilbert order and checks that consecutive elements are
// squares sharing a face, and that each element is one whole square.
template <int Dim>
void check_squares_follow_the_curve(const SimplexMesh<Dim>& mesh, int n) {
  std::map<Index, std::array<int, Dim>> square_of;
  const std::vector<Index> label = labels_by_square<Dim>(mesh, n, square_of);
  AgglomerationOptions options;
  options.element_order = ElementOrder::hilbert_curve;
  const Agglomeration result = repair_partition(mesh, label, options);
  BOOST_REQUIRE_EQUAL(result.element_count, Index(std::pow(n, Dim)));
  std::vector<Index> square_of_element(result.element_count, -1);
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    Index& square = square_of_element[result.element_of_cell[c]];
    BOOST_REQUIRE(square < 0 || square == label[c]);  // one square per element
    square = label[c];
  }
  for (Index e = 1; e < result.element_count; ++e) {
    const auto a = square_of.at(square_of_element[e - 1]), b = square_of.at(square_of_element[e]);
    int distance = 0;
    for (int i = 0; i < Dim; ++i) distance += std::abs(a[i] - b[i]);
    BOOST_REQUIRE_EQUAL(distance, 1);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(hilbert_index_fills_the_corner_through_neighbouring_cells) {
  check_curve_fills_corner_by_neighbours<2>(5);
  check_curve_fills_corner_by_neighbours<3>(3);
}

BOOST_AUTO_TEST_CASE(hilbert_index_of_the_far_corner_cells) {
  // The 2D curve ends at (2^b − 1, 0), the last of all 4^b positions; the index uses every bit.
  const std::uint32_t last = (std::uint32_t(1) << hilbert_bits) - 1;
  BOOST_CHECK_EQUAL(hilbert_index<2>({last, 0}), (std::uint64_t(1) << (2 * hilbert_bits)) - 1);
  BOOST_CHECK_EQUAL(hilbert_index<3>({0, 0, 0}), 0u);
  BOOST_CHECK_LT(hilbert_index<3>({last, last, last}), std::uint64_t(1) << (3 * hilbert_bits));
}

BOOST_AUTO_TEST_CASE(square_elements_follow_the_curve_in_2d) {
  check_squares_follow_the_curve(unit_square_mesh(16, 0.2), 16);
}

BOOST_AUTO_TEST_CASE(cube_elements_follow_the_curve_in_3d) {
  const auto [vertices, cells] = testing::kuhn_unit_cube(8);
  const WarningHandler previous = set_warning_handler([](const std::string&) {});
  const SimplexMesh<3> mesh(vertices, cells);
  set_warning_handler(previous);
  check_squares_follow_the_curve(mesh, 8);
}

BOOST_AUTO_TEST_CASE(metis_elements_are_the_same_cells_renumbered) {
  const SimplexMesh<2> mesh = unit_square_mesh(30, 0.2);
  for (const PartitionMethod method : {PartitionMethod::kway, PartitionMethod::recursive_bisection,
                                       PartitionMethod::greedy_growth}) {
    AgglomerationOptions options;
    options.method = method;
    const Agglomeration first_cell = agglomerate(mesh, 150, options);
    options.element_order = ElementOrder::hilbert_curve;
    const Agglomeration hilbert = agglomerate(mesh, 150, options);
    BOOST_REQUIRE_EQUAL(hilbert.element_count, first_cell.element_count);
    BOOST_CHECK_EQUAL(hilbert.requested_count, first_cell.requested_count);
    // A bijection between the two numberings, cell by cell.
    std::vector<Index> image(first_cell.element_count, -1), preimage(hilbert.element_count, -1);
    for (Index c = 0; c < mesh.cell_count(); ++c) {
      const Index a = first_cell.element_of_cell[c], b = hilbert.element_of_cell[c];
      BOOST_REQUIRE(image[a] < 0 || image[a] == b);
      BOOST_REQUIRE(preimage[b] < 0 || preimage[b] == a);
      image[a] = b;
      preimage[b] = a;
    }
    BOOST_CHECK(hilbert.element_of_cell != first_cell.element_of_cell);
  }
}

BOOST_AUTO_TEST_CASE(bad_labels_are_named) {
  const SimplexMesh<2> mesh = unit_square_mesh(4);
  const std::vector<Index> too_short(mesh.cell_count() - 1, 0);
  BOOST_TEST(error_names([&] { hilbert_element_order(mesh, too_short, 1); },
                         {"hilbert_element_order: 31 labels given for 32 cells"}));
  std::vector<Index> labels(mesh.cell_count(), 0);
  labels[5] = 2;
  BOOST_CHECK_EXCEPTION(hilbert_element_order(mesh, labels, 2), Error, [](const Error& error) {
    return std::string(error.what()).find("cell 5 has label 2") != std::string::npos;
  });
  labels[5] = 0;
  BOOST_CHECK_EXCEPTION(hilbert_element_order(mesh, labels, 2), Error, [](const Error& error) {
    return std::string(error.what()).find("element 1 has no cells") != std::string::npos;
  });
}
