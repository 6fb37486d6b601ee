#define BOOST_TEST_MODULE agglomeration_multigrid
// PCMG over an agglomeration hierarchy (polydg/petsc/agglomeration_multigrid.hpp) from the
// options database, through LinearSolver's SolverOptions::dm:
//  * SIPG Poisson, p = 1, 2, 3, on agglomerated unit squares of 4 sizes (512 to 32,768
//    triangles, ~4 per polygon; 2 to 7 levels): CG with the multigrid LinearSolver sets up for
//    the hierarchy (Galerkin levels, W-cycles, Chebyshev on the element blocks) converges to
//    rtol 1e-8 in at most 15 iterations at every size — the bound the project set for it — to
//    the solution of a direct solve;
//  * anisotropic advection-diffusion-reaction (nonsymmetric: GMRES), p = 1 and 3, on unit
//    squares and a Gmsh domain refined once and twice: the direct solve's solution (the
//    iteration counts are reported);
//  * -pc_mg_levels above the hierarchy's levels is refused naming the coarsest level, and the
//    DM's refinement level gives PCMG every level when -pc_mg_levels is absent;
//  * rediscretised levels (rediscretised_level_operators() through set_level_operators()):
//    where the spaces' nesting makes them equal — the mass matrix, block diagonal, whose
//    Galerkin product PᵀMP is the coarse mass matrix exactly — the two agree on every level
//    (1e-12); SIPG Poisson p = 1..3 with them reaches the direct solution; CG's counts with
//    either kind are reported side by side;
//  * -pc_mg_galerkin none without level operators is refused by name.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "error_message.hpp"
#include "petsc_test_support.hpp"
#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/refinement.hpp"
#include "polydg/petsc/agglomeration_multigrid.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/rediscretised_level_operators.hpp"

using namespace polydg;
using testing::contains;
using testing::error_message;
using testing::ScopedOption;

namespace {

using testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

constexpr double pi = 3.14159265358979323846;

auto poisson() {
  return make_coefficients<2>()
      .with_diffusion(1.0)
      .with_source(
          [](const Point<2>& x) { return 2 * pi * pi * std::sin(pi * x[0]) * std::sin(pi * x[1]); })
      .with_dirichlet(0.0);
}

/// Anisotropic advection-diffusion-reaction: a full diffusion tensor, advection across the
/// mesh, the nonsymmetric case of the IP-DG system.
auto advection_diffusion_reaction() {
  Tensor<2> a{};
  a[0][0] = 1.0;
  a[1][1] = 0.1;
  a[0][1] = a[1][0] = 0.2;
  return make_coefficients<2>()
      .with_diffusion(a)
      .with_advection(Point<2>{{2.0, -1.0}})
      .with_reaction(0.5)
      .with_source([](const Point<2>& x) { return 1 + x[0] * x[1]; })
      .with_dirichlet(0.0);
}

std::shared_ptr<const SimplexMesh<2>> unit_square(int cells) {
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(cells, 0.2, 3));
}

/// The IP-DG system of `data` on `fine` in polygons of ~4 triangles, degree p, as an AIJ matrix
/// and a rhs.
struct DgSystem {
  PolytopicMesh<2> mesh;
  petsc::AijMatrix aij;
  std::vector<double> rhs;

  template <class Data>
  DgSystem(const std::shared_ptr<const SimplexMesh<2>>& fine, int p, const Data& data)
      : mesh(fine, agglomerate_by_cell_count(*fine, 4).element_of_cell, p) {
    Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet());
    BlockMatrix<double> matrix = assembler.make_matrix();
    rhs = assembler.make_vector();
    assembler.assemble(data, matrix, rhs);
    aij = petsc::AijMatrix(*assembler.pattern());
    aij.update(matrix);
  }
};

struct MultigridSolve {
  GlobalIndex dofs = 0;
  int levels = 0;
  PetscInt iterations = 0;
  double difference_to_direct = 0;  ///< max |x − x_LU| / max |x_LU|
};

