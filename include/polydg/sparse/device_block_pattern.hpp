#pragma once
/// DeviceBlockPattern: the BlockPattern (polydg/sparse/block_pattern.hpp) built and held in
/// device memory, for the GPU assembly.
///
/// The arrays are exactly those of the CPU BlockPattern built from the same input (the CPU
/// pattern is the reference the tests compare with, entry by entry):
/// * block_sizes[e] = N_e, e < rows;
/// * dof_offsets (rows + 1, 64-bit): exclusive scan of the block sizes;
/// * row_offsets (rows + 1): blocks of row e are row_offsets[e] .. row_offsets[e + 1] − 1;
/// * block_columns, block_rows (blocks): blocks numbered row by row, columns ascending;
/// * diagonal_blocks[e]: the block (e, e);
/// * value_offsets (blocks + 1, 64-bit): exclusive scan of N_r·N_c in block order, so
///   value_offsets[blocks] = value_count().
///
/// Construction (build_block_pattern_on_device from host arrays, which it uploads, or
/// build_block_pattern_from_device_arrays) builds everything on the device without a global
/// sort: blocks per row (the diagonal and one per interface end, counted by atomics), their
/// scan into row offsets, each row's columns placed in any order and then sorted per row (CUB's
/// segmented sort), repeats found as equal neighbours, value and dof offsets by integer
/// exclusive scans. Determinism: the result is the same on every run and equals the CPU
/// pattern (where the atomics place a row's columns is undone by the sort of distinct keys;
/// the scans add integers).
///
/// Host↔device traffic of a build from device arrays: one small report comes back (the first
/// bad input of each kind, the dof and value counts), i.e. one synchronization. Device memory:
/// the arrays above plus a count per row, the unsorted columns and CUB's workspace, freed on
/// return. Its time on a large slab: docs/performance.md, "Assembly: the paper's Table 2
/// setting".
/// Every allocation goes through polydg::device (DeviceBuffer); every CUDA failure is a
/// polydg::Error.
///
/// A build without CUDA links a stub whose factory throws polydg::Error("... built without
/// CUDA"); this header is the same in both builds and includes no CUDA header.
#include <array>
#include <span>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"

namespace polydg {

/// Raw device pointers and sizes of a DeviceBlockPattern, passed by value to kernels. Valid
/// while the pattern lives; read-only.
struct DeviceBlockPatternView {
  Index block_row_count = 0;
  Index block_count = 0;
  const Index* block_sizes = nullptr;
  const GlobalIndex* dof_offsets = nullptr;
  const Index* row_offsets = nullptr;
  const Index* block_columns = nullptr;
  const Index* block_rows = nullptr;
  const Index* diagonal_blocks = nullptr;
  const GlobalIndex* value_offsets = nullptr;

  /// The block (r, c), or −1 when r and c are not neighbours (binary search in row r), as
  /// BlockPattern::find_block. Callable in device code only (the arrays are device memory).
  POLYDG_HD Index find_block(Index r, Index c) const {
    Index low = row_offsets[r], high = row_offsets[r + 1];
    while (low < high) {
      const Index middle = low + (high - low) / 2;
      if (block_columns[middle] < c)
        low = middle + 1;
      else
        high = middle;
    }
    return (low < row_offsets[r + 1] && block_columns[low] == c) ? low : Index(-1);
  }
};

class DeviceBlockPattern {
 public:
  /// The arrays copied back to the host, named as in the class comment (for tests and
  /// debugging: a full device→host copy of the pattern).
  struct HostArrays {
    std::vector<Index> block_sizes;
    std::vector<GlobalIndex> dof_offsets;
    std::vector<Index> row_offsets, block_columns, block_rows, diagonal_blocks;
    std::vector<GlobalIndex> value_offsets;
  };

  /// An empty pattern (no rows, no device memory).
  DeviceBlockPattern() = default;

  Index block_row_count() const { return rows_; }
  Index block_count() const { return blocks_; }
  GlobalIndex dof_count() const { return dof_count_; }
  /// Number of stored entries (the sum of N_r N_c over all blocks).
  GlobalIndex value_count() const { return value_count_; }

  const device::DeviceBuffer<Index>& block_sizes() const { return block_sizes_; }
  const device::DeviceBuffer<GlobalIndex>& dof_offsets() const { return dof_offsets_; }
  const device::DeviceBuffer<Index>& row_offsets() const { return row_offsets_; }
  const device::DeviceBuffer<Index>& block_columns() const { return block_columns_; }
  const device::DeviceBuffer<Index>& block_rows() const { return block_rows_; }
  const device::DeviceBuffer<Index>& diagonal_blocks() const { return diagonal_blocks_; }
  const device::DeviceBuffer<GlobalIndex>& value_offsets() const { return value_offsets_; }

  DeviceBlockPatternView view() const {
    return {rows_,
            blocks_,
            block_sizes_.data(),
            dof_offsets_.data(),
            row_offsets_.data(),
            block_columns_.data(),
            block_rows_.data(),
            diagonal_blocks_.data(),
            value_offsets_.data()};
  }
  /// Copies every array back to the host (synchronous).
  HostArrays to_host() const {
    return {block_sizes_.to_host(),   dof_offsets_.to_host(), row_offsets_.to_host(),
            block_columns_.to_host(), block_rows_.to_host(),  diagonal_blocks_.to_host(),
            value_offsets_.to_host()};
  }

 private:
  friend DeviceBlockPattern build_block_pattern_from_device_arrays(
      device::DeviceBuffer<Index> block_sizes, const Index* interface_ends, Index interface_count);

  Index rows_ = 0, blocks_ = 0;
  GlobalIndex dof_count_ = 0, value_count_ = 0;
  device::DeviceBuffer<Index> block_sizes_;
  device::DeviceBuffer<GlobalIndex> dof_offsets_;
  device::DeviceBuffer<Index> row_offsets_, block_columns_, block_rows_, diagonal_blocks_;
  device::DeviceBuffer<GlobalIndex> value_offsets_;
};

/// Builds on the device the pattern that BlockPattern(block_sizes, interfaces) builds on the
/// host (same input contract): `block_sizes[e]` = N_e; `interfaces` = the neighbouring element
/// pairs (a, b), a ≠ b, each pair once, in any order and orientation.
///
/// Throws polydg::Error, with the CPU pattern's message, for a block size < 1, an element
/// index out of range or a pair (e, e) — checked on the host before anything touches the
/// device — and for a repeated pair, found on the device after the sort (the message names the
/// smallest repeated (row, column), as the CPU pattern does). Also throws polydg::Error when
/// rows + 2·interfaces exceeds the 32-bit block index, on any CUDA failure (no device, out of
/// memory), and, in a build without CUDA, always ("built without CUDA"; the stub does not
/// check the input).
///
/// Synchronous: returns when the pattern is complete. Deterministic (see the class comment).
DeviceBlockPattern build_block_pattern_on_device(std::span<const Index> block_sizes,
                                                 std::span<const std::array<Index, 2>> interfaces);

/// The same pattern from inputs already in device memory (e.g. a DeviceQuadratureMesh's degrees
/// and interfaces): `block_sizes` (N_e per element) becomes the pattern's; `interface_ends`
/// holds a, b of every interface (2 · interface_count Index, device memory). The input is
/// checked on the device, with the CPU pattern's messages in its order (block sizes, then
/// interfaces, then repeated pairs). Synchronous; deterministic.
DeviceBlockPattern build_block_pattern_from_device_arrays(device::DeviceBuffer<Index> block_sizes,
                                                          const Index* interface_ends,
                                                          Index interface_count);

}  // namespace polydg
