#define BOOST_TEST_MODULE petsc_solver
#include <petscksp.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "petsc_test_support.hpp"
#include "polydg/core/error.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"

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
