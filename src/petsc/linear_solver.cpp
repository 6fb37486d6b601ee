#include "polydg/petsc/linear_solver.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>

#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/petsc/agglomeration_multigrid.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "string_option.hpp"

namespace polydg::petsc {

namespace {

// The last entry of KSPConvergedReasons, renamed in PETSc 3.24.
#if PETSC_VERSION_GE(3, 24, 0)
constexpr KSPConvergedReason last_converged_reason = KSP_CONVERGED_ATOL_NORMAL_EQUATIONS;
#else
constexpr KSPConvergedReason last_converged_reason = KSP_CONVERGED_ATOL_NORMAL;
#endif

std::string converged_reason_text(KSPConvergedReason reason) {
  if (reason >= KSP_DIVERGED_PC_FAILED && reason <= last_converged_reason)
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

/// Whether the options database holds `name` (e.g. "-ksp_type") under the KSP's prefix.
bool option_given(KSP ksp, const char* name) {
  const char* prefix = nullptr;
  POLYDG_PETSC_CALL(KSPGetOptionsPrefix(ksp, &prefix));
  PetscBool given = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscOptionsHasName(nullptr, prefix, name, &given));
  return given == PETSC_TRUE;
}

/// The value of -[prefix]`name`, empty when it is not given.
std::string option_value(KSP ksp, const char* name) {
  const char* prefix = nullptr;
  POLYDG_PETSC_CALL(KSPGetOptionsPrefix(ksp, &prefix));
  return detail::string_option(prefix, name).value_or("");
}

/// The value of -[prefix]ksp_type, empty when it is not given.
std::string ksp_type_option(KSP ksp) { return option_value(ksp, "-ksp_type"); }

int rank_count(Mat matrix) {
  MPI_Comm communicator = MPI_COMM_NULL;
  POLYDG_PETSC_CALL(PetscObjectGetComm(reinterpret_cast<PetscObject>(matrix), &communicator));
  PetscMPIInt size = 0;
  require(MPI_Comm_size(communicator, &size) == MPI_SUCCESS,
          "polydg::petsc::LinearSolver: MPI_Comm_size failed");
  return size;
}

/// Whether a factorization of type `factor` is registered for `matrix`'s type (any solver
/// package), on one rank: the distributed factorizations (MUMPS, SuperLU_dist) are not a
/// default.
bool factorization_available(Mat matrix, MatFactorType factor) {
  if (rank_count(matrix) != 1) return false;
  PetscBool shell = PETSC_FALSE;
  POLYDG_PETSC_CALL(
      PetscObjectTypeCompare(reinterpret_cast<PetscObject>(matrix), MATSHELL, &shell));
  if (shell == PETSC_TRUE) return false;
  PetscBool available = PETSC_FALSE;
  POLYDG_PETSC_CALL(MatGetFactorAvailable(matrix, nullptr, factor, &available));
  return available == PETSC_TRUE;
}

/// The preconditioner of the Krylov default for the preconditioning matrix `matrix`: additive
/// Schwarz where PETSc can LU-factor it (its subdomains get LU in solve()), else the inverted
/// diagonal blocks, else the diagonal; nullptr on several ranks (PETSc's block Jacobi + ILU).
PCType krylov_default_preconditioner(Mat matrix) {
  if (rank_count(matrix) != 1) return nullptr;
  if (factorization_available(matrix, MAT_FACTOR_LU)) return PCASM;
  PetscBool has = PETSC_FALSE;
  POLYDG_PETSC_CALL(MatHasOperation(matrix, MATOP_INVERT_VBLOCK_DIAGONAL, &has));
  PetscInt block_count = 0;
  const PetscInt* block_sizes = nullptr;
  POLYDG_PETSC_CALL(MatGetVariableBlockSizes(matrix, &block_count, &block_sizes));
  if (has == PETSC_TRUE && block_count > 0) return PCVPBJACOBI;
  POLYDG_PETSC_CALL(MatHasOperation(matrix, MATOP_GET_DIAGONAL, &has));
  return has == PETSC_TRUE ? PCJACOBI : PCNONE;
}

/// Whether the options database holds -[prefix]sub_pc_type for the subdomain solvers of `ksp`'s
/// PC.
bool subdomain_pc_type_given(KSP ksp) {
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  const char* prefix = nullptr;
  POLYDG_PETSC_CALL(PCGetOptionsPrefix(pc, &prefix));
  const std::string sub_prefix = std::string(prefix != nullptr ? prefix : "") + "sub_";
  PetscBool given = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscOptionsHasName(nullptr, sub_prefix.c_str(), "-pc_type", &given));
  return given == PETSC_TRUE;
}

/// Gives the subdomain solvers of `ksp`'s PCASM an LU (PETSc's own default there is ILU, which
/// breaks down on the library's P_2 diffusion matrices), then their -sub_ options again (e.g.
/// -sub_pc_factor_mat_solver_type). PCASM creates them in its set-up, before it factors them in
/// KSPSolve(): hence KSPSetUp() here.
void use_lu_on_subdomains(KSP ksp) {
  POLYDG_PETSC_CALL(KSPSetUp(ksp));
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  PetscInt count = 0, first = 0;
  KSP* subdomain_solvers = nullptr;
  POLYDG_PETSC_CALL(PCASMGetSubKSP(pc, &count, &first, &subdomain_solvers));
  for (PetscInt i = 0; i < count; ++i) {
    PC subdomain_pc = nullptr;
    POLYDG_PETSC_CALL(KSPGetPC(subdomain_solvers[i], &subdomain_pc));
    POLYDG_PETSC_CALL(PCSetType(subdomain_pc, PCLU));
    POLYDG_PETSC_CALL(PCSetFromOptions(subdomain_pc));
  }
}

/// PCMG over an AgglomerationMultigrid's DM, after KSPSetFromOptions(): the coarse levels'
/// operators are Galerkin products PᵀAP, or the hierarchy's own where it has them
/// (AgglomerationMultigrid::set_level_operators(): -pc_mg_galerkin none), W-cycles, and on
/// every level but the coarsest 6 Chebyshev iterations preconditioned by the inverted element
/// blocks (PCPBJACOBI, where the matrix has one block size). Measured on SIPG Poisson, p = 1..3,
/// 400 to 80,000 unknowns (tests/petsc/test_agglomeration_multigrid.cpp; docs/user-guide.md,
/// "Agglomeration multigrid"): PETSc's own level defaults (V-cycles, 2 Chebyshev iterations on
/// SOR) take 9-51 CG iterations, growing with the mesh; these take 9-13. The options database
/// has the last word: PCSetUp_MG reads -[prefix]mg_levels_* after this, and a given
/// -pc_mg_galerkin or -pc_mg_cycle_type is left alone.
void set_agglomeration_multigrid_defaults(KSP ksp, DM dm, Mat preconditioner_matrix) {
  if (!AgglomerationMultigrid::is_agglomeration_dm(dm)) return;
  PC pc = nullptr;
  PetscBool multigrid = PETSC_FALSE;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  POLYDG_PETSC_CALL(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pc), PCMG, &multigrid));
  if (multigrid != PETSC_TRUE) return;
  const bool own_operators = AgglomerationMultigrid::provides_level_operators(dm);
  if (!option_given(ksp, "-pc_mg_galerkin")) {
    POLYDG_PETSC_CALL(
        PCMGSetGalerkin(pc, own_operators ? PC_MG_GALERKIN_NONE : PC_MG_GALERKIN_BOTH));
  } else {
    const char* prefix = nullptr;
    POLYDG_PETSC_CALL(KSPGetOptionsPrefix(ksp, &prefix));
    require(own_operators || option_value(ksp, "-pc_mg_galerkin") != "none",
            "polydg::petsc::LinearSolver: -", prefix != nullptr ? prefix : "",
            "pc_mg_galerkin none asks for rediscretised coarse operators, which this "
            "agglomeration hierarchy was not given (AgglomerationMultigrid::set_level_operators(), "
            "e.g. from rediscretised_level_operators()); without them its coarse operators are "
            "Galerkin products (-pc_mg_galerkin both, the default)");
  }
  if (!option_given(ksp, "-pc_mg_cycle_type"))
    POLYDG_PETSC_CALL(PCMGSetCycleType(pc, PC_MG_CYCLE_W));
  PetscInt block_size = 1, levels = 0;
  POLYDG_PETSC_CALL(MatGetBlockSize(preconditioner_matrix, &block_size));
  POLYDG_PETSC_CALL(PCMGGetLevels(pc, &levels));
  if (levels == 1) {
    // A hierarchy of one level (a problem of at most HierarchyOptions::coarsest_dofs unknowns):
    // PETSc would smooth on it; the coarsest level's solve is a direct one (on several ranks
    // redundant, each rank factoring the whole level with LU, PCMG's own coarse default).
    KSP coarse = nullptr;
    PC coarse_pc = nullptr;
    PetscMPIInt ranks = 1;
    POLYDG_PETSC_CALL(MPI_Comm_size(PetscObjectComm(reinterpret_cast<PetscObject>(ksp)), &ranks));
    POLYDG_PETSC_CALL(PCMGGetCoarseSolve(pc, &coarse));
    POLYDG_PETSC_CALL(KSPSetType(coarse, KSPPREONLY));
    POLYDG_PETSC_CALL(KSPGetPC(coarse, &coarse_pc));
    POLYDG_PETSC_CALL(PCSetType(coarse_pc, ranks > 1 ? PCREDUNDANT : PCLU));
  }
  for (PetscInt level = 1; level < levels; ++level) {
    KSP smoother = nullptr;
    PC smoother_pc = nullptr;
    POLYDG_PETSC_CALL(PCMGGetSmoother(pc, level, &smoother));
    POLYDG_PETSC_CALL(KSPSetType(smoother, KSPCHEBYSHEV));
    POLYDG_PETSC_CALL(KSPSetTolerances(smoother, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 6));
    POLYDG_PETSC_CALL(KSPGetPC(smoother, &smoother_pc));
    if (block_size > 1) POLYDG_PETSC_CALL(PCSetType(smoother_pc, PCPBJACOBI));
  }
}

