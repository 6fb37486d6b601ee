// A PETSc program as a user writes one — a Session, an AIJ export, a LinearSolver with its
// defaults — for the tests of what PETSc prints (check_program_output.cmake): the options set
// but never used (reported at PetscFinalize()), -ksp_view of the default solver. Prints
// "solver default: <name>, <converged reason>" and exits with 0 when the solve converged.
#include <array>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <vector>

#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"

int main(int argc, char** argv) {
  try {
    // First, so that every PETSc object below is destroyed before PetscFinalize().
    polydg::petsc::Session session(argc, argv);
    // A chain of three elements of 2 unknowns: 2 on the diagonal, −1/2 elsewhere (strictly
    // diagonally dominant, so the solve cannot fail).
    const std::vector<std::array<polydg::Index, 2>> interfaces = {{0, 1}, {1, 2}};
    auto pattern = std::make_shared<const polydg::BlockPattern>(std::vector<polydg::Index>{2, 2, 2},
                                                                interfaces);
    polydg::BlockMatrix<double> matrix(pattern);
    std::vector<polydg::GlobalIndex> rows(pattern->value_count()), columns(rows.size());
    pattern->coo_indices(rows, columns);
    for (std::size_t k = 0; k < rows.size(); ++k)
      matrix.values()[k] = rows[k] == columns[k] ? 2.0 : -0.5;
    polydg::petsc::AijMatrix aij(*pattern);
    aij.update(matrix);
    polydg::petsc::Vector b(*pattern), x(*pattern);
    polydg::petsc::copy_to_vec(std::vector<double>(std::size_t(pattern->dof_count()), 1.0),
                               b.vec());
    polydg::petsc::LinearSolver solver(aij.mat());
    const polydg::petsc::SolveResult result = solver.solve(b.vec(), x.vec());
    std::printf("solver default: %s, %s\n",
                polydg::petsc::solver_default_name(solver.solver_default()),
                result.reason_text.c_str());
    return result.converged() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
}
