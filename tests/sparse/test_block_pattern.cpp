#define BOOST_TEST_MODULE block_pattern
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {
// 5 elements of mixed block sizes; element 4 has no neighbour.
BlockPattern small_pattern() {
  const std::vector<std::array<Index, 2>> interfaces = {{0, 1}, {2, 0}, {1, 3}, {2, 3}};
  return BlockPattern({3, 6, 3, 10, 1}, interfaces);
}
}  // namespace

BOOST_AUTO_TEST_CASE(rows_hold_the_diagonal_and_each_neighbour_once) {
  const BlockPattern p = small_pattern();
  BOOST_TEST(p.block_row_count() == 5);
  BOOST_TEST(p.block_count() == 5 + 2 * 4);
  BOOST_TEST(p.dof_count() == 23);
  BOOST_TEST(p.dof_offset(3) == 12);
  for (Index r = 0; r < p.block_row_count(); ++r) {
    BOOST_TEST(p.block_column(p.diagonal_block(r)) == r);
    for (Index k = p.block_row_begin(r); k + 1 < p.block_row_begin(r + 1); ++k)
      BOOST_TEST(p.block_column(k) < p.block_column(k + 1));  // ascending, no repeats
    for (Index k = p.block_row_begin(r); k < p.block_row_begin(r + 1); ++k) {
      BOOST_TEST(p.block_row(k) == r);
      BOOST_TEST(p.find_block(r, p.block_column(k)) == k);
      BOOST_TEST(p.find_block(p.block_column(k), r) >= 0);  // structurally symmetric
    }
  }
  BOOST_TEST(p.find_block(0, 3) == -1);
  BOOST_TEST(p.find_block(4, 0) == -1);
  // value count = Σ over blocks of N_r N_c
  GlobalIndex values = 0;
  for (Index k = 0; k < p.block_count(); ++k)
    values += GlobalIndex(p.block_size(p.block_row(k))) * p.block_size(p.block_column(k));
  BOOST_TEST(values == p.value_count());
}

BOOST_AUTO_TEST_CASE(values_and_unknowns_map_back_to_their_block_and_element) {
  const BlockPattern p = small_pattern();
  for (Index k = 0; k < p.block_count(); ++k) {
    BOOST_TEST(p.block_of_value(p.block_value_offset(k)) == k);
    BOOST_TEST(p.block_of_value(p.block_value_offset(k + 1) - 1) == k);
  }
  for (Index e = 0; e < p.block_row_count(); ++e) {
    BOOST_TEST(p.block_row_of_dof(p.dof_offset(e)) == e);
    BOOST_TEST(p.block_row_of_dof(p.dof_offset(e + 1) - 1) == e);
  }
  const std::string values = std::to_string(p.value_count());
  BOOST_TEST(error_names(
      [&] { (void)p.block_of_value(p.value_count()); },
      {"BlockPattern::block_of_value: value " + values + " is outside [0, " + values + ")"}));
  BOOST_TEST(error_names([&] { (void)p.block_row_of_dof(-1); },
                         {"BlockPattern::block_row_of_dof: unknown -1 is outside [0, 23)"}));
}

BOOST_AUTO_TEST_CASE(coo_indices_and_multiply_agree_with_entry) {
  auto pattern = std::make_shared<const BlockPattern>(small_pattern());
  BlockMatrix<double> matrix(pattern);
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (double& v : matrix.values()) v = uniform(random);
  const GlobalIndex n = pattern->dof_count();
  std::vector<GlobalIndex> rows(pattern->value_count()), columns(pattern->value_count());
  pattern->coo_indices(rows, columns);
  std::set<std::pair<GlobalIndex, GlobalIndex>> seen;
  for (GlobalIndex v = 0; v < pattern->value_count(); ++v) {
    BOOST_TEST(matrix.entry(rows[v], columns[v]) == matrix.values()[v]);
    BOOST_TEST(seen.insert({rows[v], columns[v]}).second);  // no entry twice
  }
  std::vector<double> x(n), y(n);
  for (double& v : x) v = uniform(random);
  matrix.multiply(x, y);
  for (GlobalIndex i = 0; i < n; ++i) {
    double expected = 0;
    for (GlobalIndex j = 0; j < n; ++j) expected += matrix.entry(i, j) * x[j];
    BOOST_TEST(std::abs(y[i] - expected) <= 1e-14 * (1 + std::abs(expected)));
  }
}

