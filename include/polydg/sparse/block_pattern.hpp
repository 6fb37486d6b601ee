#pragma once
/// BlockPattern: the block sparsity of a DG matrix on a polytopic mesh (docs/theory.md, "Assembly:
/// two approaches", Approach 2).
///
/// Block rows and columns are elements; block row e holds the diagonal block (e, e) and one
/// block (e, n) per neighbour n — one per interface, however many faces it has. Block (r, c)
/// is a dense N_r × N_c matrix (N_e = number of basis functions of element e, which differ on
/// hp meshes), stored row-major (rows = test functions of r, columns = trial functions of c).
/// Blocks are numbered row by row, columns ascending; their values are contiguous in that
/// order, so a BlockMatrix is one array. Built once per mesh and degree distribution.
#include <array>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg {

class BlockPattern {
 public:
  BlockPattern() = default;
  /// `block_sizes[e]` = N_e; `interfaces` = the neighbouring element pairs (a, b), a ≠ b, each
  /// pair once. Throws polydg::Error for an element index out of range, a pair (e, e), a
  /// repeated pair or a block size < 1.
  BlockPattern(std::vector<Index> block_sizes, std::span<const std::array<Index, 2>> interfaces);

  Index block_row_count() const { return Index(block_sizes_.size()); }
  Index block_count() const { return Index(block_columns_.size()); }
  /// N_e, the number of unknowns (rows) of element e.
  Index block_size(Index e) const { return block_sizes_[e]; }
  /// First global unknown of element e; dof_offset(block_row_count()) = dof_count().
  GlobalIndex dof_offset(Index e) const { return dof_offsets_[e]; }
  GlobalIndex dof_count() const { return dof_offsets_.back(); }
  /// Number of stored entries (the sum of N_r N_c over all blocks).
  GlobalIndex value_count() const { return value_offsets_.back(); }

  /// Blocks of row e: block_row_begin(e) .. block_row_begin(e + 1) − 1.
  Index block_row_begin(Index e) const { return row_offsets_[e]; }
  Index block_column(Index block) const { return block_columns_[block]; }
  Index block_row(Index block) const { return block_rows_[block]; }
  /// Offset of block `block`'s first value in the values array.
  GlobalIndex block_value_offset(Index block) const { return value_offsets_[block]; }
  /// The block (e, e).
  Index diagonal_block(Index e) const { return diagonal_blocks_[e]; }
  /// The block (r, c), or −1 when r and c are not neighbours. Binary search in row r.
  Index find_block(Index r, Index c) const;
  /// The block holding value `k` (0 ≤ k < value_count()), and the element (block row) owning
  /// unknown `dof` (0 ≤ dof < dof_count()): binary searches, for error messages and tests.
  Index block_of_value(GlobalIndex k) const;
  Index block_row_of_dof(GlobalIndex dof) const;

  /// Global (row, column) index of every stored value, in values order — the COO arrays that
  /// PETSc's MatSetPreallocationCOO takes, so MatSetValuesCOO can read BlockMatrix values as
  /// they are.
  void coo_indices(std::span<GlobalIndex> rows, std::span<GlobalIndex> columns) const;

 private:
  std::vector<Index> block_sizes_;
  std::vector<GlobalIndex> dof_offsets_;
  std::vector<Index> row_offsets_, block_columns_, block_rows_, diagonal_blocks_;
  std::vector<GlobalIndex> value_offsets_;
};

}  // namespace polydg
