#define BOOST_TEST_MODULE dense_block_matrix
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <random>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <utility>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/ghost_column_blocks.hpp"
#include "polydg/sparse/hdg_block_pattern.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

// An hp pattern like a polytopic mesh's: 400 elements of block sizes 1, 3, 6, 10 (triangles,
// p = 0..3), each joined to 0..8 random elements among the next 40 (so 0 to ~16 neighbours).
std::shared_ptr<const BlockPattern> hp_pattern() {
  std::mt19937_64 random(11);
  const Index elements = 400;
  const std::array<Index, 4> sizes = {1, 3, 6, 10};
  std::vector<Index> block_sizes(elements);
  for (Index& size : block_sizes) size = sizes[random() % sizes.size()];
  std::set<std::array<Index, 2>> pairs;
  for (Index e = 0; e + 1 < elements; ++e) {
    const int count = int(random() % 9);
    for (int n = 0; n < count; ++n) {
      const Index other = e + 1 + Index(random() % 40);
      if (other < elements) pairs.insert({e, other});
    }
  }
  const std::vector<std::array<Index, 2>> interfaces(pairs.begin(), pairs.end());
  return std::make_shared<const BlockPattern>(std::move(block_sizes), interfaces);
}

template <class Real>
BlockMatrix<Real> random_matrix(std::shared_ptr<const BlockPattern> pattern,
                                std::uint64_t seed = 5) {
  BlockMatrix<Real> matrix(std::move(pattern));
  fill_diagonally_dominant_values(matrix, seed);
  return matrix;
}

template <class Real>
std::vector<Real> random_vector(GlobalIndex size, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<Real> v(size);
  for (Real& entry : v) entry = Real(uniform(random));
  return v;
}

// y = A x and y = Aᵀ x from the BlockMatrix block by block, in double; with `absolute`, |A| |x|
// (the scale each entry's rounding error is relative to).
template <class Real>
std::vector<double> reference_product(const BlockMatrix<Real>& matrix, std::span<const Real> x,
                                      bool transpose, bool absolute) {
  const BlockPattern& p = matrix.pattern();
  std::vector<double> y(p.dof_count(), 0.0);
  for (Index block = 0; block < p.block_count(); ++block) {
    const Index r = p.block_row(block), c = p.block_column(block);
    const Index rows = p.block_size(r), columns = p.block_size(c);
    const auto values = matrix.block_values(block);
    for (Index i = 0; i < rows; ++i)
      for (Index j = 0; j < columns; ++j) {
        const double a = values[i * columns + j];
        const GlobalIndex out = transpose ? p.dof_offset(c) + j : p.dof_offset(r) + i;
        const double in = transpose ? x[p.dof_offset(r) + i] : x[p.dof_offset(c) + j];
        y[out] += absolute ? std::abs(a * in) : a * in;
      }
  }
  return y;
}

template <class Real>
double tolerance() {
  return std::is_same_v<Real, float> ? 1e-5 : 1e-13;
}

// Largest |y − expected| / (|A| |x|) over the entries (plus z's magnitude where added).
template <class Real>
double relative_error(std::span<const Real> y, std::span<const double> expected,
                      std::span<const double> scale) {
  double worst = 0;
  for (std::size_t i = 0; i < y.size(); ++i)
    worst = std::max(worst, std::abs(double(y[i]) - expected[i]) / (scale[i] + 1e-300));
  return worst;
}

