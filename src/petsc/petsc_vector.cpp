#include "polydg/petsc/petsc_vector.hpp"

#include <iostream>
#include <limits>
#include <type_traits>
#include <utility>

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

Vector::Vector(GlobalIndex size) {
  detail::require_single_rank("polydg::petsc::Vector");
  require(size >= 0 && size <= GlobalIndex(std::numeric_limits<PetscInt>::max()),
          "polydg::petsc::Vector: size ", size, " is outside the range of PetscInt (",
          sizeof(PetscInt) * 8, " bits)");
  POLYDG_PETSC_CALL(VecCreate(PETSC_COMM_WORLD, &vec_));
  try {
    POLYDG_PETSC_CALL(VecSetSizes(vec_, PetscInt(size), PetscInt(size)));
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
  PetscMemType memory = PETSC_MEMTYPE_HOST;
  POLYDG_PETSC_CALL(VecGetArrayWriteAndMemType(vec, &array, &memory));
  if (PetscMemTypeDevice(memory)) {
    POLYDG_PETSC_CALL(VecRestoreArrayWriteAndMemType(vec, &array));
    raise("polydg::petsc::copy_to_vec: the Vec's array is in device memory (PetscMemType ",
          int(memory), "); device vectors are not supported yet");
  }
  for (std::size_t i = 0; i < values.size(); ++i) array[i] = PetscScalar(values[i]);
  POLYDG_PETSC_CALL(VecRestoreArrayWriteAndMemType(vec, &array));
}

void copy_from_vec(Vec vec, std::span<double> values) {
  require_local_size(vec, values.size(), "polydg::petsc::copy_from_vec");
  const PetscScalar* array = nullptr;
  PetscMemType memory = PETSC_MEMTYPE_HOST;
  POLYDG_PETSC_CALL(VecGetArrayReadAndMemType(vec, &array, &memory));
  if (PetscMemTypeDevice(memory)) {
    POLYDG_PETSC_CALL(VecRestoreArrayReadAndMemType(vec, &array));
    raise("polydg::petsc::copy_from_vec: the Vec's array is in device memory (PetscMemType ",
          int(memory), "); device vectors are not supported yet");
  }
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = double(array[i]);
  POLYDG_PETSC_CALL(VecRestoreArrayReadAndMemType(vec, &array));
}

}  // namespace polydg::petsc
