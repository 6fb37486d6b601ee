// CUDA implementation of build_block_pattern_on_device (polydg/sparse/device_block_pattern.hpp):
// the CPU BlockPattern's arrays, built with Thrust (sort, find_if, exclusive_scan) and the
// forall launcher. Thrust's temporary storage comes from polydg::device::allocate.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>

#include <cstddef>
#include <cstdint>
#include <limits>

#include "../core/forall.cuh"
#include "../core/thrust_allocator.cuh"
#include "polydg/core/error.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {
namespace {

using Key = std::uint64_t;

// A block (row, column) as one key whose order is the pattern's order: row major, then column.
POLYDG_HD inline Key block_key(Index row, Index column) {
  return (Key(std::uint32_t(row)) << 32) | Key(std::uint32_t(column));
}
POLYDG_HD inline Index key_row(Key key) { return Index(key >> 32); }
POLYDG_HD inline Index key_column(Key key) { return Index(key & 0xffffffffu); }

// Whether sorted key i equals key i + 1 (a repeated block).
struct EqualsNext {
  const Key* keys;
  POLYDG_HD bool operator()(Index i) const { return keys[i] == keys[i + 1]; }
};

// N_e, and a trailing 0 at e = rows so that an exclusive scan over rows + 1 items ends with the
// total.
struct BlockSizeOrZero {
  const Index* sizes;
  Index rows;
  POLYDG_HD GlobalIndex operator()(Index e) const { return e < rows ? GlobalIndex(sizes[e]) : 0; }
};

// N_r·N_c of block k, and a trailing 0 at k = blocks.
struct BlockValueCountOrZero {
  const Index* sizes;
  const Index* rows;
  const Index* columns;
  Index blocks;
  POLYDG_HD GlobalIndex operator()(Index k) const {
    return k < blocks ? GlobalIndex(sizes[rows[k]]) * sizes[columns[k]] : 0;
  }
};

// The CPU pattern's checks, in its order and with its messages; no device work yet.
void check_input(std::span<const Index> block_sizes,
                 std::span<const std::array<Index, 2>> interfaces) {
  const std::size_t rows = block_sizes.size();
  require(rows + 2 * interfaces.size() < std::size_t(std::numeric_limits<Index>::max()),
          "build_block_pattern_on_device: ", rows, " elements and ", interfaces.size(),
          " interfaces give more blocks than a 32-bit block index holds");
  for (std::size_t e = 0; e < rows; ++e)
    require(block_sizes[e] >= 1, "BlockPattern: element ", e, " has block size ", block_sizes[e]);
  const Index n = Index(rows);
  for (std::size_t i = 0; i < interfaces.size(); ++i) {
    const auto [a, b] = interfaces[i];
    require(a >= 0 && a < n && b >= 0 && b < n, "BlockPattern: interface ", i, " joins elements (",
            a, ", ", b, ") outside [0, ", n, ")");
    require(a != b, "BlockPattern: interface ", i, " joins element ", a, " to itself");
  }
}

template <class T>
T copy_one_to_host(const T* device_source) {
  T value{};
  device::copy_device_to_host(&value, device_source, sizeof(T));
  return value;
}

}  // namespace