/// `system` solved with `ksp_type` (cg, gmres) + PCMG (prefix "mg_test_") and with LU; with
/// `level_data`, the coarse levels' operators are that data's IP-DG matrices rediscretised on
/// each level.
template <class LevelData = std::nullptr_t>
MultigridSolve solve_with_multigrid(const DgSystem& system, const std::string& ksp_type,
                                    const LevelData& level_data = nullptr) {
  const PolytopicMesh<2>& mesh = system.mesh;
  const petsc::AijMatrix& aij = system.aij;
  const std::vector<double>& rhs = system.rhs;

  // Coarsened down to a few elements, so the levels grow with the mesh.
  HierarchyOptions options;
  options.coarsest_dofs = 100;
  const AgglomerationHierarchy<2> hierarchy(mesh, options);
  petsc::AgglomerationMultigrid multigrid(hierarchy);
  std::vector<petsc::AijMatrix> level_operators;
  if constexpr (!std::is_same_v<LevelData, std::nullptr_t>) {
    level_operators = petsc::rediscretised_level_operators(
        hierarchy, BoundaryConditions::all_dirichlet(), level_data);
    multigrid.set_level_operators(petsc::mats_of(level_operators));
  }
  const GlobalIndex n = GlobalIndex(rhs.size());
  petsc::Vector b(n), x(n), direct(n);
  petsc::copy_to_vec(rhs, b.vec());

  MultigridSolve result;
  result.dofs = n;
  result.levels = multigrid.level_count();
  {
    ScopedOption krylov("-mg_test_ksp_type", ksp_type);
    ScopedOption rtol("-mg_test_ksp_rtol", "1e-8");
    petsc::LinearSolver solver(
        aij.mat(), {.options_prefix = "mg_test_", .direct_solve_limit = 0, .dm = multigrid.dm()});
    const petsc::SolveResult solve = solver.solve(b.vec(), x.vec());
    result.iterations = solve.iterations;
    PC pc = nullptr;
    POLYDG_PETSC_CALL(KSPGetPC(solver.ksp(), &pc));
    PetscInt pc_levels = 0;
    POLYDG_PETSC_CALL(PCMGGetLevels(pc, &pc_levels));
    BOOST_TEST(pc_levels == result.levels);  // every level without -pc_mg_levels
  }
  {
    ScopedOption preonly("-lu_test_ksp_type", "preonly");
    ScopedOption lu("-lu_test_pc_type", "lu");
    petsc::LinearSolver solver(aij.mat(), {.options_prefix = "lu_test_"});
    solver.solve(b.vec(), direct.vec());
  }
  std::vector<double> multigrid_solution(static_cast<std::size_t>(n)),
      direct_solution(static_cast<std::size_t>(n));
  petsc::copy_from_vec(x.vec(), multigrid_solution);
  petsc::copy_from_vec(direct.vec(), direct_solution);
  double difference = 0, largest = 0;
  for (std::size_t i = 0; i < direct_solution.size(); ++i) {
    difference = std::max(difference, std::abs(multigrid_solution[i] - direct_solution[i]));
    largest = std::max(largest, std::abs(direct_solution[i]));
  }
  result.difference_to_direct = difference / largest;
  return result;
}

}  // namespace

BOOST_AUTO_TEST_CASE(poisson_iterations_do_not_grow_with_the_mesh) {
  for (int p = 1; p <= 3; ++p) {
    std::vector<PetscInt> iterations;  // per size
    for (int cells : {16, 32, 64, 128}) {
      const MultigridSolve solve =
          solve_with_multigrid(DgSystem(unit_square(cells), p, poisson()), "cg");
      BOOST_TEST_MESSAGE("SIPG Poisson p = " << p << ", " << solve.dofs << " DoFs, " << solve.levels
                                             << " levels: " << solve.iterations
                                             << " CG iterations, |x - x_LU| / |x_LU| = "
                                             << solve.difference_to_direct);
      BOOST_TEST_INFO_SCOPE("p = " << p << ", " << cells << " cells per side");
      BOOST_TEST(solve.levels >= 2);
      BOOST_TEST(solve.iterations <= 15);
      // rtol 1e-8 on the residual; the condition number of these systems (≲ 1e5) bounds the
      // error's growth from it.
      BOOST_TEST(solve.difference_to_direct <= 1e-4);
      iterations.push_back(solve.iterations);
    }
    BOOST_TEST_MESSAGE("p = " << p << ": from " << iterations.front() << " to " << iterations.back()
                              << " iterations over a 64-fold mesh");
  }
}

