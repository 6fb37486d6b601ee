// ShellMatrix over a DeviceDenseBlockOperator (the products on the GPU, host PETSc Vecs staged
// through pinned buffers) against the AIJ export of the same IP-DG matrices:
//   (a) advection-diffusion on agglomerated polygons, (b) SIPG Poisson (SPD), (c) an hp mesh
//   (block sizes 3, 6, 10), (d) a space-time slab (2D + 1).
// MatMult, MatMultTranspose, MatMultAdd (z ≠ y and z = y) and MatGetDiagonal equal the AIJ's to
// 1e-13 relative; the device diagonal and diagonal blocks equal the CPU DenseBlockMatrix's bit
// for bit, and the inverted blocks equal PETSc's AIJ inversion; KSP through the GPU shell and
// through the AIJ take the same iterations to the same solution (1e-10) for GMRES + Jacobi,
// CG + PBJacobi, GMRES + PBJacobi and GMRES + VPBJacobi (hp); after update_values() on the
// device matrix and values_changed(), the next solve uses the new values; KSP and PC types come
// from the options database under a prefix; AijMatrix::update_from_device gives update()'s
// values from device memory. Products, KSP and the slab also run on the user's 2D Gmsh mesh
// where POLYDG_TEST_MESH names one (shell_test_meshes; docs/user-guide.md). Exits 77 (ctest:
// Skipped) when no CUDA device is present.
//
//   build/bin/tests/test_cuda_petsc_shell [Boost.Test options] -- [PETSc options, e.g.
//   -ksp_monitor]
#define BOOST_TEST_MODULE cuda_petsc_shell
#include "gpu_test_main.hpp"
// (first: petsc_test_support.hpp includes Boost.Test, which would define a main)
#include <petscksp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "max_relative_difference.hpp"
#include "petsc_test_support.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/device_dense_block_operator.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"
#include "shell_test_problems.hpp"

using namespace polydg;

namespace {

using testing::advection_diffusion;
using testing::DgSystem;
using testing::hp_mesh;
using testing::KspOutcome;
using testing::max_relative_difference;
using testing::poisson;
using testing::set_aij_blocks;
using testing::shell_test_meshes;
using testing::ShellTestMesh;
using testing::solve;
using testing::uniform_mesh;
using testing::values_of;

using PetscTestSession = testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

/// One matrix as a ShellMatrix over its dense block format on the GPU and as an AijMatrix.
/// Not movable: the operator and the shell refer to the members before them.
struct GpuShellAndAij {
  explicit GpuShellAndAij(const BlockMatrix<double>& matrix, const std::string& prefix = "")
      : host(matrix),
        gpu(host),
        op(gpu, matrix.shared_pattern()),
        shell(op, prefix),
        aij(matrix.pattern()) {
    aij.update(matrix);
  }
  GpuShellAndAij(const GpuShellAndAij&) = delete;
  GpuShellAndAij& operator=(const GpuShellAndAij&) = delete;
  GlobalIndex size() const { return host.dof_count(); }

