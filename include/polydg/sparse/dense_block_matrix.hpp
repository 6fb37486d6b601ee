#pragma once
/// DenseBlockMatrix: a BlockMatrix stored in a dense block format (docs/theory.md, "Dense block
/// format") laid out
/// for coalesced GPU reads — a "grouped ELL of dense blocks".
///
/// Block rows are grouped by the key (N, K): N = the row's block size, K = the sum of the block
/// sizes of all blocks in the row (the width of its concatenated neighbour blocks). Groups are
/// sorted by key; a group's rows by block row. A group of G block rows stores its values as the
/// 3-index array A[k][i][l] (l < G fastest, then i < N, then k < K), so GPU thread (l, i)
/// reading A[k][i][l] for consecutive l is coalesced, and y_il = Σ_k A[k][i][l] x(col(k, l)) is
/// [Roca2011]'s dense tensor contraction. Column k of row l walks that row's blocks in the
/// BlockPattern's column order, each block's columns in order.
///
/// Exact grouping needs no padding. With `max_group_count` > 0, groups of equal N are merged
/// (greedily, cheapest padding first) until at most that many remain (never fewer than the
/// number of distinct N); a row of a merged group is padded with zero values up to the group's
/// K. max_group_count = 1 and slice_rows = 0 on an HDG pattern (one block size) give [Roca2011]'s
/// layout, where boundary faces are padded up to n_a blocks.
///
/// Slices: by default each group's rows are then cut, in order, into groups of
/// default_slice_rows(N) rows (a "sliced ELL"), so the values the GPU's thread blocks read at
/// one time lie in a few compact stretches instead of K N bands strided across the whole group.
/// That made y = A x faster on every large matrix measured (docs/performance.md, "DBF SpMV").
/// Slicing changes no product's bits.
///
/// Column indices are stored per (row, block) — the global dof offset and the size of each
/// column block — rather than per column: that is 1/N of the index traffic of one int64 per
/// column (N = 8 for 2D HDG at p = 1), which matters when the product runs at memory speed.
/// Per (row, block) the location of the transposed block's values is stored too, so Aᵀ x is a
/// gather with one writer per output entry (no atomics); the pattern is structurally symmetric.
///
/// All CPU products are OpenMP-parallel and deterministic (each output entry is summed by one
/// thread in a fixed order, k ascending).
#include <array>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg {

/// One group of block rows sharing the key (row_size, column_width). Offsets index the
/// DenseBlockMatrix arrays named in their comments. Trivially copyable (for a device mirror).
struct DenseBlockGroup {
  Index row_size = 0;           ///< N: rows (unknowns) per block row.
  Index column_width = 0;       ///< K: stored columns per block row (≥ each row's own width).
  Index row_count = 0;          ///< G: block rows in the group.
  Index slot_count = 0;         ///< B: block slots per row (the most blocks any row of it has).
  Index first_row = 0;          ///< into the row arrays: row l of the group is first_row + l.
  GlobalIndex first_value = 0;  ///< into values(): A[k][i][l] is at first_value + (k N + i) G + l.
  GlobalIndex first_slot = 0;   ///< into the slot arrays: slot b of row l at first_slot + b G + l.
  GlobalIndex first_inflated = 0;  ///< into inflate's X: X[k][l] is at first_inflated + k G + l.
};
static_assert(std::is_trivially_copyable_v<DenseBlockGroup>);

template <class Real = double>
class DenseBlockMatrix {
 public:
  /// Empty: only assignment and destruction are valid.
  DenseBlockMatrix() = default;
  /// `slice_rows` value: slices of default_slice_rows(N) rows.
  static constexpr Index default_slices = -1;

  /// Copies the pattern's structure and `matrix`'s values. `max_group_count` = 0: exact
  /// grouping (no padding); > 0: merge groups (padding) until at most that many remain.
  /// Then every group is cut into groups of at most `slice_rows` block rows (> 0), of
  /// default_slice_rows(N) (default_slices), or not at all (0).
  explicit DenseBlockMatrix(const BlockMatrix<Real>& matrix, Index max_group_count = 0,
                            Index slice_rows = default_slices);

  /// Block rows per slice for blocks of N rows: 1024 below N = 20, 32 (a warp's rows) from
  /// N = 20 on. Chosen from 32, 64, 128, 256, 1024 and 4096 (fp64, N = 3 to 105;
  /// docs/performance.md, "DBF SpMV"): small blocks need long slices (32 rows of N = 3 are 32
  /// threads of a 256-thread block), large ones were fastest at 32 rows even with part of the
  /// thread block idle.
  static Index default_slice_rows(Index row_size);

  /// Copies new values of a matrix with the same pattern into place (one pass, no allocation).
  /// Throws polydg::Error if `matrix`'s pattern differs from the one this was built from.
  void update_values(const BlockMatrix<Real>& matrix);

