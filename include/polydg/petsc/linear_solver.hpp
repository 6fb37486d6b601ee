#pragma once
/// LinearSolver: a PETSc KSP with defaults that solve a DG system to well below its
/// discretisation error, configured from the options database, whose solves report the
/// iterations, the converged reason and the residual norm, and throw polydg::Error when the
/// KSP diverges.
///
///   polydg::petsc::LinearSolver solver(aij.mat());         // -ksp_type, -pc_type, ... apply
///   polydg::petsc::SolveResult result = solver.solve(b.vec(), x.vec());
///   std::cout << result.iterations << " iterations, " << result.reason_text << '\n';
#include <petscksp.h>

#include <string>

namespace polydg::petsc {

/// The relative tolerance (KSPSetTolerances() rtol) of every KSP a LinearSolver creates: the
/// default GMRES is right-preconditioned, so it stops when its estimate of the true residual
/// satisfies ‖b − A x‖ ≤ 1e-12 ‖b‖, and the relative algebraic error is at most κ(A)·1e-12
/// (plus rounding). PETSc's rtol 1e-5 leaves it above the discretisation error; even 1e-10
/// left a 2.4e-9 relative error on a P_3 advection-diffusion system of 1e5 unknowns whose L2
/// error is 5.2e-9 (perf/bench_solver_defaults; docs/user-guide.md, "Solver defaults").
/// -ksp_rtol overrides it; a direct solve (KSPPREONLY) reads no tolerance.
inline constexpr PetscReal default_relative_tolerance = 1e-12;

/// The restart length of the default GMRES (KSPGMRESSetRestart()): 100 vectors of the
/// system's size are kept, against PETSc's 30, whose restarts cost the library's P_2 systems
/// up to four times the iterations (P_2 Poisson, 2000 unknowns, ILU: 1039 against 255). The
/// default GMRES also re-orthogonalizes where classical Gram-Schmidt loses orthogonality
/// (KSP_GMRES_CGS_REFINE_IFNEEDED), so that its residual estimate stays the true residual
/// down to rtol. -ksp_gmres_restart and -ksp_gmres_cgs_refinement_type override them.
inline constexpr PetscInt default_gmres_restart = 100;

/// The size of the subdomains of the Krylov default's additive Schwarz preconditioner
/// (PCASM, overlap 1, an LU on each): the number of subdomains is ⌈rows / 10000⌉, so that each
/// LU takes about a second or less (1e4 unknowns: 0.3, 0.8 and 2.0 s at p = 1, 2, 3 on two
/// cores; perf/bench_solver_defaults). -pc_asm_blocks overrides the count.
inline constexpr PetscInt default_subdomain_rows = 10000;

/// SolverOptions::direct_solve_limit's default: the number of unknowns up to which PETSc's own
/// LU factors the library's 2D DG matrices in at most about 3 seconds on two cores (best of
/// three, 2e4 unknowns: 0.3 s at p = 1, 1.3 s at p = 2, 2.9 s at p = 3; 5e4: 1.7, 5.9 and
/// 11 s; perf/bench_solver_defaults, docs/user-guide.md "Solver defaults").
inline constexpr PetscInt default_direct_solve_limit = 20000;

/// Which defaults a LinearSolver set on its KSP before KSPSetFromOptions(); the options
/// database overrides each of them.
enum class SolverDefault {
  none,    ///< the caller's KSP (LinearSolver(KSP, ...), solve() with a KSP): nothing set
  direct,  ///< KSPPREONLY + PCLU: a factorization of the preconditioning matrix
  krylov,  ///< GMRES(default_gmres_restart), right-preconditioned, with the preconditioner
           ///< that the preconditioning matrix supports (for an AIJ matrix on one rank PCASM
           ///< with an LU on each subdomain; for a ShellMatrix alone PCVPBJACOBI)
};

/// solver_default_name - "none", "direct" or "krylov".
const char* solver_default_name(SolverDefault choice);

/// What a solve does when the KSP stops with a negative KSPConvergedReason.
enum class DivergencePolicy {
  throw_error,  ///< throw polydg::Error naming the reason, the iterations and the residual
  report,       ///< return the SolveResult; the caller checks SolveResult::converged()
};

/// How a LinearSolver sets up and treats its KSP.
struct SolverOptions {
  /// Prefix of the KSP's options (KSPSetOptionsPrefix()), e.g. "flow_" for -flow_ksp_type;
  /// empty for none. Only for a KSP the LinearSolver creates.
  std::string options_prefix;
  /// Start from the values in x instead of zero (KSPSetInitialGuessNonzero()). A direct solve
  /// (KSPPREONLY) has no use for a guess and PETSc refuses one: there it is dropped.
  bool nonzero_initial_guess = false;
  DivergencePolicy on_divergence = DivergencePolicy::throw_error;
  /// The largest number of unknowns for which the default is a direct solve (SolverDefault::
  /// direct), where the preconditioning matrix can be factored (an AIJ matrix on one rank);
  /// above it, or for a matrix that cannot be factored (a ShellMatrix alone), the default is
  /// the Krylov method (SolverDefault::krylov). 0: never the direct default. Only for a KSP
  /// the LinearSolver creates; options that name a method (-ksp_type, -pc_type) decide
  /// instead, see LinearSolver(Mat, Mat, const SolverOptions&).
  PetscInt direct_solve_limit = default_direct_solve_limit;
  /// A DM for PCMG's hierarchy (KSPSetDM() with KSPSetDMActive(ksp, PETSC_FALSE): the
  /// operators stay the ones given), e.g. AgglomerationMultigrid::dm(); the Krylov default's
  /// preconditioner is then PCMG, with Galerkin level operators for an AgglomerationMultigrid
  /// (-pc_mg_galerkin overrides). Not owned; it must outlive the solver's set-up. Only for a
  /// KSP the LinearSolver creates.
  DM dm = nullptr;
};

/// The outcome of one KSPSolve().
struct SolveResult {
  /// KSPGetIterationNumber().
  PetscInt iterations = 0;
  /// KSPGetConvergedReason(): positive converged, negative diverged.
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  /// The reason's name in KSPConvergedReasons, e.g. "CONVERGED_RTOL", "DIVERGED_ITS".
  std::string reason_text;
  /// KSPGetResidualNorm(): the norm the convergence test used at the last iteration (by
  /// default the preconditioned residual for left preconditioning; see KSPSetNormType()).
  PetscReal residual_norm = 0;

