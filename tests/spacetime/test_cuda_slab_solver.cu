// DeviceSlabSolver (polydg/spacetime/device_slab_solver.hpp): the march with every assembly on
// the GPU, its data evaluated on the host at the quadrature points (SlabData::host, the
// precompiled kernels) or in the kernels (SlabData::device_functors, the template path).
//  * It reproduces a polynomial in (x, y, t) over slabs of different lengths, to 1e-10, as
//    SlabSolver does — with the matrix re-assembled exactly when the time step changes, and
//    the previous slab's solution read on the device.
//  * On the heat problem (u = sin(πx) sin(πy)(1 − t)), P_1 and P_2, coefficients depending on t
//    or not, its solutions equal SlabSolver's to 1e-10 relative at every step, and so do its
//    errors at T — with either data evaluation.
//  * With its products through the GPU's dense block format (SlabProducts::dense_blocks) and ILU
//    from the AIJ matrix, it takes the iterations of the AIJ products to the same solutions.
//  * With -pc_type mg (the agglomeration multigrid, coarse levels rediscretised on the GPU) it
//    takes the CPU multigrid's levels and iterations (±1) to the same solutions.
//  * A step without an initial condition, or one that does not move forward, is refused, naming
//    what is wrong.
// Direct solves (-ksp_type preonly -pc_type lu), so the two differ only by their assemblies
// (~1e-15). Exits 77 (ctest: Skipped) without a device.
#define BOOST_TEST_MODULE cuda_slab_solver
#include "gpu_test_main.hpp"
// (first: error_message.hpp includes Boost.Test, which would define a main)
#include <petscksp.h>
#include <petscsys.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "gpu_test_support.hpp"
#include "iterative_march_options.hpp"
#include "polydg/cuda/device_slab_solver.cuh"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/spacetime/slab_errors.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"

using namespace polydg;
using testing::contains;
using testing::error_message;
using testing::relative_difference;

namespace {

constexpr double pi = std::numbers::pi;

// PETSc for the whole suite, with the test's command line; direct solves by default.
struct PetscFixture {
  petsc::Session session{boost::unit_test::framework::master_test_suite().argc,
                         boost::unit_test::framework::master_test_suite().argv};
  PetscFixture() {
    PetscOptionsSetValue(nullptr, "-ksp_type", "preonly");
    PetscOptionsSetValue(nullptr, "-pc_type", "lu");
  }
};
BOOST_TEST_GLOBAL_FIXTURE(PetscFixture);

PolytopicMesh<2> polygons(int n, int p) {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 11));
  return PolytopicMesh<2>(fine, agglomerate_by_cell_count(*fine, 8).element_of_cell, p);
}

// Two problems in one set of coefficient types (each type compiles every assembly kernel
// again): kind 0, a quadratic in (x, y, t) with the source of u_t − Δu + w·∇u + u for
// w = (0.3, −0.2); kind 1, the heat problem, a = 1, c = 1, w = 0,
// u = sin(πx) sin(πy)(1 − t).
struct Solution {
  int kind;
  POLYDG_HD double operator()(const Point<3>& x) const {
    if (kind == 0)
      return 1 + x[0] + 2 * x[1] + 3 * x[2] + 0.5 * x[0] * x[2] + x[2] * x[2] - x[0] * x[1];
    return sin(pi * x[0]) * sin(pi * x[1]) * (1 - x[2]);
  }
};
struct Source {
  int kind;
  POLYDG_HD double operator()(const Point<3>& x) const {
    if (kind == 0) {
      const double u_t = 3 + 0.5 * x[0] + 2 * x[2];
      const double u_x = 1 + 0.5 * x[2] - x[1], u_y = 2 - x[0];
      return u_t + 0.3 * u_x - 0.2 * u_y + Solution{0}(x);
    }
    const double s = sin(pi * x[0]) * sin(pi * x[1]);
    return -s + (2 * pi * pi + 1) * s * (1 - x[2]);
  }
};
/// u at time t, as a function of the spatial point.
struct Initial {
  int kind;
  double t;
  POLYDG_HD double operator()(const Point<2>& x) const {
    return Solution{kind}(Point<3>{{x[0], x[1], t}});
  }
};

