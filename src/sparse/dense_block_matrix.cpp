#include "polydg/sparse/dense_block_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/sparse/invert_blocks.hpp"

namespace polydg {

namespace {

// Rows per CPU tile: the tile's gathered x (K × 32) and sums (N × 32) stay in L1/L2, and the
// innermost loop runs over 32 consecutive l, i.e. over contiguous values.
constexpr Index kTileRows = 32;

struct GroupKey {
  Index row_size, column_width;
  friend bool operator<(const GroupKey& a, const GroupKey& b) {
    return a.row_size != b.row_size ? a.row_size < b.row_size : a.column_width < b.column_width;
  }
  friend bool operator==(const GroupKey& a, const GroupKey& b) = default;
};

// A run of consecutive exact keys of one row size, merged into one group of width `width`.
struct KeyCluster {
  Index row_size, width;
  GlobalIndex rows;
  std::size_t last_key;
};

// Merges adjacent clusters of equal row size, the one adding the least padding first, until at
// most `max_count` remain (or no two share a row size). Returns the padded width of each key.
std::vector<Index> merge_keys(std::span<const GroupKey> keys, std::span<const GlobalIndex> rows,
                              std::size_t max_count) {
  std::vector<KeyCluster> clusters;
  for (std::size_t key = 0; key < keys.size(); ++key)
    clusters.push_back({keys[key].row_size, keys[key].column_width, rows[key], key});
  while (clusters.size() > max_count) {
    std::size_t cheapest = clusters.size();
    GlobalIndex cheapest_cost = std::numeric_limits<GlobalIndex>::max();
    for (std::size_t c = 0; c + 1 < clusters.size(); ++c) {
      if (clusters[c].row_size != clusters[c + 1].row_size) continue;
      // The rows of cluster c are padded from its width up to the next cluster's.
      const GlobalIndex cost = clusters[c].rows * clusters[c].row_size *
                               GlobalIndex(clusters[c + 1].width - clusters[c].width);
      if (cost < cheapest_cost) cheapest = c, cheapest_cost = cost;
    }
    if (cheapest == clusters.size()) break;  // one cluster per row size: nothing left to merge
    clusters[cheapest + 1].rows += clusters[cheapest].rows;
    clusters.erase(clusters.begin() + std::ptrdiff_t(cheapest));
  }
  std::vector<Index> widths(keys.size());
  std::size_t key = 0;
  for (const KeyCluster& cluster : clusters)
    for (; key <= cluster.last_key; ++key) widths[key] = cluster.width;
  return widths;
}

/// "R block rows, B blocks, V values": tells two patterns apart in an error message.
std::string pattern_sizes(const BlockPattern& p) {
  return std::to_string(p.block_row_count()) + " block rows, " + std::to_string(p.block_count()) +
         " blocks, " + std::to_string(p.value_count()) + " values";
}

bool same_structure(const BlockPattern& a, const BlockPattern& b) {
  if (&a == &b) return true;
  if (a.block_row_count() != b.block_row_count() || a.block_count() != b.block_count() ||
      a.value_count() != b.value_count())
    return false;
  for (Index e = 0; e < a.block_row_count(); ++e)
    if (a.block_size(e) != b.block_size(e) || a.block_row_begin(e) != b.block_row_begin(e))
      return false;
  for (Index k = 0; k < a.block_count(); ++k)
    if (a.block_column(k) != b.block_column(k)) return false;
  return true;
}

void check_size(const char* where, const char* name, std::size_t size, GlobalIndex expected) {
  require(GlobalIndex(size) == expected, "DenseBlockMatrix::", where, ": ", name, " has ", size,
          " entries, expected ", expected);
}

}  // namespace

std::vector<double> invert_diagonal_blocks(std::span<const Index> block_sizes,
                                           std::vector<double> blocks, std::string_view caller) {
  const Index elements = Index(block_sizes.size());
  std::vector<GlobalIndex> offsets(block_sizes.size());  // where element e's block starts
  GlobalIndex total = 0;
  for (Index e = 0; e < elements; ++e) {
    require(block_sizes[e] >= 0, caller, ": element ", e, " has block size ", block_sizes[e]);
    offsets[e] = total;
    total += GlobalIndex(block_sizes[e]) * block_sizes[e];
  }
  require(GlobalIndex(blocks.size()) == total, caller, ": ", blocks.size(),
          " block values given, the ", elements, " diagonal blocks have ", total);
  ParallelErrors errors;
#pragma omp parallel
  {
    std::vector<double> lu, column;
    std::vector<Index> pivots;
#pragma omp for schedule(dynamic, 16)
    for (Index e = 0; e < elements; ++e) {
      const Index n = block_sizes[e];
      if (n == 0) continue;
      double* const block = blocks.data() + offsets[e];
      lu.assign(block, block + std::size_t(n) * n);
      double scale = 0;
      for (const double v : lu) scale = std::max(scale, std::abs(v));
      // LU with partial pivoting; a pivot below n ε max|A_ee| (or not finite) counts as
      // singular.
      const double tiny = n * std::numeric_limits<double>::epsilon() * scale;
      pivots.resize(n);
      bool singular = !(scale > 0) || !std::isfinite(scale);
      for (Index col = 0; col < n && !singular; ++col) {
        Index pivot = col;
        for (Index i = col + 1; i < n; ++i)
          if (std::abs(lu[i * n + col]) > std::abs(lu[pivot * n + col])) pivot = i;
        if (!(std::abs(lu[pivot * n + col]) > tiny)) {
          singular = true;
          break;
        }
        pivots[col] = pivot;
        if (pivot != col)
          for (Index j = 0; j < n; ++j) std::swap(lu[col * n + j], lu[pivot * n + j]);
        for (Index i = col + 1; i < n; ++i) {
          const double factor = lu[i * n + col] /= lu[col * n + col];
          for (Index j = col + 1; j < n; ++j) lu[i * n + j] -= factor * lu[col * n + j];
        }
      }
      if (singular) {
        errors.record(e, detail::concatenate(caller, ": the diagonal block of element ", e, " (", n,
                                             " × ", n, ") is singular"));
        continue;
      }
      // Solve L U X = P I column by column, into the block's place.
      for (Index col = 0; col < n; ++col) {
        // b = P e_col: the unit vector with the row swaps applied in order.
        column.assign(n, 0.0);
        column[col] = 1;
        for (Index i = 0; i < n; ++i) std::swap(column[i], column[pivots[i]]);
        for (Index i = 0; i < n; ++i)
          for (Index j = 0; j < i; ++j) column[i] -= lu[i * n + j] * column[j];
        for (Index i = n - 1; i >= 0; --i) {
          for (Index j = i + 1; j < n; ++j) column[i] -= lu[i * n + j] * column[j];
          column[i] /= lu[i * n + i];
        }
        for (Index i = 0; i < n; ++i) block[i * n + col] = column[i];
      }
    }
  }
  errors.rethrow();
  return blocks;
}

template <class Real>
DenseBlockMatrix<Real>::DenseBlockMatrix(const BlockMatrix<Real>& matrix, Index max_group_count,
                                         Index slice_rows)
    : pattern_(matrix.shared_pattern()) {
  require(pattern_ != nullptr, "DenseBlockMatrix: the BlockMatrix has no pattern");
  require(max_group_count >= 0, "DenseBlockMatrix: max_group_count = ", max_group_count,
          " (0 for exact grouping, or a positive cap)");
  require(slice_rows >= default_slices, "DenseBlockMatrix: slice_rows = ", slice_rows,
          " (default_slices = -1, 0 for whole groups, or block rows per slice)");
  const BlockPattern& p = *pattern_;
  const Index row_total = p.block_row_count();

  // Each row's key and, per block, the column k at which it starts in its row.
  std::vector<GroupKey> row_keys(row_total);
  std::vector<Index> block_starts(p.block_count());
  for (Index r = 0; r < row_total; ++r) {
    Index width = 0;
    for (Index block = p.block_row_begin(r); block < p.block_row_begin(r + 1); ++block) {
      block_starts[block] = width;
      width += p.block_size(p.block_column(block));
    }
    row_keys[r] = {p.block_size(r), width};
  }

  // Exact keys, then (optionally) merged widths; groups are the distinct (N, padded K).
  std::vector<GroupKey> keys(row_keys);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const auto key_of = [&keys](const GroupKey& key) {
    return std::size_t(std::lower_bound(keys.begin(), keys.end(), key) - keys.begin());
  };
  std::vector<GlobalIndex> key_rows(keys.size(), 0);
  for (const GroupKey& key : row_keys) ++key_rows[key_of(key)];
  std::vector<Index> key_widths(keys.size());
  for (std::size_t key = 0; key < keys.size(); ++key) key_widths[key] = keys[key].column_width;
  if (max_group_count > 0) key_widths = merge_keys(keys, key_rows, std::size_t(max_group_count));
  std::vector<Index> key_groups(keys.size());
  for (std::size_t key = 0; key < keys.size(); ++key) {
    const bool new_group = key == 0 || keys[key].row_size != keys[key - 1].row_size ||
                           key_widths[key] != key_widths[key - 1];
    if (new_group) {
      DenseBlockGroup group;
      group.row_size = keys[key].row_size;
      group.column_width = key_widths[key];
      groups_.push_back(group);
    }
    key_groups[key] = Index(groups_.size()) - 1;
  }

  // Each row's group; with slices, a group's rows (in ascending block row) are cut into runs
  // of its slice length, each a group of its own.
  row_groups_.resize(row_total);
  for (Index r = 0; r < row_total; ++r) row_groups_[r] = key_groups[key_of(row_keys[r])];
  if (slice_rows != 0) {
    std::vector<Index> group_rows(groups_.size(), 0), lengths(groups_.size()),
        first_slice(groups_.size());
    for (Index r = 0; r < row_total; ++r) ++group_rows[row_groups_[r]];
    std::vector<DenseBlockGroup> slices;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      lengths[g] = slice_rows > 0 ? slice_rows : default_slice_rows(groups_[g].row_size);
      first_slice[g] = Index(slices.size());
      slices.insert(slices.end(), std::size_t((group_rows[g] + lengths[g] - 1) / lengths[g]),
                    groups_[g]);
    }
    std::vector<Index> seen(groups_.size(), 0);
    for (Index r = 0; r < row_total; ++r) {
      const Index g = row_groups_[r];
      row_groups_[r] = first_slice[g] + seen[g]++ / lengths[g];
    }
    groups_ = std::move(slices);
  }

