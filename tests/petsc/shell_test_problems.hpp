#pragma once
// Test helper: the meshes and DG systems the CPU and GPU shell tests (test_petsc_shell,
// test_cuda_petsc_shell) both solve, reading a Vec back, a shell's products against the AIJ's,
// one KSP solve, and one space-time slab step solved through the AIJ.
#include <petscksp.h>
#include <petscvec.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "max_relative_difference.hpp"
#include "petsc_test_support.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/spacetime/slab_errors.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "user_test_mesh.hpp"

namespace polydg::testing {

inline std::vector<double> values_of(Vec vec, GlobalIndex size) {
  std::vector<double> values(static_cast<std::size_t>(size));
  petsc::copy_from_vec(vec, values);
  return values;
}

/// Gives an AIJ export the element blocks a shell has: a block size when all are equal (for
/// PCPBJACOBI), variable block sizes always (for PCVPBJACOBI).
inline void set_aij_blocks(Mat aij, const BlockPattern& pattern) {
  std::vector<PetscInt> sizes(static_cast<std::size_t>(pattern.block_row_count()));
  for (Index e = 0; e < pattern.block_row_count(); ++e) sizes[e] = pattern.block_size(e);
  if (std::all_of(sizes.begin(), sizes.end(), [&](PetscInt n) { return n == sizes[0]; }))
    POLYDG_PETSC_CALL(MatSetBlockSize(aij, sizes[0]));
  POLYDG_PETSC_CALL(MatSetVariableBlockSizes(aij, PetscInt(sizes.size()), sizes.data()));
}

/// One operation of a shell against the same operation of the AIJ export: its name, the
/// max-norm relative difference of the two results, and the shell's result.
struct ProductComparison {
  std::string operation;
  double difference = 0;
  std::vector<double> shell_result;
};

/// MatMult, MatMultTranspose, MatMultAdd (z ≠ y, then z = y in place) and MatGetDiagonal of
/// `shell` and `aij` (n rows) on the same x = random_vector(n, 21), z = random_vector(n, 22).
inline std::vector<ProductComparison> compare_products(Mat shell, Mat aij, GlobalIndex n) {
  const std::vector<double> x_values = random_vector(n, 21), z_values = random_vector(n, 22);
  petsc::Vector x(n), z(n), y_shell(n), y_aij(n);
  petsc::copy_to_vec(x_values, x.vec());
  petsc::copy_to_vec(z_values, z.vec());
  std::vector<ProductComparison> comparisons;
  const auto compare = [&](const char* operation) {
    std::vector<double> shell_result = values_of(y_shell.vec(), n);
    const double difference = max_relative_difference(shell_result, values_of(y_aij.vec(), n));
    comparisons.push_back({operation, difference, std::move(shell_result)});
  };
  POLYDG_PETSC_CALL(MatMult(shell, x.vec(), y_shell.vec()));
  POLYDG_PETSC_CALL(MatMult(aij, x.vec(), y_aij.vec()));
  compare("MatMult");
  POLYDG_PETSC_CALL(MatMultTranspose(shell, x.vec(), y_shell.vec()));
  POLYDG_PETSC_CALL(MatMultTranspose(aij, x.vec(), y_aij.vec()));
  compare("MatMultTranspose");
  POLYDG_PETSC_CALL(MatMultAdd(shell, x.vec(), z.vec(), y_shell.vec()));
  POLYDG_PETSC_CALL(MatMultAdd(aij, x.vec(), z.vec(), y_aij.vec()));
  compare("MatMultAdd (z ≠ y)");
  petsc::copy_to_vec(z_values, y_shell.vec());
  petsc::copy_to_vec(z_values, y_aij.vec());
  POLYDG_PETSC_CALL(MatMultAdd(shell, x.vec(), y_shell.vec(), y_shell.vec()));
  POLYDG_PETSC_CALL(MatMultAdd(aij, x.vec(), y_aij.vec(), y_aij.vec()));
  compare("MatMultAdd (z = y)");
  POLYDG_PETSC_CALL(MatGetDiagonal(shell, y_shell.vec()));
  POLYDG_PETSC_CALL(MatGetDiagonal(aij, y_aij.vec()));
  compare("MatGetDiagonal");
  return comparisons;
}

struct KspOutcome {
  PetscInt iterations = 0;
  std::vector<double> solution;
  std::string ksp_type, pc_type;
};

/// Solves A x = rhs from x = 0 with a KSP configured from the options database under `prefix`,
/// its preconditioner built from `preconditioner_matrix` (A itself when null).
inline KspOutcome solve(Mat matrix, const std::vector<double>& rhs, const std::string& prefix,
                        Mat preconditioner_matrix = nullptr) {
  const GlobalIndex n = GlobalIndex(rhs.size());
  petsc::Vector b(n), x(n);
  petsc::copy_to_vec(rhs, b.vec());
  petsc::LinearSolver solver(matrix, preconditioner_matrix ? preconditioner_matrix : matrix,
                             {.options_prefix = prefix});
  const petsc::SolveResult result = solver.solve(b.vec(), x.vec());
  PC pc = nullptr;
  PCType pc_type = nullptr;
  KSPType ksp_type = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(solver.ksp(), &pc));
  POLYDG_PETSC_CALL(PCGetType(pc, &pc_type));
  POLYDG_PETSC_CALL(KSPGetType(solver.ksp(), &ksp_type));
  return {result.iterations, values_of(x.vec(), n), ksp_type, pc_type};
}

