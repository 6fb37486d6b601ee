#define BOOST_TEST_MODULE petsc_solver
#include <petscksp.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "captured_warnings.hpp"
#include "error_message.hpp"
#include "petsc_test_support.hpp"
#include "polydg/core/error.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/dense_block_operator.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "shell_test_problems.hpp"

using namespace polydg;
using polydg::testing::error_names;

using PetscTestSession = testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// An SPD system A x = b with a known solution, exported to PETSc.
struct SpdSystem {
  std::shared_ptr<const BlockPattern> pattern = testing::small_hp_pattern();
  BlockMatrix<double> a = testing::spd_block_matrix(testing::random_block_matrix(pattern, 11));
  std::vector<double> exact = testing::random_vector(pattern->dof_count(), 12);
  std::vector<double> rhs = std::vector<double>(exact.size());
  petsc::AijMatrix aij{*pattern};
  petsc::Vector b{*pattern}, x{*pattern};

  SpdSystem() {
    a.multiply(exact, rhs);
    aij.update(a);
    petsc::copy_to_vec(rhs, b.vec());
  }

  /// max_i |x_i − exact_i| of the PETSc solution.
  double max_error() const {
    std::vector<double> solution(exact.size());
    petsc::copy_from_vec(x.vec(), solution);
    double error = 0;
    for (std::size_t i = 0; i < exact.size(); ++i)
      error = std::max(error, std::abs(solution[i] - exact[i]));
    return error;
  }