  // Rows of each group in ascending block row; the group offsets.
  for (Index r = 0; r < row_total; ++r) {
    DenseBlockGroup& group = groups_[row_groups_[r]];
    ++group.row_count;
    group.slot_count = std::max(group.slot_count, p.block_row_begin(r + 1) - p.block_row_begin(r));
  }
  Index first_row = 0;
  GlobalIndex first_value = 0, first_slot = 0, first_inflated = 0;
  for (DenseBlockGroup& group : groups_) {
    group.first_row = first_row;
    group.first_value = first_value;
    group.first_slot = first_slot;
    group.first_inflated = first_inflated;
    const GlobalIndex rows = group.row_count;
    first_row += group.row_count;
    first_value += GlobalIndex(group.column_width) * group.row_size * rows;
    first_slot += GlobalIndex(group.slot_count) * rows;
    first_inflated += GlobalIndex(group.column_width) * rows;
  }
  inflated_size_ = first_inflated;

  // row_groups_ so far is indexed by block row; reorder everything by row position.
  element_rows_.resize(row_total);
  row_block_rows_.resize(row_total);
  {
    std::vector<Index> fill(groups_.size());
    for (std::size_t g = 0; g < groups_.size(); ++g) fill[g] = groups_[g].first_row;
    std::vector<Index> groups_by_position(row_total);
    for (Index r = 0; r < row_total; ++r) {
      const Index position = fill[row_groups_[r]]++;
      element_rows_[r] = position;
      row_block_rows_[position] = r;
      groups_by_position[position] = row_groups_[r];
    }
    row_groups_ = std::move(groups_by_position);
  }