// The nonsymmetric case (GMRES) on the unit square and on a Gmsh domain refined twice: the
// multigrid-preconditioned GMRES reaches the direct solution. Its counts are reported, not
// bounded: the project's bound of 15 holds for Poisson but not yet here (17-30 iterations with
// the default smoothers; docs/user-guide.md, "Agglomeration multigrid").
BOOST_AUTO_TEST_CASE(advection_diffusion_reaction_iterations_stay_bounded) {
  const auto gmsh = std::make_shared<const SimplexMesh<2>>(
      read_gmsh<2>(std::string(POLYDG_TEST_DATA_DIR) + "/gmsh/square_hole_v41.msh"));
  std::vector<std::pair<std::string, std::shared_ptr<const SimplexMesh<2>>>> meshes = {
      {"unit square 32", unit_square(32)}, {"unit square 64", unit_square(64)}};
  meshes.emplace_back("Gmsh square with a hole, refined once",
                      std::make_shared<const SimplexMesh<2>>(refine(*gmsh)));
  meshes.emplace_back("Gmsh square with a hole, refined twice",
                      std::make_shared<const SimplexMesh<2>>(refine(refine(*gmsh))));
  for (int p = 1; p <= 3; p += 2) {
    for (const auto& [name, fine] : meshes) {
      const DgSystem system(fine, p, advection_diffusion_reaction());
      const MultigridSolve solve = solve_with_multigrid(system, "gmres");
      const MultigridSolve rediscretised =
          solve_with_multigrid(system, "gmres", advection_diffusion_reaction());
      BOOST_TEST_MESSAGE("advection-diffusion-reaction p = "
                         << p << ", " << name << ", " << solve.dofs << " DoFs, " << solve.levels
                         << " levels: " << solve.iterations << " GMRES iterations (Galerkin), "
                         << rediscretised.iterations << " (rediscretised)");
      BOOST_TEST_INFO_SCOPE("p = " << p << ", " << name);
      BOOST_TEST(solve.levels >= 2);
      BOOST_TEST(solve.difference_to_direct <= 1e-4);
      BOOST_TEST(rediscretised.difference_to_direct <= 1e-4);
    }
  }
}

BOOST_AUTO_TEST_CASE(more_levels_than_the_hierarchy_are_refused) {
  const DgSystem system(unit_square(16), 1, poisson());
  const PolytopicMesh<2>& mesh = system.mesh;
  const petsc::AijMatrix& aij = system.aij;
  const std::vector<double>& rhs = system.rhs;
  HierarchyOptions options;
  options.max_levels = 2;
  options.coarsest_dofs = 50;
  const AgglomerationHierarchy<2> hierarchy(mesh, options);
  petsc::AgglomerationMultigrid multigrid(hierarchy);
  BOOST_TEST(multigrid.level_count() == 2);
  ScopedOption levels("-deep_pc_mg_levels", "3");
  ScopedOption ksp_type("-deep_ksp_type", "cg");
  const GlobalIndex n = GlobalIndex(rhs.size());
  petsc::Vector b(n), x(n);
  petsc::copy_to_vec(rhs, b.vec());
  const std::string message = error_message([&] {
    petsc::LinearSolver solver(
        aij.mat(), {.options_prefix = "deep_", .direct_solve_limit = 0, .dm = multigrid.dm()});
    solver.solve(b.vec(), x.vec());
  });
  BOOST_TEST(contains(message, "level 1 is the coarsest of the hierarchy's 2 levels"), message);
}

