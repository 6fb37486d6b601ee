#define BOOST_TEST_MODULE petsc_shell
// ShellMatrix over a DenseBlockOperator against the AIJ export of the same IP-DG matrices:
// (a) advection-diffusion on agglomerated polygons, (b) SIPG Poisson (SPD), (c) an hp mesh,
// (d) a space-time slab. Products, diagonal and inverted diagonal blocks agree entry for entry;
// KSP on the shell and on the AIJ take the same iterations to the same solution. (a)-(d) run on
// a perturbed square and, where POLYDG_TEST_MESH names one, on a 2D Gmsh mesh of the user's
// (shell_test_meshes; docs/user-guide.md).
#include <petscksp.h>

#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "max_relative_difference.hpp"
#include "petsc_test_support.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/dense_block_operator.hpp"
#include "polydg/petsc/linear_operator.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "shell_test_problems.hpp"
#include "without_cuda_only.hpp"

using namespace polydg;
using polydg::testing::error_names;

using PetscTestSession = testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

using testing::max_relative_difference;

using testing::advection_diffusion;
using testing::DgSystem;
using testing::hp_mesh;
using testing::KspOutcome;
using testing::poisson;
using testing::set_aij_blocks;
using testing::shell_test_meshes;
using testing::ShellTestMesh;
using testing::solve;
using testing::uniform_mesh;
using testing::values_of;

/// One matrix as a ShellMatrix over its dense block format and as an AijMatrix.
struct ShellAndAij {
  explicit ShellAndAij(const BlockMatrix<double>& matrix, const std::string& prefix = "")
      : dense(matrix), op(dense), shell(op, prefix), aij(matrix.pattern()) {
    aij.update(matrix);
  }
  GlobalIndex size() const { return dense.dof_count(); }

  DenseBlockMatrix<double> dense;
  petsc::DenseBlockOperator op;
  petsc::ShellMatrix shell;
  petsc::AijMatrix aij;
};

/// MatMult, MatMultTranspose, MatMultAdd (separate z and z = y) and MatGetDiagonal of the
/// shell equal those of the AIJ to 1e-13 relative.
void check_products(const ShellAndAij& matrices) {
  for (const testing::ProductComparison& product :
       testing::compare_products(matrices.shell.mat(), matrices.aij.mat(), matrices.size()))
    BOOST_TEST(product.difference < 1e-13, product.operation << ": " << product.difference);
}

/// KSP on the shell and on the AIJ: the same iterations, solutions within 1e-10 relative.
void check_same_solves(const ShellAndAij& matrices, const std::vector<double>& rhs,
                       const std::string& prefix, const std::string& expected_pc) {
  const KspOutcome shell = solve(matrices.shell.mat(), rhs, prefix);
  const KspOutcome aij = solve(matrices.aij.mat(), rhs, prefix);
  BOOST_TEST_MESSAGE(prefix << ": " << shell.iterations << " iterations (shell), " << aij.iterations
                            << " (AIJ), relative difference "
                            << max_relative_difference(shell.solution, aij.solution));
  BOOST_TEST(shell.pc_type == expected_pc);
  BOOST_TEST(aij.pc_type == expected_pc);
  BOOST_TEST(shell.iterations > 1);
  BOOST_TEST(shell.iterations == aij.iterations);
  BOOST_TEST(max_relative_difference(shell.solution, aij.solution) < 1e-10);
}

/// Wraps an operator and throws from the operations chosen, as a failing device kernel would.
class FailingOperator final : public petsc::LinearOperator {
 public:
  explicit FailingOperator(const petsc::LinearOperator& inner) : inner_(inner) {}
  bool fail_products = true;
  bool fail_inversion = false;
  mutable int inversions = 0;  ///< calls of inverted_block_diagonal()

  const BlockPattern& pattern() const override { return inner_.pattern(); }
  petsc::MemorySpace memory() const override { return inner_.memory(); }
  void multiply(const double* x, double* y) const override {
    if (fail_products) raise("FailingOperator: multiply failed on purpose");
    inner_.multiply(x, y);
  }
  void multiply_transpose(const double* x, double* y) const override {
    if (fail_products) raise("FailingOperator: multiply_transpose failed on purpose");
    inner_.multiply_transpose(x, y);
  }
  void multiply_add(const double* x, const double* z, double* y) const override {
    if (fail_products) raise("FailingOperator: multiply_add failed on purpose");
    inner_.multiply_add(x, z, y);
  }
  void diagonal(double* d) const override { inner_.diagonal(d); }
  std::vector<double> inverted_block_diagonal(Index block_rows) const override {
    ++inversions;
    if (fail_inversion) raise("FailingOperator: block 7 is singular (on purpose)");
    return inner_.inverted_block_diagonal(block_rows);
  }

