#define BOOST_TEST_MODULE dg_penalty_robustness
// The default penalty (PenaltyScaling::element_trace, docs/theory.md "Penalty") on polygons of
// K = 4, 16, 64 and 256 fine triangles, p = 1..4:
// * coercivity: the SIPG Poisson matrix is symmetric positive definite (a dense Cholesky
//   factorisation succeeds); [Dong2021]'s polytopic_cap is not at p = 1 on polygons of 256
//   triangles (the finding docs/theory.md records), so the check can fail;
// * optimal convergence, without pre-asymptotic growth: the L2 error of the anisotropic,
//   variable-coefficient advection–diffusion–reaction problem decays like h^(p+1) and the
//   DG-norm error like h^p (theory, for smooth solutions and a coercive, consistent method).
//   Rates are least-squares slopes over three levels of 32, 128 and 512 polygons against the
//   mean element size sqrt(|Ω| / elements), asserted ≥ the theoretical rate − 0.3: each level
//   is a new METIS agglomeration, so the constant in front of h^r changes from level to level
//   (the same allowance as test_convergence). Every level's error is below the previous one;
//   * the condition number, estimated by PETSc from the Lanczos process of unpreconditioned CG,
//   grows like h^-2 (the SIPG bound for a penalty ~ 1/h_κ): slope ≤ 2 + 0.3, the same allowance.
#include <petscksp.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <vector>

#include "convergence_study.hpp"
#include "dense_solver.hpp"
#include "log_log_slope.hpp"
#include "manufactured_problems.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/session.hpp"

using namespace polydg;

namespace {

struct PetscFixture {
  petsc::Session session;
  PetscFixture() { examples::default_to_direct_solver_unless_chosen(); }
};
BOOST_TEST_GLOBAL_FIXTURE(PetscFixture);

constexpr int cells_per_polygon[] = {4, 16, 64, 256};
constexpr int polygons_per_level[] = {32, 128, 512};

// The perturbed unit square with about `elements` · `cells` triangles (2n² = elements · cells).
std::shared_ptr<const SimplexMesh<2>> fine_mesh(int elements, int cells) {
  const int n = int(std::lround(std::sqrt(elements * cells / 2.0)));
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 17));
}

// The SIPG Poisson matrix (A = I, all Dirichlet) on `mesh`.
BlockMatrix<double> poisson_matrix(const PolytopicMesh<2>& mesh, PenaltyScaling scaling) {
  AssemblyOptions options;
  options.penalty_scaling = scaling;
  Assembler<2> assembler(mesh, BoundaryConditions::all_dirichlet(), options);
  BlockMatrix<double> matrix = assembler.make_matrix();
  assembler.assemble_matrix(examples::Poisson::coefficients(), matrix);
  return matrix;
}

// Whether the dense symmetric matrix is positive definite: Cholesky succeeds.
bool positive_definite(std::vector<double> a, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    double pivot = a[j * n + j];
    for (std::size_t k = 0; k < j; ++k) pivot -= a[j * n + k] * a[j * n + k];
    if (!(pivot > 0)) return false;
    const double root = std::sqrt(pivot);
    a[j * n + j] = root;
    for (std::size_t i = j + 1; i < n; ++i) {
      double sum = a[i * n + j];
      for (std::size_t k = 0; k < j; ++k) sum -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = sum / root;
    }
  }
  return true;
}

// λ_max / λ_min of the SPD matrix, from the Lanczos tridiagonal of unpreconditioned CG
// (KSPComputeExtremeSingularValues) run to a relative residual of 1e-10 on a fixed rhs.
double estimated_condition_number(const BlockMatrix<double>& matrix) {
  petsc::AijMatrix aij(matrix.pattern());
  aij.update(matrix);
  petsc::Vector b(matrix.pattern()), x(matrix.pattern());
  POLYDG_PETSC_CALL(VecSet(b.vec(), 1.0));
  KSP ksp;
  POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
  POLYDG_PETSC_CALL(KSPSetOperators(ksp, aij.mat(), aij.mat()));
  POLYDG_PETSC_CALL(KSPSetType(ksp, KSPCG));
  PC pc;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  POLYDG_PETSC_CALL(PCSetType(pc, PCNONE));
  POLYDG_PETSC_CALL(KSPSetTolerances(ksp, 1e-10, 1e-50, 1e10, 100000));
  POLYDG_PETSC_CALL(KSPSetComputeSingularValues(ksp, PETSC_TRUE));
  POLYDG_PETSC_CALL(KSPSolve(ksp, b.vec(), x.vec()));
  KSPConvergedReason reason;
  POLYDG_PETSC_CALL(KSPGetConvergedReason(ksp, &reason));
  PetscReal largest = 0, smallest = 0;
  POLYDG_PETSC_CALL(KSPComputeExtremeSingularValues(ksp, &largest, &smallest));
  POLYDG_PETSC_CALL(KSPDestroy(&ksp));
  BOOST_REQUIRE_MESSAGE(reason > 0, "CG did not converge (reason " << int(reason) << ")");
  return largest / smallest;
}

}  // namespace

