#include "polydg/petsc/petsc_vector.hpp"

#include <iostream>
#include <limits>
#include <type_traits>
#include <utility>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "single_rank.hpp"

namespace polydg::petsc {

static_assert(std::is_floating_point_v<PetscScalar>,
              "polydg::petsc needs a PETSc built with real scalars");

namespace {

void destroy(Vec& vec) {
  if (vec == nullptr) return;
  PetscBool finalized = PETSC_FALSE;
  PetscFinalized(&finalized);
  // After PetscFinalize() the Vec is gone with the rest of PETSc's memory.
  if (!finalized && VecDestroy(&vec) != 0)
    std::cerr << "polydg::petsc::Vector: VecDestroy failed\n";
  vec = nullptr;
}

void require_local_size(Vec vec, std::size_t size, const char* who) {
  PetscInt local_size = 0;
  POLYDG_PETSC_CALL(VecGetLocalSize(vec, &local_size));
  require(GlobalIndex(local_size) == GlobalIndex(size), who, ": the Vec has ", local_size,
          " local entries, the array ", size);
}

}  // namespace

Vector::Vector(GlobalIndex size, Placement placement, const std::string& options_prefix) {
  detail::require_single_rank(
      "polydg::petsc::Vector(size)",
      "; give each rank its RankBlockPattern (partition_numbering.hpp) instead");
  create(size, size, placement, options_prefix);
}

Vector::Vector(const RankBlockPattern& rows, Placement placement,
               const std::string& options_prefix) {
  create(rows.owned_dof_count(), rows.global_dof_count(), placement, options_prefix);
}

void Vector::create(GlobalIndex local_size, GlobalIndex size, Placement placement,
                    const std::string& options_prefix) {
  require(size >= 0 && size <= GlobalIndex(std::numeric_limits<PetscInt>::max()),
          "polydg::petsc::Vector: size ", size, " is outside the range of PetscInt (",
          sizeof(PetscInt) * 8, " bits)");
  POLYDG_PETSC_CALL(VecCreate(PETSC_COMM_WORLD, &vec_));
  try {
    POLYDG_PETSC_CALL(VecSetSizes(vec_, PetscInt(local_size), PetscInt(size)));
    if (!options_prefix.empty())
      POLYDG_PETSC_CALL(VecSetOptionsPrefix(vec_, options_prefix.c_str()));
    POLYDG_PETSC_CALL(VecSetType(vec_, default_vec_type(placement)));
    POLYDG_PETSC_CALL(VecSetFromOptions(vec_));
    POLYDG_PETSC_CALL(VecZeroEntries(vec_));
  } catch (...) {
    destroy(vec_);
    throw;
  }
}

Vector::~Vector() { destroy(vec_); }

Vector::Vector(Vector&& other) noexcept : vec_(std::exchange(other.vec_, nullptr)) {}

Vector& Vector::operator=(Vector&& other) noexcept {
  if (this != &other) {
    destroy(vec_);
    vec_ = std::exchange(other.vec_, nullptr);
  }
  return *this;
}

void copy_to_vec(std::span<const double> values, Vec vec) {
  require_local_size(vec, values.size(), "polydg::petsc::copy_to_vec");
  PetscScalar* array = nullptr;
  POLYDG_PETSC_CALL(VecGetArrayWrite(vec, &array));
  for (std::size_t i = 0; i < values.size(); ++i) array[i] = PetscScalar(values[i]);
  POLYDG_PETSC_CALL(VecRestoreArrayWrite(vec, &array));
}

void copy_from_vec(Vec vec, std::span<double> values) {
  require_local_size(vec, values.size(), "polydg::petsc::copy_from_vec");
  const PetscScalar* array = nullptr;
  POLYDG_PETSC_CALL(VecGetArrayRead(vec, &array));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = double(array[i]);
  POLYDG_PETSC_CALL(VecRestoreArrayRead(vec, &array));
}

void copy_device_array_to_vec(const double* device_values, std::size_t count, Vec vec) {
  require_local_size(vec, count, "polydg::petsc::copy_device_array_to_vec");
  PetscScalar* array = nullptr;
  PetscMemType memory = PETSC_MEMTYPE_HOST;
  POLYDG_PETSC_CALL(VecGetArrayWriteAndMemType(vec, &array, &memory));
  try {
    if (PetscMemTypeDevice(memory)) {
      device::copy_device_to_device(array, device_values, count * sizeof(double));
      // A device-to-device cudaMemcpy may return before it is done; PETSc may read the
      // array on a stream of its own.
      device::synchronize();
    } else {
      device::copy_device_to_host(array, device_values, count * sizeof(double));
    }
  } catch (...) {
    VecRestoreArrayWriteAndMemType(vec, &array);
    throw;
  }
  POLYDG_PETSC_CALL(VecRestoreArrayWriteAndMemType(vec, &array));
}

void copy_vec_to_device_array(Vec vec, std::size_t count, double* device_values) {
  require_local_size(vec, count, "polydg::petsc::copy_vec_to_device_array");
  const PetscScalar* array = nullptr;
  PetscMemType memory = PETSC_MEMTYPE_HOST;
  POLYDG_PETSC_CALL(VecGetArrayReadAndMemType(vec, &array, &memory));
  try {
    if (PetscMemTypeDevice(memory)) {
      // Work PETSc queued on its own streams (the solver's last update of the Vec) first.
      device::synchronize();
      device::copy_device_to_device(device_values, array, count * sizeof(double));
      device::synchronize();
    } else {
      device::copy_host_to_device(device_values, array, count * sizeof(double));
    }
  } catch (...) {
    VecRestoreArrayReadAndMemType(vec, &array);
    throw;
  }
  POLYDG_PETSC_CALL(VecRestoreArrayReadAndMemType(vec, &array));
}

}  // namespace polydg::petsc