  /// ‖b − A x‖₂ / ‖b‖₂ with the BlockMatrix product.
  double relative_residual() const {
    std::vector<double> solution(exact.size()), product(exact.size());
    petsc::copy_from_vec(x.vec(), solution);
    a.multiply(solution, product);
    double residual = 0, norm = 0;
    for (std::size_t i = 0; i < rhs.size(); ++i) {
      residual += (rhs[i] - product[i]) * (rhs[i] - product[i]);
      norm += rhs[i] * rhs[i];
    }
    return std::sqrt(residual / norm);
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(options_database_configures_the_ksp) {
  const testing::ScopedOption ksp_type("-ksp_type", "cg");
  const testing::ScopedOption pc_type("-pc_type", "jacobi");
  const testing::ScopedOption rtol("-ksp_rtol", "1e-12");
  SpdSystem system;
  petsc::LinearSolver solver(system.aij.mat());

  KSPType type = nullptr;
  POLYDG_PETSC_CALL(KSPGetType(solver.ksp(), &type));
  BOOST_TEST(std::string(type) == KSPCG);
  PC pc = nullptr;
  PCType preconditioner = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(solver.ksp(), &pc));
  POLYDG_PETSC_CALL(PCGetType(pc, &preconditioner));
  BOOST_TEST(std::string(preconditioner) == PCJACOBI);

  const petsc::SolveResult result = solver.solve(system.b.vec(), system.x.vec());
  BOOST_TEST_MESSAGE(result.iterations << " iterations, " << result.reason_text
                                       << ", residual norm " << result.residual_norm);
  BOOST_TEST(result.converged());
  BOOST_TEST(result.reason_text.rfind("CONVERGED_", 0) == 0);
  BOOST_TEST(result.iterations > 0);
  BOOST_TEST(system.relative_residual() < 1e-10);
  BOOST_TEST(system.max_error() < 1e-9);
}

BOOST_AUTO_TEST_CASE(options_prefix_selects_the_solvers_options) {
  const testing::ScopedOption ksp_type("-flow_ksp_type", "preonly");
  const testing::ScopedOption pc_type("-flow_pc_type", "lu");
  SpdSystem system;
  petsc::LinearSolver solver(system.aij.mat(), {.options_prefix = "flow_"});
  KSPType type = nullptr;
  POLYDG_PETSC_CALL(KSPGetType(solver.ksp(), &type));
  BOOST_TEST(std::string(type) == KSPPREONLY);
  const petsc::SolveResult result = solver.solve(system.b.vec(), system.x.vec());
  BOOST_TEST(result.converged());
  BOOST_TEST(system.relative_residual() < 1e-13);
}

BOOST_AUTO_TEST_CASE(nonzero_initial_guess_starts_from_x) {
  const testing::ScopedOption ksp_type("-guess_ksp_type", "cg");
  SpdSystem system;
  const std::vector<double> zero(system.exact.size(), 0.0);

  petsc::copy_to_vec(system.exact, system.x.vec());
  const petsc::SolveResult from_exact =
      petsc::LinearSolver(system.aij.mat(),
                          {.options_prefix = "guess_", .nonzero_initial_guess = true})
          .solve(system.b.vec(), system.x.vec());
  BOOST_TEST(from_exact.converged());
  BOOST_TEST(from_exact.iterations == 0);

  petsc::copy_to_vec(system.exact, system.x.vec());  // ignored without the flag
  const petsc::SolveResult from_zero =
      petsc::LinearSolver(system.aij.mat(), {.options_prefix = "guess_"})
          .solve(system.b.vec(), system.x.vec());
  BOOST_TEST(from_zero.converged());
  BOOST_TEST(from_zero.iterations > 0);
}

BOOST_AUTO_TEST_CASE(solve_with_and_without_a_callers_ksp) {
  SpdSystem system;
  const petsc::SolveResult own = petsc::solve(system.aij.mat(), system.b.vec(), system.x.vec());
  BOOST_TEST(own.converged());
  BOOST_TEST(system.relative_residual() < 1e-4);

  KSP ksp = nullptr;
  POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
  POLYDG_PETSC_CALL(KSPSetType(ksp, KSPPREONLY));
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  POLYDG_PETSC_CALL(PCSetType(pc, PCCHOLESKY));
  const petsc::SolveResult callers =
      petsc::solve(system.aij.mat(), system.b.vec(), system.x.vec(), ksp);
  BOOST_TEST(callers.converged());
  BOOST_TEST(callers.iterations == 1);
  BOOST_TEST(system.relative_residual() < 1e-13);
  BOOST_TEST(error_names(
      [&] {
        petsc::solve(system.aij.mat(), system.b.vec(), system.x.vec(), ksp,
                     {.options_prefix = "x_"});
      },
      {"polydg::petsc::LinearSolver: options_prefix \"x_\" given with a caller's KSP",
       "KSPSetOptionsPrefix()"}));
  // The caller's KSP is still the caller's: one reference left.
  PetscInt references = 0;
  POLYDG_PETSC_CALL(PetscObjectGetReference(reinterpret_cast<PetscObject>(ksp), &references));
  BOOST_TEST(references == 1);
  POLYDG_PETSC_CALL(KSPDestroy(&ksp));
}

BOOST_AUTO_TEST_CASE(diverging_solve_throws_naming_reason_iterations_and_residual) {
  const testing::ScopedOption ksp_type("-diverging_ksp_type", "cg");
  const testing::ScopedOption pc_type("-diverging_pc_type", "none");
  const testing::ScopedOption max_it("-diverging_ksp_max_it", "1");
  SpdSystem system;
  petsc::LinearSolver solver(system.aij.mat(), {.options_prefix = "diverging_"});
  BOOST_CHECK_EXCEPTION(solver.solve(system.b.vec(), system.x.vec()), Error, [](const Error& e) {
    BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
    const std::string what = e.what();
    return contains(what, "DIVERGED_ITS") && contains(what, "after 1 iterations") &&
           contains(what, "residual norm ") && contains(what, "KSP cg, PC none") &&
           contains(what, "options prefix diverging_");
  });

  petsc::LinearSolver reporting(
      system.aij.mat(),
      {.options_prefix = "diverging_", .on_divergence = petsc::DivergencePolicy::report});
  const petsc::SolveResult result = reporting.solve(system.b.vec(), system.x.vec());
  BOOST_TEST(!result.converged());
  BOOST_TEST(result.reason == KSP_DIVERGED_ITS);
  BOOST_TEST(result.reason_text == "DIVERGED_ITS");
  BOOST_TEST(result.iterations == 1);
  BOOST_TEST(result.residual_norm > 0.0);
}

BOOST_AUTO_TEST_CASE(singular_matrix_with_lu_throws_pc_failed) {
  const testing::ScopedOption ksp_type("-singular_ksp_type", "preonly");
  const testing::ScopedOption pc_type("-singular_pc_type", "lu");
  SpdSystem system;
  // Zero block row and block column 3: A is singular, LU meets a zero pivot.
  const BlockPattern& pattern = *system.pattern;
  for (Index k = 0; k < pattern.block_count(); ++k)
    if (pattern.block_row(k) == 3 || pattern.block_column(k) == 3)
      for (double& v : system.a.block_values(k)) v = 0;
  system.aij.update(system.a);
  petsc::LinearSolver solver(system.aij.mat(), {.options_prefix = "singular_"});
  BOOST_CHECK_EXCEPTION(solver.solve(system.b.vec(), system.x.vec()), Error, [](const Error& e) {
    BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
    const std::string what = e.what();
    return contains(what, "DIVERGED_PC_FAILED") && contains(what, "ZEROPIVOT");
  });
}

BOOST_AUTO_TEST_CASE(error_if_not_converged_is_a_petsc_error) {
  const testing::ScopedOption ksp_type("-strict_ksp_type", "cg");
  const testing::ScopedOption pc_type("-strict_pc_type", "jacobi");  // not an exact solve
  const testing::ScopedOption max_it("-strict_ksp_max_it", "1");
  const testing::ScopedOption strict("-strict_ksp_error_if_not_converged", "true");
  SpdSystem system;
  petsc::LinearSolver solver(system.aij.mat(), {.options_prefix = "strict_",
                                                .on_divergence = petsc::DivergencePolicy::report});
  BOOST_CHECK_EXCEPTION(solver.solve(system.b.vec(), system.x.vec()), Error, [](const Error& e) {
    BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
    return contains(e.what(),
                    "PETSc error " + std::to_string(PETSC_ERR_NOT_CONVERGED) + " in KSPSolve(");
  });
}

// ---- Defaults --------------------------------------------------------------------------------

namespace polydg::petsc {
// For BOOST_TEST's messages.
std::ostream& operator<<(std::ostream& out, SolverDefault choice) {
  return out << solver_default_name(choice);
}
}  // namespace polydg::petsc

namespace {

/// An upper bound of κ₂(A) = ‖A‖₂ ‖A⁻¹‖₂ for a small matrix: each 2-norm is at most
/// min(‖·‖_F, √(‖·‖₁ ‖·‖_∞)); the columns of A⁻¹ come from LU solves of the unit vectors.
double condition_number_bound(Mat a) {
  PetscInt n = 0;
  POLYDG_PETSC_CALL(MatGetSize(a, &n, nullptr));
  PetscReal frobenius = 0, one = 0, infinity = 0;
  POLYDG_PETSC_CALL(MatNorm(a, NORM_FROBENIUS, &frobenius));
  POLYDG_PETSC_CALL(MatNorm(a, NORM_1, &one));
  POLYDG_PETSC_CALL(MatNorm(a, NORM_INFINITY, &infinity));
  KSP lu = nullptr;
  POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &lu));
  POLYDG_PETSC_CALL(KSPSetOperators(lu, a, a));
  POLYDG_PETSC_CALL(KSPSetType(lu, KSPPREONLY));
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(lu, &pc));
  POLYDG_PETSC_CALL(PCSetType(pc, PCLU));
  petsc::Vector unit(GlobalIndex{n}), column(GlobalIndex{n});
  std::vector<double> values(static_cast<std::size_t>(n)), row_sums(values.size(), 0.0);
  double inverse_frobenius = 0, inverse_one = 0;
  for (PetscInt j = 0; j < n; ++j) {
    std::vector<double> e(values.size(), 0.0);
    e[std::size_t(j)] = 1;
    petsc::copy_to_vec(e, unit.vec());
    POLYDG_PETSC_CALL(KSPSolve(lu, unit.vec(), column.vec()));
    petsc::copy_from_vec(column.vec(), values);
    double column_sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      inverse_frobenius += values[i] * values[i];
      column_sum += std::abs(values[i]);
      row_sums[i] += std::abs(values[i]);
    }
    inverse_one = std::max(inverse_one, column_sum);
  }
  POLYDG_PETSC_CALL(KSPDestroy(&lu));
  const double inverse_infinity = *std::max_element(row_sums.begin(), row_sums.end());
  return std::min(double(frobenius), std::sqrt(double(one * infinity))) *
         std::min(std::sqrt(inverse_frobenius), std::sqrt(inverse_one * inverse_infinity));
}