auto problem(int kind) {
  return space_time_coefficients(
      make_coefficients<2>()
          .with_diffusion(1.0)
          .with_advection(kind == 0 ? Point<2>{{0.3, -0.2}} : Point<2>{{0.0, 0.0}})
          .with_reaction(1.0)
          .with_source(Source{kind})
          .with_dirichlet(Solution{kind}));
}
using Problem = decltype(problem(0));

template <class Solver, class Exact>
SlabErrors errors_of(const Solver& solver, const Exact& exact) {
  return compute_slab_errors(solver.assembler().quadrature_mesh(),
                             *solver.assembler().host_pattern(), solver.solution(), exact);
}

template <class Solver, class Exact>
SlabErrors cpu_errors_of(const Solver& solver, const Exact& exact) {
  return compute_slab_errors(solver.assembler().quadrature_mesh(), *solver.assembler().pattern(),
                             solver.solution(), exact);
}

template <SlabData evaluation>
void polynomial_reproduced_over_slabs() {
  SlabSolverOptions options;
  options.coefficients_depend_on_time = false;
  DeviceSlabSolver<Problem, Initial, evaluation> solver(
      polygons(8, 2), BoundaryConditions::all_dirichlet(), problem(0), options);
  solver.set_initial_condition(Initial{0, 0.1}, 0.1);
  // Steps 0.1, 0.1, 0.15, 0.05: the matrix is assembled on steps 1, 3 and 4 only.
  const bool assembled[] = {true, false, true, true};
  int n = 0;
  for (double t : {0.2, 0.3, 0.45, 0.5}) {
    const SlabStep step = solver.step(t);
    const SlabErrors errors = errors_of(solver, Solution{0});
    BOOST_TEST_MESSAGE("quadratic (data on the "
                       << (evaluation == SlabData::host ? "host" : "device") << "), t = " << t
                       << ": slab error " << std::sqrt(errors.slab_l2_squared) << ", top error "
                       << std::sqrt(errors.top_l2_squared) << ", matrix "
                       << (step.matrix_assembled ? "assembled" : "reused"));
    BOOST_TEST_INFO_SCOPE("t = " << t);
    BOOST_TEST(std::sqrt(errors.slab_l2_squared) < 1e-10);
    BOOST_TEST(std::sqrt(errors.top_l2_squared) < 1e-10);
    BOOST_TEST(step.matrix_assembled == assembled[n]);
    BOOST_TEST(step.n == n + 1);
    BOOST_TEST(solver.time() == t);
    ++n;
  }
}

template <SlabData evaluation>
void heat_equals_cpu_march(int p, bool coefficients_depend_on_time) {
  const Problem data = problem(1);
  SlabSolverOptions options;
  options.coefficients_depend_on_time = coefficients_depend_on_time;
  const PolytopicMesh<2> mesh = polygons(10, p);
  DeviceSlabSolver<Problem, Initial, evaluation> gpu(mesh, BoundaryConditions::all_dirichlet(),
                                                     data, options);
  SlabSolver cpu(mesh, BoundaryConditions::all_dirichlet(), data, options);
  gpu.set_initial_condition(Initial{1, 0}, 0);
  cpu.set_initial_condition([](const Point<2>& x) { return Initial{1, 0}(x); }, 0);
  double worst = 0;
  for (int n = 1; n <= 4; ++n) {
    const double t = n * 0.05;
    const SlabStep gpu_step = gpu.step(t), cpu_step = cpu.step(t);
    BOOST_TEST_INFO_SCOPE("step " << n << ", t = " << t);
    BOOST_TEST(gpu_step.matrix_assembled == cpu_step.matrix_assembled);
    BOOST_TEST(gpu_step.matrix_assembled == (n == 1 || coefficients_depend_on_time));
    const double difference = relative_difference(gpu.solution(), cpu.solution());
    worst = std::max(worst, difference);
    BOOST_TEST(difference <= 1e-10);
  }
  const SlabErrors gpu_errors = errors_of(gpu, Solution{1});
  const SlabErrors cpu_errors = cpu_errors_of(cpu, Solution{1});
  const double gpu_top = std::sqrt(gpu_errors.top_l2_squared);
  const double cpu_top = std::sqrt(cpu_errors.top_l2_squared);
  BOOST_TEST_MESSAGE("heat P_" << p << " (coefficients "
                               << (coefficients_depend_on_time ? "depend on" : "do not depend on")
                               << " t, data on the "
                               << (evaluation == SlabData::host ? "host" : "device")
                               << "): |GPU - CPU| / |CPU| of the solutions <= " << worst
                               << "; error at T " << gpu_top << " (GPU), " << cpu_top << " (CPU)");
  BOOST_TEST(std::abs(gpu_top - cpu_top) <= 1e-10 * cpu_top);
  BOOST_TEST(cpu_top < 0.1);  // a solution, not noise: ‖u(T)‖ = 0.4, P_1 is 0.047 off
}

