#pragma once
/// LinearSolver: a PETSc KSP configured from the options database, whose solves report the
/// iterations, the converged reason and the residual norm, and throw polydg::Error when the
/// KSP diverges.
///
///   polydg::petsc::LinearSolver solver(aij.mat());         // -ksp_type, -pc_type, ... apply
///   polydg::petsc::SolveResult result = solver.solve(b.vec(), x.vec());
///   std::cout << result.iterations << " iterations, " << result.reason_text << '\n';
#include <petscksp.h>

#include <string>

namespace polydg::petsc {

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
  /// Start from the values in x instead of zero (KSPSetInitialGuessNonzero()).
  bool nonzero_initial_guess = false;
  DivergencePolicy on_divergence = DivergencePolicy::throw_error;
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
  ///   KSPCreate(), KSPSetOperators(ksp, matrix, matrix), KSPSetOptionsPrefix(),
  ///   KSPSetInitialGuessNonzero(), KSPSetFromOptions(): every KSP and PC option (-ksp_type,
  ///   -pc_type, -ksp_rtol, -ksp_monitor, -ksp_view, ...) applies, under the prefix. The KSP
  ///   holds a reference to `matrix`. When the values of `matrix` change (AijMatrix::update()),
  ///   the next solve sets the preconditioner up again.
  ///
  /// See also: solve(), LinearSolver(KSP, const SolverOptions&), KSPSetFromOptions()
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
  ///   KSPSetOperators(ksp, matrix, preconditioner_matrix), otherwise as
  ///   LinearSolver(Mat, const SolverOptions&). A ShellMatrix alone provides the diagonal and
  ///   its blocks (-pc_type jacobi, pbjacobi, vpbjacobi); with its AIJ export as the
  ///   preconditioning matrix every PETSc preconditioner applies, while the Krylov method's
  ///   products stay on the shell. Both must hold the same values (update both after a
  ///   re-assembly); PETSc sets the preconditioner up again when the preconditioning matrix
  ///   changes. Throws polydg::Error when either is null or their sizes differ.
  ///
  /// See also: LinearSolver(Mat, const SolverOptions&), KSPSetOperators(), ShellMatrix
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
  /// See also: SolveResult, DivergencePolicy, KSPSolve(), KSPGetConvergedReason()
  SolveResult solve(Vec b, Vec x);

  /// The KSP, to query or configure it further (KSPGetPC(), KSPSetTolerances(), ...).
  KSP ksp() const { return ksp_; }

 private:
  KSP ksp_ = nullptr;
  DivergencePolicy on_divergence_ = DivergencePolicy::throw_error;
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
///   as configured otherwise; without one, as LinearSolver(matrix, options). For repeated
///   solves keep a LinearSolver, so that the KSP and its preconditioner are set up once.
///
/// See also: LinearSolver
SolveResult solve(Mat matrix, Vec b, Vec x, KSP ksp = nullptr, const SolverOptions& options = {});

}  // namespace polydg::petsc