// Every product of `dense` against the BlockMatrix reference.
template <class Real>
void check_products(const BlockMatrix<Real>& matrix, const DenseBlockMatrix<Real>& dense) {
  const GlobalIndex n = matrix.pattern().dof_count();
  const std::vector<Real> x = random_vector<Real>(n, 1), z = random_vector<Real>(n, 2);
  const std::span<const Real> xs(x);
  std::vector<Real> y(n), y_block(n);

  // A x, against BlockMatrix::multiply and the double reference.
  const auto expected = reference_product(matrix, xs, false, false);
  const auto scale = reference_product(matrix, xs, false, true);
  dense.multiply(x, y);
  matrix.multiply(x, y_block);
  BOOST_TEST(relative_error<Real>(y, expected, scale) <= tolerance<Real>());
  BOOST_TEST(relative_error<Real>(y_block, expected, scale) <= tolerance<Real>());

  // The two-step product gives the same.
  std::vector<Real> inflated(dense.inflated_size());
  dense.inflate(x, inflated);
  std::fill(y.begin(), y.end(), Real(0));
  dense.contract(inflated, y);
  BOOST_TEST(relative_error<Real>(y, expected, scale) <= tolerance<Real>());

  // A x + z, into a separate y and in place (z = y).
  std::vector<double> expected_add(n), scale_add(n);
  for (GlobalIndex i = 0; i < n; ++i) {
    expected_add[i] = expected[i] + z[i];
    scale_add[i] = scale[i] + std::abs(double(z[i]));
  }
  dense.multiply_add(x, z, y);
  BOOST_TEST(relative_error<Real>(y, expected_add, scale_add) <= tolerance<Real>());
  std::vector<Real> in_place(z);
  dense.multiply_add(x, in_place, in_place);
  BOOST_TEST(relative_error<Real>(in_place, expected_add, scale_add) <= tolerance<Real>());

  // Aᵀ x.
  const auto expected_t = reference_product(matrix, xs, true, false);
  const auto scale_t = reference_product(matrix, xs, true, true);
  dense.multiply_transpose(x, y);
  BOOST_TEST(relative_error<Real>(y, expected_t, scale_t) <= tolerance<Real>());
}

// The number of blocks in each row of `pattern`, as a histogram.
std::vector<Index> blocks_per_row_histogram(const BlockPattern& pattern) {
  std::vector<Index> histogram;
  for (Index r = 0; r < pattern.block_row_count(); ++r) {
    const Index count = pattern.block_row_begin(r + 1) - pattern.block_row_begin(r);
    if (Index(histogram.size()) <= count) histogram.resize(count + 1, 0);
    ++histogram[count];
  }
  return histogram;
}

}  // namespace

BOOST_AUTO_TEST_CASE(hp_pattern_products_match_the_block_matrix) {
  const auto pattern = hp_pattern();
  const auto histogram = blocks_per_row_histogram(*pattern);
  BOOST_TEST(histogram.size() > 12u);  // variable neighbour counts, up to a dozen and more
  const auto matrix = random_matrix<double>(pattern);
  const DenseBlockMatrix<double> exact(matrix, 0, 0);  // whole groups, one per key
  BOOST_TEST(exact.padding_ratio() == 0.0);
  BOOST_TEST(exact.values().size() == std::size_t(pattern->value_count()));
  BOOST_TEST(exact.groups().size() > 20u);
  // Groups are sorted by key, each row's key equals its group's (no padding).
  for (std::size_t g = 0; g + 1 < exact.groups().size(); ++g) {
    const auto &a = exact.groups()[g], &b = exact.groups()[g + 1];
    BOOST_TEST(
        (a.row_size < b.row_size || (a.row_size == b.row_size && a.column_width < b.column_width)));
  }
  check_products(matrix, exact);

  // Capped: never fewer groups than block sizes; padding > 0 and measured; products unchanged.
  for (const Index cap : {1, 4, 8, 16}) {
    const DenseBlockMatrix<double> capped(matrix, cap, 0);
    BOOST_TEST(capped.groups().size() == std::size_t(std::max<Index>(cap, 4)));
    BOOST_TEST(capped.padding_ratio() > 0.0);
    BOOST_TEST_MESSAGE("hp pattern, " << capped.groups().size() << " groups: padding ratio "
                                      << capped.padding_ratio());
    check_products(matrix, capped);
  }
  BOOST_TEST(DenseBlockMatrix<double>(matrix, 16).padding_ratio() <
             DenseBlockMatrix<double>(matrix, 4).padding_ratio());
}