  DenseBlockMatrix<double> host;
  DeviceDenseBlockMatrix<double> gpu;
  petsc::DeviceDenseBlockOperator op;
  petsc::ShellMatrix shell;
  petsc::AijMatrix aij;
};

void check_close(const std::string& what, double difference, double tolerance) {
  BOOST_TEST_MESSAGE("  " << what << " " << difference << " (≤ " << tolerance << ")");
  BOOST_TEST(difference <= tolerance, what);
}

/// The GPU shell's products and diagonal against the AIJ's; the device diagonal and diagonal
/// blocks against the CPU DenseBlockMatrix; the inverted blocks against PETSc's AIJ inversion.
void check_products(const GpuShellAndAij& m, const BlockMatrix<double>& matrix) {
  const GlobalIndex n = m.size();
  const Mat shell = m.shell.mat(), aij = m.aij.mat();
  const std::vector<testing::ProductComparison> products = testing::compare_products(shell, aij, n);
  for (const testing::ProductComparison& product : products)
    check_close(product.operation, product.difference, 1e-13);
  // Again with the buffers already allocated: the same bits.
  petsc::Vector x(n), y(n);
  petsc::copy_to_vec(testing::random_vector(n, 21), x.vec());
  POLYDG_PETSC_CALL(MatMult(shell, x.vec(), y.vec()));
  BOOST_TEST(testing::same_bits(values_of(y.vec(), n), products.front().shell_result));

  std::vector<double> host_diagonal(static_cast<std::size_t>(n));
  m.host.diagonal(host_diagonal);
  BOOST_TEST(testing::same_bits(products.back().shell_result, host_diagonal));

  // The diagonal blocks gathered on the device are the BlockMatrix's A_ee (row-major, element
  // after element) bit for bit, so the inverses (the same host code on the same values) equal
  // the CPU DenseBlockMatrix's bit for bit too.
  const BlockPattern& pattern = matrix.pattern();
  std::vector<double> expected_blocks;
  std::vector<PetscInt> sizes(static_cast<std::size_t>(pattern.block_row_count()));
  for (Index e = 0; e < pattern.block_row_count(); ++e) {
    sizes[e] = pattern.block_size(e);
    const std::span<const double> block = matrix.block_values(pattern.diagonal_block(e));
    expected_blocks.insert(expected_blocks.end(), block.begin(), block.end());
  }
  device::DeviceBuffer<double> blocks(static_cast<std::size_t>(m.gpu.diagonal_block_value_count()));
  m.gpu.diagonal_blocks(blocks.data());
  BOOST_TEST(testing::same_bits(blocks.to_host(), expected_blocks));
  BOOST_TEST(testing::same_bits(m.op.inverted_block_diagonal(m.host.pattern().block_row_count()),
                                m.host.inverted_block_diagonal()));

  std::size_t count = 0;
  for (const PetscInt size : sizes) count += std::size_t(size * size);
  std::vector<PetscScalar> shell_inverse(count), aij_inverse(count);
  set_aij_blocks(aij, pattern);
  POLYDG_PETSC_CALL(MatInvertVariableBlockDiagonal(shell, PetscInt(sizes.size()), sizes.data(),
                                                   shell_inverse.data()));
  POLYDG_PETSC_CALL(MatInvertVariableBlockDiagonal(aij, PetscInt(sizes.size()), sizes.data(),
                                                   aij_inverse.data()));
  check_close("MatInvertVariableBlockDiagonal", max_relative_difference(shell_inverse, aij_inverse),
              1e-10);
}

/// KSP on the GPU shell and on the AIJ: the same iterations, solutions within 1e-10 relative.
void check_same_solves(const GpuShellAndAij& m, const std::vector<double>& rhs,
                       const std::string& prefix, const std::string& expected_ksp,
                       const std::string& expected_pc) {
  const KspOutcome shell = solve(m.shell.mat(), rhs, prefix);
  const KspOutcome aij = solve(m.aij.mat(), rhs, prefix);
  const double difference = max_relative_difference(shell.solution, aij.solution);
  BOOST_TEST_MESSAGE("  " << prefix << shell.ksp_type << " + " << shell.pc_type << ": "
                          << shell.iterations << " iterations (GPU shell), " << aij.iterations
                          << " (AIJ), relative difference " << difference);
  BOOST_TEST_INFO_SCOPE(prefix << shell.ksp_type << " + " << shell.pc_type);
  BOOST_TEST(shell.ksp_type == expected_ksp);
  BOOST_TEST(shell.pc_type == expected_pc);
  BOOST_TEST(aij.pc_type == expected_pc);
  BOOST_TEST(shell.iterations > 1);
  BOOST_TEST(shell.iterations == aij.iterations);
  BOOST_TEST(difference < 1e-10);
}

}  // namespace

BOOST_AUTO_TEST_CASE(products_and_diagonal) {
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    BOOST_TEST_MESSAGE("products, diagonal and diagonal blocks (GPU shell vs AIJ), " << mesh.name
                                                                                     << ":");
    BOOST_TEST_INFO_SCOPE(mesh.name);
    // product_test_systems' order
    const char* const names[] = {"advection-diffusion P_2", "Poisson P_3",
                                 "advection-diffusion hp"};
    int k = 0;
    for (const DgSystem& system : testing::product_test_systems(mesh)) {
      BOOST_TEST_INFO_SCOPE(names[k++ % 3]);
      const GpuShellAndAij m(system.matrix);
      PetscInt rows = 0, columns = 0;
      POLYDG_PETSC_CALL(MatGetSize(m.shell.mat(), &rows, &columns));
      BOOST_TEST(GlobalIndex(rows) == m.size());
      BOOST_TEST(GlobalIndex(columns) == m.size());
      check_products(m, system.matrix);
    }
  }
}

