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
// where POLYDG_TEST_MESH names one (shell_test_meshes; docs/user-guide.md). Plain main (the gpu
// tests' convention): exits 77 (ctest: Skipped) when no CUDA device is present.
//
//   build/bin/tests/test_cuda_petsc_shell [PETSc options, e.g. -ksp_monitor]
#include <petscksp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
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

void check_close(const char* what, double difference, double tolerance) {
  std::printf("  %-44s %.2e (≤ %.0e)\n", what, difference, tolerance);
  POLYDG_GPU_CHECK(difference <= tolerance);
}

/// The GPU shell's products and diagonal against the AIJ's; the device diagonal and diagonal
/// blocks against the CPU DenseBlockMatrix; the inverted blocks against PETSc's AIJ inversion.
void check_products(const GpuShellAndAij& m, const BlockMatrix<double>& matrix) {
  const GlobalIndex n = m.size();
  const Mat shell = m.shell.mat(), aij = m.aij.mat();
  const std::vector<testing::ProductComparison> products = testing::compare_products(shell, aij, n);
  for (const testing::ProductComparison& product : products)
    check_close(product.operation.c_str(), product.difference, 1e-13);
  // Again with the buffers already allocated: the same bits.
  petsc::Vector x(n), y(n);
  petsc::copy_to_vec(testing::random_vector(n, 21), x.vec());
  POLYDG_PETSC_CALL(MatMult(shell, x.vec(), y.vec()));
  POLYDG_GPU_CHECK(testing::same_bits(values_of(y.vec(), n), products.front().shell_result));

  std::vector<double> host_diagonal(static_cast<std::size_t>(n));
  m.host.diagonal(host_diagonal);
  POLYDG_GPU_CHECK(testing::same_bits(products.back().shell_result, host_diagonal));

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
  POLYDG_GPU_CHECK(testing::same_bits(blocks.to_host(), expected_blocks));
  POLYDG_GPU_CHECK(
      testing::same_bits(m.op.inverted_block_diagonal(), m.host.inverted_block_diagonal()));

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
  std::printf("  %s%s + %s: %d iterations (GPU shell), %d (AIJ), relative difference %.2e\n",
              prefix.c_str(), shell.ksp_type.c_str(), shell.pc_type.c_str(), int(shell.iterations),
              int(aij.iterations), difference);
  POLYDG_GPU_CHECK(shell.ksp_type == expected_ksp);
  POLYDG_GPU_CHECK(shell.pc_type == expected_pc);
  POLYDG_GPU_CHECK(aij.pc_type == expected_pc);
  POLYDG_GPU_CHECK(shell.iterations > 1);
  POLYDG_GPU_CHECK(shell.iterations == aij.iterations);
  POLYDG_GPU_CHECK(difference < 1e-10);
}

void products_and_diagonal() {
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    std::printf("products, diagonal and diagonal blocks (GPU shell vs AIJ), %s:\n",
                mesh.name.c_str());
    for (const DgSystem& system : testing::product_test_systems(mesh)) {
      const GpuShellAndAij m(system.matrix);
      PetscInt rows = 0, columns = 0;
      POLYDG_PETSC_CALL(MatGetSize(m.shell.mat(), &rows, &columns));
      POLYDG_GPU_CHECK(GlobalIndex(rows) == m.size() && GlobalIndex(columns) == m.size());
      check_products(m, system.matrix);
    }
  }
}

