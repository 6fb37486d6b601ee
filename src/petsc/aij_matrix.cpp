#include "polydg/petsc/aij_matrix.hpp"

#include <iostream>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common_block_size.hpp"
#include "csr_value_order.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "single_rank.hpp"

namespace polydg::petsc {

namespace {

/// An MPIAIJ's diagonal part (the owned rows × owned columns, a SeqAIJ) with the Mat's block
/// size: PETSc 3.18's COO preallocation builds that part with block size 1, and
/// MatInvertBlockDiagonal() on the MPIAIJ (what PCPBJACOBI calls) inverts the diagonal part's
/// blocks, so it returned 1 × 1 inverses that PCPBJACOBI then read as N × N ones: a wrong
/// preconditioner, silently. A sequential Mat is left as it is.
void give_diagonal_part_block_size(Mat mat, PetscInt block_size) {
  PetscBool mpi = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(mat), &mpi, MATMPIAIJ,
                                              MATMPIAIJCUSPARSE, ""));
  if (mpi != PETSC_TRUE) return;
  Mat diagonal = nullptr;
  POLYDG_PETSC_CALL(MatMPIAIJGetSeqAIJ(mat, &diagonal, nullptr, nullptr));
  PetscInt rows = 0, columns = 0;
  POLYDG_PETSC_CALL(MatGetBlockSizes(diagonal, &rows, &columns));
  if (rows != block_size || columns != block_size)
    POLYDG_PETSC_CALL(MatSetBlockSizes(diagonal, block_size, block_size));
}

/// The pattern's COO indices as PetscInt, freeing the GlobalIndex array (the caller has
/// checked that dof_count() fits in PetscInt).
std::vector<PetscInt> to_petsc_indices(std::vector<GlobalIndex>& indices) {
  std::vector<PetscInt> converted(indices.size());
  for (std::size_t k = 0; k < indices.size(); ++k) converted[k] = PetscInt(indices[k]);
  indices.clear();
  indices.shrink_to_fit();
  return converted;
}

/// MatSetValuesCOO() straight from `values` when PetscScalar is Real, else from a converted
/// copy (a template, so that only the branch of this PETSc build is compiled).
template <class Real>
void set_values_coo(Mat mat, std::span<const Real> values) {
  if constexpr (std::is_same_v<PetscScalar, Real>) {
    POLYDG_PETSC_CALL(MatSetValuesCOO(mat, values.data(), INSERT_VALUES));
  } else {
    const std::vector<PetscScalar> converted(values.begin(), values.end());
    POLYDG_PETSC_CALL(MatSetValuesCOO(mat, converted.data(), INSERT_VALUES));
  }
}

void destroy(Mat& mat) {
  if (mat == nullptr) return;
  PetscBool finalized = PETSC_FALSE;
  PetscFinalized(&finalized);
  // After PetscFinalize() the Mat is gone with the rest of PETSc's memory.
  if (!finalized && MatDestroy(&mat) != 0)
    std::cerr << "polydg::petsc::AijMatrix: MatDestroy failed\n";
  mat = nullptr;
}

}  // namespace