  bool converged() const { return reason > 0; }
};

class LinearSolver {
 public:
  /// LinearSolver - creates a KSP for `matrix`, configured from the options database.
  ///
  /// Collective on the communicator of `matrix`.
  ///
  /// Input parameters:
  ///   matrix  - the operator, also used to build the preconditioner (e.g. AijMatrix::mat())
  ///   options - options prefix, nonzero initial guess, divergence policy
  ///
  /// Level: beginner
  ///
  /// Example:
  ///   polydg::petsc::LinearSolver solver(aij.mat(), {.options_prefix = "flow_"});
  ///   solver.solve(b.vec(), x.vec());   // with -flow_ksp_type cg -flow_pc_type jacobi
  ///
  /// Notes:
  ///   LinearSolver(matrix, matrix, options): the defaults (a direct solve up to
  ///   SolverOptions::direct_solve_limit unknowns, else GMRES + additive Schwarz to rtol
  ///   1e-12), then every
  ///   KSP and PC option (-ksp_type, -pc_type, -ksp_rtol, -ksp_monitor, -ksp_view, ...) under
  ///   the prefix. The KSP holds a reference to `matrix`. When the values of `matrix` change
  ///   (AijMatrix::update()), the next solve sets the preconditioner up again (a new
  ///   factorization); while they do not, the preconditioner (the LU factors) is reused.
  ///
  /// See also: solve(), LinearSolver(Mat, Mat, const SolverOptions&), solver_default(),
  ///           LinearSolver(KSP, const SolverOptions&), KSPSetFromOptions()
  explicit LinearSolver(Mat matrix, const SolverOptions& options = {});