BOOST_AUTO_TEST_CASE(krylov_solves) {
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    BOOST_TEST_MESSAGE("KSP through the GPU shell vs through AIJ, " << mesh.name << ":");
    BOOST_TEST_INFO_SCOPE(mesh.name);
    {
      std::vector<std::unique_ptr<testing::ScopedOption>> options;
      testing::gmres_options(options, "gadr_", "jacobi");
      const DgSystem system = advection_diffusion(uniform_mesh(mesh, 2));
      const GpuShellAndAij m(system.matrix);
      check_same_solves(m, system.rhs, "gadr_", KSPGMRES, PCJACOBI);
    }
    {
      const testing::ScopedOption ksp_type("-gspd_ksp_type", "cg");
      const testing::ScopedOption pc_type("-gspd_pc_type", "pbjacobi");
      const testing::ScopedOption rtol("-gspd_ksp_rtol", "1e-9");
      const testing::ScopedOption max_it("-gspd_ksp_max_it", "2000");
      const DgSystem system = poisson(uniform_mesh(mesh, 2));
      const GpuShellAndAij m(system.matrix);
      set_aij_blocks(m.aij.mat(), system.matrix.pattern());
      check_same_solves(m, system.rhs, "gspd_", KSPCG, PCPBJACOBI);
    }
    {
      // Non-symmetric diagonal blocks: a transposed inverse would change the iterations.
      std::vector<std::unique_ptr<testing::ScopedOption>> options;
      testing::gmres_options(options, "gadrpb_", "pbjacobi");
      const DgSystem system = advection_diffusion(uniform_mesh(mesh, 2));
      const GpuShellAndAij m(system.matrix);
      set_aij_blocks(m.aij.mat(), system.matrix.pattern());
      check_same_solves(m, system.rhs, "gadrpb_", KSPGMRES, PCPBJACOBI);
    }
    {
      std::vector<std::unique_ptr<testing::ScopedOption>> options;
      testing::gmres_options(options, "ghp_", "vpbjacobi");
      const DgSystem system = advection_diffusion(hp_mesh(mesh));
      const GpuShellAndAij m(system.matrix);
      set_aij_blocks(m.aij.mat(), system.matrix.pattern());
      check_same_solves(m, system.rhs, "ghp_", KSPGMRES, PCVPBJACOBI);
    }
  }
}

