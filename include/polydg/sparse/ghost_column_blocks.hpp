#pragma once
/// GhostColumnBlocks: the blocks of a rank's dense block matrix (DenseBlockMatrix on its local
/// pattern: owned elements first, then ghosts; RankBlockPattern) that join an owned row to a
/// ghost column, listed so that the part of y = A x that needs the ghosts' x can be added after
/// the rest:
///
///   y_e = Σ_{f owned} A_ef x_f  +  Σ_{f ghost} A_ef x_f
///         (the local product with the ghosts' x set to zero, while the ghosts are on their way)
///                               + multiply_add(values, x_ghosts, y)   (when they have arrived)
///
/// That split lets a distributed ShellMatrix overlap its halo exchange with the product
/// (docs/performance.md, "Distributed assembly and products").
///
/// Rows: the owned block rows with at least one ghost neighbour, each summed by one thread in a
/// fixed order (its blocks in the DBF's slot order, then the block's columns): no atomics, the
/// same bits on every run. The block of slot b of DBF row l in group g starts at column
/// k0 = Σ_{b' < b} N_b', so its entry (i, j) is values[first_value + ((k0 + j) N + i) G + l].
///
///   const GhostColumnBlocks ghosts(dense.groups(), dense.row_dof_offsets(),
///                                  dense.slot_column_dof_offsets(), dense.slot_column_sizes(),
///                                  rows.owned_dof_count());
///   ghosts.multiply_add(dense.values(), x_ghosts, y);
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"

namespace polydg {

class GhostColumnBlocks {
 public:
  GhostColumnBlocks() = default;
  /// From a DenseBlockMatrix's layout arrays (see its accessors): a row is owned when its first
  /// unknown is below `owned_dof_count`, a column block is a ghost's when its first unknown is
  /// at or above it. Throws polydg::Error for arrays whose sizes do not match the groups.
  GhostColumnBlocks(std::span<const DenseBlockGroup> groups,
                    std::span<const GlobalIndex> row_dof_offsets,
                    std::span<const GlobalIndex> slot_column_dof_offsets,
                    std::span<const Index> slot_column_sizes, GlobalIndex owned_dof_count);

  /// y_e += Σ_{f ghost} A_ef x_f for every listed row e. `values` are the matrix's stored
  /// values (DenseBlockMatrix::values()); x_ghosts holds the entries of x from
  /// owned_dof_count() on (x_ghosts[j] = x[owned_dof_count() + j]); y has the local rows.
  /// OpenMP-parallel over the rows.
  void multiply_add(std::span<const double> values, const double* x_ghosts, double* y) const;

  GlobalIndex owned_dof_count() const { return owned_dof_count_; }
  /// Rows with ghost columns, and the ghost column blocks of all of them.
  Index row_count() const { return Index(row_dof_offsets_.size()); }
  Index block_count() const { return Index(block_value_offsets_.size()); }
  /// Largest N of a listed row (0 with none).
  Index largest_row_size() const { return largest_row_size_; }

  // The arrays a device mirror copies. Per listed row: its first unknown, its N, its group's
  // row count G (the stride between a column's consecutive entries), and where its blocks
  // start in the per-block arrays (row_count() + 1 entries).
  std::span<const GlobalIndex> row_dof_offsets() const { return row_dof_offsets_; }
  std::span<const Index> row_sizes() const { return row_sizes_; }
  std::span<const Index> row_strides() const { return row_strides_; }
  std::span<const Index> row_block_starts() const { return row_block_starts_; }
  /// Per block: where entry (0, 0) is in the values (entry (i, j) is at
  /// offset + (j N + i) G), its first column counted from owned_dof_count(), its column count.
  std::span<const GlobalIndex> block_value_offsets() const { return block_value_offsets_; }
  std::span<const GlobalIndex> block_ghost_offsets() const { return block_ghost_offsets_; }
  std::span<const Index> block_column_sizes() const { return block_column_sizes_; }

 private:
  GlobalIndex owned_dof_count_ = 0;
  Index largest_row_size_ = 0;
  std::vector<GlobalIndex> row_dof_offsets_;
  std::vector<Index> row_sizes_, row_strides_, row_block_starts_{0};
  std::vector<GlobalIndex> block_value_offsets_, block_ghost_offsets_;
  std::vector<Index> block_column_sizes_;
};

}  // namespace polydg