// Slices are groups of consecutive rows of one unsliced group: the same rows in the same order,
// the same values per row, so every product has the same bits.
BOOST_AUTO_TEST_CASE(slices_cut_groups_and_change_no_bits) {
  using Dense = DenseBlockMatrix<double>;
  for (const auto& [n, rows] : {std::pair{1, 1024}, {3, 1024}, {19, 1024}, {20, 32}, {105, 32}})
    BOOST_TEST(Dense::default_slice_rows(n) == rows, "N = " << n);

  const auto hp = random_matrix<double>(hp_pattern());
  const auto hdg = random_matrix<double>(
      std::make_shared<const BlockPattern>(make_hdg_block_pattern(2, 1000, 4)));  // N = 20
  for (const auto& [matrix, cap, slice_rows] :
       {std::tuple{&hp, 0, 2}, {&hp, 4, 7}, {&hdg, 0, Dense::default_slices}}) {
    const Dense whole(*matrix, cap, 0), sliced(*matrix, cap, slice_rows);
    std::size_t expected_groups = 0;
    for (const DenseBlockGroup& group : whole.groups()) {
      const Index length = slice_rows > 0 ? slice_rows : Dense::default_slice_rows(group.row_size);
      expected_groups += std::size_t((group.row_count + length - 1) / length);
    }
    BOOST_TEST(sliced.groups().size() == expected_groups);
    BOOST_TEST(sliced.groups().size() > whole.groups().size() + 10);
    for (const DenseBlockGroup& group : sliced.groups())
      BOOST_TEST(group.row_count <=
                 (slice_rows > 0 ? slice_rows : Dense::default_slice_rows(group.row_size)));
    BOOST_TEST(sliced.padding_ratio() == whole.padding_ratio());
    BOOST_TEST(std::ranges::equal(sliced.row_block_rows(), whole.row_block_rows()));

    const GlobalIndex n = whole.dof_count();
    const std::vector<double> x = random_vector<double>(n, 7), z = random_vector<double>(n, 8);
    for (const int product : {0, 1, 2, 3}) {
      std::vector<double> y_whole(n), y_sliced(n), inflated_whole(whole.inflated_size()),
          inflated_sliced(sliced.inflated_size());
      const auto apply = [&](const Dense& dense, std::vector<double>& y,
                             std::vector<double>& inflated) {
        if (product == 0) dense.multiply(x, y);
        if (product == 1) dense.multiply_add(x, z, y);
        if (product == 2) dense.multiply_transpose(x, y);
        if (product == 3) {
          dense.inflate(x, inflated);
          dense.contract(inflated, y);
        }
      };
      apply(whole, y_whole, inflated_whole);
      apply(sliced, y_sliced, inflated_sliced);
      BOOST_TEST(y_sliced == y_whole, "product " << product);
    }
    check_products(*matrix, sliced);
  }
}

BOOST_AUTO_TEST_CASE(hp_pattern_products_in_single_precision) {
  const auto matrix = random_matrix<float>(hp_pattern());
  check_products(matrix, DenseBlockMatrix<float>(matrix));
  check_products(matrix, DenseBlockMatrix<float>(matrix, 6));
}

BOOST_AUTO_TEST_CASE(hdg_patterns_have_seed_003_structure) {
  // 2D at the HDG paper's size ([Roca2011], docs/theory.md): 11,780 faces, 5 blocks per interior
  // row, 3 per boundary row.
  for (const int p : {1, 3}) {
    const BlockPattern pattern = make_hdg_block_pattern(2, 11780, p);
    BOOST_TEST(pattern.block_row_count() == 11780);
    BOOST_TEST(pattern.block_size(0) == (p + 1) * 4);
    const auto histogram = blocks_per_row_histogram(pattern);
    BOOST_TEST(histogram.size() == 6u);  // at most n_a = 5 blocks
    BOOST_TEST(histogram[5] > 11000);
    BOOST_TEST(histogram[3] > 100);
    BOOST_TEST_MESSAGE("2D HDG, 11780 faces: rows with 5 / 4 / 3 / 2 blocks: "
                       << histogram[5] << " / " << histogram[4] << " / " << histogram[3] << " / "
                       << histogram[2]);
  }
  // 3D: 7 blocks per interior row, 4 per boundary row, blocks (p+1)(p+2)/2 × 5.
  const BlockPattern pattern = make_hdg_block_pattern(3, 5000, 2);
  BOOST_TEST(pattern.block_row_count() == 5000);
  BOOST_TEST(pattern.block_size(0) == 30);
  const auto histogram = blocks_per_row_histogram(pattern);
  BOOST_TEST(histogram.size() == 8u);
  BOOST_TEST(histogram[7] > histogram[4]);
  BOOST_TEST(histogram[4] > 100);
  BOOST_TEST(hdg_max_blocks_per_row(3) == 7);
  BOOST_TEST(
      error_names([] { make_hdg_block_pattern(4, 100, 1); },
                  {"hdg_face_block_size: dimension 4 (HDG face patterns exist for 2 and 3)"}));
  // Small counts are exact too.
  for (const Index faces : {1, 2, 3, 7, 100})
    for (const int dimension : {2, 3})
      BOOST_TEST(make_hdg_block_pattern(dimension, faces, 0).block_row_count() == faces);
}

