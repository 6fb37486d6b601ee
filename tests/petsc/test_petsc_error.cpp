#define BOOST_TEST_MODULE petsc_error
#include <petscksp.h>
#include <petscvec.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <functional>
#include <string>

#include "petsc_test_support.hpp"
#include "polydg/core/error.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/session.hpp"

using namespace polydg;

using PetscTestSession = testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

namespace {

/// Runs `body` with file descriptor 2 (stderr, where PETSc prints tracebacks) redirected to a
/// temporary file and returns what was written there.
std::string captured_stderr(const std::function<void()>& body) {
  std::fflush(stderr);
  std::FILE* file = std::tmpfile();
  BOOST_REQUIRE(file != nullptr);
  const int saved = dup(2);
  dup2(fileno(file), 2);
  try {
    body();
  } catch (...) {
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::fclose(file);
    throw;
  }
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) text.push_back(char(c));
  std::fclose(file);
  return text;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(session_initializes_petsc_once) {
  PetscBool initialized = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscInitialized(&initialized));
  BOOST_TEST(initialized == PETSC_TRUE);
  {
    // PETSc is running (the global fixture's Session): an inner Session leaves it running.
    petsc::Session inner;
    BOOST_TEST(!inner.owns_initialization());
  }
  POLYDG_PETSC_CALL(PetscInitialized(&initialized));
  BOOST_TEST(initialized == PETSC_TRUE);
  PetscBool finalized = PETSC_TRUE;
  POLYDG_PETSC_CALL(PetscFinalized(&finalized));
  BOOST_TEST(finalized == PETSC_FALSE);
}

BOOST_AUTO_TEST_CASE(successful_call_does_not_throw) {
  petsc::Vector a(4), b(4);
  BOOST_CHECK_NO_THROW(POLYDG_PETSC_CALL(VecSet(a.vec(), 2.0)));
  BOOST_CHECK_NO_THROW(POLYDG_PETSC_CALL(VecCopy(a.vec(), b.vec())));
  PetscReal norm = 0;
  POLYDG_PETSC_CALL(VecNorm(b.vec(), NORM_1, &norm));
  BOOST_TEST(norm == 8.0);
}

BOOST_AUTO_TEST_CASE(petsc_failure_becomes_error_with_petsc_message_and_no_traceback) {
  petsc::Vector a(4), b(5);
  std::string message;
  const int line = __LINE__ + 3;
  const std::string printed = captured_stderr([&] {
    try {
      POLYDG_PETSC_CALL(VecCopy(a.vec(), b.vec()));
    } catch (const Error& error) {
      message = error.what();
    }
  });
  BOOST_TEST_MESSAGE("polydg::Error: " << message);
  const std::string where = std::string(__FILE__) + ":" + std::to_string(line);
  BOOST_TEST(contains(message, "PETSc error " + std::to_string(PETSC_ERR_ARG_INCOMP) +
                                   " in VecCopy(a.vec(), b.vec()) at " + where + ": "));
  BOOST_TEST(contains(message, "Arguments are incompatible"));  // PETSc's text for the code
  BOOST_TEST(contains(message, "local size 4"));                // PETSc's specific message
  BOOST_TEST(contains(message, "local size 5"));
  BOOST_TEST(printed.empty(), "PETSc printed: " << printed);
}

BOOST_AUTO_TEST_CASE(each_error_carries_its_own_message) {
  petsc::Vector a(4), b(5);
  BOOST_CHECK_EXCEPTION(POLYDG_PETSC_CALL(VecCopy(a.vec(), b.vec())), Error,
                        [](const Error& e) { return contains(e.what(), "local size 5"); });
  KSP ksp = nullptr;
  POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
  BOOST_CHECK_EXCEPTION(
      POLYDG_PETSC_CALL(KSPSetType(ksp, "no_such_krylov_method")), Error, [](const Error& e) {
        BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
        return contains(e.what(), "PETSc error " + std::to_string(PETSC_ERR_ARG_UNKNOWN_TYPE)) &&
               contains(e.what(), "no_such_krylov_method") && !contains(e.what(), "local size 5");
      });
  POLYDG_PETSC_CALL(KSPDestroy(&ksp));
}

BOOST_AUTO_TEST_CASE(unknown_code_still_gives_code_call_and_place) {
  BOOST_CHECK_EXCEPTION(
      petsc::throw_petsc_error(12345, "SomeCall(x)", "file.cpp", 7), Error, [](const Error& e) {
        return std::string(e.what()).rfind("PETSc error 12345 in SomeCall(x) at file.cpp:7: ", 0) ==
               0;
      });
}
