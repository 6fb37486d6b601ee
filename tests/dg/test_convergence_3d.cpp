#define BOOST_TEST_MODULE dg_convergence_3d
// Optimal convergence of the IP-DG method on polyhedra agglomerated from tetrahedra (~4 each,
// seed 004's 3D setting), for the 3D manufactured problems (examples/manufactured_problems_3d.hpp):
// the L2 error decays at least like h^(p+1−0.2), the DG-norm error like h^(p−0.2), pure
// advection like h^(p+0.5−0.2) in L2. Rates are slopes between two levels against the mean
// element size (|Ω| / elements)^(1/3): the unit cube of tetrahedra (unit_cube_mesh, vertices
// perturbed by 0.1 h) with n = 8 and 16 cubes per side (768 and about 6,140 polyhedra), and a
// Gmsh box with physical surfaces refined once and twice.
//
// p = 1 on polyhedra reaches its L2 rate late: the penalty pushes the solution toward the
// continuous piecewise-linear functions, which on polyhedra are few (docs/theory.md,
// "Convergence on polyhedra"). Its rates are taken between n = 16 and 32 on the rounder
// polyhedra of greedy growth (1.82 there; METIS k-way's 1.74), and on the tetrahedra themselves
// between n = 8 and 16.
// Solvers: GMRES with the agglomeration multigrid (-pc_type mg) for the diffusive problems,
// ILU for pure advection (upwind blocks, nearly triangular).
#include <petscsys.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <vector>

#include "convergence_study.hpp"
#include "manufactured_problems_3d.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/refinement.hpp"
#include "polydg/petsc/session.hpp"

using namespace polydg;