  /// LinearSolver - creates a KSP whose products use `matrix` and whose preconditioner is built
  /// from `preconditioner_matrix`, configured from the options database.
  ///
  /// Collective on the communicator of `matrix`.
  ///
  /// Input parameters:
  ///   matrix                - the operator of the products, e.g. a ShellMatrix over the dense
  ///                           block format on the GPU
  ///   preconditioner_matrix - the matrix the preconditioner is built from, of the same size,
  ///                           e.g. the AIJ export of the same values (AijMatrix::mat())
  ///   options               - options prefix, nonzero initial guess, divergence policy
  ///
  /// Level: intermediate
  ///
  /// Example:
  ///   polydg::petsc::ShellMatrix shell(device_operator);      // products on the GPU
  ///   polydg::petsc::LinearSolver solver(shell.mat(), aij.mat());
  ///   solver.solve(b.vec(), x.vec());                         // with -pc_type ilu, gamg, ...
  ///
  /// Notes:
  ///   KSPCreate(), KSPSetOperators(ksp, matrix, preconditioner_matrix), KSPSetOptionsPrefix(),
  ///   KSPSetInitialGuessNonzero(), the defaults below, KSPSetFromOptions(). A ShellMatrix
  ///   alone provides the diagonal and its blocks (-pc_type jacobi, pbjacobi, vpbjacobi);
  ///   with its AIJ export as the preconditioning matrix every PETSc preconditioner applies,
  ///   while the Krylov method's products stay on the shell. Both must hold the same values
  ///   (update both after a re-assembly); PETSc sets the preconditioner up again when the
  ///   preconditioning matrix changes. Throws polydg::Error when either is null or their
  ///   sizes differ.
  ///
  ///   Defaults, set before KSPSetFromOptions() so that every option overrides them
  ///   (solver_default() says which were set; -ksp_view shows the KSP as it solves):
  ///   - every KSP: rtol default_relative_tolerance (1e-12).
  ///   - SolverDefault::direct when the options name neither -ksp_type nor -pc_type, the
  ///     preconditioning matrix has at most SolverOptions::direct_solve_limit rows and PETSc can
  ///     LU-factor it here (MatGetFactorAvailable(): an AIJ matrix on one rank), or when the
  ///     options name -ksp_type preonly (whatever the size): KSPPREONLY + PCLU. The factors
  ///     are reused by every solve until the preconditioning matrix changes.
  ///   - SolverDefault::krylov otherwise: KSPGMRES with restart default_gmres_restart,
  ///     Gram-Schmidt refined where needed and right preconditioning (so rtol bounds the true
  ///     residual ‖b − A x‖/‖b‖), unless
  ///     -ksp_type names a method; and the preconditioner: where PETSc can LU-factor the
  ///     preconditioning matrix (an AIJ matrix on one rank), PCASM with ⌈rows /
  ///     default_subdomain_rows⌉ subdomains (overlap 1) and an LU on each (set at the first
  ///     solve, unless -sub_pc_type is given); else PCVPBJACOBI where it inverts its diagonal
  ///     blocks (a ShellMatrix), else PCJACOBI where it has a diagonal; on several ranks
  ///     PETSc's own (block Jacobi + ILU). ILU(0), PETSc's default, breaks down on the
  ///     library's P_2 matrices from ~1e4 unknowns on (diffusion and advection alike), and
  ///     element-block Jacobi needs thousands of iterations (docs/user-guide.md).
  ///   Naming a method in the options (-ksp_type gmres, -pc_type gamg, ...) thus turns the
  ///   direct default off: a Krylov method is not left with the LU of the direct default, nor
  ///   KSPPREONLY (-ksp_type preonly alone) with an incomplete factorization. With KSPPREONLY after
  ///   the options, a nonzero initial guess is dropped (PETSc refuses one). PetscInfo() (-info)
  ///   reports the choice and why.
  ///
  /// See also: LinearSolver(Mat, const SolverOptions&), SolverOptions::direct_solve_limit,
  ///           solver_default(), KSPSetOperators(), ShellMatrix
  LinearSolver(Mat matrix, Mat preconditioner_matrix, const SolverOptions& options = {});

  /// LinearSolver - solves with a KSP the caller has set up (operators, type, options).
  ///
  /// Not collective.
  ///
  /// Input parameters:
  ///   ksp     - the caller's KSP; this object takes a reference (PetscObjectReference())
  ///   options - nonzero initial guess, divergence policy; options_prefix must be empty (the
  ///             KSP keeps its own prefix)
  ///
  /// Level: intermediate
  ///
  /// Notes:
  ///   Neither KSPSetOperators() nor KSPSetFromOptions() is called: the KSP is used as the
  ///   caller configured it. With options.nonzero_initial_guess the KSP is switched to
  ///   KSPSetInitialGuessNonzero(PETSC_TRUE); without it, the KSP's own setting stays.
  ///
  /// See also: LinearSolver(Mat, const SolverOptions&)
  LinearSolver(KSP ksp, const SolverOptions& options);

