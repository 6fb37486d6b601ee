#include "polydg/petsc/session.hpp"

#include <mpi.h>
#include <petscsys.h>

#include <cstdlib>
#include <iostream>
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#endif

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/petsc/petsc_error.hpp"

namespace polydg::petsc {

namespace {

bool petsc_is_initialized() {
  PetscBool initialized = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscInitialized(&initialized));
  return initialized == PETSC_TRUE;
}

#if PETSC_VERSION_LT(3, 20, 0)
/// PetscFinalize()'s report of unused options as PETSc 3.20 and later give it by default, for
/// release builds of older PETSc, which give it only with -options_left — and then print the
/// whole options table and "There are no unused options." too. Registered with
/// PetscRegisterFinalize(), so it runs after PetscFinalize() has read its own options
/// (-log_view, ...), as PETSc's own report does.
PetscErrorCode report_unused_options() {
  PetscBool given = PETSC_FALSE;
  PetscErrorCode code = PetscOptionsHasName(nullptr, nullptr, "-options_left", &given);
  if (code != 0 || given == PETSC_TRUE) return code;  // PETSc reported, or was told not to
  PetscInt unused = 0;
  code = PetscOptionsAllUsed(nullptr, &unused);
  if (code != 0 || unused == 0) return code;
  code = PetscPrintf(PETSC_COMM_WORLD,
                     "WARNING! There are options you set that were not used!\n"
                     "WARNING! could be spelling mistake, etc!\n");
  if (code != 0) return code;
  code =
      unused == 1
          ? PetscPrintf(PETSC_COMM_WORLD, "There is one unused database option. It is:\n")
          : PetscPrintf(PETSC_COMM_WORLD,
                        "There are %" PetscInt_FMT " unused database options. They are:\n", unused);
  if (code != 0) return code;
  return PetscOptionsLeft(nullptr);
}
#endif

/// Makes PetscFinalize() report the options that were set and never used (a mistyped
/// -ksp_typo, an option under the wrong prefix), unless -options_left says otherwise.
void report_unused_options_at_finalize() {
#if PETSC_VERSION_LT(3, 20, 0)
  // Debug builds report them already (when -options_left is not given).
  if (!PetscDefined(USE_DEBUG) && PetscRegisterFinalize(report_unused_options) != 0)
    std::cerr << "polydg::petsc::Session: PetscRegisterFinalize failed; unused options will not "
                 "be reported\n";
#endif
}

/// Marks the program's own flags (two dashes: --p 2; PETSc's options have one) used, so that
/// the report of unused options names only PETSc options nothing read.
void mark_program_flags_used(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const char* flag = argv[i];
    if (flag == nullptr || flag[0] != '-' || flag[1] != '-' || flag[2] == '\0') continue;
    PetscBool given = PETSC_FALSE;
    POLYDG_PETSC_CALL(PetscOptionsHasName(nullptr, nullptr, flag, &given));
  }
}

/// PETSc built with CUDA assumes an MPI that reads device memory, checks it the first time a
/// device object is created and aborts when it does not (with a probe that may segfault, which
/// the signal handlers of a test framework or a debugger intercept). An Open MPI built without
/// CUDA support can never read device memory, so there the default becomes
/// -use_gpu_aware_mpi 0: PETSc stages messages through the host, which costs nothing on one
/// rank and is correct on many. Set before PetscInitialize(), so -use_gpu_aware_mpi on the command
/// line, in PETSC_OPTIONS or in .petscrc still decides. Other MPIs keep PETSc's own check.
void default_to_host_staged_mpi_where_mpi_cannot_read_device_memory() {
#if PetscDefined(HAVE_CUDA) && defined(OPEN_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT) && \
    !MPIX_CUDA_AWARE_SUPPORT
  const PetscErrorCode code = PetscOptionsSetValue(nullptr, "-use_gpu_aware_mpi", "0");
  require(code == 0, "polydg::petsc::Session: setting -use_gpu_aware_mpi 0 failed: error ",
          int(code));
#endif
}

/// One GPU per rank on a node with several: the node-local rank (Open MPI's, MVAPICH's or
/// Slurm's variable, before MPI starts) modulo the devices, as PETSc with CUDA picks its own
/// device, so the library's kernels and PETSc's device objects share one GPU per rank.
/// Nothing where the launcher sets none of them or the node has at most one device.
void select_device_of_local_rank() {
  if (device::device_count() <= 1) return;
  for (const char* name :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"})
    if (const char* value = std::getenv(name)) {
      device::select_device(std::atoi(value) % device::device_count());
      return;
    }
}

}  // namespace

Session::Session(int& argc, char**& argv, const char* help) {
  if (!petsc_is_initialized()) {
    select_device_of_local_rank();
    default_to_host_staged_mpi_where_mpi_cannot_read_device_memory();
    const PetscErrorCode code = PetscInitialize(&argc, &argv, nullptr, help);
    require(code == 0, "polydg::petsc::Session: PetscInitialize failed with error code ",
            int(code));
    owns_initialization_ = true;
  }
  push_error_handler();
  if (owns_initialization_) report_unused_options_at_finalize();
  mark_program_flags_used(argc, argv);
}

Session::Session() {
  if (!petsc_is_initialized()) {
    select_device_of_local_rank();
    default_to_host_staged_mpi_where_mpi_cannot_read_device_memory();
    const PetscErrorCode code = PetscInitializeNoArguments();
    require(code == 0, "polydg::petsc::Session: PetscInitializeNoArguments failed with error code ",
            int(code));
    owns_initialization_ = true;
  }
  push_error_handler();
  if (owns_initialization_) report_unused_options_at_finalize();
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
