// DeviceDenseBlockOperator (polydg/petsc/device_dense_block_operator.hpp). No CUDA here: the
// device work goes through DeviceDenseBlockMatrix and polydg::device, whose CPU-only builds
// throw "built without CUDA".
#include "polydg/petsc/device_dense_block_operator.hpp"

#include <cstddef>
#include <utility>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/sparse/device_ghost_column_blocks.hpp"
#include "polydg/sparse/invert_blocks.hpp"

namespace polydg::petsc {

DeviceDenseBlockOperator::DeviceDenseBlockOperator(const DeviceDenseBlockMatrix<double>& matrix,
                                                   std::shared_ptr<const BlockPattern> pattern)
    : matrix_(matrix), pattern_(std::move(pattern)) {
  require(pattern_ != nullptr, "polydg::petsc::DeviceDenseBlockOperator: no BlockPattern given");
  require(pattern_->dof_count() == matrix_.dof_count() &&
              pattern_->value_count() == matrix_.matrix_value_count(),
          "polydg::petsc::DeviceDenseBlockOperator: the pattern (", pattern_->dof_count(),
          " unknowns, ", pattern_->value_count(), " values) is not the one the device matrix (",
          matrix_.dof_count(), " unknowns, ", matrix_.matrix_value_count(),
          " values) was built from");
  block_sizes_.resize(static_cast<std::size_t>(pattern_->block_row_count()));
  for (Index e = 0; e < pattern_->block_row_count(); ++e) block_sizes_[e] = pattern_->block_size(e);
}

void DeviceDenseBlockOperator::multiply(const double* x, double* y) const {
  matrix_.multiply(x, y);
}

void DeviceDenseBlockOperator::multiply_transpose(const double* x, double* y) const {
  matrix_.multiply_transpose(x, y);
}

void DeviceDenseBlockOperator::multiply_add(const double* x, const double* z, double* y) const {
  matrix_.multiply_add(x, z, y);
}

void DeviceDenseBlockOperator::diagonal(double* d) const {
  const std::size_t n = static_cast<std::size_t>(matrix_.dof_count());
  if (n == 0) return;
  device::DeviceBuffer<double> on_device(n);
  matrix_.diagonal(on_device.data());
  // Synchronous on the default stream: waits for the kernel.
  device::copy_device_to_host(d, on_device.data(), n * sizeof(double));
}

std::vector<double> DeviceDenseBlockOperator::inverted_block_diagonal(Index block_rows) const {
  require(block_rows >= 0 && block_rows <= Index(block_sizes_.size()),
          "polydg::petsc::DeviceDenseBlockOperator::inverted_block_diagonal: ", block_rows,
          " block rows of ", block_sizes_.size());
  const std::size_t count = static_cast<std::size_t>(matrix_.diagonal_block_value_count());
  std::vector<double> blocks;
  if (count > 0) {
    device::DeviceBuffer<double> on_device(count);
    matrix_.diagonal_blocks(on_device.data());
    blocks = on_device.to_host();
  }
  std::size_t kept = 0;  // the first block_rows elements' blocks
  for (Index e = 0; e < block_rows; ++e)
    kept += std::size_t(block_sizes_[e]) * std::size_t(block_sizes_[e]);
  blocks.resize(kept);
  return invert_diagonal_blocks(std::span<const Index>(block_sizes_).first(std::size_t(block_rows)),
                                std::move(blocks),
                                "polydg::petsc::DeviceDenseBlockOperator::inverted_block_diagonal");
}

namespace {
class DeviceGhostColumns final : public GhostColumnProduct {
 public:
  DeviceGhostColumns(const DeviceDenseBlockMatrix<double>& matrix, GlobalIndex owned_dof_count)
      : matrix_(matrix), blocks_(matrix.ghost_column_blocks(owned_dof_count)) {}
  void multiply_add(const double* x_ghosts, double* y) const override {
    blocks_.multiply_add(matrix_.values(), x_ghosts, y);
  }

 private:
  const DeviceDenseBlockMatrix<double>& matrix_;
  DeviceGhostColumnBlocks blocks_;
};
}  // namespace

std::unique_ptr<GhostColumnProduct> DeviceDenseBlockOperator::ghost_column_product(
    Index owned_block_rows) const {
  require(owned_block_rows >= 0 && owned_block_rows <= pattern_->block_row_count(),
          "polydg::petsc::DeviceDenseBlockOperator::ghost_column_product: ", owned_block_rows,
          " owned block rows of ", pattern_->block_row_count());
  return std::make_unique<DeviceGhostColumns>(matrix_, pattern_->dof_offset(owned_block_rows));
}

}  // namespace polydg::petsc
