#pragma once
// Where the table of an item owned by one element goes (the element and boundary kernels,
// tiled_point_schedule.cuh): rows i and columns j < n are the element's diagonal block (n × n,
// row-major), column n its rhs segment; when the matrix is not assembled the table is the rhs
// column alone (column 0). Stores into the block are watched (non_finite_watch.cuh).
#include "dg/non_finite_watch.cuh"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg::device::detail {

template <class Real>
struct ElementTableTargets {
  Real* block;  ///< null: matrix not assembled
  Real* rhs;    ///< null: rhs not assembled
  int n;
  NonFiniteWatch<Real> watch;  ///< of the block's stores

  /// Element e's block in `values` and segment of `rhs` (either may be null).
  __device__ ElementTableTargets(const DeviceBlockPatternView& pattern, Index e, int size,
                                 Real* values, Real* rhs_values, const NonFiniteWatch<Real>& watch)
      : block(values ? values + pattern.value_offsets[pattern.diagonal_blocks[e]] : nullptr),
        rhs(rhs_values ? rhs_values + pattern.dof_offsets[e] : nullptr),
        n(size),
        watch(watch) {}
  ElementTableTargets() = default;

  POLYDG_HD int columns() const { return (block ? n : 0) + (rhs ? 1 : 0); }
  POLYDG_HD bool is_rhs(int j) const { return rhs && j == (block ? n : 0); }
  __device__ Real initial(int i, int j) const { return is_rhs(j) ? rhs[i] : block[i * n + j]; }
  __device__ void store(int i, int j, Real value) const {
    if (is_rhs(j)) {
      rhs[i] = value;
    } else {
      block[i * n + j] = value;
      watch.note(block + i * n + j, value);
    }
  }
};

}  // namespace polydg::device::detail