/// A 2D mesh the shell tests solve on: its triangles and the polygons METIS makes of them.
struct ShellTestMesh {
  std::string name;
  std::shared_ptr<const SimplexMesh<2>> fine;
  Agglomeration polygons;
};

/// Agglomerated polygons of a perturbed 24 × 24 square (~40 elements of ~29 triangles each),
/// then, where the environment names one, the user's mesh (with_user_test_mesh: POLYDG_TEST_MESH
/// in POLYDG_TEST_ELEMENTS polygons, default 40): every shell = AIJ check runs on each.
inline const std::vector<ShellTestMesh>& shell_test_meshes() {
  static const std::vector<ShellTestMesh> meshes = [] {
    const auto square = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(24, 0.2, 4));
    std::vector<ShellTestMesh> list;
    for (const TestMesh& mesh : with_user_test_mesh({"square", square, 40}))
      list.push_back({mesh.name, mesh.fine, agglomerate(*mesh.fine, mesh.elements)});
    return list;
  }();
  return meshes;
}
inline PolytopicMesh<2> uniform_mesh(const ShellTestMesh& mesh, int degree) {
  return PolytopicMesh<2>(mesh.fine, mesh.polygons.element_of_cell, degree);
}
/// Degrees 1, 2, 3 in turn: block sizes 3, 6 and 10 side by side.
inline PolytopicMesh<2> hp_mesh(const ShellTestMesh& mesh) {
  std::vector<int> degrees(static_cast<std::size_t>(mesh.polygons.element_count));
  for (std::size_t e = 0; e < degrees.size(); ++e) degrees[e] = 1 + int(e % 3);
  return PolytopicMesh<2>(mesh.fine, mesh.polygons.element_of_cell, degrees);
}
/// The built-in square's meshes, for the checks that are not about the mesh.
inline PolytopicMesh<2> uniform_mesh(int degree) {
  return uniform_mesh(shell_test_meshes().front(), degree);
}
inline PolytopicMesh<2> hp_mesh() { return hp_mesh(shell_test_meshes().front()); }

struct DgSystem {
  BlockMatrix<double> matrix;
  std::vector<double> rhs;
};

/// −∇·(A∇u) + b·∇u + c u = 1 with variable A, u = 0 on the boundary: diagonal blocks that are
/// not symmetric, so a transposed inverse would show.
inline DgSystem advection_diffusion(const PolytopicMesh<2>& mesh) {
  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
  DgSystem system{assembler.make_matrix(), assembler.make_vector()};
  assembler.assemble(
      make_coefficients<2>()
          .with_diffusion([](const Point<2>& x) {
            return Tensor<2>{{{0.01 + 0.005 * x[0], 0.002}, {0.002, 0.01 + 0.005 * x[1]}}};
          })
          .with_advection([](const Point<2>& x) {
            return Point<2>{{1 - 0.3 * x[1], 0.5 + 0.2 * x[0]}};
          })
          .with_reaction(0.5)
          .with_source([](const Point<2>& x) { return 1 + x[0] * x[1]; }),
      system.matrix, system.rhs);
  return system;
}