BOOST_AUTO_TEST_CASE(galerkin_and_rediscretised_mass_matrices_agree) {
  const auto mass = make_coefficients<2>().with_reaction(1.0);
  for (int p = 1; p <= 3; ++p) {
    const DgSystem system(unit_square(32), p, mass);
    HierarchyOptions options;
    options.coarsest_dofs = 50;
    const AgglomerationHierarchy<2> hierarchy(system.mesh, options);
    const petsc::AgglomerationMultigrid multigrid(hierarchy);
    const std::vector<petsc::AijMatrix> rediscretised =
        petsc::rediscretised_level_operators(hierarchy, BoundaryConditions::all_dirichlet(), mass);
    BOOST_TEST_REQUIRE(hierarchy.level_count() >= 3);  // degree and agglomeration levels
    for (int level = 0; level + 1 < hierarchy.level_count(); ++level) {
      BOOST_TEST_INFO_SCOPE("p = " << p << ", level " << level + 1 << " of "
                                   << hierarchy.level_count());
      const Mat fine = level == 0 ? system.aij.mat() : rediscretised[std::size_t(level)].mat();
      Mat galerkin = nullptr;
      POLYDG_PETSC_CALL(
          MatPtAP(fine, multigrid.prolongation(level), MAT_INITIAL_MATRIX, 2.0, &galerkin));
      PetscReal coarse_norm = 0, difference_norm = 0;
      const Mat coarse = rediscretised[std::size_t(level + 1)].mat();
      POLYDG_PETSC_CALL(MatNorm(coarse, NORM_FROBENIUS, &coarse_norm));
      POLYDG_PETSC_CALL(MatAXPY(galerkin, -1.0, coarse, DIFFERENT_NONZERO_PATTERN));
      POLYDG_PETSC_CALL(MatNorm(galerkin, NORM_FROBENIUS, &difference_norm));
      POLYDG_PETSC_CALL(MatDestroy(&galerkin));
      // Both are exact integrals of polynomials (rules of degree 2p): rounding only.
      BOOST_TEST(difference_norm <= 1e-12 * coarse_norm);
    }
  }
}

// The bounds the project set for the agglomeration multigrid: at most 15 iterations, growing
// by at most 2 from the coarsest to the finest of 4 meshes (a 64-fold refinement).
BOOST_AUTO_TEST_CASE(poisson_with_rediscretised_levels) {
  for (int p = 1; p <= 3; ++p) {
    std::vector<PetscInt> iterations;  // per size
    for (int cells : {16, 32, 64, 128}) {
      const DgSystem system(unit_square(cells), p, poisson());
      const MultigridSolve rediscretised = solve_with_multigrid(system, "cg", poisson());
      const MultigridSolve galerkin = solve_with_multigrid(system, "cg");
      BOOST_TEST_MESSAGE("SIPG Poisson p = " << p << ", " << rediscretised.dofs << " DoFs, "
                                             << rediscretised.levels
                                             << " levels: " << rediscretised.iterations
                                             << " CG iterations with rediscretised levels, "
                                             << galerkin.iterations << " with Galerkin levels");
      BOOST_TEST_INFO_SCOPE("p = " << p << ", " << cells << " cells per side");
      BOOST_TEST(rediscretised.levels >= 2);
      BOOST_TEST(rediscretised.iterations <= 15);
      BOOST_TEST(rediscretised.difference_to_direct <= 1e-4);  // as in the Galerkin test
      iterations.push_back(rediscretised.iterations);
    }
    BOOST_TEST_INFO_SCOPE("p = " << p);
    BOOST_TEST(std::abs(iterations.back() - iterations.front()) <= 2);
  }
}

BOOST_AUTO_TEST_CASE(rediscretised_levels_are_refused_by_name) {
  const DgSystem system(unit_square(16), 1, poisson());
  HierarchyOptions options;
  options.coarsest_dofs = 50;
  const AgglomerationHierarchy<2> hierarchy(system.mesh, options);
  petsc::AgglomerationMultigrid multigrid(hierarchy);
  ScopedOption galerkin("-none_pc_mg_galerkin", "none");
  const std::string message = error_message([&] {
    petsc::LinearSolver solver(
        system.aij.mat(),
        {.options_prefix = "none_", .direct_solve_limit = 0, .dm = multigrid.dm()});
  });
  BOOST_TEST(contains(message, "-none_pc_mg_galerkin none asks for rediscretised coarse operators"),
             message);
  BOOST_TEST(contains(message, "set_level_operators"), message);
}
