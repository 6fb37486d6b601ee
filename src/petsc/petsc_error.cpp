#include "polydg/petsc/petsc_error.hpp"

#include "polydg/core/error.hpp"

namespace polydg::petsc {

namespace {
/// PetscErrorMessage(), whose last parameter is char** in PETSc 3.18 and const char** in later
/// versions: `message` is deduced from the declaration this PETSc has.
template <class Code, class Text>
bool read_error_message(PetscErrorCode (*message)(Code, const char**, Text**), PetscErrorCode code,
                        const char*& description, const char*& specific) {
  Text* text = nullptr;
  if (message(Code(code), &description, &text) != 0) return false;
  specific = text;
  return true;
}
}  // namespace

std::string petsc_error_text(PetscErrorCode code) {
  const char* description = nullptr;
  const char* specific = nullptr;
  // PetscErrorMessage() only reads PETSc's static tables; it cannot fail in a way we could
  // report better than with the code alone.
  if (!read_error_message(&PetscErrorMessage, code, description, specific))
    return "(no message from PETSc)";
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
