#pragma once
// The solver the example programs and benchmarks fall back to when the command line picks none.
#include <petscsys.h>

#include "polydg/petsc/world.hpp"

namespace polydg::examples {

/// The examples' default solver: LU (-ksp_type preonly -pc_type lu) when the options database
/// names neither -ksp_type nor -pc_type. Naming either leaves the other to LinearSolver's
/// defaults: -pc_type jacobi alone gets its Krylov default (GMRES), never a single Jacobi sweep
/// as the whole solve; -ksp_type gmres alone gets its default preconditioner.
/// On several ranks (mpiexec -n R, R > 1), where PETSc's own LU does not factor an MPIAIJ, the
/// default is GMRES with block Jacobi and an LU of each rank's block instead
/// (-pc_type bjacobi -sub_pc_type lu), under LinearSolver's tolerance.
/// `dim` 3: the default is GMRES with the agglomeration multigrid (-pc_type mg) instead, on any
/// number of ranks, as 3D LU fills in (minutes past 100 k DoFs) while the multigrid needs 14-25
/// iterations.
inline void default_to_direct_solver_unless_chosen(int dim = 2) {
  PetscBool ksp_given = PETSC_FALSE, pc_given = PETSC_FALSE;
  PetscOptionsHasName(nullptr, nullptr, "-ksp_type", &ksp_given);
  PetscOptionsHasName(nullptr, nullptr, "-pc_type", &pc_given);
  if (ksp_given || pc_given) return;
  if (dim == 3) {
    PetscOptionsSetValue(nullptr, "-ksp_type", "gmres");
    PetscOptionsSetValue(nullptr, "-pc_type", "mg");
    return;
  }
  if (petsc::world_rank_count() > 1) {
    PetscOptionsSetValue(nullptr, "-pc_type", "bjacobi");
    PetscOptionsSetValue(nullptr, "-sub_pc_type", "lu");
    return;
  }
  PetscOptionsSetValue(nullptr, "-ksp_type", "preonly");
  PetscOptionsSetValue(nullptr, "-pc_type", "lu");
}

}  // namespace polydg::examples