DeviceBlockPattern build_block_pattern_on_device(std::span<const Index> block_sizes,
                                                 std::span<const std::array<Index, 2>> interfaces) {
  check_input(block_sizes, interfaces);
  static_assert(sizeof(std::array<Index, 2>) == 2 * sizeof(Index));

  DeviceBlockPattern pattern;
  const Index rows = Index(block_sizes.size());
  const Index blocks = rows + 2 * Index(interfaces.size());
  pattern.rows_ = rows;
  pattern.blocks_ = blocks;
  pattern.block_sizes_ = device::DeviceBuffer<Index>(block_sizes);
  // Both ends of every interface, (a0, b0, a1, b1, ...).
  const device::DeviceBuffer<Index> ends(std::span<const Index>(
      reinterpret_cast<const Index*>(interfaces.data()), 2 * interfaces.size()));

  device::ThrustAllocator allocator;
  auto policy = thrust::cuda::par(allocator);
  try {
    // One key per block: the diagonals, then (a, b) and (b, a) for every interface.
    device::DeviceBuffer<Key> keys(blocks);
    {
      Key* k = keys.data();
      const Index* e = ends.data();
      device::forall(blocks, [=] __device__(GlobalIndex i) {
        if (i < rows) {
          k[i] = block_key(Index(i), Index(i));
        } else {
          const GlobalIndex j = i - rows;  // j / 2: interface, j % 2: direction
          const Index a = e[j & ~GlobalIndex(1)], b = e[j | 1];
          k[i] = (j & 1) ? block_key(b, a) : block_key(a, b);
        }
      });
    }
    // Radix sort of integer keys: deterministic.
    thrust::sort(policy, thrust::device_ptr<Key>(keys.data()),
                 thrust::device_ptr<Key>(keys.data()) + blocks);

    // A repeated pair leaves two equal neighbours; the first is the smallest (row, column), the
    // one the CPU pattern reports.
    const Index repeated = blocks < 2
                               ? blocks
                               : *thrust::find_if(policy, thrust::counting_iterator<Index>(0),
                                                  thrust::counting_iterator<Index>(blocks - 1),
                                                  EqualsNext{keys.data()});
    if (repeated < blocks - 1) {
      const Key key = copy_one_to_host(keys.data() + repeated);
      raise("BlockPattern: the pair (", key_row(key), ", ", key_column(key),
            ") is listed by more than one interface");
    }

    // Decode; the first block of each row starts it (every row holds its diagonal, so every
    // row offset is written), and the diagonal is where column = row.
    pattern.block_rows_ = device::DeviceBuffer<Index>(blocks);
    pattern.block_columns_ = device::DeviceBuffer<Index>(blocks);
    pattern.diagonal_blocks_ = device::DeviceBuffer<Index>(rows);
    pattern.row_offsets_ = device::DeviceBuffer<Index>(std::size_t(rows) + 1);
    device::copy_host_to_device(pattern.row_offsets_.data() + rows, &blocks, sizeof(Index));
    {
      const Key* k = keys.data();
      Index* block_rows = pattern.block_rows_.data();
      Index* block_columns = pattern.block_columns_.data();
      Index* diagonal = pattern.diagonal_blocks_.data();
      Index* row_offsets = pattern.row_offsets_.data();
      device::forall(blocks, [=] __device__(GlobalIndex i) {
        const Index row = key_row(k[i]), column = key_column(k[i]);
        block_rows[i] = row;
        block_columns[i] = column;
        if (i == 0 || key_row(k[i - 1]) != row) row_offsets[row] = Index(i);
        if (column == row) diagonal[row] = Index(i);
      });
    }

    // Offsets: exclusive integer scans over one more item than there are blocks / rows.
    pattern.value_offsets_ = device::DeviceBuffer<GlobalIndex>(std::size_t(blocks) + 1);
    const auto value_counts = thrust::make_transform_iterator(
        thrust::counting_iterator<Index>(0),
        BlockValueCountOrZero{pattern.block_sizes_.data(), pattern.block_rows_.data(),
                              pattern.block_columns_.data(), blocks});
    thrust::exclusive_scan(policy, value_counts, value_counts + (blocks + 1),
                           thrust::device_ptr<GlobalIndex>(pattern.value_offsets_.data()),
                           GlobalIndex(0));
    pattern.dof_offsets_ = device::DeviceBuffer<GlobalIndex>(std::size_t(rows) + 1);
    const auto sizes = thrust::make_transform_iterator(
        thrust::counting_iterator<Index>(0), BlockSizeOrZero{pattern.block_sizes_.data(), rows});
    thrust::exclusive_scan(policy, sizes, sizes + (rows + 1),
                           thrust::device_ptr<GlobalIndex>(pattern.dof_offsets_.data()),
                           GlobalIndex(0));

    pattern.value_count_ = copy_one_to_host(pattern.value_offsets_.data() + blocks);
    pattern.dof_count_ = copy_one_to_host(pattern.dof_offsets_.data() + rows);
    device::synchronize();
  } catch (const thrust::system_error& error) {
    raise("build_block_pattern_on_device: Thrust failed: ", error.what());
  }
  return pattern;
}

}  // namespace polydg