// SlabProducts::dense_blocks: the KSP's products on the GPU (a MATSHELL over a
// DeviceDenseBlockMatrix refreshed from the assembler's values on the device, host Vecs staged),
// ILU built from the AIJ matrix. The same iterations and solutions as the march whose products
// use the AIJ, at steps that assemble the matrix and one that reuses it.
void dense_block_products_on_the_gpu_equal_aij_products() {
  SlabSolverOptions options;
  options.coefficients_depend_on_time = false;
  options.solver.options_prefix = testing::set_iterative_march_options();
  const PolytopicMesh<2> mesh = polygons(10, 2);
  DeviceFunctorSlabSolver<Problem, Initial> aij(mesh, BoundaryConditions::all_dirichlet(),
                                                problem(1), options);
  options.products = SlabProducts::dense_blocks;
  DeviceFunctorSlabSolver<Problem, Initial> shell(mesh, BoundaryConditions::all_dirichlet(),
                                                  problem(1), options);
  aij.set_initial_condition(Initial{1, 0}, 0);
  shell.set_initial_condition(Initial{1, 0}, 0);
  for (double t : {0.05, 0.1, 0.2}) {  // the matrix assembled, reused, assembled again
    const SlabStep aij_step = aij.step(t), shell_step = shell.step(t);
    const double difference = relative_difference(shell.solution(), aij.solution());
    BOOST_TEST_MESSAGE("GPU shell products, t = "
                       << t << ": " << shell_step.iterations << " iterations (shell), "
                       << aij_step.iterations << " (AIJ), |shell - AIJ| / |AIJ| = " << difference);
    BOOST_TEST_INFO_SCOPE("t = " << t);
    BOOST_TEST(shell_step.matrix_assembled == aij_step.matrix_assembled);
    BOOST_TEST(shell_step.iterations > 1);
    BOOST_TEST(shell_step.iterations == aij_step.iterations);
    BOOST_TEST(difference <= 1e-9);
  }
}

