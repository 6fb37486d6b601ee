#pragma once
// One level of a convergence study: agglomerate a fine mesh, assemble the IP-DG system of a
// manufactured problem (manufactured_problems.hpp), solve it with PETSc (options database:
// -ksp_type, -pc_type, ...), and measure the L2 and DG-norm errors. Used by convergence.cpp
// and by tests/dg/test_convergence.cpp. Under mpiexec -n R (R > 1) each rank assembles its
// part of the mesh into an MPIAIJ (docs/user-guide.md, "Several MPI ranks") and the error
// norms are summed over the ranks; the results are the same on every rank. VTK output: a .vtu
// on one rank; on several each rank writes its elements' piece and rank 0 the .pvtu that
// lists them (polydg/petsc/solution_pvtu.hpp).
#include <petscksp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "default_solver.hpp"
#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/error_norms.hpp"
#include "polydg/dg/partition_numbering.hpp"
#include "polydg/io/solution_vtu.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/petsc/agglomeration_multigrid.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/ghost_scatter.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/rediscretised_level_operators.hpp"
#include "polydg/petsc/solution_pvtu.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg::examples {

struct LevelResult {
  Index elements = 0;
  GlobalIndex dofs = 0;
  double h = 0;  ///< largest element diameter
  double l2_error = 0, dg_error = 0;
  PetscInt iterations = 0;
};

/// -pc_type mg: PCMG over the mesh's agglomeration hierarchy, each coarse level's operator the
/// problem rediscretised on it (-pc_mg_galerkin both: Galerkin products instead;
/// docs/user-guide.md, "Agglomeration multigrid"); with the mesh's `partition` (several ranks)
/// the levels split over the ranks and each rank assembling its rows of them. Holds what the
/// solve reads; without -pc_type mg it stays empty and the options have no DM.
template <int Dim>
struct MultigridLevels {
  std::optional<AgglomerationHierarchy<Dim>> hierarchy;
  std::optional<petsc::AgglomerationMultigrid> multigrid;
  std::vector<petsc::AijMatrix> level_operators;

  template <class Coefficients>
  petsc::SolverOptions solver_options(const PolytopicMesh<Dim>& mesh,
                                      const BoundaryConditions& boundary,
                                      const Coefficients& coefficients,
                                      const AssemblyOptions& assembly_options,
                                      const MeshPartition* partition = nullptr) {
    petsc::SolverOptions options;
    if (!petsc::multigrid_requested("")) return options;
    hierarchy.emplace(mesh);
    if (partition) {
      multigrid.emplace(*hierarchy, *partition);
      level_operators = petsc::rediscretised_level_operators(*hierarchy, *partition, boundary,
                                                             coefficients, assembly_options);
    } else {
      multigrid.emplace(*hierarchy);
      level_operators = petsc::rediscretised_level_operators(*hierarchy, boundary, coefficients,
                                                             assembly_options);
    }
    multigrid->set_level_operators(petsc::mats_of(level_operators));
    options.dm = multigrid->dm();
    return options;
  }
};

/// solve_level on several ranks: each assembles its part (partition_mesh) into its rows of an
/// MPIAIJ; the errors' squares are summed over the ranks. Writes the solution to the .pvtu
/// `pvtu_path` and its pieces when it is not empty.
template <class Problem, int Dim = Problem::dim>
LevelResult solve_level_distributed(const PolytopicMesh<Dim>& mesh,
                                    const BoundaryConditions& boundary,
                                    const AssemblyOptions& assembly_options,
                                    const std::string& pvtu_path) {
  const auto coefficients = Problem::coefficients();
  const int rank = petsc::world_rank();
  const MeshPartition partition = partition_mesh(mesh, petsc::world_rank_count());
  Assembler<Dim> assembler(
      QuadratureMesh<Dim>(mesh, boundary, assembly_options.pieces, partition, rank),
      assembly_options);
  const RankBlockPattern rows =
      make_rank_block_pattern(assembler.pattern(), partition, rank,
                              partition_dof_offsets(mesh, partition, assembly_options.space));
  BlockMatrix<double> matrix = assembler.make_matrix();
  std::vector<double> rhs = assembler.make_vector();
  assembler.assemble(coefficients, matrix, rhs);
  petsc::AijMatrix aij(rows);
  aij.update(matrix);
  petsc::Vector b(rows), x(rows);
  petsc::copy_to_vec(std::span<const double>(rhs).first(std::size_t(rows.owned_dof_count())),
                     b.vec());
  MultigridLevels<Dim> multigrid;
  const petsc::SolverOptions solver_options =
      multigrid.solver_options(mesh, boundary, coefficients, assembly_options, &partition);
  const petsc::SolveResult solve =
      petsc::solve(aij.mat(), b.vec(), x.vec(), nullptr, solver_options);
  std::vector<double> solution = assembler.make_vector();  // owned, then the ghosts'
  petsc::GhostScatter(rows).gather(x.vec(), solution);

  const auto exact = [](const Point<Dim>& point) { return Problem::u(point); };
  const auto gradient = [](const Point<Dim>& point) { return Problem::grad_u(point); };
  const ErrorNorms errors = compute_error_norms(assembler.quadrature_mesh(), coefficients,
                                                std::span<const double>(solution), exact, gradient,
                                                error_norm_options(assembler.options()));
  if (!pvtu_path.empty()) {
    // The owned elements come first in the rank's solution, in the partition's order.
    SolutionVtuOptions<Dim> options;
    options.exact_solution = exact;
    petsc::write_solution_pvtu(
        pvtu_path, mesh, partition.owned_elements(rank),
        std::span<const double>(solution).first(std::size_t(rows.owned_dof_count())), options);
  }
  LevelResult result;
  result.elements = mesh.element_count();
  result.dofs = rows.global_dof_count();
  for (Index e = 0; e < mesh.element_count(); ++e)
    result.h = std::max(result.h, mesh.element_diameter(e));
  result.l2_error = std::sqrt(petsc::sum_over_ranks(errors.l2 * errors.l2));
  result.dg_error = std::sqrt(petsc::sum_over_ranks(errors.dg * errors.dg));
  result.iterations = solve.iterations;
  return result;
}

