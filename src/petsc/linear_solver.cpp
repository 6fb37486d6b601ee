#include "polydg/petsc/linear_solver.hpp"

#include <iostream>
#include <string>
#include <utility>

#include "polydg/core/error.hpp"
#include "polydg/petsc/petsc_error.hpp"

namespace polydg::petsc {

namespace {

std::string converged_reason_text(KSPConvergedReason reason) {
  if (reason >= KSP_DIVERGED_PC_FAILED && reason <= KSP_CONVERGED_ATOL_NORMAL)
    return KSPConvergedReasons[reason];
  return "unknown KSPConvergedReason " + std::to_string(int(reason));
}

std::string pc_failed_reason_text(PCFailedReason reason) {
  if (reason >= PC_SETUP_ERROR && reason <= PC_SUBPC_ERROR) return PCFailedReasons[reason];
  return "unknown PCFailedReason " + std::to_string(int(reason));
}

void destroy(KSP& ksp) {
  if (ksp == nullptr) return;
  PetscBool finalized = PETSC_FALSE;
  PetscFinalized(&finalized);
  if (!finalized && KSPDestroy(&ksp) != 0)
    std::cerr << "polydg::petsc::LinearSolver: KSPDestroy failed\n";
  ksp = nullptr;
}

[[noreturn]] void throw_divergence(KSP ksp, const SolveResult& result) {
  KSPType ksp_type = nullptr;
  PC pc = nullptr;
  PCType pc_type = nullptr;
  const char* prefix = nullptr;
  POLYDG_PETSC_CALL(KSPGetType(ksp, &ksp_type));
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  POLYDG_PETSC_CALL(PCGetType(pc, &pc_type));
  POLYDG_PETSC_CALL(KSPGetOptionsPrefix(ksp, &prefix));
  std::string pc_failure;
  if (result.reason == KSP_DIVERGED_PC_FAILED) {
    PCFailedReason pc_reason = PC_NOERROR;
    POLYDG_PETSC_CALL(PCGetFailedReason(pc, &pc_reason));
    pc_failure = " (PC failed: " + pc_failed_reason_text(pc_reason) + ")";
  }
  const std::string prefix_text = prefix != nullptr ? prefix : "";
  raise("polydg::petsc::LinearSolver: KSPSolve did not converge: ", result.reason_text, pc_failure,
        " after ", result.iterations, " iterations, residual norm ", result.residual_norm, " (KSP ",
        ksp_type != nullptr ? ksp_type : "?", ", PC ", pc_type != nullptr ? pc_type : "?",
        prefix_text.empty() ? std::string() : ", options prefix " + prefix_text, "); run with -",
        prefix_text, "ksp_converged_reason -", prefix_text,
        "ksp_monitor_true_residual for details");
}

}  // namespace

LinearSolver::LinearSolver(Mat matrix, const SolverOptions& options)
    : LinearSolver(matrix, matrix, options) {}

LinearSolver::LinearSolver(Mat matrix, Mat preconditioner_matrix, const SolverOptions& options)
    : on_divergence_(options.on_divergence) {
  require(matrix != nullptr, "polydg::petsc::LinearSolver: the matrix is null");
  require(preconditioner_matrix != nullptr,
          "polydg::petsc::LinearSolver: the preconditioning matrix is null");
  if (preconditioner_matrix != matrix) {
    PetscInt rows = 0, columns = 0, preconditioner_rows = 0, preconditioner_columns = 0;
    POLYDG_PETSC_CALL(MatGetSize(matrix, &rows, &columns));
    POLYDG_PETSC_CALL(
        MatGetSize(preconditioner_matrix, &preconditioner_rows, &preconditioner_columns));
    require(rows == preconditioner_rows && columns == preconditioner_columns,
            "polydg::petsc::LinearSolver: the matrix is ", rows, " x ", columns,
            " but the preconditioning matrix is ", preconditioner_rows, " x ",
            preconditioner_columns);
  }
  MPI_Comm communicator = MPI_COMM_NULL;
  POLYDG_PETSC_CALL(PetscObjectGetComm(reinterpret_cast<PetscObject>(matrix), &communicator));
  POLYDG_PETSC_CALL(KSPCreate(communicator, &ksp_));
  try {
    POLYDG_PETSC_CALL(KSPSetOperators(ksp_, matrix, preconditioner_matrix));
    if (!options.options_prefix.empty())
      POLYDG_PETSC_CALL(KSPSetOptionsPrefix(ksp_, options.options_prefix.c_str()));
    POLYDG_PETSC_CALL(
        KSPSetInitialGuessNonzero(ksp_, options.nonzero_initial_guess ? PETSC_TRUE : PETSC_FALSE));
    POLYDG_PETSC_CALL(KSPSetFromOptions(ksp_));
  } catch (...) {
    destroy(ksp_);
    throw;
  }
}

LinearSolver::LinearSolver(KSP ksp, const SolverOptions& options)
    : on_divergence_(options.on_divergence) {
  require(ksp != nullptr, "polydg::petsc::LinearSolver: the KSP is null");
  require(options.options_prefix.empty(), "polydg::petsc::LinearSolver: options_prefix \"",
          options.options_prefix,
          "\" given with a caller's KSP; set its prefix with KSPSetOptionsPrefix() instead");
  POLYDG_PETSC_CALL(PetscObjectReference(reinterpret_cast<PetscObject>(ksp)));
  ksp_ = ksp;
  if (!options.nonzero_initial_guess) return;  // the KSP's own setting stays
  try {
    POLYDG_PETSC_CALL(KSPSetInitialGuessNonzero(ksp_, PETSC_TRUE));
  } catch (...) {
    destroy(ksp_);
    throw;
  }
}

LinearSolver::~LinearSolver() { destroy(ksp_); }

LinearSolver::LinearSolver(LinearSolver&& other) noexcept
    : ksp_(std::exchange(other.ksp_, nullptr)), on_divergence_(other.on_divergence_) {}

LinearSolver& LinearSolver::operator=(LinearSolver&& other) noexcept {
  if (this != &other) {
    destroy(ksp_);
    ksp_ = std::exchange(other.ksp_, nullptr);
    on_divergence_ = other.on_divergence_;
  }
  return *this;
}

SolveResult LinearSolver::solve(Vec b, Vec x) {
  require(ksp_ != nullptr, "polydg::petsc::LinearSolver::solve: the LinearSolver is empty");
  POLYDG_PETSC_CALL(KSPSolve(ksp_, b, x));
  SolveResult result;
  POLYDG_PETSC_CALL(KSPGetIterationNumber(ksp_, &result.iterations));
  POLYDG_PETSC_CALL(KSPGetConvergedReason(ksp_, &result.reason));
  POLYDG_PETSC_CALL(KSPGetResidualNorm(ksp_, &result.residual_norm));
  result.reason_text = converged_reason_text(result.reason);
  if (result.reason < 0 && on_divergence_ == DivergencePolicy::throw_error)
    throw_divergence(ksp_, result);
  return result;
}

SolveResult solve(Mat matrix, Vec b, Vec x, KSP ksp, const SolverOptions& options) {
  if (ksp == nullptr) return LinearSolver(matrix, options).solve(b, x);
  require(matrix != nullptr, "polydg::petsc::solve: the matrix is null");
  POLYDG_PETSC_CALL(KSPSetOperators(ksp, matrix, matrix));
  return LinearSolver(ksp, options).solve(b, x);
}

}  // namespace polydg::petsc