// -pc_type mg: the agglomeration multigrid with every coarse level rediscretised — on the GPU
// (DeviceSlabLevelOperators; device Vecs and MATAIJCUSPARSE where PETSc has CUDA) and on the CPU
// (SlabLevelOperators). Same hierarchy, same level operators up to the assemblies' last bits:
// the same number of levels, iterations within one of each other (sums in other orders move
// where rtol is crossed) and the same solutions, at steps that assemble the matrix and one that
// reuses it. GMRES(100) with refinement to 1e-10.
template <SlabData evaluation>
void multigrid_march_equals_cpu_march() {
  PetscOptionsSetValue(nullptr, "-multigrid_ksp_type", "gmres");
  PetscOptionsSetValue(nullptr, "-multigrid_ksp_gmres_restart", "100");
  PetscOptionsSetValue(nullptr, "-multigrid_ksp_gmres_cgs_refinement_type", "refine_always");
  PetscOptionsSetValue(nullptr, "-multigrid_pc_type", "mg");
  PetscOptionsSetValue(nullptr, "-multigrid_ksp_rtol", "1e-10");
  SlabSolverOptions options;
  options.coefficients_depend_on_time = false;
  options.solver.options_prefix = "multigrid_";
  // 2304 polygons, 23,040 P_2 unknowns: three levels above HierarchyOptions::coarsest_dofs.
  const PolytopicMesh<2> mesh = polygons(96, 2);
  DeviceSlabSolver<Problem, Initial, evaluation> gpu(mesh, BoundaryConditions::all_dirichlet(),
                                                     problem(1), options);
  SlabSolver cpu(mesh, BoundaryConditions::all_dirichlet(), problem(1), options);
  gpu.set_initial_condition(Initial{1, 0}, 0);
  cpu.set_initial_condition([](const Point<2>& x) { return Initial{1, 0}(x); }, 0);
  for (double t : {0.05, 0.1, 0.2}) {  // the matrix assembled, reused, assembled again
    const SlabStep gpu_step = gpu.step(t), cpu_step = cpu.step(t);
    PC gpu_pc, cpu_pc;
    PetscInt gpu_levels = 0, cpu_levels = 0;
    KSPGetPC(gpu.linear_solver().ksp(), &gpu_pc);
    KSPGetPC(cpu.linear_solver().ksp(), &cpu_pc);
    PCMGGetLevels(gpu_pc, &gpu_levels);
    PCMGGetLevels(cpu_pc, &cpu_levels);
    const double difference = relative_difference(gpu.solution(), cpu.solution());
    BOOST_TEST_MESSAGE("multigrid (data on the "
                       << (evaluation == SlabData::host ? "host" : "device") << "), t = " << t
                       << ": " << gpu_levels << " levels, " << gpu_step.iterations
                       << " iterations (GPU), " << cpu_step.iterations
                       << " (CPU), |GPU - CPU| / |CPU| = " << difference);
    BOOST_TEST_INFO_SCOPE("t = " << t);
    BOOST_TEST(gpu_levels >= 3);
    BOOST_TEST(gpu_levels == cpu_levels);
    BOOST_TEST(gpu_step.matrix_assembled == cpu_step.matrix_assembled);
    BOOST_TEST(std::abs(gpu_step.iterations - cpu_step.iterations) <= 1);
    BOOST_TEST(difference <= 1e-8);
  }
}

void bad_steps_are_refused() {
  DeviceFunctorSlabSolver<Problem, Initial> solver(polygons(4, 1),
                                                   BoundaryConditions::all_dirichlet(), problem(1));
  BOOST_TEST(contains(error_message([&] { solver.step(0.1); }), "no initial condition"));
  solver.set_initial_condition(Initial{1, 0.5}, 0.5);
  BOOST_TEST(contains(error_message([&] { solver.step(0.5); }), "is not after t = 0.5"));
}

}  // namespace

BOOST_AUTO_TEST_CASE(polynomial_reproduced_over_slabs_data_in_the_kernels) {
  polynomial_reproduced_over_slabs<SlabData::device_functors>();
}

BOOST_AUTO_TEST_CASE(polynomial_reproduced_over_slabs_data_on_the_host) {
  polynomial_reproduced_over_slabs<SlabData::host>();
}

// P_1 with coefficients depending on t (the matrix assembled every step), P_2 without.
BOOST_AUTO_TEST_CASE(heat_p1_equals_cpu_march_data_in_the_kernels) {
  heat_equals_cpu_march<SlabData::device_functors>(1, true);
}

BOOST_AUTO_TEST_CASE(heat_p2_equals_cpu_march_data_in_the_kernels) {
  heat_equals_cpu_march<SlabData::device_functors>(2, false);
}

BOOST_AUTO_TEST_CASE(heat_p1_equals_cpu_march_data_on_the_host) {
  heat_equals_cpu_march<SlabData::host>(1, true);
}

BOOST_AUTO_TEST_CASE(heat_p2_equals_cpu_march_data_on_the_host) {
  heat_equals_cpu_march<SlabData::host>(2, false);
}

BOOST_AUTO_TEST_CASE(dense_block_products_equal_aij_products) {
  dense_block_products_on_the_gpu_equal_aij_products();
}

BOOST_AUTO_TEST_CASE(multigrid_equals_cpu_multigrid_data_in_the_kernels) {
  multigrid_march_equals_cpu_march<SlabData::device_functors>();
}

BOOST_AUTO_TEST_CASE(multigrid_equals_cpu_multigrid_data_on_the_host) {
  multigrid_march_equals_cpu_march<SlabData::host>();
}

BOOST_AUTO_TEST_CASE(bad_steps_are_refused_naming_why) { bad_steps_are_refused(); }
