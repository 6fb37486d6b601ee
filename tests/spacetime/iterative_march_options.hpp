#pragma once
// The iterative KSP under which the slab-solver tests (CPU and GPU) compare a march whose
// products use the AIJ with one whose products use the dense block format: GMRES with
// refinement, restarted rarely (iteration counts are compared exactly, so the last-bit
// differences of two correct products must not change them: see test_petsc_shell.cpp), and ILU
// built from the AIJ in both. Sets the options under the prefix it returns.
#include <petscsys.h>

namespace polydg::testing {

inline const char* set_iterative_march_options() {
  PetscOptionsSetValue(nullptr, "-march_ksp_type", "gmres");
  PetscOptionsSetValue(nullptr, "-march_ksp_gmres_restart", "300");
  PetscOptionsSetValue(nullptr, "-march_ksp_gmres_cgs_refinement_type", "refine_always");
  PetscOptionsSetValue(nullptr, "-march_pc_type", "ilu");
  PetscOptionsSetValue(nullptr, "-march_ksp_rtol", "1e-10");
  return "march_";
}

}  // namespace polydg::testing