/// A DG system of the library (testing::DgSystem) exported to PETSc, with its direct solution
/// (KSPPREONLY + PCLU set in code, no options) and the bound of κ₂(A).
struct ExportedDgSystem {
  testing::DgSystem system;
  petsc::AijMatrix aij{system.matrix.pattern()};
  petsc::Vector b{system.matrix.pattern()}, x{system.matrix.pattern()};
  std::vector<double> direct;
  double condition_bound = 0;

  explicit ExportedDgSystem(testing::DgSystem dg) : system(std::move(dg)) {
    aij.update(system.matrix);
    petsc::copy_to_vec(system.rhs, b.vec());
    condition_bound = condition_number_bound(aij.mat());
    KSP lu = nullptr;
    POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &lu));
    POLYDG_PETSC_CALL(KSPSetOperators(lu, aij.mat(), aij.mat()));
    POLYDG_PETSC_CALL(KSPSetType(lu, KSPPREONLY));
    PC pc = nullptr;
    POLYDG_PETSC_CALL(KSPGetPC(lu, &pc));
    POLYDG_PETSC_CALL(PCSetType(pc, PCLU));
    POLYDG_PETSC_CALL(KSPSolve(lu, b.vec(), x.vec()));
    POLYDG_PETSC_CALL(KSPDestroy(&lu));
    direct = testing::values_of(x.vec(), rows());
    POLYDG_PETSC_CALL(VecSet(x.vec(), 0.0));
  }
  GlobalIndex rows() const { return system.matrix.pattern().dof_count(); }

  /// ‖x − x_LU‖₂ / ‖x_LU‖₂ of the solution in x.
  double error_against_direct() const {
    const std::vector<double> solution = testing::values_of(x.vec(), rows());
    double difference = 0, norm = 0;
    for (std::size_t i = 0; i < solution.size(); ++i) {
      difference += (solution[i] - direct[i]) * (solution[i] - direct[i]);
      norm += direct[i] * direct[i];
    }
    return std::sqrt(difference / norm);
  }

  /// What the defaults guarantee: the solve stops where GMRES's residual (right-preconditioned:
  /// the true one, up to the rounding of A x, ~ n ε ‖A‖ ‖x‖) is at most rtol ‖b‖₂, and the
  /// direct solve is exact up to that rounding. With A⁻¹ applied to that residual,
  /// ‖x − x*‖₂/‖x*‖₂ ≤ κ₂(A) (rtol + n ε); the direct reference is off by up to κ₂(A) n ε
  /// itself, and the factor 2 is the margin for the residual's rounding.
  double guaranteed_error() const {
    const double n_epsilon = double(rows()) * std::numeric_limits<double>::epsilon();
    return 2 * condition_bound * (petsc::default_relative_tolerance + 2 * n_epsilon);
  }
};