/// −∇·(A∇u) = f with symmetric interior penalty and u = 0 on the whole boundary: SPD.
inline DgSystem poisson(const PolytopicMesh<2>& mesh) {
  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
  DgSystem system{assembler.make_matrix(), assembler.make_vector()};
  assembler.assemble(
      make_coefficients<2>()
          .with_diffusion([](const Point<2>& x) {
            return Tensor<2>{{{1 + x[0] * x[1], 0.3 * x[0]}, {0.3 * x[0], 2 - x[1]}}};
          })
          .with_source([](const Point<2>& x) { return std::sin(3 * x[0]) + x[1]; }),
      system.matrix, system.rhs);
  return system;
}

/// The systems whose products both shell tests compare with the AIJ's on each mesh:
/// advection-diffusion at P_2, SIPG Poisson at P_3, advection-diffusion on the hp mesh.
inline std::vector<DgSystem> product_test_systems(const ShellTestMesh& mesh) {
  std::vector<DgSystem> systems;
  systems.push_back(advection_diffusion(uniform_mesh(mesh, 2)));
  systems.push_back(poisson(uniform_mesh(mesh, 3)));
  systems.push_back(advection_diffusion(hp_mesh(mesh)));
  return systems;
}

/// The space-time slab problem: u = sin 3x cos 2y (1 + t) of u_t − 0.1 Δu + b·∇u = f,
/// b = (0.5, −0.3), with its Dirichlet data (space_time_coefficients(slab_data())).
inline double slab_exact(const Point<3>& x) {
  return std::sin(3 * x[0]) * std::cos(2 * x[1]) * (1 + x[2]);
}
inline auto slab_data() {
  return make_coefficients<2>()
      .with_diffusion(0.1)
      .with_advection(Point<2>{{0.5, -0.3}})
      .with_source([](const Point<3>& x) {
        const double s = std::sin(3 * x[0]) * std::cos(2 * x[1]);
        const double c = std::cos(3 * x[0]) * std::cos(2 * x[1]);
        const double d = std::sin(3 * x[0]) * std::sin(2 * x[1]);
        return s + 0.1 * 13 * s * (1 + x[2]) + (0.5 * 3 * c + 0.3 * 2 * d) * (1 + x[2]);
      })
      .with_dirichlet(slab_exact);
}

/// One step (t = 0 → 0.1) of the slab problem on uniform_mesh(mesh, 2), solved through the AIJ by a
/// SlabSolver whose KSP reads the options under `prefix`. Its matrix and rhs stay in `solver`
/// for a second solve of the same system (through a shell), which error_at_top compares by.
struct SlabStepThroughAij {
  using Solver = SlabSolver<decltype(space_time_coefficients(slab_data()))>;
  std::unique_ptr<Solver> solver;
  SlabStep step;
  std::vector<double> solution;

  std::vector<double> rhs() const { return {solver->rhs().begin(), solver->rhs().end()}; }
  /// The L2 error at t = 0.1 of a solution of the slab's system.
  double error_at_top(std::span<const double> slab_solution) const {
    const SlabErrors errors =
        compute_slab_errors(solver->assembler().quadrature_mesh(), *solver->assembler().pattern(),
                            slab_solution, slab_exact);
    return std::sqrt(errors.top_l2_squared);
  }
};

inline SlabStepThroughAij slab_step_through_aij(const std::string& prefix,
                                                const ShellTestMesh& mesh) {
  SlabSolverOptions options;
  options.solver.options_prefix = prefix;
  SlabStepThroughAij result;
  result.solver = std::make_unique<SlabStepThroughAij::Solver>(
      uniform_mesh(mesh, 2), BoundaryConditions::all_dirichlet(),
      space_time_coefficients(slab_data()), options);
  result.solver->set_initial_condition([](const Point<2>& x) {
    return slab_exact(Point<3>{{x[0], x[1], 0}});
  });
  result.step = result.solver->step(0.1);
  result.solution.assign(result.solver->solution().begin(), result.solver->solution().end());
  return result;
}

}  // namespace polydg::testing