AijMatrix::AijMatrix(const BlockPattern& pattern, const std::string& options_prefix,
                     Placement placement)
    : row_count_(pattern.dof_count()),
      value_count_(pattern.value_count()),
      source_row_count_(pattern.dof_count()),
      source_value_count_(pattern.value_count()),
      pattern_(pattern) {
  detail::require_single_rank(
      "polydg::petsc::AijMatrix(BlockPattern)",
      "; give each rank its RankBlockPattern (partition_numbering.hpp) instead");
  require(row_count_ <= GlobalIndex(std::numeric_limits<PetscInt>::max()),
          "polydg::petsc::AijMatrix: the pattern has ", row_count_,
          " unknowns, more than PetscInt (", sizeof(PetscInt) * 8,
          " bits) can index; use a PETSc configured with --with-64-bit-indices");
  require(value_count_ <= GlobalIndex(std::numeric_limits<PetscCount>::max()),
          "polydg::petsc::AijMatrix: the pattern has ", value_count_,
          " values, more than PetscCount can count");

  std::vector<GlobalIndex> rows(value_count_), columns(value_count_);
  pattern.coo_indices(rows, columns);

  const PetscInt size = PetscInt(row_count_);
  POLYDG_PETSC_CALL(MatCreate(PETSC_COMM_WORLD, &mat_));
  try {
    POLYDG_PETSC_CALL(MatSetSizes(mat_, size, size, size, size));
    if (!options_prefix.empty())
      POLYDG_PETSC_CALL(MatSetOptionsPrefix(mat_, options_prefix.c_str()));
    POLYDG_PETSC_CALL(MatSetType(mat_, default_aij_type(placement)));
    // -[prefix]mat_type, e.g. aijcusparse with a PETSc built with CUDA (update_from_device).
    POLYDG_PETSC_CALL(MatSetFromOptions(mat_));
    // One block size for every element: the Mat's block size, so -pc_type pbjacobi works and
    // products with it (PCMG's PᵀAP) keep it.
    bool uniform = pattern.block_row_count() > 0;
    for (Index e = 0; e < pattern.block_row_count(); ++e)
      uniform = uniform && pattern.block_size(e) == pattern.block_size(0);
    if (uniform) POLYDG_PETSC_CALL(MatSetBlockSize(mat_, PetscInt(pattern.block_size(0))));
    std::vector<PetscInt> petsc_rows = to_petsc_indices(rows);
    std::vector<PetscInt> petsc_columns = to_petsc_indices(columns);
    POLYDG_PETSC_CALL(MatSetPreallocationCOO(mat_, PetscCount(value_count_), petsc_rows.data(),
                                             petsc_columns.data()));
    // The element blocks, for -pc_type vpbjacobi (as on a ShellMatrix).
    std::vector<PetscInt> block_sizes(std::size_t(pattern.block_row_count()));
    for (Index e = 0; e < pattern.block_row_count(); ++e)
      block_sizes[std::size_t(e)] = PetscInt(pattern.block_size(e));
    POLYDG_PETSC_CALL(
        MatSetVariableBlockSizes(mat_, PetscInt(block_sizes.size()), block_sizes.data()));
    PetscBool sequential_aij = PETSC_FALSE;
    POLYDG_PETSC_CALL(
        PetscObjectTypeCompare(reinterpret_cast<PetscObject>(mat_), MATSEQAIJ, &sequential_aij));
    if (sequential_aij == PETSC_TRUE) {
      auto order = std::make_unique<detail::CsrValueOrder>(pattern);
      if (order->matches(mat_, pattern)) csr_order_ = std::move(order);
    }
  } catch (...) {
    destroy(mat_);
    throw;
  }
}

AijMatrix::AijMatrix(const RankBlockPattern& rows, const std::string& options_prefix,
                     Placement placement)
    : row_count_(rows.global_dof_count()),
      value_count_(rows.owned_value_count()),
      source_row_count_(rows.local().dof_count()),
      source_value_count_(rows.local().value_count()),
      distributed_(true) {
  require(row_count_ <= GlobalIndex(std::numeric_limits<PetscInt>::max()),
          "polydg::petsc::AijMatrix: the distributed pattern has ", row_count_,
          " unknowns, more than PetscInt (", sizeof(PetscInt) * 8,
          " bits) can index; use a PETSc configured with --with-64-bit-indices");
  require(value_count_ <= GlobalIndex(std::numeric_limits<PetscCount>::max()),
          "polydg::petsc::AijMatrix: this rank has ", value_count_,
          " values, more than PetscCount can count");
  std::vector<GlobalIndex> coo_rows(value_count_), coo_columns(value_count_);
  rows.coo_indices(coo_rows, coo_columns);
  const BlockPattern& local = rows.local();
  // The owned element blocks: the Mat's variable block sizes, and its block size where every
  // element on every rank has the same.
  std::vector<PetscInt> block_sizes(std::size_t(rows.owned_block_rows()));
  for (Index e = 0; e < rows.owned_block_rows(); ++e)
    block_sizes[std::size_t(e)] = PetscInt(local.block_size(e));
  const PetscInt block_size = detail::common_block_size(block_sizes, "polydg::petsc::AijMatrix");

  const PetscInt local_rows = PetscInt(rows.owned_dof_count());
  POLYDG_PETSC_CALL(MatCreate(PETSC_COMM_WORLD, &mat_));
  try {
    POLYDG_PETSC_CALL(
        MatSetSizes(mat_, local_rows, local_rows, PetscInt(row_count_), PetscInt(row_count_)));
    if (!options_prefix.empty())
      POLYDG_PETSC_CALL(MatSetOptionsPrefix(mat_, options_prefix.c_str()));
    POLYDG_PETSC_CALL(MatSetType(mat_, default_aij_type(placement)));
    POLYDG_PETSC_CALL(MatSetFromOptions(mat_));
    if (block_size > 0) POLYDG_PETSC_CALL(MatSetBlockSize(mat_, block_size));
    std::vector<PetscInt> petsc_rows = to_petsc_indices(coo_rows);
    std::vector<PetscInt> petsc_columns = to_petsc_indices(coo_columns);
    POLYDG_PETSC_CALL(MatSetPreallocationCOO(mat_, PetscCount(value_count_), petsc_rows.data(),
                                             petsc_columns.data()));
    POLYDG_PETSC_CALL(
        MatSetVariableBlockSizes(mat_, PetscInt(block_sizes.size()), block_sizes.data()));
    if (block_size > 1) give_diagonal_part_block_size(mat_, block_size);
  } catch (...) {
    destroy(mat_);
    throw;
  }
}