/// Sets the defaults of LinearSolver(Mat, Mat, const SolverOptions&) on `ksp`, whose operators
/// and prefix are set, and says which.
SolverDefault set_defaults(KSP ksp, Mat preconditioner_matrix, const SolverOptions& options) {
  POLYDG_PETSC_CALL(KSPSetTolerances(ksp, default_relative_tolerance, PETSC_DEFAULT, PETSC_DEFAULT,
                                     PETSC_DEFAULT));
  const std::string ksp_type = ksp_type_option(ksp);
  const bool pc_type_given = option_given(ksp, "-pc_type");
  PetscInt rows = 0;
  POLYDG_PETSC_CALL(MatGetSize(preconditioner_matrix, &rows, nullptr));
  const bool factorable = factorization_available(preconditioner_matrix, MAT_FACTOR_LU);
  const bool small = options.direct_solve_limit > 0 && rows <= options.direct_solve_limit;
  const bool direct =
      factorable && (ksp_type == KSPPREONLY || (ksp_type.empty() && !pc_type_given && small));
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  if (direct) {
    POLYDG_PETSC_CALL(KSPSetType(ksp, KSPPREONLY));
    POLYDG_PETSC_CALL(PCSetType(pc, PCLU));
    POLYDG_PETSC_CALL(PetscInfo(ksp,
                                "polydg: direct default (preonly + lu): %" PetscInt_FMT
                                " rows, direct_solve_limit %" PetscInt_FMT "\n",
                                rows, options.direct_solve_limit));
    return SolverDefault::direct;
  }
  if (ksp_type.empty()) {
    POLYDG_PETSC_CALL(KSPSetType(ksp, KSPGMRES));
    POLYDG_PETSC_CALL(KSPGMRESSetRestart(ksp, default_gmres_restart));
#if PETSC_VERSION_GE(3, 26, 0)  // renamed there
    POLYDG_PETSC_CALL(
        KSPOrthogonalizationSetCGSRefinementType(ksp, KSP_ORTHOGONALIZATION_CGS_REFINE_IFNEEDED));
#else
    POLYDG_PETSC_CALL(KSPGMRESSetCGSRefinementType(ksp, KSP_GMRES_CGS_REFINE_IFNEEDED));
#endif
    // The true residual is what rtol bounds (PC_LEFT would bound the preconditioned one).
    POLYDG_PETSC_CALL(KSPSetPCSide(ksp, PC_RIGHT));
  }
  // A multigrid hierarchy given with the solver is what it asks for.
  const PCType preconditioner =
      options.dm != nullptr ? PCType(PCMG) : krylov_default_preconditioner(preconditioner_matrix);
  if (preconditioner != nullptr) POLYDG_PETSC_CALL(PCSetType(pc, preconditioner));
  if (preconditioner != nullptr && std::string_view(preconditioner) == PCASM) {
    // Subdomains of at most default_subdomain_rows rows (PETSc partitions the matrix graph),
    // each grown by one layer of neighbours (PETSc's default overlap).
    const PetscInt subdomains = (rows + default_subdomain_rows - 1) / default_subdomain_rows;
    POLYDG_PETSC_CALL(
        PCASMSetLocalSubdomains(pc, std::max<PetscInt>(subdomains, 1), nullptr, nullptr));
  }
  POLYDG_PETSC_CALL(PetscInfo(
      ksp,
      "polydg: Krylov default (%s + %s): %" PetscInt_FMT " rows, direct_solve_limit %" PetscInt_FMT
      ", LU %savailable, -ksp_type %s, -pc_type %sgiven\n",
      ksp_type.empty() ? KSPGMRES : ksp_type.c_str(),
      preconditioner != nullptr ? preconditioner : "PETSc's", rows, options.direct_solve_limit,
      factorable ? "" : "not ", ksp_type.empty() ? "not given" : ksp_type.c_str(),
      pc_type_given ? "" : "not "));
  return SolverDefault::krylov;
}