petsc::SolverOptions with_limit(PetscInt direct_solve_limit) {
  petsc::SolverOptions options;
  options.direct_solve_limit = direct_solve_limit;
  return options;
}

ExportedDgSystem nonsymmetric_dg_system() {
  return ExportedDgSystem(testing::advection_diffusion(testing::uniform_mesh(2)));
}

std::string ksp_type_of(const petsc::LinearSolver& solver) {
  KSPType type = nullptr;
  POLYDG_PETSC_CALL(KSPGetType(solver.ksp(), &type));
  return type;
}

std::string pc_type_of(const petsc::LinearSolver& solver) {
  PC pc = nullptr;
  PCType type = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(solver.ksp(), &pc));
  POLYDG_PETSC_CALL(PCGetType(pc, &type));
  return type;
}

}  // namespace

// With no options, a small nonsymmetric DG system (advection-diffusion, P_2, 240 unknowns) is
// solved directly, to the direct solution within what the default tolerance guarantees.
BOOST_AUTO_TEST_CASE(default_below_the_limit_is_a_direct_solve) {
  ExportedDgSystem exported = nonsymmetric_dg_system();
  BOOST_TEST_MESSAGE(exported.rows() << " unknowns, κ₂ ≤ " << exported.condition_bound);
  BOOST_TEST(exported.rows() <= petsc::default_direct_solve_limit);
  petsc::LinearSolver solver(exported.aij.mat());
  BOOST_TEST(solver.solver_default() == petsc::SolverDefault::direct);
  BOOST_TEST(std::string(petsc::solver_default_name(solver.solver_default())) == "direct");
  BOOST_TEST(ksp_type_of(solver) == KSPPREONLY);
  BOOST_TEST(pc_type_of(solver) == PCLU);
  const petsc::SolveResult result = solver.solve(exported.b.vec(), exported.x.vec());
  BOOST_TEST(result.converged());
  BOOST_TEST(exported.error_against_direct() <= exported.guaranteed_error());

  // The limit is inclusive, and 0 turns the direct default off.
  const PetscInt n = PetscInt(exported.rows());
  BOOST_TEST(petsc::LinearSolver(exported.aij.mat(), with_limit(n)).solver_default() ==
             petsc::SolverDefault::direct);
  BOOST_TEST(petsc::LinearSolver(exported.aij.mat(), with_limit(n - 1)).solver_default() ==
             petsc::SolverDefault::krylov);
  BOOST_TEST(petsc::LinearSolver(exported.aij.mat(), with_limit(0)).solver_default() ==
             petsc::SolverDefault::krylov);
}

