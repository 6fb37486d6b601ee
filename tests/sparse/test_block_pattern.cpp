#define BOOST_TEST_MODULE block_pattern
#include <boost/test/unit_test.hpp>
#include <memory>
#include <random>
#include <set>

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