/// The problems of running `ksp` on its operators that are known before the solve: a method
/// that needs a symmetric operator on a matrix known not to be symmetric; empty when none.
std::string symmetry_mismatch(KSP ksp) {
  Mat matrix = nullptr, preconditioner_matrix = nullptr;
  POLYDG_PETSC_CALL(KSPGetOperators(ksp, &matrix, &preconditioner_matrix));
  const auto known_nonsymmetric = [](Mat m) {
    if (m == nullptr) return false;
    PetscBool known = PETSC_FALSE, symmetric = PETSC_FALSE;
    POLYDG_PETSC_CALL(MatIsSymmetricKnown(m, &known, &symmetric));
    return known == PETSC_TRUE && symmetric == PETSC_FALSE;
  };
  const bool matrix_nonsymmetric = known_nonsymmetric(matrix);
  const bool preconditioner_nonsymmetric = known_nonsymmetric(preconditioner_matrix);
  if (!matrix_nonsymmetric && !preconditioner_nonsymmetric) return {};

  const char* prefix = nullptr;
  POLYDG_PETSC_CALL(KSPGetOptionsPrefix(ksp, &prefix));
  const std::string dash = std::string("-") + (prefix != nullptr ? prefix : "");
  std::string problems;
  PetscBool symmetric_method = PETSC_FALSE;
  // CG and its variants (the trust-region ones too), MINRES, CR, SYMMLQ: their recurrences
  // hold only for A = Aᵀ.
  POLYDG_PETSC_CALL(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(ksp), &symmetric_method,
                                              KSPCG, KSPPIPECG, KSPPIPECGRR, KSPPIPELCG, KSPGROPPCG,
                                              KSPFCG, KSPPIPEFCG, KSPNASH, KSPSTCG, KSPGLTR, KSPQCG,
                                              KSPMINRES, KSPCR, KSPPIPECR, KSPSYMMLQ, ""));
  if (symmetric_method == PETSC_TRUE) {
    KSPType type = nullptr;
    POLYDG_PETSC_CALL(KSPGetType(ksp, &type));
    problems += std::string("KSP ") + type + " assumes a symmetric operator, but the " +
                (matrix_nonsymmetric ? "matrix" : "preconditioning matrix") +
                " is not symmetric (MAT_SYMMETRIC false): it may report convergence far from "
                "the solution; use " +
                dash + "ksp_type gmres (or bcgs) for a nonsymmetric matrix";
  }
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  PetscBool symmetric_factorization = PETSC_FALSE;
  POLYDG_PETSC_CALL(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(pc),
                                              &symmetric_factorization, PCICC, PCCHOLESKY, ""));
  if (symmetric_factorization == PETSC_TRUE && preconditioner_nonsymmetric) {
    PCType type = nullptr;
    POLYDG_PETSC_CALL(PCGetType(pc, &type));
    problems += std::string(problems.empty() ? "" : "; ") + "PC " + type +
                " factors one triangle of the preconditioning matrix as if it were symmetric, "
                "but it is not (MAT_SYMMETRIC false); use " +
                dash + "pc_type " + (std::string(type) == PCICC ? "ilu" : "lu");
  }
  return problems;
}

}  // namespace