/// The PC types of the subdomain solvers of `solver`'s PCASM (after a solve).
std::vector<std::string> subdomain_pc_types(const petsc::LinearSolver& solver) {
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(solver.ksp(), &pc));
  PetscInt count = 0, first = 0;
  KSP* subdomain_solvers = nullptr;
  POLYDG_PETSC_CALL(PCASMGetSubKSP(pc, &count, &first, &subdomain_solvers));
  std::vector<std::string> types;
  for (PetscInt i = 0; i < count; ++i) {
    PC subdomain_pc = nullptr;
    PCType type = nullptr;
    POLYDG_PETSC_CALL(KSPGetPC(subdomain_solvers[i], &subdomain_pc));
    POLYDG_PETSC_CALL(PCGetType(subdomain_pc, &type));
    types.emplace_back(type);
  }
  return types;
}

// Above the limit: right-preconditioned GMRES(100) + additive Schwarz with an LU on each
// subdomain, to rtol 1e-12, which reaches the direct solution within κ₂(A)·rtol. Four
// subdomains (-pc_asm_blocks; the default count, ⌈240 / default_subdomain_rows⌉, is one), so
// that GMRES has work to do.
BOOST_AUTO_TEST_CASE(default_above_the_limit_is_gmres_with_lu_subdomains) {
  ExportedDgSystem exported = nonsymmetric_dg_system();
  const testing::ScopedOption blocks("-asm_pc_asm_blocks", "4");
  petsc::SolverOptions options = with_limit(100);
  options.options_prefix = "asm_";
  petsc::LinearSolver solver(exported.aij.mat(), options);
  BOOST_TEST(solver.solver_default() == petsc::SolverDefault::krylov);
  BOOST_TEST(ksp_type_of(solver) == KSPGMRES);
  BOOST_TEST(pc_type_of(solver) == PCASM);
  PetscReal rtol = 0, abstol = 0, dtol = 0;
  PetscInt max_iterations = 0, restart = 0;
  POLYDG_PETSC_CALL(KSPGetTolerances(solver.ksp(), &rtol, &abstol, &dtol, &max_iterations));
  BOOST_TEST(rtol == petsc::default_relative_tolerance);
  POLYDG_PETSC_CALL(KSPGMRESGetRestart(solver.ksp(), &restart));
  BOOST_TEST(restart == petsc::default_gmres_restart);
#if PETSC_VERSION_GE(3, 26, 0)  // renamed there
  KSPOrthogonalizationCGSRefinementType refinement = KSP_ORTHOGONALIZATION_CGS_REFINE_NEVER;
  POLYDG_PETSC_CALL(KSPOrthogonalizationGetCGSRefinementType(solver.ksp(), &refinement));
  BOOST_TEST(refinement == KSP_ORTHOGONALIZATION_CGS_REFINE_IFNEEDED);
#else
  KSPGMRESCGSRefinementType refinement = KSP_GMRES_CGS_REFINE_NEVER;
  POLYDG_PETSC_CALL(KSPGMRESGetCGSRefinementType(solver.ksp(), &refinement));
  BOOST_TEST(refinement == KSP_GMRES_CGS_REFINE_IFNEEDED);
#endif
  PCSide side = PC_LEFT;
  POLYDG_PETSC_CALL(KSPGetPCSide(solver.ksp(), &side));
  BOOST_TEST(side == PC_RIGHT);

  const petsc::SolveResult result = solver.solve(exported.b.vec(), exported.x.vec());
  BOOST_TEST_MESSAGE(result.iterations << " iterations, " << result.reason_text
                                       << ", error against LU " << exported.error_against_direct()
                                       << " ≤ " << exported.guaranteed_error());
  BOOST_TEST(result.reason == KSP_CONVERGED_RTOL);
  BOOST_TEST(result.iterations > 1);
  BOOST_TEST(exported.error_against_direct() <= exported.guaranteed_error());
  BOOST_TEST(subdomain_pc_types(solver) == std::vector<std::string>(4, PCLU),
             boost::test_tools::per_element());

  // Without -pc_asm_blocks: ⌈240 / 10000⌉ = 1 subdomain, the whole matrix.
  petsc::LinearSolver one(exported.aij.mat(), with_limit(100));
  BOOST_TEST(one.solve(exported.b.vec(), exported.x.vec()).converged());
  BOOST_TEST(subdomain_pc_types(one) == std::vector<std::string>{PCLU},
             boost::test_tools::per_element());
}

