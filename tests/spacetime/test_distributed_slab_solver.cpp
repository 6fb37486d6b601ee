#define BOOST_TEST_MODULE distributed_slab_solver
// SlabSolver under `mpiexec -n N` (ctest runs N = 1, 2, 3) on rank parts read from their files
// (SpatialPart: no rank holds the whole mesh) against SlabSolver on the whole mesh, which it
// partitions over the same ranks itself: [Dong2021]'s heat problem on agglomerated polygons,
// P_2, four steps, GMRES with block-Jacobi ILU to rtol 1e-12 in both:
//  * the error at the top of every slab, summed over the ranks, agrees to 1e-8 relative (the
//    two solves stop within rtol of one discrete solution; the partitions differ);
//  * the part's solver has the whole mesh's global unknown count;
//  * -pc_type mg, which coarsens the whole mesh, is refused by name on a part.
#include <mpi.h>
#include <petscsys.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "heat_problem.hpp"
#include "petsc/petsc_test_support.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/rank_part_file.hpp"
#include "polydg/petsc/world.hpp"
#include "polydg/spacetime/slab_errors.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"
#include "ranks_scratch_folder.hpp"

using namespace polydg;
using testing::error_names;
using testing::PetscTestSession;

BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

namespace {

constexpr double pi = std::numbers::pi;
constexpr int cut_tag = 100;
constexpr int steps = 4;

void set_march_options() {
  PetscOptionsSetValue(nullptr, "-ksp_type", "gmres");
  PetscOptionsSetValue(nullptr, "-ksp_gmres_restart", "200");
  PetscOptionsSetValue(nullptr, "-pc_type", "bjacobi");
  PetscOptionsSetValue(nullptr, "-sub_pc_type", "ilu");
  PetscOptionsSetValue(nullptr, "-ksp_rtol", "1e-12");
}

/// The error at the top of each slab, its squares summed over the ranks.
template <class Solver>
std::vector<double> march(Solver& solver) {
  solver.set_initial_condition(
      [](const Point<2>& x) { return std::sin(pi * x[0]) * std::sin(pi * x[1]); });
  std::vector<double> errors;
  for (int k = 1; k <= steps; ++k) {
    solver.step(double(k) / steps);
    const SlabErrors e =
        compute_slab_errors(solver.assembler().quadrature_mesh(), *solver.assembler().pattern(),
                            solver.solution(), testing::heat_solution);
    errors.push_back(std::sqrt(petsc::sum_over_ranks(e.top_l2_squared)));
  }
  return errors;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_march_on_parts_read_from_files_is_the_whole_meshs_march) {
  set_march_options();
  const int rank = petsc::world_rank(), ranks = petsc::world_rank_count();
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(16, 0.2, 11));
  const Agglomeration agglomeration = agglomerate(*fine, 60);
  const PolytopicMesh<2> spatial(fine, agglomeration.element_of_cell, 2);
  const auto data = space_time_coefficients(testing::heat_data());
  SlabSolverOptions options;
  options.coefficients_depend_on_time = false;

  SlabSolver whole(spatial, BoundaryConditions::all_dirichlet(), data, options);
  const std::vector<double> whole_errors = march(whole);

  // The parts: written by rank 0, read by every rank.
  RankPart<2> part;
  {
    const testing::RanksScratchFolder folder("polydg_slab_parts");
    petsc::on_every_rank([&] {
      if (rank == 0)
        write_rank_parts<2>(folder.path(), *fine, agglomeration.element_of_cell,
                            partition_mesh(spatial, ranks), cut_tag);
    });
    petsc::on_every_rank([&] { part = read_rank_part<2>(folder.path(), rank, ranks); });
  }
  const hyperbolic::ElementHalo halo(part.halo);
  const PolytopicMesh<2> piece(part.submesh.mesh, part.submesh.element_of_cell, 2);
  const SpatialPart spatial_part{piece, part.submesh.owned_count, part.cut_tag, halo};

  SlabSolver from_part(spatial_part, BoundaryConditions::all_dirichlet(), data, options);
  BOOST_TEST(from_part.rank_rows().global_dof_count() == whole.rank_rows().global_dof_count());
  const std::vector<double> part_errors = march(from_part);
  for (int k = 0; k < steps; ++k)
    BOOST_TEST(part_errors[std::size_t(k)] == whole_errors[std::size_t(k)],
               boost::test_tools::tolerance(1e-8));
  // The errors are of a converging march, not of nothing (P_2, 60 polygons: about 1e-3).
  BOOST_TEST(whole_errors.back() < 1e-2);

  PetscOptionsSetValue(nullptr, "-pc_type", "mg");
  BOOST_TEST(error_names(
      [&] { SlabSolver(spatial_part, BoundaryConditions::all_dirichlet(), data, options); },
      {"pc_type mg", "rank part read from its file"}));
  PetscOptionsClearValue(nullptr, "-pc_type");
}