BOOST_AUTO_TEST_CASE(hdg_products_match_the_block_matrix) {
  for (const int dimension : {2, 3}) {
    const auto pattern =
        std::make_shared<const BlockPattern>(make_hdg_block_pattern(dimension, 1500, 1));
    const auto matrix = random_matrix<double>(pattern);
    const DenseBlockMatrix<double> exact(matrix);
    BOOST_TEST(exact.padding_ratio() == 0.0);
    check_products(matrix, exact);
    // One group, not sliced: the HDG paper's layout, every row padded up to n_a blocks.
    const DenseBlockMatrix<double> seed_layout(matrix, 1, 0);
    BOOST_TEST(seed_layout.groups().size() == 1u);
    const GlobalIndex n = hdg_face_block_size(dimension, 1);
    BOOST_TEST(seed_layout.values().size() ==
               std::size_t(1500 * hdg_max_blocks_per_row(dimension) * n * n));
    BOOST_TEST_MESSAGE(dimension << "D HDG, seed layout: padding ratio "
                                 << seed_layout.padding_ratio());
    check_products(matrix, seed_layout);
    const auto single = random_matrix<float>(pattern);
    check_products(single, DenseBlockMatrix<float>(single));
  }
}

BOOST_AUTO_TEST_CASE(update_values_refreshes_in_place) {
  const auto pattern = hp_pattern();
  auto matrix = random_matrix<double>(pattern, 1);
  DenseBlockMatrix<double> dense(matrix, 6);
  const double* storage = dense.values().data();
  fill_diagonally_dominant_values(matrix, 2);
  dense.update_values(matrix);
  BOOST_TEST(dense.values().data() == storage);
  check_products(matrix, dense);

  // A matrix on an equal (but distinct) pattern is accepted; another pattern is not.
  const auto copy = std::make_shared<const BlockPattern>(*pattern);
  dense.update_values(random_matrix<double>(copy, 3));
  BOOST_TEST(dense.values().data() == storage);
  const auto hdg = std::make_shared<const BlockPattern>(make_hdg_block_pattern(2, 100, 1));
  // The message tells the two patterns apart by their sizes.
  const auto sizes = [](const BlockPattern& p) {
    return "(" + std::to_string(p.block_row_count()) + " block rows, " +
           std::to_string(p.block_count()) + " blocks, " + std::to_string(p.value_count()) +
           " values)";
  };
  BOOST_TEST(error_names([&] { dense.update_values(random_matrix<double>(hdg)); },
                         {"DenseBlockMatrix::update_values: the BlockMatrix's pattern " +
                              sizes(*hdg) + " differs from",
                          "built from " + sizes(*pattern)}));
}

