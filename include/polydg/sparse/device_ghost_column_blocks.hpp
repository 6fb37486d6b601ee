#pragma once
/// DeviceGhostColumnBlocks: a GhostColumnBlocks list in device memory, with its product on the
/// GPU: y_e += Σ_{f ghost} A_ef x_f for a rank's owned rows with ghost neighbours, reading the
/// values of a DeviceDenseBlockMatrix (the same layout as the host DenseBlockMatrix's).
///
///   const DeviceGhostColumnBlocks ghosts(matrix.ghost_column_blocks(rows.owned_dof_count()));
///   ghosts.multiply_add(matrix.values(), x_ghosts, y);    // device pointers
///
/// One thread per (row, unknown of the row) sums that unknown's ghost columns in a fixed order:
/// the same sums, in the same order, as GhostColumnBlocks::multiply_add, with no atomics.
/// Asynchronous on the default stream, as the DeviceDenseBlockMatrix products. The header
/// includes no CUDA header; a build without CUDA links a stub that throws.
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/types.hpp"
#include "polydg/sparse/ghost_column_blocks.hpp"

namespace polydg {

class DeviceGhostColumnBlocks {
 public:
  DeviceGhostColumnBlocks() = default;
  /// Copies `host`'s arrays to the device.
  explicit DeviceGhostColumnBlocks(const GhostColumnBlocks& host);

  /// y_e += Σ_{f ghost} A_ef x_f (see GhostColumnBlocks::multiply_add); device pointers.
  void multiply_add(const double* values, const double* x_ghosts, double* y) const;

  Index row_count() const { return row_count_; }
  Index block_count() const { return block_count_; }

 private:
  Index row_count_ = 0, block_count_ = 0, largest_row_size_ = 0;
  device::DeviceBuffer<GlobalIndex> row_dof_offsets_, block_value_offsets_, block_ghost_offsets_;
  device::DeviceBuffer<Index> row_sizes_, row_strides_, row_block_starts_, block_column_sizes_;
};

}  // namespace polydg