  /// ~LinearSolver - releases the KSP (KSPDestroy(); a caller's KSP lives on through its own
  /// reference).
  ~LinearSolver();

  LinearSolver(LinearSolver&& other) noexcept;
  LinearSolver& operator=(LinearSolver&& other) noexcept;
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  /// solve - solves A x = b (KSPSolve()).
  ///
  /// Collective on the KSP's communicator.
  ///
  /// Input parameter:
  ///   b - the right-hand side
  ///
  /// Input/output parameter:
  ///   x - the solution; also the initial guess when SolverOptions::nonzero_initial_guess
  ///
  /// Returns:
  ///   iterations, converged reason (value and name) and residual norm
  ///
  /// Level: beginner
  ///
  /// Notes:
  ///   A negative converged reason (DIVERGED_ITS, DIVERGED_DTOL, DIVERGED_PC_FAILED, ...)
  ///   throws polydg::Error naming the reason, the iterations, the residual norm and the KSP
  ///   and PC types, unless SolverOptions::on_divergence is DivergencePolicy::report. With
  ///   -ksp_error_if_not_converged PETSc itself fails KSPSolve(), which throws polydg::Error
  ///   with PETSc's message whatever the policy.
  ///
  ///   Before KSPSolve() the method is checked against what is known of the operator: a KSP
  ///   that assumes a symmetric operator (CG and its variants, MINRES, CR, SYMMLQ) on a
  ///   matrix or preconditioning matrix known not to be symmetric (MatIsSymmetricKnown():
  ///   AijMatrix::update() sets it), or PCICC / PCCHOLESKY on such a preconditioning matrix,
  ///   gives a polydg::warn (stderr by default) naming the KSP or PC type and suggesting
  ///   -ksp_type gmres: such a solve may report CONVERGED_RTOL far from the solution. Once per
  ///   LinearSolver.
  ///
  /// See also: SolveResult, DivergencePolicy, KSPSolve(), KSPGetConvergedReason()
  SolveResult solve(Vec b, Vec x);

  /// The KSP, to query or configure it further (KSPGetPC(), KSPSetTolerances(), ...). A KSP
  /// type set here that supports only left preconditioning (e.g. KSPCG) on the Krylov
  /// default needs KSPSetPCSide(ksp, PC_LEFT) too.
  KSP ksp() const { return ksp_; }

  /// solver_default - which defaults this LinearSolver set before the options database
  /// (SolverDefault::none for a caller's KSP).
  SolverDefault solver_default() const { return solver_default_; }

 private:
  KSP ksp_ = nullptr;
  DivergencePolicy on_divergence_ = DivergencePolicy::throw_error;
  SolverDefault solver_default_ = SolverDefault::none;
  /// Whether solve() has warned about a method that needs a symmetric operator.
  bool symmetry_warning_given_ = false;
  /// Whether the first solve still has to give the Krylov default's subdomains their LU.
  bool subdomain_lu_pending_ = false;
};

/// solve - solves A x = b with a KSP: the caller's, or a new one configured from the options
/// database.
///
/// Collective on the communicator of `matrix`.
///
/// Input parameters:
///   matrix  - the operator, also used to build the preconditioner
///   b       - the right-hand side
///   ksp     - the caller's KSP, or nullptr to create one (and destroy it afterwards)
///   options - as for LinearSolver
///
/// Input/output parameter:
///   x - the solution; also the initial guess when SolverOptions::nonzero_initial_guess
///
/// Returns:
///   iterations, converged reason and residual norm (see LinearSolver::solve())
///
/// Level: beginner
///
/// Example:
///   polydg::petsc::solve(aij.mat(), b.vec(), x.vec());
///
/// Notes:
///   With a caller's KSP, KSPSetOperators(ksp, matrix, matrix) is called and the KSP is used
///   as configured otherwise (no defaults); without one, as LinearSolver(matrix, options), with
///   its defaults. For repeated solves keep a LinearSolver, so that the KSP and its
///   preconditioner (the LU factors of the direct default) are set up once.
///
/// See also: LinearSolver
SolveResult solve(Mat matrix, Vec b, Vec x, KSP ksp = nullptr, const SolverOptions& options = {});

}  // namespace polydg::petsc
