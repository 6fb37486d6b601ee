#define BOOST_TEST_MODULE dg_convergence
// Optimal convergence of the IP-DG method on agglomerated polygons (~8 triangles each): for
// the manufactured problems of examples/manufactured_problems.hpp and p = 1, 2, 3, the L2 error
// decays at least like h^(p+1−0.2) and the DG-norm error like h^(p−0.2); pure advection like
// h^(p+0.5−0.2) in L2. Rates are least-squares slopes over three levels against the mean
// element size sqrt(|Ω| / elements) (the largest diameter jumps with the agglomeration).
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <vector>

#include "convergence_study.hpp"
#include "log_log_slope.hpp"
#include "manufactured_problems.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/petsc/session.hpp"

using namespace polydg;

namespace {

struct PetscFixture {
  petsc::Session session;
  PetscFixture() { examples::default_to_direct_solver_unless_chosen(); }
};
BOOST_TEST_GLOBAL_FIXTURE(PetscFixture);

struct Rates {
  double l2, dg;
};

template <class Problem>
Rates measure_rates(int p) {
  std::vector<double> h, l2, dg;
  for (int n : {16, 32, 64}) {
    const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 7));
    const auto result = examples::solve_level<Problem>(fine, 8, p);
    h.push_back(std::sqrt(1.0 / result.elements));
    l2.push_back(result.l2_error);
    dg.push_back(result.dg_error);
  }
  const Rates rates{testing::log_log_slope(h, l2), testing::log_log_slope(h, dg)};
  BOOST_TEST_MESSAGE(Problem::name << " p = " << p << ": L2 errors " << l2[0] << " " << l2[1] << " "
                                   << l2[2] << " rate " << rates.l2 << ", DG rate " << rates.dg);
  return rates;
}

template <class Problem>
void check_diffusive_problem() {
  for (int p = 1; p <= 3; ++p) {
    const Rates rates = measure_rates<Problem>(p);
    BOOST_TEST(rates.l2 >= p + 1 - 0.2, Problem::name << " p = " << p << " L2 rate " << rates.l2);
    BOOST_TEST(rates.dg >= p - 0.2, Problem::name << " p = " << p << " DG rate " << rates.dg);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(poisson) { check_diffusive_problem<examples::Poisson>(); }

BOOST_AUTO_TEST_CASE(advection_diffusion_reaction) {
  check_diffusive_problem<examples::AdvectionDiffusionReaction>();
}

BOOST_AUTO_TEST_CASE(mixed_dirichlet_neumann) {
  check_diffusive_problem<examples::MixedBoundary>();
}

BOOST_AUTO_TEST_CASE(pure_advection) {
  for (int p = 1; p <= 3; ++p) {
    const Rates rates = measure_rates<examples::PureAdvection>(p);
    BOOST_TEST(rates.l2 >= p + 0.5 - 0.2, "pure advection p = " << p << " L2 rate " << rates.l2);
  }
}