 private:
  const petsc::LinearOperator& inner_;
};

/// A host operator that claims to want device memory: every product must stage through
/// polydg::device, which a build without CUDA refuses.
class DeviceClaimingOperator final : public petsc::LinearOperator {
 public:
  explicit DeviceClaimingOperator(const petsc::LinearOperator& inner) : inner_(inner) {}
  const BlockPattern& pattern() const override { return inner_.pattern(); }
  petsc::MemorySpace memory() const override { return petsc::MemorySpace::device; }
  void multiply(const double* x, double* y) const override { inner_.multiply(x, y); }
  void multiply_transpose(const double* x, double* y) const override {
    inner_.multiply_transpose(x, y);
  }
  void multiply_add(const double* x, const double* z, double* y) const override {
    inner_.multiply_add(x, z, y);
  }
  void diagonal(double* d) const override { inner_.diagonal(d); }
  std::vector<double> inverted_block_diagonal(Index block_rows) const override {
    return inner_.inverted_block_diagonal(block_rows);
  }

 private:
  const petsc::LinearOperator& inner_;
};

}  // namespace

BOOST_AUTO_TEST_CASE(products_and_diagonal_equal_the_aij_export) {
  for (const ShellTestMesh& mesh : shell_test_meshes())
    for (const DgSystem& system : testing::product_test_systems(mesh)) {
      BOOST_TEST_CONTEXT("mesh " << mesh.name) {
        const ShellAndAij matrices(system.matrix);
        PetscInt rows = 0, columns = 0;
        POLYDG_PETSC_CALL(MatGetSize(matrices.shell.mat(), &rows, &columns));
        BOOST_TEST(GlobalIndex(rows) == matrices.size());
        BOOST_TEST(GlobalIndex(columns) == matrices.size());
        BOOST_TEST(matrices.shell.row_count() == matrices.size());
        check_products(matrices);
      }
    }
}

BOOST_AUTO_TEST_CASE(block_sizes_are_the_elements) {
  const ShellAndAij uniform(advection_diffusion(uniform_mesh(2)).matrix);
  PetscInt block_size = 0;
  POLYDG_PETSC_CALL(MatGetBlockSize(uniform.shell.mat(), &block_size));
  BOOST_TEST(block_size == 6);

  const ShellAndAij hp(advection_diffusion(hp_mesh()).matrix);
  POLYDG_PETSC_CALL(MatGetBlockSize(hp.shell.mat(), &block_size));
  BOOST_TEST(block_size == 1);
  PetscInt block_count = 0;
  const PetscInt* sizes = nullptr;
  POLYDG_PETSC_CALL(MatGetVariableBlockSizes(hp.shell.mat(), &block_count, &sizes));
  const BlockPattern& pattern = hp.dense.pattern();
  BOOST_TEST(block_count == PetscInt(pattern.block_row_count()));
  for (Index e = 0; e < pattern.block_row_count(); ++e)
    BOOST_TEST(sizes[e] == PetscInt(pattern.block_size(e)), "element " << e);
}

