#include "polydg/petsc/petsc_error.hpp"

#include "polydg/core/error.hpp"

namespace polydg::petsc {

std::string petsc_error_text(PetscErrorCode code) {
  const char* description = nullptr;
  char* specific = nullptr;
  // PetscErrorMessage() only reads PETSc's static tables; it cannot fail in a way we could
  // report better than with the code alone.
  if (PetscErrorMessage(code, &description, &specific) != 0) return "(no message from PETSc)";
  std::string message = specific != nullptr ? specific : "";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  // PETSc has no description for some codes (PETSC_ERR_NOT_CONVERGED, for one).
  if (description == nullptr || description[0] == '\0')
    return message.empty() ? "(no message from PETSc)" : message;
  return message.empty() ? description : description + (": " + message);
}

void throw_petsc_error(PetscErrorCode code, const char* call, const char* file, int line) {
  raise("PETSc error ", int(code), " in ", call, " at ", file, ":", line, ": ",
        petsc_error_text(code));
}

}  // namespace polydg::petsc
