#include "polydg/sparse/ghost_column_blocks.hpp"

#include <algorithm>

#include "polydg/core/error.hpp"

namespace polydg {

GhostColumnBlocks::GhostColumnBlocks(std::span<const DenseBlockGroup> groups,
                                     std::span<const GlobalIndex> row_dof_offsets,
                                     std::span<const GlobalIndex> slot_column_dof_offsets,
                                     std::span<const Index> slot_column_sizes,
                                     GlobalIndex owned_dof_count)
    : owned_dof_count_(owned_dof_count) {
  require(slot_column_dof_offsets.size() == slot_column_sizes.size(),
          "GhostColumnBlocks: ", slot_column_dof_offsets.size(), " slot offsets but ",
          slot_column_sizes.size(), " slot sizes");
  for (const DenseBlockGroup& g : groups) {
    require(std::size_t(g.first_row + g.row_count) <= row_dof_offsets.size() &&
                std::size_t(g.first_slot + GlobalIndex(g.slot_count) * g.row_count) <=
                    slot_column_sizes.size(),
            "GhostColumnBlocks: a group's rows or slots lie outside the arrays given");
    for (Index l = 0; l < g.row_count; ++l) {
      const GlobalIndex row_offset = row_dof_offsets[std::size_t(g.first_row + l)];
      if (row_offset >= owned_dof_count) continue;
      Index first_column = 0;  // k0 of the slot
      const std::size_t blocks_before = block_value_offsets_.size();
      for (Index b = 0; b < g.slot_count; ++b) {
        const std::size_t slot = std::size_t(g.first_slot + GlobalIndex(b) * g.row_count + l);
        const Index columns = slot_column_sizes[slot];
        const GlobalIndex column_offset = slot_column_dof_offsets[slot];
        if (columns > 0 && column_offset >= owned_dof_count) {
          block_value_offsets_.push_back(g.first_value +
                                         GlobalIndex(first_column) * g.row_size * g.row_count + l);
          block_ghost_offsets_.push_back(column_offset - owned_dof_count);
          block_column_sizes_.push_back(columns);
        }
        first_column += columns;
      }
      if (block_value_offsets_.size() == blocks_before) continue;
      row_dof_offsets_.push_back(row_offset);
      row_sizes_.push_back(g.row_size);
      row_strides_.push_back(g.row_count);
      row_block_starts_.push_back(Index(block_value_offsets_.size()));
      largest_row_size_ = std::max(largest_row_size_, g.row_size);
    }
  }
}

void GhostColumnBlocks::multiply_add(std::span<const double> values, const double* x_ghosts,
                                     double* y) const {
  const Index rows = row_count();
#pragma omp parallel for schedule(static)
  for (Index r = 0; r < rows; ++r) {
    const Index n = row_sizes_[r];
    const GlobalIndex stride = row_strides_[r];
    for (Index i = 0; i < n; ++i) {
      double sum = 0;
      for (Index b = row_block_starts_[r]; b < row_block_starts_[r + 1]; ++b) {
        const double* column = values.data() + block_value_offsets_[b] + GlobalIndex(i) * stride;
        const double* x = x_ghosts + block_ghost_offsets_[b];
        for (Index j = 0; j < block_column_sizes_[b]; ++j)
          sum += column[GlobalIndex(j) * n * stride] * x[j];
      }
      y[row_dof_offsets_[r] + i] += sum;
    }
  }
}

}  // namespace polydg