// The layout check: PETSc's own AIJ inversion defines what PCPBJACOBI / PCVPBJACOBI read.
BOOST_AUTO_TEST_CASE(inverted_blocks_have_the_layout_of_petscs_aij_inversion) {
  {
    const ShellAndAij matrices(advection_diffusion(uniform_mesh(2)).matrix);
    set_aij_blocks(matrices.aij.mat(), matrices.dense.pattern());
    const PetscScalar* shell_blocks = nullptr;
    const PetscScalar* aij_blocks = nullptr;
    POLYDG_PETSC_CALL(MatInvertBlockDiagonal(matrices.shell.mat(), &shell_blocks));
    POLYDG_PETSC_CALL(MatInvertBlockDiagonal(matrices.aij.mat(), &aij_blocks));
    const std::size_t count = std::size_t(matrices.size()) * 6;
    const std::vector<double> shell_values(shell_blocks, shell_blocks + count);
    const std::vector<double> aij_values(aij_blocks, aij_blocks + count);
    BOOST_TEST(max_relative_difference(shell_values, aij_values) < 1e-10);
  }
  {
    const ShellAndAij matrices(advection_diffusion(hp_mesh()).matrix);
    const BlockPattern& pattern = matrices.dense.pattern();
    std::vector<PetscInt> sizes(pattern.block_row_count());
    std::size_t count = 0;
    for (Index e = 0; e < pattern.block_row_count(); ++e) {
      sizes[e] = pattern.block_size(e);
      count += std::size_t(sizes[e] * sizes[e]);
    }
    std::vector<PetscScalar> shell_values(count), aij_values(count);
    POLYDG_PETSC_CALL(MatInvertVariableBlockDiagonal(matrices.shell.mat(), PetscInt(sizes.size()),
                                                     sizes.data(), shell_values.data()));
    POLYDG_PETSC_CALL(MatInvertVariableBlockDiagonal(matrices.aij.mat(), PetscInt(sizes.size()),
                                                     sizes.data(), aij_values.data()));
    BOOST_TEST(max_relative_difference(shell_values, aij_values) < 1e-10);
    // Block sizes other than the elements' are refused, as a PETSc error.
    sizes[0] += 1;
    sizes[1] -= 1;
    BOOST_CHECK_EXCEPTION(
        POLYDG_PETSC_CALL(MatInvertVariableBlockDiagonal(
            matrices.shell.mat(), PetscInt(sizes.size()), sizes.data(), shell_values.data())),
        Error, [](const Error& e) {
          BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
          return contains(e.what(), "MatInvertVariableBlockDiagonal asked for block 0");
        });
  }
}

// Iteration counts are compared exactly, so the solves stop well above the level where rounding
// decides (rtol 1e-9; these systems stagnate near 1e-13), and GMRES orthogonalizes with
// refinement: classical Gram-Schmidt alone loses orthogonality within the hundreds of iterations
// these small ill-conditioned systems take, and then the last-bit differences between two
// correct products (shell and AIJ sum in different orders) change the count.
BOOST_AUTO_TEST_CASE(gmres_jacobi_on_advection_diffusion_matches_aij) {
  std::vector<std::unique_ptr<testing::ScopedOption>> options;
  testing::gmres_options(options, "adr_", "jacobi");
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    BOOST_TEST_CONTEXT("mesh " << mesh.name) {
      const DgSystem system = advection_diffusion(uniform_mesh(mesh, 2));
      const ShellAndAij matrices(system.matrix);
      check_same_solves(matrices, system.rhs, "adr_", PCJACOBI);
    }
  }
}

BOOST_AUTO_TEST_CASE(cg_pbjacobi_on_poisson_matches_aij) {
  const testing::ScopedOption ksp_type("-spd_ksp_type", "cg");
  const testing::ScopedOption pc_type("-spd_pc_type", "pbjacobi");
  const testing::ScopedOption rtol("-spd_ksp_rtol", "1e-9");
  const testing::ScopedOption max_it("-spd_ksp_max_it", "2000");
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    BOOST_TEST_CONTEXT("mesh " << mesh.name) {
      const DgSystem system = poisson(uniform_mesh(mesh, 2));
      const ShellAndAij matrices(system.matrix);
      set_aij_blocks(matrices.aij.mat(), system.matrix.pattern());
      check_same_solves(matrices, system.rhs, "spd_", PCPBJACOBI);
    }
  }
}

BOOST_AUTO_TEST_CASE(gmres_pbjacobi_on_advection_diffusion_matches_aij) {
  // Non-symmetric diagonal blocks: a transposed inverse would change the iterations.
  std::vector<std::unique_ptr<testing::ScopedOption>> options;
  testing::gmres_options(options, "adrpb_", "pbjacobi");
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    BOOST_TEST_CONTEXT("mesh " << mesh.name) {
      const DgSystem system = advection_diffusion(uniform_mesh(mesh, 2));
      const ShellAndAij matrices(system.matrix);
      set_aij_blocks(matrices.aij.mat(), system.matrix.pattern());
      check_same_solves(matrices, system.rhs, "adrpb_", PCPBJACOBI);
    }
  }
}

BOOST_AUTO_TEST_CASE(gmres_vpbjacobi_on_hp_mesh_matches_aij) {
  std::vector<std::unique_ptr<testing::ScopedOption>> options;
  testing::gmres_options(options, "hp_", "vpbjacobi");
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    BOOST_TEST_CONTEXT("mesh " << mesh.name) {
      const DgSystem system = advection_diffusion(hp_mesh(mesh));
      const ShellAndAij matrices(system.matrix);
      set_aij_blocks(matrices.aij.mat(), system.matrix.pattern());
      check_same_solves(matrices, system.rhs, "hp_", PCVPBJACOBI);
    }
  }
}

