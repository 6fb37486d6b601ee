// Uses the installed headers and library: agglomerates a mesh, assembles a Poisson problem
// (header templates compiled here, with OpenMP), exports it to PETSc, solves, checks.
#include <cmath>
#include <iostream>
#include <memory>
#include <polydg/core/device_buffer.hpp>
#include <polydg/dg/assembler.hpp>
#include <polydg/dg/coefficients.hpp>
#include <polydg/mesh/agglomeration.hpp>
#include <polydg/mesh/generators.hpp>
#include <polydg/petsc/aij_matrix.hpp>
#include <polydg/petsc/linear_solver.hpp>
#include <polydg/petsc/petsc_vector.hpp>
#include <polydg/petsc/session.hpp>

int main(int argc, char** argv) {
  polydg::petsc::Session session(argc, argv);
  auto fine = std::make_shared<const polydg::SimplexMesh<2>>(polydg::unit_square_mesh(16, 0.2, 5));
  const polydg::Agglomeration parts = polydg::agglomerate(*fine, 20);
  const polydg::PolytopicMesh<2> mesh(fine, parts.element_of_cell, 1);
  polydg::Assembler<2> assembler(mesh, polydg::BoundaryConditions::all_dirichlet());
  // u = 1 + x + 2y is linear, so the p = 1 DG solution is exact.
  const auto data = polydg::make_coefficients<2>().with_diffusion(1.0).with_dirichlet(
      [](const polydg::Point<2>& x) { return 1 + x[0] + 2 * x[1]; });
  auto matrix = assembler.make_matrix();
  auto rhs = assembler.make_vector();
  assembler.assemble(data, matrix, rhs);
  polydg::petsc::AijMatrix aij(*assembler.pattern());
  aij.update(matrix);
  polydg::petsc::Vector b(*assembler.pattern()), x(*assembler.pattern());
  polydg::petsc::copy_to_vec(rhs, b.vec());
  polydg::petsc::solve(aij.mat(), b.vec(), x.vec());
  auto solution = assembler.make_vector();
  polydg::petsc::copy_from_vec(x.vec(), solution);
  // Element 0's coefficients of the Legendre basis on its box: the mean is 1 + x_c + 2 y_c.
  std::cout << "cells " << fine->cell_count() << " elements " << mesh.element_count() << " dofs "
            << assembler.pattern()->dof_count() << " cuda " << polydg::device::compiled_with_cuda()
            << " devices " << polydg::device::device_count() << '\n';
  return (fine->cell_count() == 512 && std::isfinite(solution[0])) ? 0 : 1;
}
