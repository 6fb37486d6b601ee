#include "polydg/sparse/block_pattern.hpp"

#include <algorithm>

#include "polydg/core/error.hpp"

namespace polydg {

BlockPattern::BlockPattern(std::vector<Index> block_sizes,
                           std::span<const std::array<Index, 2>> interfaces)
    : block_sizes_(std::move(block_sizes)) {
  const Index rows = block_row_count();
  dof_offsets_.assign(std::size_t(rows) + 1, 0);
  for (Index e = 0; e < rows; ++e) {
    require(block_sizes_[e] >= 1, "BlockPattern: element ", e, " has block size ", block_sizes_[e]);
    dof_offsets_[e + 1] = dof_offsets_[e] + block_sizes_[e];
  }

  // Column lists per row: the diagonal plus both directions of every interface.
  std::vector<Index> counts(rows, 1);
  for (std::size_t i = 0; i < interfaces.size(); ++i) {
    const auto [a, b] = interfaces[i];
    require(a >= 0 && a < rows && b >= 0 && b < rows, "BlockPattern: interface ", i,
            " joins elements (", a, ", ", b, ") outside [0, ", rows, ")");
    require(a != b, "BlockPattern: interface ", i, " joins element ", a, " to itself");
    ++counts[a];
    ++counts[b];
  }
  row_offsets_.assign(std::size_t(rows) + 1, 0);
  for (Index e = 0; e < rows; ++e) row_offsets_[e + 1] = row_offsets_[e] + counts[e];
  block_columns_.resize(row_offsets_.back());
  std::vector<Index> fill(row_offsets_.begin(), row_offsets_.end() - 1);
  for (Index e = 0; e < rows; ++e) block_columns_[fill[e]++] = e;
  for (const auto& [a, b] : interfaces) {
    block_columns_[fill[a]++] = b;
    block_columns_[fill[b]++] = a;
  }
  block_rows_.resize(block_columns_.size());
  diagonal_blocks_.resize(rows);
  for (Index e = 0; e < rows; ++e) {
    const auto begin = block_columns_.begin() + row_offsets_[e];
    const auto end = block_columns_.begin() + row_offsets_[e + 1];
    std::sort(begin, end);
    const auto repeated = std::adjacent_find(begin, end);
    require(repeated == end, "BlockPattern: the pair (", e, ", ", *repeated,
            ") is listed by more than one interface");
    diagonal_blocks_[e] = Index(std::lower_bound(begin, end, e) - block_columns_.begin());
    std::fill(block_rows_.begin() + row_offsets_[e], block_rows_.begin() + row_offsets_[e + 1], e);
  }

  value_offsets_.assign(block_columns_.size() + 1, 0);
  for (std::size_t k = 0; k < block_columns_.size(); ++k)
    value_offsets_[k + 1] = value_offsets_[k] + GlobalIndex(block_sizes_[block_rows_[k]]) *
                                                    block_sizes_[block_columns_[k]];
}

Index BlockPattern::find_block(Index r, Index c) const {
  const auto begin = block_columns_.begin() + row_offsets_[r];
  const auto end = block_columns_.begin() + row_offsets_[r + 1];
  const auto it = std::lower_bound(begin, end, c);
  return (it != end && *it == c) ? Index(it - block_columns_.begin()) : Index(-1);
}

Index BlockPattern::block_of_value(GlobalIndex k) const {
  require(k >= 0 && k < value_count(), "BlockPattern::block_of_value: value ", k,
          " is outside [0, ", value_count(), ")");
  return Index(std::upper_bound(value_offsets_.begin(), value_offsets_.end(), k) -
               value_offsets_.begin()) -
         1;
}

Index BlockPattern::block_row_of_dof(GlobalIndex dof) const {
  require(dof >= 0 && dof < dof_count(), "BlockPattern::block_row_of_dof: unknown ", dof,
          " is outside [0, ", dof_count(), ")");
  return Index(std::upper_bound(dof_offsets_.begin(), dof_offsets_.end(), dof) -
               dof_offsets_.begin()) -
         1;
}

void BlockPattern::coo_indices(std::span<GlobalIndex> rows, std::span<GlobalIndex> columns) const {
  require(GlobalIndex(rows.size()) == value_count() && GlobalIndex(columns.size()) == value_count(),
          "BlockPattern::coo_indices: arrays of ", rows.size(), " and ", columns.size(),
          " entries for ", value_count(), " values");
  for (Index k = 0; k < block_count(); ++k) {
    const Index r = block_rows_[k], c = block_columns_[k];
    GlobalIndex position = value_offsets_[k];
    for (Index i = 0; i < block_sizes_[r]; ++i)
      for (Index j = 0; j < block_sizes_[c]; ++j, ++position) {
        rows[position] = dof_offsets_[r] + i;
        columns[position] = dof_offsets_[c] + j;
      }
  }
}

}  // namespace polydg