// A ShellMatrix alone cannot be factored: the Krylov default, with block Jacobi on its element
// blocks (PCVPBJACOBI). With its AIJ export as the preconditioning matrix the direct default
// factors the AIJ.
BOOST_AUTO_TEST_CASE(a_shell_alone_gets_the_krylov_default_with_block_jacobi) {
  ExportedDgSystem exported = nonsymmetric_dg_system();
  const DenseBlockMatrix<double> dense(exported.system.matrix);
  const petsc::DenseBlockOperator op(dense);
  const petsc::ShellMatrix shell(op);
  petsc::LinearSolver solver(shell.mat());
  BOOST_TEST(solver.solver_default() == petsc::SolverDefault::krylov);
  BOOST_TEST(ksp_type_of(solver) == KSPGMRES);
  BOOST_TEST(pc_type_of(solver) == PCVPBJACOBI);
  const petsc::SolveResult result = solver.solve(exported.b.vec(), exported.x.vec());
  BOOST_TEST_MESSAGE(result.iterations << " iterations, error against LU "
                                       << exported.error_against_direct());
  BOOST_TEST(result.reason == KSP_CONVERGED_RTOL);
  BOOST_TEST(exported.error_against_direct() <= exported.guaranteed_error());

  petsc::LinearSolver split(shell.mat(), exported.aij.mat());
  BOOST_TEST(split.solver_default() == petsc::SolverDefault::direct);
  BOOST_TEST(pc_type_of(split) == PCLU);
}

