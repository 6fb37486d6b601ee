#pragma once
// Private to AijMatrix: where a BlockMatrix's values go in a MATSEQAIJ's value array, so that
// an update writes that array directly, on all OpenMP threads, instead of through
// MatSetValuesCOO(), whose gather runs on one core and was most of a P_2 slab step's time on a
// many-core host.
//
// A BlockPattern numbers unknowns element by element and keeps each block row's blocks in
// ascending column order, so the CSR row of unknown i of element e is row i of each of e's
// blocks, one after the other, and e's rows fill the same range of the value array as e's
// blocks. The layout is a per-block-row transposition of (block, row) into (row, block); it is
// checked once against the Mat's own row and column indices (MatGetRowIJ), and an AijMatrix
// whose Mat does not match keeps MatSetValuesCOO().
#include <petscmat.h>

#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg::petsc::detail {

class CsrValueOrder {
 public:
  explicit CsrValueOrder(const BlockPattern& pattern);

  /// Whether `mat` (a MATSEQAIJ preallocated with `pattern`'s COO indices) stores exactly the
  /// pattern's entries, each row's columns in this order.
  bool matches(Mat mat, const BlockPattern& pattern) const;

  /// Writes block-ordered `values` (a BlockMatrix's) into `csr`, the Mat's value array.
  void scatter(std::span<const double> values, PetscScalar* csr) const;

 private:
  std::vector<Index> block_row_begin_;      ///< blocks of row e: [begin[e], begin[e + 1])
  std::vector<int> row_heights_;            ///< N_e
  std::vector<int> block_widths_;           ///< N_c of each block
  std::vector<GlobalIndex> block_offsets_;  ///< each block's first value
};

}  // namespace polydg::petsc::detail
