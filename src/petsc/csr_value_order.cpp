#include "csr_value_order.hpp"

#include <algorithm>

#include "polydg/petsc/petsc_error.hpp"

namespace polydg::petsc::detail {

CsrValueOrder::CsrValueOrder(const BlockPattern& pattern) {
  const Index rows = pattern.block_row_count(), blocks = pattern.block_count();
  block_row_begin_.resize(std::size_t(rows) + 1);
  row_heights_.resize(std::size_t(rows));
  for (Index e = 0; e <= rows; ++e) block_row_begin_[e] = pattern.block_row_begin(e);
  for (Index e = 0; e < rows; ++e) row_heights_[e] = int(pattern.block_size(e));
  block_widths_.resize(std::size_t(blocks));
  block_offsets_.resize(std::size_t(blocks));
  for (Index b = 0; b < blocks; ++b) {
    block_widths_[b] = int(pattern.block_size(pattern.block_column(b)));
    block_offsets_[b] = pattern.block_value_offset(b);
  }
}

bool CsrValueOrder::matches(Mat mat, const BlockPattern& pattern) const {
  PetscInt n = 0;
  const PetscInt *row_starts = nullptr, *columns = nullptr;
  PetscBool done = PETSC_FALSE;
  POLYDG_PETSC_CALL(
      MatGetRowIJ(mat, 0, PETSC_FALSE, PETSC_FALSE, &n, &row_starts, &columns, &done));
  bool same = done == PETSC_TRUE && GlobalIndex(n) == pattern.dof_count();
  for (Index e = 0; same && e < pattern.block_row_count(); ++e) {
    // e's rows fill the value range of e's blocks, each as long as the blocks' widths summed.
    GlobalIndex row_length = 0;
    for (Index b = block_row_begin_[e]; b < block_row_begin_[e + 1]; ++b)
      row_length += block_widths_[b];
    const GlobalIndex first_row = pattern.dof_offset(e);
    for (int i = 0; same && i < row_heights_[e]; ++i) {
      GlobalIndex position = block_offsets_[block_row_begin_[e]] + i * row_length;
      // The row's extent first, so that no column is read beyond the Mat's arrays.
      same = GlobalIndex(row_starts[first_row + i]) == position &&
             GlobalIndex(row_starts[first_row + i + 1]) == position + row_length;
      for (Index b = block_row_begin_[e]; same && b < block_row_begin_[e + 1]; ++b) {
        const GlobalIndex first_column = pattern.dof_offset(pattern.block_column(b));
        for (int j = 0; same && j < block_widths_[b]; ++j)
          same = GlobalIndex(columns[position++]) == first_column + j;
      }
    }
  }
  if (done == PETSC_TRUE)
    POLYDG_PETSC_CALL(
        MatRestoreRowIJ(mat, 0, PETSC_FALSE, PETSC_FALSE, &n, &row_starts, &columns, &done));
  return same;
}

void CsrValueOrder::scatter(std::span<const double> values, PetscScalar* csr) const {
  const Index rows = Index(row_heights_.size());
#pragma omp parallel for schedule(dynamic, 256) if (rows > 4096)
  for (Index e = 0; e < rows; ++e) {
    PetscScalar* out = csr + block_offsets_[block_row_begin_[e]];
    for (int i = 0; i < row_heights_[e]; ++i)
      for (Index b = block_row_begin_[e]; b < block_row_begin_[e + 1]; ++b) {
        const double* in = values.data() + block_offsets_[b] + GlobalIndex(i) * block_widths_[b];
        out = std::copy(in, in + block_widths_[b], out);
      }
  }
}

}  // namespace polydg::petsc::detail