AijMatrix::AijMatrix() = default;

AijMatrix::~AijMatrix() { destroy(mat_); }

AijMatrix::AijMatrix(AijMatrix&& other) noexcept
    : mat_(std::exchange(other.mat_, nullptr)),
      row_count_(std::exchange(other.row_count_, 0)),
      value_count_(std::exchange(other.value_count_, 0)),
      source_row_count_(std::exchange(other.source_row_count_, 0)),
      source_value_count_(std::exchange(other.source_value_count_, 0)),
      distributed_(std::exchange(other.distributed_, false)),
      staging_(std::move(other.staging_)),
      csr_order_(std::move(other.csr_order_)),
      pattern_(std::move(other.pattern_)) {}

AijMatrix& AijMatrix::operator=(AijMatrix&& other) noexcept {
  if (this != &other) {
    destroy(mat_);
    mat_ = std::exchange(other.mat_, nullptr);
    row_count_ = std::exchange(other.row_count_, 0);
    value_count_ = std::exchange(other.value_count_, 0);
    source_row_count_ = std::exchange(other.source_row_count_, 0);
    source_value_count_ = std::exchange(other.source_value_count_, 0);
    distributed_ = std::exchange(other.distributed_, false);
    staging_ = std::move(other.staging_);
    csr_order_ = std::move(other.csr_order_);
    pattern_ = std::move(other.pattern_);
  }
  return *this;
}

void AijMatrix::update(const BlockMatrix<double>& matrix) {
  require(mat_ != nullptr, "polydg::petsc::AijMatrix::update: the AijMatrix is empty");
  const std::span<const double> values = matrix.values();
  require(matrix.pattern().dof_count() == source_row_count_ &&
              GlobalIndex(values.size()) == source_value_count_,
          "polydg::petsc::AijMatrix::update: the BlockMatrix has ", matrix.pattern().dof_count(),
          " rows and ", values.size(), " values, the AijMatrix was created for ", source_row_count_,
          " rows and ", source_value_count_, " values");
  set_values(values.first(std::size_t(value_count_)));
  set_symmetry_flags(values);
}

