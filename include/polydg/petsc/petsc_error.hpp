#pragma once
/// PETSc error codes as polydg::Error: every PETSc call the library makes goes through
/// POLYDG_PETSC_CALL, so a failing call throws instead of returning a code nobody checks.
///
/// PETSc prints a traceback for every error unless another error handler is pushed;
/// polydg::petsc::Session pushes PetscReturnErrorHandler, so the message is printed once, in
/// the exception, and the program decides what to do with it.
#include <petscsys.h>

#include <string>

namespace polydg::petsc {

/// petsc_error_text - PETSc's text for an error code: the generic description of the code
/// followed by the specific message of the latest error PETSc raised.
///
/// Not collective.
///
/// Input parameter:
///   code - a nonzero PetscErrorCode
///
/// Returns:
///   "<description>: <specific message>", e.g. "Arguments are incompatible: Incompatible vector
///   local lengths parameter # 1 local size 4 != parameter # 2 local size 5"; only the
///   specific message for the codes PETSc has no description of (PETSC_ERR_NOT_CONVERGED)
///
/// Level: developer
///
/// Notes:
///   Both parts come from PetscErrorMessage(). PETSc records the specific message when the
///   error is first raised (PETSC_ERROR_INITIAL) and keeps the latest one; a code that was
///   returned without PetscError() being called would be shown with an older message.
///
/// See also: throw_petsc_error(), POLYDG_PETSC_CALL
std::string petsc_error_text(PetscErrorCode code);

/// throw_petsc_error - throws polydg::Error for a PETSc call that returned an error code.
///
/// Not collective.
///
/// Input parameters:
///   code - the nonzero PetscErrorCode the call returned
///   call - the call as written in the source
///   file - the source file of the call
///   line - the line of the call
///
/// Level: developer
///
/// Notes:
///   The message is "PETSc error <code> in <call> at <file>:<line>: <petsc_error_text(code)>".
///   Use it through POLYDG_PETSC_CALL.
///
/// See also: POLYDG_PETSC_CALL, petsc_error_text()
[[noreturn]] void throw_petsc_error(PetscErrorCode code, const char* call, const char* file,
                                    int line);

}  // namespace polydg::petsc

/// POLYDG_PETSC_CALL - calls a PETSc function and throws polydg::Error if it returns an error.
///
/// Collective where the call is.
///
/// Example:
///   POLYDG_PETSC_CALL(VecCopy(x, y));
///
/// Notes:
///   The C++ counterpart of PetscCall(): the error travels as an exception instead of a return
///   code. Do not use it where an exception must not escape (MATSHELL callbacks and other
///   functions PETSc calls back): those catch polydg::Error and return a PETSc error code.
#define POLYDG_PETSC_CALL(...)                                                             \
  do {                                                                                     \
    const PetscErrorCode polydg_petsc_error_code_ = (__VA_ARGS__);                         \
    if (polydg_petsc_error_code_ != 0)                                                     \
      ::polydg::petsc::throw_petsc_error(polydg_petsc_error_code_, #__VA_ARGS__, __FILE__, \
                                         __LINE__);                                        \
  } while (false)
