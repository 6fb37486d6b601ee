#include "polydg/petsc/session.hpp"

#include <petscsys.h>

#include <iostream>

#include "polydg/core/error.hpp"
#include "polydg/petsc/petsc_error.hpp"

namespace polydg::petsc {

namespace {

bool petsc_is_initialized() {
  PetscBool initialized = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscInitialized(&initialized));
  return initialized == PETSC_TRUE;
}

}  // namespace

Session::Session(int& argc, char**& argv, const char* help) {
  if (!petsc_is_initialized()) {
    const PetscErrorCode code = PetscInitialize(&argc, &argv, nullptr, help);
    require(code == 0, "polydg::petsc::Session: PetscInitialize failed with error code ",
            int(code));
    owns_initialization_ = true;
  }
  push_error_handler();
}

Session::Session() {
  if (!petsc_is_initialized()) {
    const PetscErrorCode code = PetscInitializeNoArguments();
    require(code == 0, "polydg::petsc::Session: PetscInitializeNoArguments failed with error code ",
            int(code));
    owns_initialization_ = true;
  }
  push_error_handler();
}

void Session::push_error_handler() {
  const PetscErrorCode code = PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  if (code != 0) {
    if (owns_initialization_) PetscFinalize();
    raise("polydg::petsc::Session: PetscPushErrorHandler failed with error code ", int(code));
  }
}

Session::~Session() {
  PetscErrorCode code = PetscPopErrorHandler();
  if (code != 0)
    std::cerr << "polydg::petsc::Session: PetscPopErrorHandler failed: " << petsc_error_text(code)
              << '\n';
  if (!owns_initialization_) return;
  code = PetscFinalize();
  if (code != 0)
    std::cerr << "polydg::petsc::Session: PetscFinalize failed with error code " << int(code)
              << '\n';
}

}  // namespace polydg::petsc
