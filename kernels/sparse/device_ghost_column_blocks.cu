// CUDA implementation of DeviceGhostColumnBlocks (polydg/sparse/device_ghost_column_blocks.hpp).
// The rows are few (the owned elements on a partition boundary), so the kernel is simple: one
// thread per (row, unknown i < the largest N), idle where i ≥ the row's N.
#include <cuda_runtime.h>

#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/sparse/device_ghost_column_blocks.hpp"

namespace polydg {
namespace {

constexpr int threads_per_block = 128;

__global__ void ghost_column_kernel(
    Index rows, Index largest_row_size, const GlobalIndex* __restrict__ row_dof_offsets,
    const Index* __restrict__ row_sizes, const Index* __restrict__ row_strides,
    const Index* __restrict__ row_block_starts, const GlobalIndex* __restrict__ block_value_offsets,
    const GlobalIndex* __restrict__ block_ghost_offsets,
    const Index* __restrict__ block_column_sizes, const double* __restrict__ values,
    const double* __restrict__ x_ghosts, double* __restrict__ y) {
  const GlobalIndex t = GlobalIndex(blockIdx.x) * blockDim.x + threadIdx.x;
  const GlobalIndex r = t / largest_row_size;
  const Index i = Index(t % largest_row_size);
  if (r >= rows || i >= row_sizes[r]) return;
  const GlobalIndex n = row_sizes[r], stride = row_strides[r];
  double sum = 0;
  for (Index b = row_block_starts[r]; b < row_block_starts[r + 1]; ++b) {
    const double* column = values + block_value_offsets[b] + GlobalIndex(i) * stride;
    const double* x = x_ghosts + block_ghost_offsets[b];
    for (Index j = 0; j < block_column_sizes[b]; ++j)
      sum += column[GlobalIndex(j) * n * stride] * x[j];
  }
  y[row_dof_offsets[r] + i] += sum;
}

}  // namespace

DeviceGhostColumnBlocks::DeviceGhostColumnBlocks(const GhostColumnBlocks& host)
    : row_count_(host.row_count()),
      block_count_(host.block_count()),
      largest_row_size_(host.largest_row_size()),
      row_dof_offsets_(host.row_dof_offsets()),
      block_value_offsets_(host.block_value_offsets()),
      block_ghost_offsets_(host.block_ghost_offsets()),
      row_sizes_(host.row_sizes()),
      row_strides_(host.row_strides()),
      row_block_starts_(host.row_block_starts()),
      block_column_sizes_(host.block_column_sizes()) {}

void DeviceGhostColumnBlocks::multiply_add(const double* values, const double* x_ghosts,
                                           double* y) const {
  if (row_count_ == 0) return;
  const GlobalIndex threads = GlobalIndex(row_count_) * largest_row_size_;
  const unsigned blocks = unsigned((threads + threads_per_block - 1) / threads_per_block);
  ghost_column_kernel<<<blocks, threads_per_block>>>(
      row_count_, largest_row_size_, row_dof_offsets_.data(), row_sizes_.data(),
      row_strides_.data(), row_block_starts_.data(), block_value_offsets_.data(),
      block_ghost_offsets_.data(), block_column_sizes_.data(), values, x_ghosts, y);
  POLYDG_CUDA_CHECK_LAUNCH("DeviceGhostColumnBlocks ghost_column_kernel");
}

}  // namespace polydg
