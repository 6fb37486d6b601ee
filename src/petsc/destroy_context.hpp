#pragma once
// Private: the destructor of a context PETSc owns (MatShellSetContextDestroy(),
// DMShellSetDestroyContext()), for both of PETSc's conventions.
#include <petscsys.h>

namespace polydg::petsc::detail {

/// Deletes the Context PETSc hands back. PETSc 3.23 gave every context destructor the
/// context's address (PetscCtxDestroyFn); before, these setters' destructors took the context
/// itself.
template <class Context>
PetscErrorCode destroy_context(void* argument) {
#if PETSC_VERSION_GE(3, 23, 0)
  Context*& context = *static_cast<Context**>(argument);
  delete context;
  context = nullptr;
#else
  delete static_cast<Context*>(argument);
#endif
  return 0;
}

}  // namespace polydg::petsc::detail
