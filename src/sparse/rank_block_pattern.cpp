#include "polydg/sparse/rank_block_pattern.hpp"

#include <utility>

#include "polydg/core/error.hpp"

namespace polydg {

RankBlockPattern::RankBlockPattern(std::shared_ptr<const BlockPattern> local,
                                   Index owned_block_rows,
                                   std::vector<GlobalIndex> global_first_dof,
                                   GlobalIndex global_dof_count)
    : local_(std::move(local)),
      owned_block_rows_(owned_block_rows),
      global_first_dof_(std::move(global_first_dof)),
      global_dof_count_(global_dof_count) {
  require(local_ != nullptr, "RankBlockPattern: no local pattern");
  const Index rows = local_->block_row_count();
  require(owned_block_rows >= 0 && owned_block_rows <= rows, "RankBlockPattern: ", owned_block_rows,
          " owned block rows of a local pattern of ", rows);
  require(Index(global_first_dof_.size()) == rows, "RankBlockPattern: ", global_first_dof_.size(),
          " global first unknowns for ", rows, " local elements");
  global_dof_begin_ = rows > 0 && owned_block_rows > 0 ? global_first_dof_[0] : 0;
  for (Index k = 0; k < rows; ++k) {
    const GlobalIndex first = global_first_dof_[k];
    require(first >= 0 && first + local_->block_size(k) <= global_dof_count,
            "RankBlockPattern: local element ", k, "'s unknowns from ", first, " (",
            local_->block_size(k), ") are outside the global system of ", global_dof_count);
    if (k < owned_block_rows)
      require(first == global_dof_begin_ + local_->dof_offset(k),
              "RankBlockPattern: owned element ", k, " starts at global unknown ", first, ", not ",
              global_dof_begin_ + local_->dof_offset(k), ": the owned unknowns must be contiguous");
  }
  owned_value_count_ = owned_block_rows == rows
                           ? local_->value_count()
                           : local_->block_value_offset(local_->block_row_begin(owned_block_rows));
}

std::vector<GlobalIndex> RankBlockPattern::ghost_global_dofs() const {
  std::vector<GlobalIndex> dofs;
  dofs.reserve(std::size_t(local_->dof_count() - owned_dof_count()));
  for (Index k = owned_block_rows_; k < local_->block_row_count(); ++k)
    for (Index i = 0; i < local_->block_size(k); ++i) dofs.push_back(global_first_dof_[k] + i);
  return dofs;
}

void RankBlockPattern::coo_indices(std::span<GlobalIndex> rows,
                                   std::span<GlobalIndex> columns) const {
  require(GlobalIndex(rows.size()) == owned_value_count_ &&
              GlobalIndex(columns.size()) == owned_value_count_,
          "RankBlockPattern::coo_indices: arrays of ", rows.size(), " and ", columns.size(),
          " entries for ", owned_value_count_, " owned values");
  const BlockPattern& pattern = *local_;
  const Index blocks = owned_block_rows_ == pattern.block_row_count()
                           ? pattern.block_count()
                           : pattern.block_row_begin(owned_block_rows_);
  for (Index k = 0; k < blocks; ++k) {
    const Index r = pattern.block_row(k), c = pattern.block_column(k);
    GlobalIndex position = pattern.block_value_offset(k);
    for (Index i = 0; i < pattern.block_size(r); ++i)
      for (Index j = 0; j < pattern.block_size(c); ++j, ++position) {
        rows[position] = global_first_dof_[r] + i;
        columns[position] = global_first_dof_[c] + j;
      }
  }
}

}  // namespace polydg