// The shell for the products, its AIJ export for the preconditioner: any PETSc preconditioner
// (here ILU, which a MATSHELL alone cannot give), the same iterations and solution as with the
// AIJ for both. The shell alone is refused by ILU with PETSc's message; a preconditioning matrix
// of another size is refused naming both sizes.
BOOST_AUTO_TEST_CASE(shell_products_with_the_aij_as_preconditioning_matrix_take_ilu) {
  std::vector<std::unique_ptr<testing::ScopedOption>> options;
  testing::gmres_options(options, "ilu_", "ilu");
  const DgSystem system = advection_diffusion(uniform_mesh(2));
  const ShellAndAij matrices(system.matrix);
  const KspOutcome split = solve(matrices.shell.mat(), system.rhs, "ilu_", matrices.aij.mat());
  const KspOutcome aij = solve(matrices.aij.mat(), system.rhs, "ilu_");
  BOOST_TEST_MESSAGE("ILU: " << split.iterations << " iterations (shell + AIJ), " << aij.iterations
                             << " (AIJ), relative difference "
                             << max_relative_difference(split.solution, aij.solution));
  BOOST_TEST(split.pc_type == std::string(PCILU));
  BOOST_TEST(split.iterations > 1);
  BOOST_TEST(split.iterations == aij.iterations);
  BOOST_TEST(max_relative_difference(split.solution, aij.solution) < 1e-10);

  // The KSP's products go to the shell: with a shell that throws, the solve fails.
  const petsc::DenseBlockOperator op(matrices.dense);
  FailingOperator failing(op);
  const petsc::ShellMatrix failing_shell(failing);
  BOOST_CHECK_EXCEPTION(solve(failing_shell.mat(), system.rhs, "ilu_", matrices.aij.mat()), Error,
                        [](const Error& e) { return contains(e.what(), "multiply failed"); });

  BOOST_CHECK_EXCEPTION(solve(matrices.shell.mat(), system.rhs, "ilu_"), Error, [](const Error& e) {
    BOOST_TEST_MESSAGE("the shell alone with ILU: " << e.what());
    return contains(e.what(), "shell");
  });
  const DgSystem other = advection_diffusion(uniform_mesh(1));
  const ShellAndAij smaller(other.matrix);
  BOOST_CHECK_EXCEPTION(
      petsc::LinearSolver(matrices.shell.mat(), smaller.aij.mat()), Error, [&](const Error& e) {
        BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
        const std::string n = std::to_string(matrices.size());
        const std::string m = std::to_string(smaller.size());
        return contains(e.what(), "the matrix is " + n + " x " + n +
                                      " but the preconditioning matrix is " + m + " x " + m);
      });
}

BOOST_AUTO_TEST_CASE(options_database_reaches_the_shell_and_its_ksp) {
  const testing::ScopedOption ksp_type("-opt_ksp_type", "cg");
  const testing::ScopedOption pc_type("-opt_pc_type", "pbjacobi");
  const DgSystem system = poisson(uniform_mesh(2));
  const ShellAndAij matrices(system.matrix, "opt_");
  const char* prefix = nullptr;
  POLYDG_PETSC_CALL(MatGetOptionsPrefix(matrices.shell.mat(), &prefix));
  BOOST_TEST(std::string(prefix) == "opt_");

  petsc::Vector b(matrices.size()), x(matrices.size());
  petsc::copy_to_vec(system.rhs, b.vec());
  petsc::LinearSolver solver(matrices.shell.mat(), {.options_prefix = "opt_"});
  KSPType type = nullptr;
  POLYDG_PETSC_CALL(KSPGetType(solver.ksp(), &type));
  BOOST_TEST(std::string(type) == KSPCG);
  const petsc::SolveResult result = solver.solve(b.vec(), x.vec());
  BOOST_TEST(result.converged());
  PC pc = nullptr;
  PCType preconditioner = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(solver.ksp(), &pc));
  POLYDG_PETSC_CALL(PCGetType(pc, &preconditioner));
  BOOST_TEST(std::string(preconditioner) == PCPBJACOBI);

  // A -mat_type that would turn the shell into something else is refused.
  const testing::ScopedOption mat_type("-bad_mat_type", "aij");
  const petsc::DenseBlockOperator op(matrices.dense);
  BOOST_CHECK_EXCEPTION(petsc::ShellMatrix(op, "bad_"), Error, [](const Error& e) {
    BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
    return contains(e.what(), "-bad_mat_type changed the type of the MATSHELL");
  });
}