// Options that name a method turn the direct default off (so a Krylov method is not left with
// the LU, nor KSPPREONLY with ILU); -ksp_type preonly asks for it; -sub_pc_type replaces the
// subdomains' LU; other options (here -ksp_rtol) change what they name and nothing else.
BOOST_AUTO_TEST_CASE(options_override_the_defaults) {
  ExportedDgSystem exported = nonsymmetric_dg_system();
  {
    const testing::ScopedOption ksp_type("-named_ksp_type", "bcgs");
    const testing::ScopedOption sub_pc_type("-named_sub_pc_type", "ilu");
    petsc::LinearSolver solver(exported.aij.mat(), {.options_prefix = "named_"});
    BOOST_TEST(solver.solver_default() == petsc::SolverDefault::krylov);
    BOOST_TEST(ksp_type_of(solver) == KSPBCGS);
    BOOST_TEST(pc_type_of(solver) == PCASM);
    BOOST_TEST(solver.solve(exported.b.vec(), exported.x.vec()).converged());
    BOOST_TEST(subdomain_pc_types(solver) == std::vector<std::string>{PCILU},
               boost::test_tools::per_element());
  }
  {
    const testing::ScopedOption pc_type("-jacobi_pc_type", "jacobi");
    petsc::LinearSolver solver(exported.aij.mat(), {.options_prefix = "jacobi_"});
    BOOST_TEST(solver.solver_default() == petsc::SolverDefault::krylov);
    BOOST_TEST(ksp_type_of(solver) == KSPGMRES);
    BOOST_TEST(pc_type_of(solver) == PCJACOBI);
  }
  {
    const testing::ScopedOption ksp_type("-preonly_ksp_type", "preonly");
    petsc::LinearSolver solver(exported.aij.mat(),
                               {.options_prefix = "preonly_", .direct_solve_limit = 0});
    BOOST_TEST(solver.solver_default() == petsc::SolverDefault::direct);
    BOOST_TEST(pc_type_of(solver) == PCLU);
  }
  {
    const testing::ScopedOption rtol("-loose_ksp_rtol", "1e-6");
    petsc::LinearSolver solver(exported.aij.mat(),
                               {.options_prefix = "loose_", .direct_solve_limit = 0});
    BOOST_TEST(solver.solver_default() == petsc::SolverDefault::krylov);
    PetscReal value = 0;
    POLYDG_PETSC_CALL(KSPGetTolerances(solver.ksp(), &value, nullptr, nullptr, nullptr));
    BOOST_TEST(value == 1e-6);
  }
  // A caller's KSP gets no defaults.
  KSP ksp = nullptr;
  POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
  BOOST_TEST(petsc::LinearSolver(ksp, {}).solver_default() == petsc::SolverDefault::none);
  POLYDG_PETSC_CALL(KSPDestroy(&ksp));
}

// A direct solve takes no initial guess (PETSc refuses one for KSPPREONLY): the flag is dropped
// and the solve goes through.
BOOST_AUTO_TEST_CASE(the_direct_default_drops_a_nonzero_initial_guess) {
  ExportedDgSystem exported = nonsymmetric_dg_system();
  petsc::copy_to_vec(testing::random_vector(exported.rows(), 3), exported.x.vec());
  petsc::SolverOptions options;
  options.nonzero_initial_guess = true;
  petsc::LinearSolver solver(exported.aij.mat(), options);
  BOOST_TEST(solver.solver_default() == petsc::SolverDefault::direct);
  PetscBool nonzero = PETSC_TRUE;
  POLYDG_PETSC_CALL(KSPGetInitialGuessNonzero(solver.ksp(), &nonzero));
  BOOST_TEST(nonzero == PETSC_FALSE);
  BOOST_TEST(solver.solve(exported.b.vec(), exported.x.vec()).converged());
  BOOST_TEST(exported.error_against_direct() <= exported.guaranteed_error());
}

// ---- Methods that need a symmetric operator --------------------------------------------------