void AijMatrix::set_values(std::span<const double> values) {
  if (!csr_order_) {
    set_values_coo(mat_, values);  // assembles: PETSc forgets the symmetry flags not eternal
    return;
  }
  PetscScalar* csr = nullptr;
  POLYDG_PETSC_CALL(MatSeqAIJGetArrayWrite(mat_, &csr));
  csr_order_->scatter(values, csr);
  // Restoring the array raises the Mat's object state: a KSP sets its PC up again.
  POLYDG_PETSC_CALL(MatSeqAIJRestoreArrayWrite(mat_, &csr));
  // The COO preallocation leaves the Mat unassembled; its first values complete it (once: the
  // structure never changes afterwards). Later values are assembled again only where a caller
  // set MAT_SPD: the assembly makes PETSc forget it unless it is eternal, as MatSetValuesCOO()
  // would (a MatAssemblyEnd() costs about as much as writing the values).
  PetscBool assembled = PETSC_FALSE, spd_known = PETSC_FALSE, spd = PETSC_FALSE;
  POLYDG_PETSC_CALL(MatAssembled(mat_, &assembled));
  POLYDG_PETSC_CALL(MatIsSPDKnown(mat_, &spd_known, &spd));
  if (assembled == PETSC_FALSE || spd_known == PETSC_TRUE) {
    POLYDG_PETSC_CALL(MatAssemblyBegin(mat_, MAT_FINAL_ASSEMBLY));
    POLYDG_PETSC_CALL(MatAssemblyEnd(mat_, MAT_FINAL_ASSEMBLY));
  }
}

void AijMatrix::set_symmetry_flags(std::span<const double> values) {
  if (distributed_) return;  // the other ranks' blocks are not here (see the constructor)
  const bool symmetric = is_symmetric(pattern_, values, symmetry_tolerance);
  POLYDG_PETSC_CALL(MatSetOption(mat_, MAT_SYMMETRIC, symmetric ? PETSC_TRUE : PETSC_FALSE));
  // The next update() brings other values: the flag is theirs to set.
  POLYDG_PETSC_CALL(MatSetOption(mat_, MAT_SYMMETRY_ETERNAL, PETSC_FALSE));
  if (symmetric) return;
  PetscBool spd_known = PETSC_FALSE, spd = PETSC_FALSE;
  POLYDG_PETSC_CALL(MatIsSPDKnown(mat_, &spd_known, &spd));
  if (spd_known == PETSC_TRUE && spd == PETSC_TRUE) {
    const char* prefix = nullptr;
    POLYDG_PETSC_CALL(MatGetOptionsPrefix(mat_, &prefix));
    warn(std::string("polydg::petsc::AijMatrix::update: the Mat") +
         (prefix != nullptr ? std::string(" with options prefix ") + prefix : std::string()) +
         " was declared SPD (MAT_SPD), but its new values are not symmetric; MAT_SPD is "
         "cleared");
    POLYDG_PETSC_CALL(MatSetOption(mat_, MAT_SPD, PETSC_FALSE));
  }
}

bool AijMatrix::values_on_device() const {
  require(mat_ != nullptr, "polydg::petsc::AijMatrix: the AijMatrix is empty");
  PetscBool device = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscObjectTypeCompareAny(
      reinterpret_cast<PetscObject>(mat_), &device, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE,
      MATSEQAIJHIPSPARSE, MATMPIAIJHIPSPARSE, MATSEQAIJKOKKOS, MATMPIAIJKOKKOS, ""));
  return device == PETSC_TRUE;
}

void AijMatrix::update_from_device(const double* device_values) {
  require(mat_ != nullptr, "polydg::petsc::AijMatrix::update_from_device: the AijMatrix is empty");
  require(device_values != nullptr || value_count_ == 0,
          "polydg::petsc::AijMatrix::update_from_device: no values (null pointer)");
  if (values_on_device()) {
    // PETSc reads device memory itself (PetscGetMemType) into a device matrix, on a stream
    // of its own: the values' writers must be done.
    device::synchronize();
    require(std::is_same_v<PetscScalar, double>,
            "polydg::petsc::AijMatrix::update_from_device: a device Mat whose scalar is not "
            "double cannot take the values in place");
    POLYDG_PETSC_CALL(
        MatSetValuesCOO(mat_, reinterpret_cast<const PetscScalar*>(device_values), INSERT_VALUES));
    return;
  }
  if (staging_.size() != std::size_t(value_count_))
    staging_ = device::PinnedBuffer<double>(std::size_t(value_count_));
  // The owned values are a prefix of a distributed pattern's local values.
  device::copy_device_to_host(staging_.data(), device_values, staging_.size() * sizeof(double));
  set_values(std::as_const(staging_).span());
  set_symmetry_flags(std::as_const(staging_).span());
}

}  // namespace polydg::petsc