BOOST_AUTO_TEST_CASE(operator_errors_become_polydg_errors_at_the_call_site) {
  const DgSystem system = advection_diffusion(uniform_mesh(1));
  const DenseBlockMatrix<double> dense(system.matrix);
  const petsc::DenseBlockOperator inner(dense);
  FailingOperator failing(inner);
  const petsc::ShellMatrix shell(failing);
  const GlobalIndex n = dense.dof_count();
  petsc::Vector x(n), y(n);
  petsc::copy_to_vec(testing::random_vector(n, 5), x.vec());

  BOOST_CHECK_EXCEPTION(POLYDG_PETSC_CALL(MatMult(shell.mat(), x.vec(), y.vec())), Error,
                        [](const Error& e) {
                          BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
                          return contains(e.what(), "in MatMult(") &&
                                 contains(e.what(), "FailingOperator: multiply failed on purpose");
                        });
  BOOST_CHECK_EXCEPTION(
      POLYDG_PETSC_CALL(MatMultAdd(shell.mat(), x.vec(), y.vec(), y.vec())), Error,
      [](const Error& e) { return contains(e.what(), "multiply_add failed on purpose"); });
  {
    const testing::ScopedOption ksp_type("-failing_ksp_type", "gmres");
    const testing::ScopedOption pc_type("-failing_pc_type", "jacobi");
    petsc::LinearSolver solver(shell.mat(), {.options_prefix = "failing_"});
    BOOST_CHECK_EXCEPTION(solver.solve(x.vec(), y.vec()), Error, [](const Error& e) {
      BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
      return contains(e.what(), "in KSPSolve(") && contains(e.what(), "failed on purpose");
    });
  }

  // The failed products gave their arrays back: the same vectors work afterwards.
  failing.fail_products = false;
  POLYDG_PETSC_CALL(MatMult(shell.mat(), x.vec(), y.vec()));
  std::vector<double> expected(n);
  dense.multiply(values_of(x.vec(), n), expected);
  BOOST_TEST(max_relative_difference(values_of(y.vec(), n), expected) < 1e-15);

  // A failure while PCPBJACOBI sets up (a singular block) reaches KSPSolve's caller too.
  failing.fail_inversion = true;
  const testing::ScopedOption pc_type("-singular_pc_type", "pbjacobi");
  petsc::LinearSolver solver(shell.mat(), {.options_prefix = "singular_"});
  BOOST_CHECK_EXCEPTION(solver.solve(x.vec(), y.vec()), Error, [](const Error& e) {
    BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
    return contains(e.what(), "block 7 is singular");
  });
}

BOOST_AUTO_TEST_CASE(host_vectors_for_a_device_operator_need_cuda,
                     *testing::without_cuda_only("staging is covered by test_cuda_petsc_shell")) {
  const DgSystem system = advection_diffusion(uniform_mesh(1));
  const DenseBlockMatrix<double> dense(system.matrix);
  const petsc::DenseBlockOperator inner(dense);
  const DeviceClaimingOperator device_operator(inner);
  const petsc::ShellMatrix shell(device_operator);
  petsc::Vector x(dense.dof_count()), y(dense.dof_count());
  BOOST_CHECK_EXCEPTION(POLYDG_PETSC_CALL(MatMult(shell.mat(), x.vec(), y.vec())), Error,
                        [](const Error& e) {
                          BOOST_TEST_MESSAGE("polydg::Error: " << e.what());
                          return contains(e.what(), "built without CUDA");
                        });
  // The diagonal is computed in host memory: a host Vec needs no device.
  POLYDG_PETSC_CALL(MatGetDiagonal(shell.mat(), y.vec()));
  std::vector<double> expected(dense.dof_count());
  dense.diagonal(expected);
  BOOST_TEST(max_relative_difference(values_of(y.vec(), dense.dof_count()), expected) == 0.0);
}