// CG on a matrix known to be nonsymmetric (AijMatrix::update() found it so) warns, once per
// LinearSolver, naming the KSP type and the option to use instead.
BOOST_AUTO_TEST_CASE(cg_on_a_nonsymmetric_matrix_warns_once) {
  ExportedDgSystem exported = nonsymmetric_dg_system();
  const testing::ScopedOption ksp_type("-cg_ksp_type", "cg");
  const testing::ScopedOption max_it("-cg_ksp_max_it", "50");
  const testing::CapturedWarnings warnings;
  petsc::LinearSolver solver(
      exported.aij.mat(),
      {.options_prefix = "cg_", .on_divergence = petsc::DivergencePolicy::report});
  BOOST_TEST(warnings.messages.empty());  // the type is checked when the solve is set up
  solver.solve(exported.b.vec(), exported.x.vec());
  solver.solve(exported.b.vec(), exported.x.vec());
  BOOST_TEST_REQUIRE(warnings.messages.size() == 1u);
  BOOST_TEST_MESSAGE("warning: " << warnings.messages.front());
  BOOST_TEST(warnings.contain("KSP cg assumes a symmetric operator"));
  BOOST_TEST(warnings.contain("-cg_ksp_type gmres"));

  const testing::ScopedOption minres("-minres_ksp_type", "minres");
  const testing::ScopedOption minres_max_it("-minres_ksp_max_it", "50");
  petsc::LinearSolver other(exported.aij.mat(), {.options_prefix = "minres_",
                                                 .on_divergence = petsc::DivergencePolicy::report});
  other.solve(exported.b.vec(), exported.x.vec());
  BOOST_TEST(warnings.messages.size() == 2u);
  BOOST_TEST(warnings.contain("KSP minres assumes a symmetric operator"));
}

BOOST_AUTO_TEST_CASE(icc_on_a_nonsymmetric_matrix_warns) {
  ExportedDgSystem exported = nonsymmetric_dg_system();
  const testing::ScopedOption pc_type("-icc_pc_type", "icc");
  const testing::ScopedOption max_it("-icc_ksp_max_it", "50");
  const testing::CapturedWarnings warnings;
  petsc::LinearSolver solver(
      exported.aij.mat(),
      {.options_prefix = "icc_", .on_divergence = petsc::DivergencePolicy::report});
  try {
    solver.solve(exported.b.vec(), exported.x.vec());
  } catch (const Error& e) {  // the incomplete Cholesky factor may break down: not the point
    BOOST_TEST_MESSAGE("ICC failed: " << e.what());
  }
  BOOST_TEST_REQUIRE(warnings.messages.size() == 1u);
  BOOST_TEST_MESSAGE("warning: " << warnings.messages.front());
  BOOST_TEST(warnings.contain("PC icc"));
  BOOST_TEST(warnings.contain("-icc_pc_type ilu"));
}

// CG on the symmetric SIPG Poisson matrix, and on a shell (symmetry unknown), says nothing.
BOOST_AUTO_TEST_CASE(cg_on_a_symmetric_or_unknown_matrix_does_not_warn) {
  ExportedDgSystem exported(testing::poisson(testing::uniform_mesh(2)));
  const testing::ScopedOption ksp_type("-spd_ksp_type", "cg");
  const testing::CapturedWarnings warnings;
  petsc::LinearSolver solver(exported.aij.mat(), {.options_prefix = "spd_"});
  BOOST_TEST(solver.solve(exported.b.vec(), exported.x.vec()).converged());

  ExportedDgSystem nonsymmetric = nonsymmetric_dg_system();
  const DenseBlockMatrix<double> dense(nonsymmetric.system.matrix);
  const petsc::DenseBlockOperator op(dense);
  const petsc::ShellMatrix shell(op);
  const testing::ScopedOption max_it("-spd_ksp_max_it", "20");
  petsc::LinearSolver unknown(
      shell.mat(), {.options_prefix = "spd_", .on_divergence = petsc::DivergencePolicy::report});
  unknown.solve(nonsymmetric.b.vec(), nonsymmetric.x.vec());
  BOOST_TEST(warnings.messages.empty());
}