namespace {

struct PetscFixture {
  petsc::Session session;
};
BOOST_TEST_GLOBAL_FIXTURE(PetscFixture);

using FineMesh = std::shared_ptr<const SimplexMesh<3>>;

struct Rates {
  double l2, dg;
};

enum class Solver { multigrid, ilu };

void use_solver(Solver solver) {
  PetscOptionsSetValue(nullptr, "-ksp_type", "gmres");
  PetscOptionsSetValue(nullptr, "-ksp_rtol", "1e-12");
  PetscOptionsSetValue(nullptr, "-pc_type", solver == Solver::multigrid ? "mg" : "ilu");
}

FineMesh cube(int n) { return std::make_shared<const SimplexMesh<3>>(unit_cube_mesh(n, 0.1, 7)); }

/// The rates between the two fine meshes, each agglomerated into polyhedra of about
/// `cells_per_element` tetrahedra.
template <class Problem>
Rates measure_rates(const FineMesh& coarse, const FineMesh& fine, double cells_per_element, int p,
                    Solver solver, const std::optional<BoundaryConditions>& conditions = {},
                    const AgglomerationOptions& agglomeration = {}) {
  use_solver(solver);
  const auto a = examples::solve_level<Problem>(coarse, cells_per_element, p, conditions, "", {},
                                                agglomeration);
  const auto b =
      examples::solve_level<Problem>(fine, cells_per_element, p, conditions, "", {}, agglomeration);
  const double h_ratio = std::cbrt(double(b.elements) / double(a.elements));
  const Rates rates{std::log(a.l2_error / b.l2_error) / std::log(h_ratio),
                    std::log(a.dg_error / b.dg_error) / std::log(h_ratio)};
  BOOST_TEST_MESSAGE(Problem::name << " p = " << p << ", " << a.elements << " -> " << b.elements
                                   << " elements: L2 errors " << a.l2_error << " " << b.l2_error
                                   << " rate " << rates.l2 << ", DG errors " << a.dg_error << " "
                                   << b.dg_error << " rate " << rates.dg);
  return rates;
}

template <class Problem>
void check_diffusive_problem(std::initializer_list<int> degrees) {
  const FineMesh coarse = cube(8), fine = cube(16);
  for (int p : degrees) {
    const Rates rates = measure_rates<Problem>(coarse, fine, 4, p, Solver::multigrid);
    BOOST_TEST(rates.l2 >= p + 1 - 0.2, Problem::name << " p = " << p << " L2 rate " << rates.l2);
    BOOST_TEST(rates.dg >= p - 0.2, Problem::name << " p = " << p << " DG rate " << rates.dg);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(poisson) { check_diffusive_problem<examples::Poisson3D>({2, 3}); }

BOOST_AUTO_TEST_CASE(mixed_dirichlet_neumann) {
  check_diffusive_problem<examples::MixedBoundary3D>({2});
}

BOOST_AUTO_TEST_CASE(advection_diffusion_reaction) {
  check_diffusive_problem<examples::AdvectionDiffusionReaction3D>({2});
}

BOOST_AUTO_TEST_CASE(pure_advection) {
  const int p = 2;
  const Rates rates =
      measure_rates<examples::PureAdvection3D>(cube(8), cube(16), 4, p, Solver::ilu);
  BOOST_TEST(rates.l2 >= p + 0.5 - 0.2, "pure advection p = " << p << " L2 rate " << rates.l2);
}

// p = 1: the L2 rate on tetrahedra (each its own element), the DG-norm rate on polyhedra.
BOOST_AUTO_TEST_CASE(degree_one) {
  const Rates tetrahedra =
      measure_rates<examples::Poisson3D>(cube(8), cube(16), 1, 1, Solver::multigrid);
  BOOST_TEST(tetrahedra.l2 >= 2 - 0.2, "p = 1 on tetrahedra: L2 rate " << tetrahedra.l2);
  BOOST_TEST(tetrahedra.dg >= 1 - 0.2, "p = 1 on tetrahedra: DG rate " << tetrahedra.dg);
  // Greedy growth: METIS k-way takes 17 s for the 49 k parts of n = 32.
  AgglomerationOptions greedy;
  greedy.method = PartitionMethod::greedy_growth;
  const Rates polyhedra =
      measure_rates<examples::Poisson3D>(cube(16), cube(32), 4, 1, Solver::multigrid, {}, greedy);
  BOOST_TEST(polyhedra.l2 >= 2 - 0.2, "p = 1 on polyhedra: L2 rate " << polyhedra.l2);
  BOOST_TEST(polyhedra.dg >= 1 - 0.2, "p = 1 on polyhedra: DG rate " << polyhedra.dg);
}

// A Gmsh domain with physical surfaces (the box [0,1]×[0,2]×[0,0.5]: tags 1 bottom, 2 top,
// 3 sides), refined once and twice: Dirichlet on the bottom and the sides, Neumann on the top.
// Polyhedra of about 2 tetrahedra: the file's 624 tetrahedra are coarse, and agglomerates of 4
// reach the asymptotic rate only a level later than a test can afford (docs/theory.md,
// "Convergence on polyhedra").
BOOST_AUTO_TEST_CASE(gmsh_box_with_a_neumann_face) {
  const auto level1 = std::make_shared<const SimplexMesh<3>>(
      refine(read_gmsh<3>(POLYDG_TEST_DATA_DIR "/gmsh/box_v41.msh")));
  const auto level2 = std::make_shared<const SimplexMesh<3>>(refine(*level1));
  const BoundaryConditions conditions = BoundaryConditions()
                                            .set(1, BoundaryKind::dirichlet)
                                            .set(3, BoundaryKind::dirichlet)
                                            .set(2, BoundaryKind::neumann);
  const int p = 2;
  const Rates rates =
      measure_rates<examples::MixedBoundary3D>(level1, level2, 2, p, Solver::multigrid, conditions);
  BOOST_TEST(rates.l2 >= p + 1 - 0.2, "Gmsh box p = 2 L2 rate " << rates.l2);
  BOOST_TEST(rates.dg >= p - 0.2, "Gmsh box p = 2 DG rate " << rates.dg);
}