void krylov_solves() {
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    std::printf("KSP through the GPU shell vs through AIJ, %s:\n", mesh.name.c_str());
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
void update_values_reach_the_next_solve() {
  std::puts("update_values + values_changed:");
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
  std::printf(
      "  before: %d iterations; after: %d (GPU shell), %d (AIJ of the new matrix), "
      "relative difference %.2e\n",
      int(first_iterations), int(second_iterations), int(reference.iterations), difference);
  POLYDG_GPU_CHECK(second_iterations == reference.iterations);
  POLYDG_GPU_CHECK(difference < 1e-10);
  POLYDG_GPU_CHECK(max_relative_difference(first, second) > 1e-3);  // it did change
}

/// -[prefix]ksp_type / -[prefix]pc_type set with PetscOptionsSetValue() reach the KSP of the GPU
/// shell, and -[prefix]mat_type aij is refused.
void options_database() {
  std::puts("options database:");
  const testing::ScopedOption ksp_type("-gopt_ksp_type", "cg");
  const testing::ScopedOption pc_type("-gopt_pc_type", "pbjacobi");
  const DgSystem system = poisson(uniform_mesh(2));
  const GpuShellAndAij m(system.matrix, "gopt_");
  const char* prefix = nullptr;
  POLYDG_PETSC_CALL(MatGetOptionsPrefix(m.shell.mat(), &prefix));
  POLYDG_GPU_CHECK(prefix != nullptr && std::string(prefix) == "gopt_");
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
  std::printf("  %s + %s: %d iterations, %s\n", type, preconditioner, int(result.iterations),
              result.reason_text.c_str());
  POLYDG_GPU_CHECK(std::string(type) == KSPCG);
  POLYDG_GPU_CHECK(std::string(preconditioner) == PCPBJACOBI);
  POLYDG_GPU_CHECK(result.converged());
  // The residual of the solution, computed by the AIJ: the GPU solve really solved A x = b.
  petsc::Vector r(m.size());
  POLYDG_PETSC_CALL(MatMult(m.aij.mat(), x.vec(), r.vec()));
  POLYDG_PETSC_CALL(VecAXPY(r.vec(), -1.0, b.vec()));
  PetscReal residual = 0, rhs_norm = 0;
  POLYDG_PETSC_CALL(VecNorm(r.vec(), NORM_2, &residual));
  POLYDG_PETSC_CALL(VecNorm(b.vec(), NORM_2, &rhs_norm));
  POLYDG_GPU_CHECK(residual <= 1e-4 * rhs_norm);

  const testing::ScopedOption mat_type("-gbad_mat_type", "aij");
  bool refused = false;
  try {
    const petsc::ShellMatrix bad(m.op, "gbad_");
  } catch (const Error& error) {
    refused = std::string(error.what()).find("gbad_mat_type") != std::string::npos;
  }
  POLYDG_GPU_CHECK(refused);
}

/// One space-time slab (2D + 1): the SlabSolver's AIJ solve and a solve of the same system
/// through the GPU shell give the same iterations, solution and error at t_1.
void space_time_slab() {
  std::vector<std::unique_ptr<testing::ScopedOption>> options;
  testing::gmres_options(options, "gslab_", "jacobi");
  for (const ShellTestMesh& mesh : shell_test_meshes()) {
    std::printf("space-time slab, %s:\n", mesh.name.c_str());
    const testing::SlabStepThroughAij aij = testing::slab_step_through_aij("gslab_", mesh);
    const GpuShellAndAij m(aij.solver->matrix());
    const KspOutcome shell = solve(m.shell.mat(), aij.rhs(), "gslab_");
    const double difference = max_relative_difference(shell.solution, aij.solution);
    const double aij_error = aij.error_at_top(aij.solution);
    const double shell_error = aij.error_at_top(shell.solution);
    std::printf(
        "  %d iterations (GPU shell), %d (AIJ), relative difference %.2e; L2 error at "
        "t = 0.1: %.6e (AIJ), %.6e (GPU shell)\n",
        int(shell.iterations), int(aij.step.iterations), difference, aij_error, shell_error);
    POLYDG_GPU_CHECK(shell.iterations == aij.step.iterations);
    POLYDG_GPU_CHECK(difference < 1e-10);
    POLYDG_GPU_CHECK(std::abs(shell_error - aij_error) <= 1e-10 * aij_error);
  }
}

}  // namespace

/// AijMatrix::update_from_device: a BlockMatrix's values uploaded to the device reach a host Mat
/// (Debian's PETSc has no device Mats) in one staged copy, with update()'s bits: the two Mats'
/// products are the same bits, and a second call with other values moves them.
void aij_from_device_values() {
  std::puts("AijMatrix::update_from_device (host Mat, staged):");
  const DgSystem system = advection_diffusion(hp_mesh());
  const BlockMatrix<double>& matrix = system.matrix;
  const GlobalIndex n = matrix.pattern().dof_count();
  petsc::AijMatrix from_host(matrix.pattern()), from_device(matrix.pattern());
  POLYDG_GPU_CHECK(!from_device.values_on_device());
  from_host.update(matrix);
  const device::DeviceBuffer<double> values{std::span<const double>(matrix.values())};
  from_device.update_from_device(values.data());
  petsc::Vector x(n), y_host(n), y_device(n);
  std::vector<double> ones(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < ones.size(); ++i) ones[i] = 1.0 + 0.001 * double(i % 7);
  petsc::copy_to_vec(ones, x.vec());
  POLYDG_PETSC_CALL(MatMult(from_host.mat(), x.vec(), y_host.vec()));
  POLYDG_PETSC_CALL(MatMult(from_device.mat(), x.vec(), y_device.vec()));
  POLYDG_GPU_CHECK(testing::same_bits(values_of(y_host.vec(), n), values_of(y_device.vec(), n)));
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
  POLYDG_GPU_CHECK(largest == 0.0);  // doubling is exact, so is the product of doubled values
}

int main(int argc, char** argv) {
  if (testing::no_cuda_device()) return testing::skipped_exit_code;
  petsc::Session session(argc, argv);
  for (void (*test)() : {products_and_diagonal, krylov_solves, update_values_reach_the_next_solve,
                         options_database, space_time_slab, aij_from_device_values}) {
    try {
      test();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "unexpected exception: %s\n", error.what());
      ++testing::gpu_test_failures();
    }
  }
  return testing::gpu_test_result();
}