const char* solver_default_name(SolverDefault choice) {
  switch (choice) {
    case SolverDefault::none:
      return "none";
    case SolverDefault::direct:
      return "direct";
    case SolverDefault::krylov:
      return "krylov";
  }
  return "unknown SolverDefault";
}

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
    if (options.dm != nullptr) {
      // The DM gives PCMG its levels; the operators are the ones set above, not the DM's.
      POLYDG_PETSC_CALL(KSPSetDM(ksp_, options.dm));
#if PETSC_VERSION_GE(3, 25, 0)  // which of the DM's computations, since 3.25
      POLYDG_PETSC_CALL(KSPSetDMActive(ksp_, KSP_DMACTIVE_ALL, PETSC_FALSE));
#else
      POLYDG_PETSC_CALL(KSPSetDMActive(ksp_, PETSC_FALSE));
#endif
    }
    solver_default_ = set_defaults(ksp_, preconditioner_matrix, options);
    POLYDG_PETSC_CALL(KSPSetFromOptions(ksp_));
    set_agglomeration_multigrid_defaults(ksp_, options.dm, preconditioner_matrix);
    PetscBool preonly = PETSC_FALSE;
    POLYDG_PETSC_CALL(
        PetscObjectTypeCompare(reinterpret_cast<PetscObject>(ksp_), KSPPREONLY, &preonly));
    if (preonly == PETSC_TRUE) POLYDG_PETSC_CALL(KSPSetInitialGuessNonzero(ksp_, PETSC_FALSE));
    // The Krylov default's PCASM, still PCASM after the options, without -sub_pc_type: its
    // subdomains get LU at the first solve (they exist only once the PC is set up).
    if (solver_default_ == SolverDefault::krylov) {
      PC pc = nullptr;
      PetscBool additive_schwarz = PETSC_FALSE;
      POLYDG_PETSC_CALL(KSPGetPC(ksp_, &pc));
      POLYDG_PETSC_CALL(
          PetscObjectTypeCompare(reinterpret_cast<PetscObject>(pc), PCASM, &additive_schwarz));
      const PCType preconditioner = krylov_default_preconditioner(preconditioner_matrix);
      subdomain_lu_pending_ = additive_schwarz == PETSC_TRUE && preconditioner != nullptr &&
                              std::string_view(preconditioner) == PCASM &&
                              !subdomain_pc_type_given(ksp_);
    }
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
    : ksp_(std::exchange(other.ksp_, nullptr)),
      on_divergence_(other.on_divergence_),
      solver_default_(other.solver_default_),
      symmetry_warning_given_(other.symmetry_warning_given_),
      subdomain_lu_pending_(other.subdomain_lu_pending_) {}

LinearSolver& LinearSolver::operator=(LinearSolver&& other) noexcept {
  if (this != &other) {
    destroy(ksp_);
    ksp_ = std::exchange(other.ksp_, nullptr);
    on_divergence_ = other.on_divergence_;
    solver_default_ = other.solver_default_;
    symmetry_warning_given_ = other.symmetry_warning_given_;
    subdomain_lu_pending_ = other.subdomain_lu_pending_;
  }
  return *this;
}

SolveResult LinearSolver::solve(Vec b, Vec x) {
  require(ksp_ != nullptr, "polydg::petsc::LinearSolver::solve: the LinearSolver is empty");
  // Here, not in the constructor: the KSP type is final only after KSPSetFromOptions() (and
  // whatever the caller set through ksp()), and the symmetry flags come with the values
  // (AijMatrix::update()), which may follow the constructor.
  if (!symmetry_warning_given_) {
    const std::string mismatch = symmetry_mismatch(ksp_);
    if (!mismatch.empty()) {
      warn("polydg::petsc::LinearSolver: " + mismatch);
      symmetry_warning_given_ = true;
    }
  }
  if (subdomain_lu_pending_) {
    use_lu_on_subdomains(ksp_);
    subdomain_lu_pending_ = false;
  }
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