  row_dof_offsets_.resize(row_total);
  row_diagonal_columns_.resize(row_total);
  slot_column_dof_offsets_.assign(first_slot, 0);
  slot_column_sizes_.assign(first_slot, 0);
  slot_transpose_offsets_.assign(first_slot, 0);
  slot_transpose_strides_.assign(first_slot, 0);
#pragma omp parallel for schedule(static)
  for (Index position = 0; position < row_total; ++position) {
    const DenseBlockGroup& group = groups_[row_groups_[position]];
    const Index l = position - group.first_row, r = row_block_rows_[position];
    row_dof_offsets_[position] = p.dof_offset(r);
    row_diagonal_columns_[position] = block_starts[p.diagonal_block(r)];
    for (Index block = p.block_row_begin(r); block < p.block_row_begin(r + 1); ++block) {
      const GlobalIndex slot =
          group.first_slot + GlobalIndex(block - p.block_row_begin(r)) * group.row_count + l;
      const Index c = p.block_column(block);
      slot_column_dof_offsets_[slot] = p.dof_offset(c);
      slot_column_sizes_[slot] = p.block_size(c);
      // Block (c, r) in row c's group: its entry (i, j) at first + (j N_c + i) G_c.
      const Index transposed = p.find_block(c, r);
      const Index c_position = element_rows_[c];
      const DenseBlockGroup& c_group = groups_[row_groups_[c_position]];
      slot_transpose_offsets_[slot] =
          c_group.first_value +
          GlobalIndex(block_starts[transposed]) * c_group.row_size * c_group.row_count +
          (c_position - c_group.first_row);
      slot_transpose_strides_[slot] = c_group.row_count;
    }
  }

