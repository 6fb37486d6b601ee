#pragma once
// Private: the block size every rank's element blocks share, for MatSetBlockSize() on a Mat
// over PETSC_COMM_WORLD (AijMatrix, ShellMatrix). Collective.
#include <petscsys.h>

#include <span>

#include "polydg/core/error.hpp"

namespace polydg::petsc::detail {

/// The size of every block in `block_sizes` on every rank of PETSC_COMM_WORLD, or 0 where
/// they differ (a rank with no block agrees with any size).
inline PetscInt common_block_size(std::span<const PetscInt> block_sizes, const char* who) {
  PetscInt size = block_sizes.empty() ? -1 : block_sizes[0];  // -1: no block here
  for (PetscInt n : block_sizes)
    if (n != size) size = 0;
  PetscInt largest = 0, smallest = 0;
  require(MPI_Allreduce(&size, &largest, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD) == MPI_SUCCESS,
          who, ": MPI_Allreduce failed");
  const PetscInt for_min = size < 0 ? largest : size;
  require(MPI_Allreduce(&for_min, &smallest, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD) == MPI_SUCCESS,
          who, ": MPI_Allreduce failed");
  return largest > 0 && smallest == largest ? largest : 0;
}

}  // namespace polydg::petsc::detail