/// New values through DeviceDenseBlockMatrix::update_values() (from BlockMatrix values in
/// device memory, as after a GPU re-assembly) + values_changed(): the next solve of the same
/// KSP uses them, preconditioner included, and matches the AIJ of the new matrix.
BOOST_AUTO_TEST_CASE(update_values_reach_the_next_solve) {
  BOOST_TEST_MESSAGE("update_values + values_changed:");
  const testing::ScopedOption ksp_type("-gagain_ksp_type", "cg");
  const testing::ScopedOption pc_type("-gagain_pc_type", "pbjacobi");
  const testing::ScopedOption rtol("-gagain_ksp_rtol", "1e-9");
  const testing::ScopedOption max_it("-gagain_ksp_max_it", "2000");
  const DgSystem system = poisson(uniform_mesh(2));
  DenseBlockMatrix<double> host(system.matrix);
  DeviceDenseBlockMatrix<double> gpu(host);
  const petsc::DeviceDenseBlockOperator op(gpu, system.matrix.shared_pattern());
  petsc::ShellMatrix shell(op);
  const GlobalIndex n = host.dof_count();
  petsc::Vector b(n), x(n);
  petsc::copy_to_vec(system.rhs, b.vec());
  petsc::LinearSolver solver(shell.mat(), {.options_prefix = "gagain_"});
  const PetscInt first_iterations = solver.solve(b.vec(), x.vec()).iterations;
  const std::vector<double> first = values_of(x.vec(), n);

  // A' = A + D with D a varying positive diagonal (still SPD, and not a multiple of A: the
  // preconditioned system and the iterations change).
  BlockMatrix<double> changed = system.matrix;
  const BlockPattern& pattern = changed.pattern();
  for (Index e = 0; e < pattern.block_row_count(); ++e) {
    const std::span<double> block = changed.block_values(pattern.diagonal_block(e));
    const Index size = pattern.block_size(e);
    for (Index i = 0; i < size; ++i) block[std::size_t(i) * size + i] += 50.0 * (1 + e % 5);
  }
  const device::DeviceBuffer<double> new_values{std::span<const double>(changed.values())};
  gpu.update_values(new_values.data());
  shell.values_changed();
  const PetscInt second_iterations = solver.solve(b.vec(), x.vec()).iterations;
  const std::vector<double> second = values_of(x.vec(), n);

  petsc::AijMatrix aij(pattern);
  aij.update(changed);
  set_aij_blocks(aij.mat(), pattern);
  const KspOutcome reference = solve(aij.mat(), system.rhs, "gagain_");
  const double difference = max_relative_difference(second, reference.solution);
  BOOST_TEST_MESSAGE("  before: " << first_iterations << " iterations; after: " << second_iterations
                                  << " (GPU shell), " << reference.iterations
                                  << " (AIJ of the new matrix), relative difference "
                                  << difference);
  BOOST_TEST(second_iterations == reference.iterations);
  BOOST_TEST(difference < 1e-10);
  BOOST_TEST(max_relative_difference(first, second) > 1e-3);  // it did change
}

/// -[prefix]ksp_type / -[prefix]pc_type set with PetscOptionsSetValue() reach the KSP of the GPU
/// shell, and -[prefix]mat_type aij is refused.
BOOST_AUTO_TEST_CASE(options_database) {
  BOOST_TEST_MESSAGE("options database:");
  const testing::ScopedOption ksp_type("-gopt_ksp_type", "cg");
  const testing::ScopedOption pc_type("-gopt_pc_type", "pbjacobi");
  const DgSystem system = poisson(uniform_mesh(2));
  const GpuShellAndAij m(system.matrix, "gopt_");
  const char* prefix = nullptr;
  POLYDG_PETSC_CALL(MatGetOptionsPrefix(m.shell.mat(), &prefix));
  BOOST_TEST((prefix != nullptr && std::string(prefix) == "gopt_"));
  petsc::Vector b(m.size()), x(m.size());
  petsc::copy_to_vec(system.rhs, b.vec());
  petsc::LinearSolver solver(m.shell.mat(), {.options_prefix = "gopt_"});
  const petsc::SolveResult result = solver.solve(b.vec(), x.vec());
  KSPType type = nullptr;
  PC pc = nullptr;
  PCType preconditioner = nullptr;
  POLYDG_PETSC_CALL(KSPGetType(solver.ksp(), &type));
  POLYDG_PETSC_CALL(KSPGetPC(solver.ksp(), &pc));
  POLYDG_PETSC_CALL(PCGetType(pc, &preconditioner));
  BOOST_TEST_MESSAGE("  " << type << " + " << preconditioner << ": " << result.iterations
                          << " iterations, " << result.reason_text);
  BOOST_TEST(std::string(type) == KSPCG);
  BOOST_TEST(std::string(preconditioner) == PCPBJACOBI);
  BOOST_TEST(result.converged());
  // The residual of the solution, computed by the AIJ: the GPU solve really solved A x = b.
  petsc::Vector r(m.size());
  POLYDG_PETSC_CALL(MatMult(m.aij.mat(), x.vec(), r.vec()));
  POLYDG_PETSC_CALL(VecAXPY(r.vec(), -1.0, b.vec()));
  PetscReal residual = 0, rhs_norm = 0;
  POLYDG_PETSC_CALL(VecNorm(r.vec(), NORM_2, &residual));
  POLYDG_PETSC_CALL(VecNorm(b.vec(), NORM_2, &rhs_norm));
  BOOST_TEST(residual <= 1e-4 * rhs_norm);

  const testing::ScopedOption mat_type("-gbad_mat_type", "aij");
  bool refused = false;
  try {
    const petsc::ShellMatrix bad(m.op, "gbad_");
  } catch (const Error& error) {
    refused = std::string(error.what()).find("gbad_mat_type") != std::string::npos;
  }
  BOOST_TEST(refused);
}