BOOST_AUTO_TEST_CASE(bad_interfaces_are_rejected) {
  const std::vector<std::array<Index, 2>> self = {{1, 1}};
  BOOST_TEST(error_names(
      [&] {
        BlockPattern({3, 3}, self);
      },
      {"BlockPattern: interface 0 joins element 1 to itself"}));
  const std::vector<std::array<Index, 2>> outside = {{0, 2}};
  BOOST_TEST(error_names(
      [&] {
        BlockPattern({3, 3}, outside);
      },
      {"BlockPattern: interface 0 joins elements (0, 2) outside [0, 2)"}));
  const std::vector<std::array<Index, 2>> repeated = {{0, 1}, {1, 0}};
  BOOST_TEST(error_names(
      [&] {
        BlockPattern({3, 3}, repeated);
      },
      {"BlockPattern: the pair (0, 1) is listed by more than one interface"}));
  BOOST_TEST(error_names(
      [] {
        BlockPattern({3, 0}, {});
      },
      {"BlockPattern: element 1 has block size 0"}));
}

namespace {
/// A = B + Bᵀ on small_pattern() (hp blocks, an element without neighbours), B random.
BlockMatrix<double> symmetric_matrix() {
  auto pattern = std::make_shared<const BlockPattern>(small_pattern());
  BlockMatrix<double> b(pattern), a(pattern);
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (double& v : b.values()) v = uniform(random);
  std::vector<GlobalIndex> rows(pattern->value_count()), columns(pattern->value_count());
  pattern->coo_indices(rows, columns);
  for (std::size_t k = 0; k < rows.size(); ++k)
    a.values()[k] = b.entry(rows[k], columns[k]) + b.entry(columns[k], rows[k]);
  return a;
}

/// The index in values() of entry (row, column).
std::size_t value_index(const BlockPattern& p, GlobalIndex row, GlobalIndex column) {
  std::vector<GlobalIndex> rows(p.value_count()), columns(p.value_count());
  p.coo_indices(rows, columns);
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (rows[k] == row && columns[k] == column) return k;
  raise("no entry (", row, ", ", column, ")");
}
}  // namespace

// is_symmetric compares each block pair (r, c), (c, r) relative to the pair's largest value:
// a change of 1e-12 of that scale is rounding, one of 1e-8 is not, and a NaN never is.
BOOST_AUTO_TEST_CASE(is_symmetric_tells_a_transpose_apart_relative_to_the_block_pair) {
  const BlockMatrix<double> a = symmetric_matrix();
  BOOST_TEST(a.is_symmetric(symmetry_tolerance));
  const BlockPattern& p = a.pattern();
  // Entry (1, 5): element 0 (rows 0..2) against element 1 (rows 3..8), and a diagonal-block
  // entry (4, 6) of element 1.
  for (const auto& [row, column] : {std::pair<GlobalIndex, GlobalIndex>{1, 5}, {4, 6}}) {
    BOOST_TEST_CONTEXT("entry (" << row << ", " << column << ")") {
      double scale = 0;
      const Index r = p.block_row_of_dof(row), c = p.block_row_of_dof(column);
      for (const Index block : {p.find_block(r, c), p.find_block(c, r)})
        for (const double v : a.block_values(block)) scale = std::max(scale, std::abs(v));
      const std::size_t k = value_index(p, row, column);
      BlockMatrix<double> changed = a;
      changed.values()[k] += 1e-12 * scale;
      BOOST_TEST(changed.is_symmetric(symmetry_tolerance));
      changed.values()[k] = a.values()[k] + 1e-8 * scale;
      BOOST_TEST(!changed.is_symmetric(symmetry_tolerance));
      changed.values()[k] = std::numeric_limits<double>::quiet_NaN();
      BOOST_TEST(!changed.is_symmetric(symmetry_tolerance));
    }
  }
  // A random matrix is not symmetric; a zero one is.
  BlockMatrix<double> random(a.shared_pattern());
  std::mt19937_64 generator(4);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (double& v : random.values()) v = uniform(generator);
  BOOST_TEST(!random.is_symmetric(symmetry_tolerance));
  BOOST_TEST(BlockMatrix<double>(a.shared_pattern()).is_symmetric(symmetry_tolerance));
  BOOST_CHECK_THROW(is_symmetric(p, std::span<const double>(a.values()).first(3), 1e-10), Error);
}