  for (std::size_t g = 0; g < groups_.size(); ++g)
    for (Index l = 0; l < groups_[g].row_count; l += kTileRows) tiles_.push_back({Index(g), l});

  values_.assign(first_value, Real(0));  // padding stays zero: update_values never writes it
  update_values(matrix);
}

template <class Real>
void DenseBlockMatrix<Real>::update_values(const BlockMatrix<Real>& matrix) {
  require(pattern_ != nullptr, "DenseBlockMatrix::update_values: the matrix was never built");
  require(matrix.shared_pattern() != nullptr,
          "DenseBlockMatrix::update_values: the BlockMatrix has no pattern");
  require(same_structure(*pattern_, matrix.pattern()),
          "DenseBlockMatrix::update_values: the BlockMatrix's pattern (",
          pattern_sizes(matrix.pattern()),
          ") differs from the one this DenseBlockMatrix was built "
          "from (",
          pattern_sizes(*pattern_), ")");
  const BlockPattern& p = *pattern_;
  const Real* const source = matrix.values().data();
  Real* const target = values_.data();
  // Tile by tile, so the writes run along l (whole cache lines) instead of one scattered write
  // per value; each row's source column k is (first value of column k, row stride).
#pragma omp parallel
  {
    std::vector<GlobalIndex> column_starts;
    std::vector<Index> column_strides;
#pragma omp for schedule(dynamic, 8)
    for (std::size_t t = 0; t < tiles_.size(); ++t) {
      const DenseBlockGroup& group = groups_[tiles_[t][0]];
      const Index first = tiles_[t][1], rows = std::min(kTileRows, group.row_count - first);
      const Index n = group.row_size, width = group.column_width;
      column_starts.assign(std::size_t(width) * kTileRows, -1);  // −1: padding, left zero
      column_strides.assign(std::size_t(width) * kTileRows, 0);
      for (Index l = 0; l < rows; ++l) {
        const Index r = row_block_rows_[group.first_row + first + l];
        Index k = 0;
        for (Index block = p.block_row_begin(r); block < p.block_row_begin(r + 1); ++block) {
          const Index columns = p.block_size(p.block_column(block));
          for (Index j = 0; j < columns; ++j, ++k) {
            column_starts[std::size_t(k) * kTileRows + l] = p.block_value_offset(block) + j;
            column_strides[std::size_t(k) * kTileRows + l] = columns;
          }
        }
      }
      for (Index k = 0; k < width; ++k)
        for (Index i = 0; i < n; ++i) {
          Real* out =
              target + group.first_value + (GlobalIndex(k) * n + i) * group.row_count + first;
          const GlobalIndex* starts = column_starts.data() + std::size_t(k) * kTileRows;
          const Index* strides = column_strides.data() + std::size_t(k) * kTileRows;
          for (Index l = 0; l < rows; ++l)
            if (starts[l] >= 0) out[l] = source[starts[l] + GlobalIndex(i) * strides[l]];
        }
    }
  }
}