BOOST_AUTO_TEST_CASE(diagonal_and_inverted_block_diagonal) {
  const auto pattern = hp_pattern();
  auto matrix = random_matrix<double>(pattern);
  const DenseBlockMatrix<double> dense(matrix, 5);
  const GlobalIndex n = pattern->dof_count();
  std::vector<double> d(n);
  dense.diagonal(d);
  for (GlobalIndex i = 0; i < n; ++i) BOOST_TEST(d[i] == matrix.entry(i, i));

  const std::vector<double> inverses = dense.inverted_block_diagonal();
  GlobalIndex offset = 0;
  double worst = 0;
  for (Index e = 0; e < pattern->block_row_count(); ++e) {
    const Index size = pattern->block_size(e);
    const auto block = matrix.block_values(pattern->diagonal_block(e));
    for (Index i = 0; i < size; ++i)
      for (Index j = 0; j < size; ++j) {
        double product = 0;
        for (Index m = 0; m < size; ++m)
          product += block[i * size + m] * inverses[offset + m * size + j];
        worst = std::max(worst, std::abs(product - (i == j ? 1.0 : 0.0)));
      }
    offset += GlobalIndex(size) * size;
  }
  BOOST_TEST(offset == GlobalIndex(inverses.size()));
  BOOST_TEST(worst <= 1e-12);

  // A singular diagonal block is reported with its element.
  const Index bad = 7;
  for (double& v : matrix.block_values(pattern->diagonal_block(bad))) v = 0;
  DenseBlockMatrix<double> singular(matrix);
  try {
    (void)singular.inverted_block_diagonal();
    BOOST_FAIL("no error for a singular block");
  } catch (const Error& error) {
    BOOST_TEST(std::string(error.what()).find("element 7 ") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(size_errors_are_reported) {
  const auto matrix = random_matrix<double>(hp_pattern());
  const DenseBlockMatrix<double> dense(matrix);
  const GlobalIndex n = dense.dof_count();
  std::vector<double> good(n), short_vector(n - 1), inflated(dense.inflated_size());
  // Each names the function, the argument, its size and the size expected.
  const auto wrong = [&](const std::string& where, const std::string& name, GlobalIndex size,
                         GlobalIndex expected) {
    return "DenseBlockMatrix::" + where + ": " + name + " has " + std::to_string(size) +
           " entries, expected " + std::to_string(expected);
  };
  const GlobalIndex m = dense.inflated_size();
  BOOST_TEST(
      error_names([&] { dense.multiply(short_vector, good); }, {wrong("multiply", "x", n - 1, n)}));
  BOOST_TEST(
      error_names([&] { dense.multiply(good, short_vector); }, {wrong("multiply", "y", n - 1, n)}));
  BOOST_TEST(error_names([&] { dense.multiply_transpose(short_vector, good); },
                         {wrong("multiply_transpose", "x", n - 1, n)}));
  BOOST_TEST(error_names([&] { dense.multiply_add(good, short_vector, good); },
                         {wrong("multiply_add", "z", n - 1, n)}));
  BOOST_TEST(error_names([&] { dense.inflate(good, short_vector); },
                         {wrong("inflate", "the inflated vector", n - 1, m)}));
  BOOST_TEST(error_names([&] { dense.contract(short_vector, good); },
                         {wrong("contract", "the inflated vector", n - 1, m)}));
  BOOST_TEST(
      error_names([&] { dense.diagonal(short_vector); }, {wrong("diagonal", "d", n - 1, n)}));
  BOOST_TEST(error_names([&] { DenseBlockMatrix<double>(matrix, -1); },
                         {"DenseBlockMatrix: max_group_count = -1"}));
  BOOST_TEST(error_names([&] { DenseBlockMatrix<double>(matrix, 0, -2); },
                         {"DenseBlockMatrix: slice_rows = -2"}));
}

// What a device mirror does with the accessor arrays alone, thread (l, i) by thread, following
// the header's indexing: it must reproduce the products.
BOOST_AUTO_TEST_CASE(accessor_arrays_describe_the_layout) {
  const auto pattern = hp_pattern();
  const auto matrix = random_matrix<double>(pattern);
  const DenseBlockMatrix<double> dense(matrix, 9);
  const GlobalIndex n = pattern->dof_count();
  const std::vector<double> x = random_vector<double>(n, 4);
  std::vector<double> y(n), y_t(n), d(n);
  const auto values = dense.values();
  for (std::size_t g = 0; g < dense.groups().size(); ++g) {
    const DenseBlockGroup& group = dense.groups()[g];
    for (Index l = 0; l < group.row_count; ++l) {
      const Index row = group.first_row + l;
      BOOST_TEST(dense.row_groups()[row] == Index(g));
      BOOST_TEST(dense.element_rows()[dense.row_block_rows()[row]] == row);
      const GlobalIndex out = dense.row_dof_offsets()[row];
      for (Index i = 0; i < group.row_size; ++i) {
        double sum = 0, sum_t = 0;
        Index k = 0;
        for (Index b = 0; b < group.slot_count; ++b) {
          const GlobalIndex slot = group.first_slot + GlobalIndex(b) * group.row_count + l;
          const Index size = dense.slot_column_sizes()[slot];
          const GlobalIndex in = dense.slot_column_dof_offsets()[slot];
          for (Index j = 0; j < size; ++j, ++k) {
            sum += values[group.first_value +
                          (GlobalIndex(k) * group.row_size + i) * group.row_count + l] *
                   x[in + j];
            // Aᵀ: unknown i of this row, entry (j, i) of the transposed block (c, r).
            sum_t += values[dense.slot_transpose_offsets()[slot] +
                            (GlobalIndex(i) * size + j) * dense.slot_transpose_strides()[slot]] *
                     x[in + j];
          }
        }
        BOOST_TEST(k <= group.column_width);
        y[out + i] = sum;
        y_t[out + i] = sum_t;
        d[out + i] =
            values[group.first_value +
                   (GlobalIndex(dense.row_diagonal_columns()[row] + i) * group.row_size + i) *
                       group.row_count +
                   l];
      }
    }
  }
  const auto expected = reference_product<double>(matrix, x, false, false);
  const auto scale = reference_product<double>(matrix, x, false, true);
  const auto expected_t = reference_product<double>(matrix, x, true, false);
  const auto scale_t = reference_product<double>(matrix, x, true, true);
  BOOST_TEST(relative_error<double>(y, expected, scale) <= 1e-13);
  BOOST_TEST(relative_error<double>(y_t, expected_t, scale_t) <= 1e-13);
  for (GlobalIndex i = 0; i < n; ++i) BOOST_TEST(d[i] == matrix.entry(i, i));
}

// A rank's split of its local matrix (owned elements first, then ghosts): the product with the
// ghosts' x set to zero, plus GhostColumnBlocks' ghost columns, is A x on the owned rows, and
// the ghost rows are left as they were; the list holds exactly the pattern's blocks of an owned
// row and a ghost column. In every layout (exact, merged groups with padding, unsliced, short
// slices), with no owned and with no ghost elements.
BOOST_AUTO_TEST_CASE(ghost_columns_complete_the_product_of_the_owned_rows) {
  const auto pattern = hp_pattern();
  const auto matrix = random_matrix<double>(pattern);
  const GlobalIndex n = pattern->dof_count();
  const std::vector<double> x = random_vector<double>(n, 6);
  const auto expected = reference_product<double>(matrix, x, false, false);
  const auto scale = reference_product<double>(matrix, x, false, true);
  const Index default_slices = DenseBlockMatrix<double>::default_slices;
  const std::array<std::array<Index, 2>, 4> layouts = {
      {{0, default_slices}, {3, default_slices}, {0, 0}, {0, 16}}};
  for (const Index owned : {Index(0), Index(150), Index(397), pattern->block_row_count()}) {
    Index expected_blocks = 0;
    for (Index block = 0; block < pattern->block_count(); ++block)
      if (pattern->block_row(block) < owned && pattern->block_column(block) >= owned)
        ++expected_blocks;
    if (owned == 150) BOOST_TEST(expected_blocks > 50);  // the hp pattern joins e to e + 1..40
    const GlobalIndex owned_dofs = pattern->dof_offset(owned);
    for (const auto& [max_group_count, slice_rows] : layouts) {
      BOOST_TEST_INFO_SCOPE(owned << " owned elements, " << max_group_count << " groups, "
                                  << slice_rows << " slice rows");
      const DenseBlockMatrix<double> dense(matrix, max_group_count, slice_rows);
      const GhostColumnBlocks ghosts(dense.groups(), dense.row_dof_offsets(),
                                     dense.slot_column_dof_offsets(), dense.slot_column_sizes(),
                                     owned_dofs);
      BOOST_TEST(ghosts.block_count() == expected_blocks);
      std::vector<double> x_owned(x), y(n);
      std::fill(x_owned.begin() + owned_dofs, x_owned.end(), 0.0);
      dense.multiply(x_owned, y);
      const std::vector<double> ghost_rows(y.begin() + owned_dofs, y.end());
      ghosts.multiply_add(dense.values(), x.data() + owned_dofs, y.data());
      const auto first = [&](const auto& v) {
        return std::span<const double>(v).first(std::size_t(owned_dofs));
      };
      BOOST_TEST(relative_error<double>(first(y), first(expected), first(scale)) <= 1e-13);
      BOOST_TEST((std::vector<double>(y.begin() + owned_dofs, y.end()) == ghost_rows));
    }
  }
}