BOOST_AUTO_TEST_CASE(values_changed_makes_the_ksp_set_up_again) {
  const testing::ScopedOption ksp_type("-again_ksp_type", "cg");
  const testing::ScopedOption pc_type("-again_pc_type", "pbjacobi");
  const DgSystem system = poisson(uniform_mesh(2));
  DenseBlockMatrix<double> dense(system.matrix);
  const petsc::DenseBlockOperator inner(dense);
  FailingOperator counting(inner);
  counting.fail_products = false;
  petsc::ShellMatrix shell(counting);
  petsc::Vector b(dense.dof_count()), x(dense.dof_count());
  petsc::copy_to_vec(system.rhs, b.vec());
  petsc::LinearSolver solver(shell.mat(), {.options_prefix = "again_"});
  solver.solve(b.vec(), x.vec());
  const std::vector<double> first = values_of(x.vec(), dense.dof_count());
  BOOST_TEST(counting.inversions == 1);
  solver.solve(b.vec(), x.vec());  // nothing changed: the preconditioner is kept
  BOOST_TEST(counting.inversions == 1);

  BlockMatrix<double> doubled = system.matrix;
  for (double& v : doubled.values()) v *= 2;
  dense.update_values(doubled);
  shell.values_changed();
  solver.solve(b.vec(), x.vec());
  BOOST_TEST(counting.inversions == 2);
  std::vector<double> halved = first;
  for (double& v : halved) v /= 2;
  BOOST_TEST(max_relative_difference(values_of(x.vec(), dense.dof_count()), halved) < 1e-6);
}

BOOST_AUTO_TEST_CASE(shell_matrix_is_move_only_and_a_ksp_reference_keeps_it_alive) {
  const DgSystem system = poisson(uniform_mesh(1));
  const DenseBlockMatrix<double> dense(system.matrix);
  const petsc::DenseBlockOperator op(dense);
  petsc::ShellMatrix first(op);
  const Mat mat = first.mat();
  petsc::ShellMatrix second(std::move(first));
  BOOST_TEST(first.mat() == nullptr);
  BOOST_TEST(second.mat() == mat);
  petsc::ShellMatrix third;
  third = std::move(second);
  BOOST_TEST(third.mat() == mat);
  BOOST_TEST(third.row_count() == dense.dof_count());
  BOOST_TEST(error_names([&] { second.values_changed(); },
                         {"polydg::petsc::ShellMatrix::values_changed: the ShellMatrix is empty"}));

  // A KSP holding the Mat keeps it (and the buffers it owns) alive after the ShellMatrix.
  KSP ksp = nullptr;
  POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
  POLYDG_PETSC_CALL(KSPSetOperators(ksp, third.mat(), third.mat()));
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  POLYDG_PETSC_CALL(PCSetType(pc, PCJACOBI));
  third = petsc::ShellMatrix();
  petsc::Vector b(dense.dof_count()), x(dense.dof_count());
  petsc::copy_to_vec(system.rhs, b.vec());
  POLYDG_PETSC_CALL(KSPSolve(ksp, b.vec(), x.vec()));
  POLYDG_PETSC_CALL(KSPDestroy(&ksp));
}

// (d) One space-time slab (2D + 1, heat equation with advection): the SlabSolver's AIJ solve
// and a solve of the same system through the shell give the same solution and error at t_1.
BOOST_AUTO_TEST_CASE(space_time_slab_through_the_shell_matches_aij) {
  std::vector<std::unique_ptr<testing::ScopedOption>> options;
  testing::gmres_options(options, "slab_", "jacobi");
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    BOOST_TEST_CONTEXT("mesh " << mesh.name) {
      const testing::SlabStepThroughAij aij = testing::slab_step_through_aij("slab_", mesh);
      const ShellAndAij matrices(aij.solver->matrix());
      const KspOutcome shell = solve(matrices.shell.mat(), aij.rhs(), "slab_");
      BOOST_TEST_MESSAGE(mesh.name << ", slab: " << shell.iterations << " iterations (shell), "
                                   << aij.step.iterations << " (AIJ), relative difference "
                                   << max_relative_difference(shell.solution, aij.solution));
      BOOST_TEST(shell.iterations == aij.step.iterations);
      BOOST_TEST(max_relative_difference(shell.solution, aij.solution) < 1e-10);

      const double aij_error = aij.error_at_top(aij.solution);
      const double shell_error = aij.error_at_top(shell.solution);
      BOOST_TEST_MESSAGE("error at t = 0.1: " << aij_error << " (AIJ), " << shell_error
                                              << " (shell)");
      BOOST_TEST(std::abs(shell_error - aij_error) <= 1e-10 * aij_error);
    }
  }
}