template <class Real>
void DenseBlockMatrix<Real>::contract_tiles(const Real* x, const Real* inflated, const Real* z,
                                            Real* y) const {
#pragma omp parallel
  {
    std::vector<Real> gathered, sums;
#pragma omp for schedule(dynamic, 8)
    for (std::size_t t = 0; t < tiles_.size(); ++t) {
      const DenseBlockGroup& group = groups_[tiles_[t][0]];
      const Index first = tiles_[t][1], rows = std::min(kTileRows, group.row_count - first);
      const Index n = group.row_size, width = group.column_width;
      const GlobalIndex stride = group.row_count;
      const Real* columns;  // X[k][l] of the tile at columns[k * column_stride + l]
      GlobalIndex column_stride;
      if (inflated != nullptr) {
        columns = inflated + group.first_inflated + first;
        column_stride = stride;
      } else {
        gathered.assign(std::size_t(width) * kTileRows, Real(0));
        for (Index l = 0; l < rows; ++l) {
          Index k = 0;
          for (Index b = 0; b < group.slot_count; ++b) {
            const GlobalIndex slot = group.first_slot + b * stride + first + l;
            const Real* in = x + slot_column_dof_offsets_[slot];
            for (Index j = 0; j < slot_column_sizes_[slot]; ++j, ++k)
              gathered[std::size_t(k) * kTileRows + l] = in[j];
          }
        }
        columns = gathered.data();
        column_stride = kTileRows;
      }
      sums.assign(std::size_t(n) * kTileRows, Real(0));
      for (Index k = 0; k < width; ++k) {
        const Real* x_k = columns + k * column_stride;
        for (Index i = 0; i < n; ++i) {
          const Real* a =
              values_.data() + group.first_value + (GlobalIndex(k) * n + i) * stride + first;
          Real* sum = sums.data() + std::size_t(i) * kTileRows;
          for (Index l = 0; l < rows; ++l) sum[l] += a[l] * x_k[l];
        }
      }
      for (Index l = 0; l < rows; ++l) {
        const GlobalIndex offset = row_dof_offsets_[group.first_row + first + l];
        for (Index i = 0; i < n; ++i) {
          const Real added = z != nullptr ? z[offset + i] : Real(0);  // read before y (z = y)
          y[offset + i] = sums[std::size_t(i) * kTileRows + l] + added;
        }
      }
    }
  }
}

template <class Real>
void DenseBlockMatrix<Real>::multiply(std::span<const Real> x, std::span<Real> y) const {
  check_size("multiply", "x", x.size(), dof_count());
  check_size("multiply", "y", y.size(), dof_count());
  contract_tiles(x.data(), nullptr, nullptr, y.data());
}

template <class Real>
void DenseBlockMatrix<Real>::multiply_add(std::span<const Real> x, std::span<const Real> z,
                                          std::span<Real> y) const {
  check_size("multiply_add", "x", x.size(), dof_count());
  check_size("multiply_add", "z", z.size(), dof_count());
  check_size("multiply_add", "y", y.size(), dof_count());
  contract_tiles(x.data(), nullptr, z.data(), y.data());
}

template <class Real>
void DenseBlockMatrix<Real>::inflate(std::span<const Real> x, std::span<Real> inflated) const {
  check_size("inflate", "x", x.size(), dof_count());
  check_size("inflate", "the inflated vector", inflated.size(), inflated_size_);
#pragma omp parallel for schedule(static)
  for (Index position = 0; position < Index(row_block_rows_.size()); ++position) {
    const DenseBlockGroup& group = groups_[row_groups_[position]];
    const GlobalIndex l = position - group.first_row, rows = group.row_count;
    Real* out = inflated.data() + group.first_inflated + l;
    GlobalIndex k = 0;
    for (Index b = 0; b < group.slot_count; ++b) {
      const GlobalIndex slot = group.first_slot + b * rows + l;
      const Real* in = x.data() + slot_column_dof_offsets_[slot];
      for (Index j = 0; j < slot_column_sizes_[slot]; ++j, ++k) out[k * rows] = in[j];
    }
    for (; k < group.column_width; ++k) out[k * rows] = Real(0);  // padding
  }
}

template <class Real>
void DenseBlockMatrix<Real>::contract(std::span<const Real> inflated, std::span<Real> y) const {
  check_size("contract", "the inflated vector", inflated.size(), inflated_size_);
  check_size("contract", "y", y.size(), dof_count());
  contract_tiles(nullptr, inflated.data(), nullptr, y.data());
}

