#pragma once
/// Session: PETSc (and with it MPI) for the lifetime of one object, with PETSc errors turned
/// into polydg::Error instead of printed tracebacks.
///
///   int main(int argc, char** argv) {
///     polydg::petsc::Session session(argc, argv);
///     ...  // -ksp_type, -pc_type, -ksp_monitor, -help work as in every PETSc program
///   }

namespace polydg::petsc {

class Session {
 public:
  /// Session - initializes PETSc with the command line, unless it is initialized already.
  ///
  /// Collective on MPI_COMM_WORLD (PETSC_COMM_WORLD).
  ///
  /// Input parameters:
  ///   argc, argv - main()'s arguments: PETSc reads its options database from them
  ///                (-ksp_type, -pc_type, -ksp_rtol, -ksp_monitor, -help, ...)
  ///   help       - text printed with -help (optional)
  ///
  /// Level: beginner
  ///
  /// Example:
  ///   polydg::petsc::Session session(argc, argv);
  ///
  /// Notes:
  ///   Calls PetscInitialize() only when PetscInitialized() says PETSc is not running yet, and
  ///   then PetscFinalize() in the destructor; a Session made while PETSc is already running
  ///   (by the application or by an outer Session) leaves initialization to its owner.
  ///   One GPU per rank: on a node with several CUDA devices, an initializing Session makes
  ///   device (node-local rank mod device count) current before PetscInitialize(), the local
  ///   rank read from OMPI_COMM_WORLD_LOCAL_RANK, MV2_COMM_WORLD_LOCAL_RANK or SLURM_LOCALID.
  ///   PETSc built with CUDA and an Open MPI built without CUDA support: the Session makes
  ///   -use_gpu_aware_mpi 0 the default (MPI messages staged through the host), where PETSc
  ///   would abort at the first device Vec; the option given on the command line still wins.
  ///   PetscInitialize() initializes MPI when MPI is not running yet, and PetscFinalize() then
  ///   finalizes it: since MPI cannot be initialized twice, a process runs at most one
  ///   initializing Session. Make it the first object of main(), so every PETSc object is
  ///   destroyed before it.
  ///
  ///   Every Session pushes PetscReturnErrorHandler() (PetscPushErrorHandler()) and pops it in
  ///   its destructor: PETSc returns error codes without printing a traceback, and
  ///   POLYDG_PETSC_CALL turns them into polydg::Error carrying PETSc's message.
  ///   Throws polydg::Error when PetscInitialize() fails.
  ///
  ///   Unused options: PetscFinalize() reports the options that were set and never used (a
  ///   mistyped -ksp_typo, an option without the solver's prefix) on stdout:
  ///     WARNING! There are options you set that were not used!
  ///     ...
  ///     Option left: name:-ksp_typo value: 1
  ///   PETSc 3.20 and later do this by default. With older PETSc (release builds) an
  ///   initializing Session makes PetscFinalize() give the same report (a function registered
  ///   with PetscRegisterFinalize(), which runs after PETSc has read its own options), rather
  ///   than setting -options_left, with which PETSc would also print the whole options table
  ///   and "There are no unused options." at every exit. -options_left 0 (or false) turns the
  ///   report off, -options_left 1 leaves it to PETSc; either way on every version. Arguments
  ///   with two dashes (--p 2, as the library's examples take them) are the program's own, not
  ///   PETSc options: they are marked used (PetscOptionsHasName()) and never reported.
  ///
  /// See also: POLYDG_PETSC_CALL, PetscInitialize(), PetscFinalize(), PetscOptionsLeft()
  Session(int& argc, char**& argv, const char* help = nullptr);

  /// Session - initializes PETSc without a command line (PetscInitializeNoArguments()); the
  /// options database still reads PETSC_OPTIONS and ~/.petscrc. As the other constructor
  /// otherwise.
  Session();

  /// ~Session - pops the error handler, then calls PetscFinalize() if this Session
  /// initialized PETSc. Errors of PetscFinalize() are printed to stderr (a destructor cannot
  /// throw).
  ~Session();

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  Session(Session&&) = delete;
  Session& operator=(Session&&) = delete;

  /// True when this Session called PetscInitialize() and will call PetscFinalize().
  bool owns_initialization() const { return owns_initialization_; }

 private:
  void push_error_handler();

  bool owns_initialization_ = false;
};

}  // namespace polydg::petsc