  /// y = A x. x and y have dof_count() entries and must not overlap.
  void multiply(std::span<const Real> x, std::span<Real> y) const;
  /// y = Aᵀ x. x and y have dof_count() entries and must not overlap.
  void multiply_transpose(std::span<const Real> x, std::span<Real> y) const;
  /// y = A x + z. z may be y itself (the same span), x must not overlap y.
  void multiply_add(std::span<const Real> x, std::span<const Real> z, std::span<Real> y) const;

  /// Seed 003's two-step product: inflate gathers x into X[k][l] per group (inflated_size()
  /// entries, zero in padding), contract computes y = A X. contract(inflate(x)) = A x.
  void inflate(std::span<const Real> x, std::span<Real> inflated) const;
  void contract(std::span<const Real> inflated, std::span<Real> y) const;

  /// d_i = A_ii (dof_count() entries).
  void diagonal(std::span<Real> d) const;
  /// The inverses of the diagonal blocks A_ee, row-major N_e × N_e, element after element
  /// (element e starts at Σ_{e' < e} N_{e'}²). LU with partial pivoting in double precision.
  /// Throws polydg::Error naming the element if a block is singular.
  std::vector<Real> inverted_block_diagonal() const {
    return inverted_block_diagonal(pattern_->block_row_count());
  }
  /// The same for the first `block_rows` elements only (a rank's owned elements).
  std::vector<Real> inverted_block_diagonal(Index block_rows) const;

  const BlockPattern& pattern() const { return *pattern_; }
  GlobalIndex dof_count() const { return pattern_->dof_count(); }
  /// Stored values (with padding) / BlockMatrix values − 1: 0 for exact grouping.
  double padding_ratio() const;
  /// Entries of inflate's X: Σ over groups of K G.
  GlobalIndex inflated_size() const { return inflated_size_; }

  // The arrays a device mirror copies as they are (see DenseBlockGroup for the indexing).
  std::span<const DenseBlockGroup> groups() const { return groups_; }
  /// The values, group after group, each group A[k][i][l]; padding is zero.
  std::span<const Real> values() const { return values_; }
  /// Per row (first_row + l; rows of all groups are numbered consecutively): its block row
  /// (element / face) in the pattern,
  std::span<const Index> row_block_rows() const { return row_block_rows_; }
  /// its first global unknown (y_il is y[row_dof_offsets[first_row + l] + i]),
  std::span<const GlobalIndex> row_dof_offsets() const { return row_dof_offsets_; }
  /// the column k at which its diagonal block starts (A_ii is A[start + i][i][l]),
  std::span<const Index> row_diagonal_columns() const { return row_diagonal_columns_; }
  /// and its group. Per block row e of the pattern: its row (first_row + l).
  std::span<const Index> row_groups() const { return row_groups_; }
  std::span<const Index> element_rows() const { return element_rows_; }
  /// Per slot (first_slot + b G + l; b < the row's block count, in pattern column order; later
  /// slots have size 0 and offsets 0): the column block's first global unknown, so column
  /// k = (Σ_{b' < b} size_b') + j of the row reads x[slot_column_dof_offsets + j],
  std::span<const GlobalIndex> slot_column_dof_offsets() const { return slot_column_dof_offsets_; }
  /// its size N_c (0 for an unused slot),
  std::span<const Index> slot_column_sizes() const { return slot_column_sizes_; }
  /// and where the transposed block (c, r) lives: its entry (i, j) (i < N_c, j < N_r) is
  /// values[slot_transpose_offsets + (j N_c + i) slot_transpose_strides]. Aᵀ x for row r,
  /// unknown j sums these entries times x[slot_column_dof_offsets + i] over its slots.
  std::span<const GlobalIndex> slot_transpose_offsets() const { return slot_transpose_offsets_; }
  std::span<const Index> slot_transpose_strides() const { return slot_transpose_strides_; }

 private:
  // y = A X (+ z) tile by tile; X is gathered from x per tile, or read from `inflated`.
  void contract_tiles(const Real* x, const Real* inflated, const Real* z, Real* y) const;

  std::shared_ptr<const BlockPattern> pattern_;
  std::vector<DenseBlockGroup> groups_;
  std::vector<Real> values_;
  std::vector<Index> row_block_rows_, row_diagonal_columns_;
  std::vector<Index> row_groups_, element_rows_;  // the group of each row, the row of each element
  std::vector<GlobalIndex> row_dof_offsets_;
  std::vector<GlobalIndex> slot_column_dof_offsets_, slot_transpose_offsets_;
  std::vector<Index> slot_column_sizes_, slot_transpose_strides_;
  // (group, first row in the group) of each tile of rows the CPU loops hand to one thread.
  std::vector<std::array<Index, 2>> tiles_;
  GlobalIndex inflated_size_ = 0;
};

extern template class DenseBlockMatrix<float>;
extern template class DenseBlockMatrix<double>;

}  // namespace polydg