template <class Real>
void DenseBlockMatrix<Real>::multiply_transpose(std::span<const Real> x, std::span<Real> y) const {
  check_size("multiply_transpose", "x", x.size(), dof_count());
  check_size("multiply_transpose", "y", y.size(), dof_count());
  // Row r of Aᵀ x gathers the transposed blocks (c, r) of its neighbours: one writer per entry.
#pragma omp parallel for schedule(dynamic, 64)
  for (Index position = 0; position < Index(row_block_rows_.size()); ++position) {
    const DenseBlockGroup& group = groups_[row_groups_[position]];
    const GlobalIndex l = position - group.first_row, rows = group.row_count;
    Real* out = y.data() + row_dof_offsets_[position];
    for (Index j = 0; j < group.row_size; ++j) {
      Real sum = 0;
      for (Index b = 0; b < group.slot_count; ++b) {
        const GlobalIndex slot = group.first_slot + b * rows + l;
        const Index n = slot_column_sizes_[slot];
        const Real* in = x.data() + slot_column_dof_offsets_[slot];
        const Real* a = values_.data() + slot_transpose_offsets_[slot];
        const GlobalIndex stride = slot_transpose_strides_[slot];
        for (Index i = 0; i < n; ++i) sum += a[(GlobalIndex(j) * n + i) * stride] * in[i];
      }
      out[j] = sum;
    }
  }
}

template <class Real>
void DenseBlockMatrix<Real>::diagonal(std::span<Real> d) const {
  check_size("diagonal", "d", d.size(), dof_count());
#pragma omp parallel for schedule(static)
  for (Index position = 0; position < Index(row_block_rows_.size()); ++position) {
    const DenseBlockGroup& group = groups_[row_groups_[position]];
    const GlobalIndex l = position - group.first_row, rows = group.row_count;
    const GlobalIndex start = row_diagonal_columns_[position], n = group.row_size;
    for (Index i = 0; i < n; ++i)
      d[row_dof_offsets_[position] + i] =
          values_[group.first_value + ((start + i) * n + i) * rows + l];
  }
}

template <class Real>
std::vector<Real> DenseBlockMatrix<Real>::inverted_block_diagonal(Index block_rows) const {
  const BlockPattern& p = *pattern_;
  require(block_rows >= 0 && block_rows <= p.block_row_count(),
          "DenseBlockMatrix::inverted_block_diagonal: ", block_rows, " block rows of ",
          p.block_row_count());
  const Index elements = block_rows;
  std::vector<Index> sizes(static_cast<std::size_t>(elements));
  std::vector<GlobalIndex> offsets(static_cast<std::size_t>(elements));  // element e's block
  GlobalIndex total = 0;
  for (Index e = 0; e < elements; ++e) {
    sizes[e] = p.block_size(e);
    offsets[e] = total;
    total += GlobalIndex(sizes[e]) * sizes[e];
  }
  // The diagonal blocks A_ee row-major, in double whatever Real is.
  std::vector<double> blocks(static_cast<std::size_t>(total));
#pragma omp parallel for schedule(static)
  for (Index e = 0; e < elements; ++e) {
    const Index position = element_rows_[e];
    const DenseBlockGroup& group = groups_[row_groups_[position]];
    const GlobalIndex l = position - group.first_row, rows = group.row_count;
    const GlobalIndex start = row_diagonal_columns_[position];
    const Index n = group.row_size;
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j)
        blocks[offsets[e] + GlobalIndex(i) * n + j] =
            double(values_[group.first_value + ((start + j) * n + i) * rows + l]);
  }
  blocks =
      invert_diagonal_blocks(sizes, std::move(blocks), "DenseBlockMatrix::inverted_block_diagonal");
  if constexpr (std::is_same_v<Real, double>) {
    return blocks;
  } else {
    return std::vector<Real>(blocks.begin(), blocks.end());
  }
}

template <class Real>
Index DenseBlockMatrix<Real>::default_slice_rows(Index row_size) {
  return row_size < 20 ? 1024 : 32;
}

template <class Real>
double DenseBlockMatrix<Real>::padding_ratio() const {
  const GlobalIndex stored = GlobalIndex(values_.size()), exact = pattern_->value_count();
  return exact == 0 ? 0.0 : double(stored) / double(exact) - 1.0;
}

template class DenseBlockMatrix<float>;
template class DenseBlockMatrix<double>;

}  // namespace polydg
