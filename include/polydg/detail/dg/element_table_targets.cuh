#pragma once
// Where the table of an item owned by one element goes (the element and boundary kernels,
// tiled_point_schedule.cuh): rows i and columns j < n are the element's diagonal block (n × n,
// row-major), column n its rhs segment; when the matrix is not assembled the table is the rhs
// column alone (column 0). Stores into the block are watched (non_finite_watch.cuh). The sums
// are added to what the block holds, or (overwrite_block: the element kernel of a re-assembly,
// whose block nothing has written yet) to zero — the same bits as adding to a zeroed block,
// without zeroing it first or reading it.

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/detail/dg/contiguous_store.cuh"
#include "polydg/detail/dg/non_finite_watch.cuh"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg::device::detail {

template <class Real>
struct ElementTableTargets {
  Real* block;  ///< null: matrix not assembled
  Real* rhs;    ///< null: rhs not assembled
  int n;
  bool overwrite_block;        ///< the block's sums start from zero, not from its values
  NonFiniteWatch<Real> watch;  ///< of the block's stores

  /// Element e's block in `values` and segment of `rhs` (either may be null).
  __device__ ElementTableTargets(const DeviceBlockPatternView& pattern, Index e, int size,
                                 Real* values, Real* rhs_values, bool overwrite,
                                 const NonFiniteWatch<Real>& watch)
      : block(values ? values + pattern.value_offsets[pattern.diagonal_blocks[e]] : nullptr),
        rhs(rhs_values ? rhs_values + pattern.dof_offsets[e] : nullptr),
        n(size),
        overwrite_block(overwrite),
        watch(watch) {}
  ElementTableTargets() = default;

  POLYDG_HD int columns() const { return (block ? n : 0) + (rhs ? 1 : 0); }
  POLYDG_HD bool is_rhs(int j) const { return rhs && j == (block ? n : 0); }
  __device__ Real initial(int i, int j) const {
    return is_rhs(j) ? rhs[i] : overwrite_block ? Real(0) : block[i * n + j];
  }
  __device__ void store(int i, int j, Real value) const {
    if (is_rhs(j)) {
      rhs[i] = value;
    } else {
      block[i * n + j] = value;
      watch.note(block + i * n + j, value);
    }
  }
  /// store(i, j, initial(i, j) + first) and the same for (i, j + 1) and second, in one paired
  /// load and store where both are block entries and the pair is aligned (the tensor-core
  /// tables' stores: a lane's two sums of a tile are adjacent columns).
  __device__ void store_pair(int i, int j, Real first, Real second) const {
    if (block && j + 1 < n) {
      Real* entry = block + i * n + j;
      if (pair_aligned(entry)) {
        Real old_first = Real(0), old_second = Real(0);
        if (!overwrite_block) load_aligned_pair(entry, old_first, old_second);
        store_aligned_pair(entry, old_first + first, old_second + second);  // aligned: it stores
        watch.note(entry, old_first + first);
        watch.note(entry + 1, old_second + second);
        return;
      }
    }
    store(i, j, initial(i, j) + first);
    store(i, j + 1, initial(i, j + 1) + second);
  }
  /// initial + sum for a whole table of R rows (the block, n = R) and, with the rhs, its column
  /// R (C > R) — what store() does entry by entry, without its two branches per entry
  /// (thread_item_kernel.cuh's store_table). False, nothing stored, for other tables.
  template <int R, int C>
  __device__ bool store_table(const Real (&sum)[R][C]) const {
    if (!block || n != R || (rhs && C <= R)) return false;
    unsigned long long least = no_non_finite_value;
#pragma unroll
    for (int e = 0; e < R * R; ++e) {
      const Real value = (overwrite_block ? Real(0) : block[e]) + sum[e / R][e % R];
      block[e] = value;
      watch.least_bad(least, block + e, value);
    }
    if constexpr (C > R)
      if (rhs)
#pragma unroll
        for (int i = 0; i < R; ++i) rhs[i] = rhs[i] + sum[i][R];
    watch.note_least(least);
    return true;
  }
};

}  // namespace polydg::device::detail