BOOST_AUTO_TEST_CASE(poisson_matrix_is_positive_definite_on_polygons_of_many_triangles) {
  for (int cells : cells_per_polygon) {
    const auto fine = fine_mesh(16, cells);
    const Agglomeration parts = agglomerate_by_cell_count(*fine, cells);
    for (int p = 1; p <= 4; ++p) {
      const PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
      const BlockMatrix<double> matrix = poisson_matrix(mesh, PenaltyScaling::element_trace);
      const std::vector<double> dense = testing::dense_matrix(matrix);
      const std::size_t n = std::size_t(matrix.pattern().dof_count());
      double asymmetry = 0, largest = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          asymmetry = std::max(asymmetry, std::fabs(dense[i * n + j] - dense[j * n + i]));
          largest = std::max(largest, std::fabs(dense[i * n + j]));
        }
      BOOST_TEST_CONTEXT(cells << " triangles per polygon, p = " << p) {
        BOOST_TEST(asymmetry <= 1e-13 * largest);
        BOOST_TEST(positive_definite(dense, n));
      }
    }
    if (cells == 256) {
      const PolytopicMesh<2> mesh(fine, parts.element_of_cell, 1);
      const BlockMatrix<double> seed = poisson_matrix(mesh, PenaltyScaling::polytopic_cap);
      BOOST_TEST(
          !positive_definite(testing::dense_matrix(seed), std::size_t(seed.pattern().dof_count())),
          "polytopic_cap should lose coercivity at p = 1 here");
    }
  }
}

BOOST_AUTO_TEST_CASE(errors_converge_at_optimal_rates_whatever_the_polygon_size) {
  using Problem = examples::AdvectionDiffusionReaction;
  for (int cells : cells_per_polygon)
    for (int p = 1; p <= 4; ++p) {
      std::vector<double> h, l2, dg;
      for (int elements : polygons_per_level) {
        const auto result = examples::solve_level<Problem>(fine_mesh(elements, cells), cells, p);
        h.push_back(std::sqrt(1.0 / double(result.elements)));
        l2.push_back(result.l2_error);
        dg.push_back(result.dg_error);
      }
      const double l2_rate = testing::log_log_slope(h, l2), dg_rate = testing::log_log_slope(h, dg);
      BOOST_TEST_MESSAGE(cells << " triangles per polygon, p = " << p << ": L2 " << l2[0] << " "
                               << l2[1] << " " << l2[2] << " (rate " << l2_rate << "), DG " << dg[0]
                               << " " << dg[1] << " " << dg[2] << " (rate " << dg_rate << ")");
      BOOST_TEST_CONTEXT(cells << " triangles per polygon, p = " << p) {
        BOOST_TEST(l2_rate >= p + 1 - 0.3);
        BOOST_TEST(dg_rate >= p - 0.3);
        for (std::size_t level = 1; level < h.size(); ++level) {
          BOOST_TEST(l2[level] < l2[level - 1]);
          BOOST_TEST(dg[level] < dg[level - 1]);
        }
      }
    }
}

BOOST_AUTO_TEST_CASE(condition_number_grows_like_h_to_the_minus_two) {
  for (int cells : cells_per_polygon)
    for (int p = 1; p <= 2; ++p) {
      std::vector<double> h, condition;
      for (int elements : polygons_per_level) {
        const auto fine = fine_mesh(elements, cells);
        const PolytopicMesh<2> mesh(fine, agglomerate_by_cell_count(*fine, cells).element_of_cell,
                                    p);
        h.push_back(std::sqrt(1.0 / double(mesh.element_count())));
        condition.push_back(
            estimated_condition_number(poisson_matrix(mesh, PenaltyScaling::element_trace)));
      }
      const double growth = -testing::log_log_slope(h, condition);
      BOOST_TEST_MESSAGE(cells << " triangles per polygon, p = " << p << ": condition numbers "
                               << condition[0] << " " << condition[1] << " " << condition[2]
                               << " (growth h^-" << growth << ")");
      BOOST_TEST_CONTEXT(cells << " triangles per polygon, p = " << p)
      BOOST_TEST(growth <= 2 + 0.3);
    }
}