/// One space-time slab (2D + 1): the SlabSolver's AIJ solve and a solve of the same system
/// through the GPU shell give the same iterations, solution and error at t_1.
BOOST_AUTO_TEST_CASE(space_time_slab) {
  std::vector<std::unique_ptr<testing::ScopedOption>> options;
  testing::gmres_options(options, "gslab_", "jacobi");
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    BOOST_TEST_MESSAGE("space-time slab, " << mesh.name << ":");
    BOOST_TEST_INFO_SCOPE(mesh.name);
    const testing::SlabStepThroughAij aij = testing::slab_step_through_aij("gslab_", mesh);
    const GpuShellAndAij m(aij.solver->matrix());
    const KspOutcome shell = solve(m.shell.mat(), aij.rhs(), "gslab_");
    const double difference = max_relative_difference(shell.solution, aij.solution);
    const double aij_error = aij.error_at_top(aij.solution);
    const double shell_error = aij.error_at_top(shell.solution);
    BOOST_TEST_MESSAGE("  " << shell.iterations << " iterations (GPU shell), "
                            << aij.step.iterations << " (AIJ), relative difference " << difference
                            << "; L2 error at t = 0.1: " << aij_error << " (AIJ), " << shell_error
                            << " (GPU shell)");
    BOOST_TEST(shell.iterations == aij.step.iterations);
    BOOST_TEST(difference < 1e-10);
    BOOST_TEST(std::abs(shell_error - aij_error) <= 1e-10 * aij_error);
  }
}

/// AijMatrix::update_from_device: a BlockMatrix's values uploaded to the device reach a host Mat
/// (Debian's PETSc has no device Mats) in one staged copy, with update()'s bits: the two Mats'
/// products are the same bits, and a second call with other values moves them.
BOOST_AUTO_TEST_CASE(aij_from_device_values) {
  BOOST_TEST_MESSAGE("AijMatrix::update_from_device (host Mat, staged):");
  const DgSystem system = advection_diffusion(hp_mesh());
  const BlockMatrix<double>& matrix = system.matrix;
  const GlobalIndex n = matrix.pattern().dof_count();
  petsc::AijMatrix from_host(matrix.pattern()), from_device(matrix.pattern());
  BOOST_TEST(!from_device.values_on_device());
  from_host.update(matrix);
  const device::DeviceBuffer<double> values{std::span<const double>(matrix.values())};
  from_device.update_from_device(values.data());
  petsc::Vector x(n), y_host(n), y_device(n);
  std::vector<double> ones(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < ones.size(); ++i) ones[i] = 1.0 + 0.001 * double(i % 7);
  petsc::copy_to_vec(ones, x.vec());
  POLYDG_PETSC_CALL(MatMult(from_host.mat(), x.vec(), y_host.vec()));
  POLYDG_PETSC_CALL(MatMult(from_device.mat(), x.vec(), y_device.vec()));
  BOOST_TEST(testing::same_bits(values_of(y_host.vec(), n), values_of(y_device.vec(), n)));
  // Other values on the device: the next update_from_device moves the product.
  BlockMatrix<double> doubled = matrix;
  for (double& value : doubled.values()) value *= 2;
  const device::DeviceBuffer<double> doubled_values{std::span<const double>(doubled.values())};
  from_device.update_from_device(doubled_values.data());
  POLYDG_PETSC_CALL(MatMult(from_device.mat(), x.vec(), y_device.vec()));
  const std::vector<double> twice = values_of(y_device.vec(), n), once = values_of(y_host.vec(), n);
  double largest = 0;
  for (std::size_t i = 0; i < once.size(); ++i)
    largest = std::max(largest, std::abs(twice[i] - 2 * once[i]));
  BOOST_TEST(largest == 0.0);  // doubling is exact, so is the product of doubled values
}
