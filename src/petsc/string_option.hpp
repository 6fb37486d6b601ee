#pragma once
// Private: one string option of PETSc's options database, read the same way everywhere in
// src/petsc.
#include <petscsys.h>

#include <optional>
#include <string>

#include "polydg/petsc/petsc_error.hpp"

namespace polydg::petsc::detail {

/// The value of -[prefix]`name` (e.g. "-vec_type"; prefix null or empty: none), or nothing when
/// the options database does not hold it.
inline std::optional<std::string> string_option(const char* prefix, const char* name) {
  char value[256] = "";
  PetscBool given = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscOptionsGetString(nullptr, prefix != nullptr && *prefix ? prefix : nullptr,
                                          name, value, sizeof value, &given));
  if (given != PETSC_TRUE) return std::nullopt;
  return std::string(value);
}

}  // namespace polydg::petsc::detail
