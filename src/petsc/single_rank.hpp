#pragma once
// Private: the one-rank restriction of the current PETSc export (distributed export comes with
// the MPI partitioning of the mesh).
#include <petscsys.h>

#include "polydg/core/error.hpp"

namespace polydg::petsc::detail {

/// Throws polydg::Error naming `who` when PETSC_COMM_WORLD has more than one rank.
inline void require_single_rank(const char* who) {
  PetscMPIInt size = 0;
  require(MPI_Comm_size(PETSC_COMM_WORLD, &size) == MPI_SUCCESS, who, ": MPI_Comm_size failed");
  require(size == 1, who, ": PETSC_COMM_WORLD has ", size,
          " ranks; distributing a BlockPattern over several ranks is not supported yet (run on "
          "one rank)");
}

}  // namespace polydg::petsc::detail