/// Solves `Problem` with degree p on `fine` agglomerated into elements of about
/// `cells_per_element` fine cells (agglomerate_by_cell_count with `agglomeration`). `conditions`
/// overrides the problem's boundary conditions.
/// Writes the solution to `vtk_path` when it is not empty: a .vtu on one rank; on several
/// the .pvtu of that name and one piece per rank beside it (petsc/solution_pvtu.hpp).
template <class Problem, int Dim = Problem::dim>
LevelResult solve_level(const std::shared_ptr<const SimplexMesh<Dim>>& fine,
                        double cells_per_element, int p,
                        const std::optional<BoundaryConditions>& conditions = {},
                        const std::string& vtk_path = "",
                        const AssemblyOptions& assembly_options = {},
                        const AgglomerationOptions& agglomeration = {}) {
  const Agglomeration parts = agglomerate_by_cell_count(*fine, cells_per_element, agglomeration);
  const PolytopicMesh<Dim> mesh(fine, parts.element_of_cell, p);
  const BoundaryConditions boundary = conditions ? *conditions : Problem::boundary_conditions();
  if (petsc::world_rank_count() > 1)
    return solve_level_distributed<Problem, Dim>(mesh, boundary, assembly_options, vtk_path);
  const auto coefficients = Problem::coefficients();

  Assembler<Dim> assembler(mesh, boundary, assembly_options);
  BlockMatrix<double> matrix = assembler.make_matrix();
  std::vector<double> rhs = assembler.make_vector();
  assembler.assemble(coefficients, matrix, rhs);

  petsc::AijMatrix aij(*assembler.pattern());
  aij.update(matrix);
  petsc::Vector b(*assembler.pattern()), x(*assembler.pattern());
  petsc::copy_to_vec(rhs, b.vec());
  MultigridLevels<Dim> multigrid;
  const petsc::SolverOptions solver_options =
      multigrid.solver_options(mesh, boundary, coefficients, assembly_options);
  const petsc::SolveResult solve =
      petsc::solve(aij.mat(), b.vec(), x.vec(), nullptr, solver_options);
  std::vector<double> solution = assembler.make_vector();
  petsc::copy_from_vec(x.vec(), solution);

  const auto exact = [](const Point<Dim>& point) { return Problem::u(point); };
  const auto gradient = [](const Point<Dim>& point) { return Problem::grad_u(point); };
  const ErrorNorms errors = compute_error_norms(assembler.quadrature_mesh(), coefficients,
                                                std::span<const double>(solution), exact, gradient,
                                                error_norm_options(assembler.options()));
  if (!vtk_path.empty()) {
    SolutionVtuOptions<Dim> options;
    options.exact_solution = exact;
    write_solution_vtu(vtk_path, mesh, solution, options);
  }
  LevelResult result;
  result.elements = mesh.element_count();
  result.dofs = assembler.pattern()->dof_count();
  for (Index e = 0; e < mesh.element_count(); ++e)
    result.h = std::max(result.h, mesh.element_diameter(e));
  result.l2_error = errors.l2;
  result.dg_error = errors.dg;
  result.iterations = solve.iterations;
  return result;
}

}  // namespace polydg::examples
