// CUDA implementation of build_block_pattern_on_device (polydg/sparse/device_block_pattern.hpp):
// the CPU BlockPattern's arrays, built without a global sort: per-row counts, a scan, each
// row's columns placed and then sorted by CUB's segmented sort, offsets by CUB scans. CUB's
// temporary storage is one polydg::device buffer.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <limits>

#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/detail/core/forall.cuh"
#include "polydg/core/error.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

namespace polydg {
namespace {

constexpr Index no_index = std::numeric_limits<Index>::max();

// What a build reports back in one copy: the first bad input of each kind (no_index: none),
// in the CPU pattern's order of checks, and the totals.
struct BuildReport {
  Index bad_block_size = no_index;  // smallest element with N_e < 1
  Index bad_interface = no_index;   // smallest interface out of range or (e, e)
  Index repeated_block = no_index;  // smallest block (row-major) equal to the next one
  GlobalIndex value_count = 0, dof_count = 0;
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

// Whether interface (a, b) joins two distinct elements of [0, rows): the others are reported and
// place no block.
POLYDG_HD inline bool valid_interface(Index a, Index b, Index rows) {
  return a >= 0 && a < rows && b >= 0 && b < rows && a != b;
}

void check_block_count(std::size_t rows, std::size_t interfaces) {
  require(rows + 2 * interfaces < std::size_t(std::numeric_limits<Index>::max()),
          "build_block_pattern_on_device: ", rows, " elements and ", interfaces,
          " interfaces give more blocks than a 32-bit block index holds");
}

// The CPU pattern's message for a block size < 1, or for interface i = (a, b).
[[noreturn]] void raise_block_size(Index e, Index size) {
  raise("BlockPattern: element ", e, " has block size ", size);
}
[[noreturn]] void raise_interface(Index i, Index a, Index b, Index rows) {
  require(a >= 0 && a < rows && b >= 0 && b < rows, "BlockPattern: interface ", i,
          " joins elements (", a, ", ", b, ") outside [0, ", rows, ")");
  raise("BlockPattern: interface ", i, " joins element ", a, " to itself");
}

// The CPU pattern's checks, in its order and with its messages; no device work yet.
void check_input(std::span<const Index> block_sizes,
                 std::span<const std::array<Index, 2>> interfaces) {
  check_block_count(block_sizes.size(), interfaces.size());
  const Index rows = Index(block_sizes.size());
  for (Index e = 0; e < rows; ++e)
    if (block_sizes[e] < 1) raise_block_size(e, block_sizes[e]);
  for (std::size_t i = 0; i < interfaces.size(); ++i) {
    const auto [a, b] = interfaces[i];
    if (!valid_interface(a, b, rows)) raise_interface(Index(i), a, b, rows);
  }
}

template <class T>
T copy_one_to_host(const T* device_source) {
  T value{};
  device::copy_device_to_host(&value, device_source, sizeof(T));
  return value;
}

}  // namespace

DeviceBlockPattern build_block_pattern_from_device_arrays(device::DeviceBuffer<Index> block_sizes,
                                                          const Index* interface_ends,
                                                          Index interface_count) {
  require(interface_count >= 0, "build_block_pattern_from_device_arrays: ", interface_count,
          " interfaces");
  check_block_count(block_sizes.size(), std::size_t(interface_count));
  DeviceBlockPattern pattern;
  const Index rows = Index(block_sizes.size());
  const Index interfaces = interface_count;
  const Index blocks = rows + 2 * interfaces;
  pattern.rows_ = rows;
  pattern.blocks_ = blocks;
  pattern.block_sizes_ = std::move(block_sizes);
  if (rows == 0) {  // nothing to build; any interface is out of range
    if (interfaces > 0) {
      Index pair[2];
      device::copy_device_to_host(pair, interface_ends, sizeof(pair));
      raise_interface(0, pair[0], pair[1], rows);
    }
    pattern.dof_offsets_ = device::DeviceBuffer<GlobalIndex>(1);
    pattern.row_offsets_ = device::DeviceBuffer<Index>(1);
    pattern.value_offsets_ = device::DeviceBuffer<GlobalIndex>(1);
    pattern.dof_offsets_.fill_zero();
    pattern.row_offsets_.fill_zero();
    pattern.value_offsets_.fill_zero();
    return pattern;
  }

  device::DeviceBuffer<BuildReport> report(1);
  {
    const BuildReport initial;
    device::copy_host_to_device(report.data(), &initial, sizeof(initial));
  }
  // counts[e]: the blocks of row e (its diagonal and one per valid interface), then the place
  // of the next one; counts[rows] = 0 so that the scan ends with the total.
  device::DeviceBuffer<Index> counts(std::size_t(rows) + 1);
  pattern.row_offsets_ = device::DeviceBuffer<Index>(std::size_t(rows) + 1);
  device::DeviceBuffer<Index> unsorted_columns(blocks);
  pattern.block_columns_ = device::DeviceBuffer<Index>(blocks);
  pattern.block_rows_ = device::DeviceBuffer<Index>(blocks);
  pattern.diagonal_blocks_ = device::DeviceBuffer<Index>(rows);
  pattern.value_offsets_ = device::DeviceBuffer<GlobalIndex>(std::size_t(blocks) + 1);
  pattern.dof_offsets_ = device::DeviceBuffer<GlobalIndex>(std::size_t(rows) + 1);

  BuildReport* r = report.data();
  const Index* sizes = pattern.block_sizes_.data();
  const Index* ends = interface_ends;
  Index* count = counts.data();
  Index* row_offsets = pattern.row_offsets_.data();
  Index* columns_in = unsorted_columns.data();
  Index* columns = pattern.block_columns_.data();
  Index* block_rows = pattern.block_rows_.data();
  Index* diagonal = pattern.diagonal_blocks_.data();

  // CUB's three algorithms share one temporary buffer of the largest size they ask for.
  const auto value_counts =
      thrust::make_transform_iterator(thrust::counting_iterator<Index>(0),
                                      BlockValueCountOrZero{sizes, block_rows, columns, blocks});
  const auto dof_counts = thrust::make_transform_iterator(thrust::counting_iterator<Index>(0),
                                                          BlockSizeOrZero{sizes, rows});
  std::size_t scan_rows_bytes = 0, sort_bytes = 0, scan_values_bytes = 0, scan_dofs_bytes = 0;
  POLYDG_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, scan_rows_bytes, count, row_offsets, rows + 1));
  POLYDG_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, sort_bytes, columns_in, columns,
                                                       blocks, rows, row_offsets, row_offsets + 1));
  POLYDG_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_values_bytes, value_counts,
                                                  pattern.value_offsets_.data(), blocks + 1));
  POLYDG_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_dofs_bytes, dof_counts,
                                                  pattern.dof_offsets_.data(), rows + 1));
  std::size_t temporary_bytes =
      std::max({scan_rows_bytes, sort_bytes, scan_values_bytes, scan_dofs_bytes, std::size_t(1)});
  device::DeviceBuffer<unsigned char> temporary(temporary_bytes);

  // Counts: the diagonal, then both ends of every valid interface; bad input reported.
  device::forall(std::int64_t(rows) + 1, [=] __device__(GlobalIndex e) {
    count[e] = e < rows ? 1 : 0;
    if (e < rows && sizes[e] < 1) atomicMin(&r->bad_block_size, Index(e));
  });
  device::forall(interfaces, [=] __device__(GlobalIndex i) {
    const Index a = ends[2 * i], b = ends[2 * i + 1];
    if (!valid_interface(a, b, rows)) {
      atomicMin(&r->bad_interface, Index(i));
      return;
    }
    atomicAdd(&count[a], 1);
    atomicAdd(&count[b], 1);
  });
  POLYDG_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temporary.data(), temporary_bytes, count,
                                                  row_offsets, rows + 1));
  // Each row's columns in any order (the atomics' places), then sorted per row: the result does
  // not depend on where the atomics put them.
  device::forall(rows, [=] __device__(GlobalIndex e) {
    columns_in[row_offsets[e]] = Index(e);
    count[e] = 1;
  });
  device::forall(interfaces, [=] __device__(GlobalIndex i) {
    const Index a = ends[2 * i], b = ends[2 * i + 1];
    if (!valid_interface(a, b, rows)) return;
    columns_in[row_offsets[a] + atomicAdd(&count[a], 1)] = b;
    columns_in[row_offsets[b] + atomicAdd(&count[b], 1)] = a;
  });
  temporary_bytes = std::max<std::size_t>(temporary.size(), 1);
  POLYDG_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(temporary.data(), temporary_bytes,
                                                       columns_in, columns, blocks, rows,
                                                       row_offsets, row_offsets + 1));
  // Rows and the diagonal of every block; a repeated pair leaves two equal neighbours in a row,
  // the first of them the smallest (row, column), the one the CPU pattern reports.
  device::forall(rows, [=] __device__(GlobalIndex e) {
    const Index end = row_offsets[e + 1];
    for (Index k = row_offsets[e]; k < end; ++k) {
      block_rows[k] = Index(e);
      if (columns[k] == Index(e)) diagonal[e] = k;
      if (k + 1 < end && columns[k] == columns[k + 1]) atomicMin(&r->repeated_block, k);
    }
  });
  temporary_bytes = std::max<std::size_t>(temporary.size(), 1);
  POLYDG_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temporary.data(), temporary_bytes, value_counts,
                                                  pattern.value_offsets_.data(), blocks + 1));
  temporary_bytes = std::max<std::size_t>(temporary.size(), 1);
  POLYDG_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temporary.data(), temporary_bytes, dof_counts,
                                                  pattern.dof_offsets_.data(), rows + 1));
  {
    const GlobalIndex* value_offsets = pattern.value_offsets_.data();
    const GlobalIndex* dof_offsets = pattern.dof_offsets_.data();
    device::forall(1, [=] __device__(GlobalIndex) {
      r->value_count = value_offsets[blocks];
      r->dof_count = dof_offsets[rows];
    });
  }
  const BuildReport result = copy_one_to_host(report.data());  // waits for the build

  // The CPU pattern's order: block sizes, interfaces, repeated pairs.
  if (result.bad_block_size != no_index)
    raise_block_size(result.bad_block_size, copy_one_to_host(sizes + result.bad_block_size));
  if (result.bad_interface != no_index) {
    Index pair[2];
    device::copy_device_to_host(pair, ends + 2 * std::size_t(result.bad_interface), sizeof(pair));
    raise_interface(result.bad_interface, pair[0], pair[1], rows);
  }
  if (result.repeated_block != no_index)
    raise("BlockPattern: the pair (", copy_one_to_host(block_rows + result.repeated_block), ", ",
          copy_one_to_host(columns + result.repeated_block),
          ") is listed by more than one interface");
  pattern.value_count_ = result.value_count;
  pattern.dof_count_ = result.dof_count;
  return pattern;
}

DeviceBlockPattern build_block_pattern_on_device(std::span<const Index> block_sizes,
                                                 std::span<const std::array<Index, 2>> interfaces) {
  check_input(block_sizes, interfaces);
  static_assert(sizeof(std::array<Index, 2>) == 2 * sizeof(Index));
  // Both ends of every interface, (a0, b0, a1, b1, ...).
  const device::DeviceBuffer<Index> ends(std::span<const Index>(
      reinterpret_cast<const Index*>(interfaces.data()), 2 * interfaces.size()));
  return build_block_pattern_from_device_arrays(device::DeviceBuffer<Index>(block_sizes),
                                                ends.data(), Index(interfaces.size()));
}

}  // namespace polydg
