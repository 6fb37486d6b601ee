#pragma once
// Private: the one-rank restriction of the PETSc objects that are not distributed yet, and of
// those made from a whole-mesh BlockPattern.
#include <petscsys.h>

#include "polydg/core/error.hpp"

namespace polydg::petsc::detail {

/// Throws polydg::Error naming `who` when PETSC_COMM_WORLD has more than one rank; `remedy`
/// ends the message.
inline void require_single_rank(
    const char* who, const char* remedy =
                         "; distributing this object over several ranks is not supported yet "
                         "(run on one rank)") {
  PetscMPIInt size = 0;
  require(MPI_Comm_size(PETSC_COMM_WORLD, &size) == MPI_SUCCESS, who, ": MPI_Comm_size failed");
  require(size == 1, who, ": PETSC_COMM_WORLD has ", size, " ranks", remedy);
}

}  // namespace polydg::petsc::detail
