#define BOOST_TEST_MODULE distributed_explicit
// The explicit solvers on a partitioned mesh under `mpiexec -n N` (ctest runs N = 1, 2, 3):
// RankSubmesh (each rank's owned elements, then its ghosts, as a mesh of their own), ElementHalo
// and DistributedExplicitDG against one rank's march on the whole mesh, which every rank also
// computes:
//  * the rank submeshes: the owned elements, over the ranks, are every element once; each local
//    element has its whole-mesh cells (count and measure); the cut tag bounds ghosts only; a
//    halo of a partition for another rank count, and a partition with an empty part, are
//    refused;
//  * the rotating hill (linear advection, RK4) on agglomerated polygons, p = 2: the same time
//    steps, and every owned coefficient at T that of the whole mesh's march (1e-12 of the
//    solution's size: the same operations up to the order of a ghost's facet sums), and the
//    owned elements' L2 errors summed over the ranks the whole mesh's;
//  * a coarse double Mach reflection (Euler on triangles, SSP-RK2 with the Barth–Jespersen
//    limiter and the positivity fix as the stage limiter, its limited stages the halo's
//    business): the whole mesh's coefficients to 1e-10 of their size after 20 steps, with the
//    limiter active; and the stage limiter on random data whose ghost entries are wrong limits
//    the owned elements as the whole mesh's limiter does;
//  * parts written to their files by rank 0 and read back by each rank (rank_part_file.hpp):
//    their halo is the partition's, and their march the in-memory part's, bit for bit; parts
//    of two partitions mixed, and a damaged file on one rank, throw on every rank.

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <vector>

#include "error_message.hpp"
#include "owned_difference.hpp"
#include "petsc/petsc_test_support.hpp"
#include "polydg/hyperbolic/distributed_explicit_dg.hpp"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/rank_part_file.hpp"
#include "polydg/mesh/rank_submesh.hpp"
#include "polydg/petsc/world.hpp"
#include "ranks_scratch_folder.hpp"
#include "unit_square_hill.hpp"

using namespace polydg;
using namespace polydg::hyperbolic;
using testing::error_names;
using testing::identity;
using testing::owned_difference;
using testing::PetscTestSession;

namespace {

constexpr int cut_tag = 1000;

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

BOOST_AUTO_TEST_CASE(rank_submeshes_hold_each_element_once_with_its_cells) {
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(16, 0.2, 7));
  const Agglomeration parts = agglomerate(*fine, 120);
  const PolytopicMesh<2> polygons(fine, parts.element_of_cell, 1);
  const MeshPartition partition = partition_mesh(polygons, petsc::world_rank_count());
  const int rank = petsc::world_rank();
  const RankSubmesh<2> part = rank_submesh(*fine, parts.element_of_cell, partition, rank, cut_tag);
  BOOST_TEST(part.owned_count == partition.owned_count(rank));
  BOOST_TEST(part.element_count() == part.owned_count + partition.ghost_count(rank));
  BOOST_TEST(petsc::sum_over_ranks(double(part.owned_count)) == double(polygons.element_count()));
  // Each local element: its cells, with the whole mesh's measures.
  std::vector<Index> cells(std::size_t(part.element_count()), 0);
  std::vector<double> measure(std::size_t(part.element_count()), 0);
  for (Index c = 0; c < part.mesh->cell_count(); ++c) {
    const Index k = part.element_of_cell[std::size_t(c)];
    ++cells[std::size_t(k)];
    measure[std::size_t(k)] += part.mesh->cell_measure(c);
    BOOST_TEST(parts.element_of_cell[std::size_t(part.fine_cell[std::size_t(c)])] ==
               part.element[std::size_t(k)]);
  }
  for (Index k = 0; k < part.element_count(); ++k) {
    const Index e = part.element[std::size_t(k)];
    BOOST_TEST(cells[std::size_t(k)] == polygons.element_cells(e).size());
    BOOST_TEST(std::abs(measure[std::size_t(k)] - polygons.element_measure(e)) <=
               1e-14 * polygons.element_measure(e));
  }
  // The cut bounds ghosts only; the fine boundary keeps its tags.
  for (Index f = 0; f < part.mesh->facet_count(); ++f) {
    if (!part.mesh->is_boundary_facet(f)) continue;
    const Index k = part.element_of_cell[std::size_t(part.mesh->facet_cells(f)[0])];
    if (part.mesh->facet_tag(f) == cut_tag)
      BOOST_TEST(k >= part.owned_count);
    else
      BOOST_TEST(part.mesh->facet_tag(f) != interior_facet_tag);
  }
  BOOST_CHECK_THROW(rank_submesh(*fine, parts.element_of_cell, partition, rank, 1), Error);
  // A part with no element is refused by every rank alike (each computes the same partition),
  // so no rank waits for one whose solver could not be built.
  const MeshPartition lopsided =
      partition_from_parts(polygons, std::vector<int>(std::size_t(polygons.element_count()), 0),
                           petsc::world_rank_count() + 1);
  BOOST_TEST(error_names(
      [&] { rank_submesh(*fine, parts.element_of_cell, lopsided, rank, cut_tag); },
      {"rank_submesh: the partition leaves", "without an element", "run on fewer ranks"}));
  // A partition for another rank count has no halo here (its messages would go nowhere).
  BOOST_CHECK_THROW(ElementHalo(partition_mesh(polygons, petsc::world_rank_count() + 1), rank),
                    Error);
}

BOOST_AUTO_TEST_CASE(the_rotating_hill_on_polygons_is_the_whole_meshs_march) {
  const auto law = testing::unit_square_hill_law();
  const testing::UnitSquareHill exact;
  const auto boundary = exact_boundary(exact);
  const auto initial = [&](const Point<2>& x) { return exact(x, 0.0); };
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(16, 0.2, 7));
  const Agglomeration parts = agglomerate(*fine, 128);
  const int p = 2;
  const double t_end = 0.05, cfl = 0.5;

  ExplicitPolygonDG whole_dg(PolytopicMesh<2>(fine, parts.element_of_cell, p), p, law);
  auto whole = whole_dg.project(initial);
  const TimeSteppingStatistics whole_steps =
      TimeStepper(whole_dg, TimeScheme::rk4).advance(whole, 0.0, t_end, boundary, cfl);

  const MeshPartition partition =
      partition_mesh(PolytopicMesh<2>(fine, parts.element_of_cell, p), petsc::world_rank_count());
  const int rank = petsc::world_rank();
  const RankSubmesh<2> part = rank_submesh(*fine, parts.element_of_cell, partition, rank, cut_tag);
  ExplicitPolygonDG local_dg(PolytopicMesh<2>(part.mesh, part.element_of_cell, p), p, law);
  const ElementHalo halo(partition, rank);
  DistributedExplicitDG dg(local_dg, halo, cut_tag);
  auto local = local_dg.project(initial);
  const TimeSteppingStatistics steps =
      TimeStepper(dg, TimeScheme::rk4).advance(local, 0.0, t_end, boundary, cfl);

  BOOST_TEST(steps.steps == whole_steps.steps);
  BOOST_TEST(std::abs(steps.smallest_step / whole_steps.smallest_step - 1) <= 1e-14);
  BOOST_TEST(owned_difference(local_dg, local, whole_dg, whole, part.element, part.owned_count, 1,
                              (p + 1) * (p + 2) / 2) <= 1e-12);
  // The owned elements' errors, their squares summed over the ranks, are the whole mesh's.
  const double owned_error = local_dg.l2_errors(local, exact, t_end, part.owned_count)[0];
  BOOST_TEST(std::sqrt(petsc::sum_over_ranks(owned_error * owned_error)) ==
                 whole_dg.l2_errors(whole, exact, t_end)[0],
             boost::test_tools::tolerance(1e-10));
}

BOOST_AUTO_TEST_CASE(a_limited_double_mach_reflection_is_the_whole_meshs_march) {
  const DoubleMachReflection problem;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(6, problem);
  const auto boundary = double_mach_reflection_boundary(problem);
  const auto initial = [&](const Point<2>& x) { return problem.initial_state(x); };
  const int steps = 20;
  const double cfl = 0.3;

  ExplicitTriangleDG whole_dg(mesh, 1, problem.gas);
  const BarthJespersenLimiter whole_limiter(whole_dg);
  const PositivityFix whole_positivity(whole_dg, 1e-10);
  long limited = 0;
  const auto whole_limit = [&](std::span<double> v) {
    const std::vector<double> before(v.begin(), v.end());
    whole_limiter(v);
    limited += !std::equal(v.begin(), v.end(), before.begin());
    whole_positivity(v);
  };
  auto whole = whole_dg.project(initial);
  whole_limit(whole);
  TimeStepper whole_stepper(whole_dg, TimeScheme::ssp_rk2, whole_limit);
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    const double dt = whole_dg.stable_time_step(whole, t, cfl);
    whole_stepper.step(whole, t, dt, boundary);
    t += dt;
  }
  BOOST_TEST(limited > 0);  // the limiter did change stages: the halo before it matters

  // Triangles as one-cell elements for the partition.
  const auto shared = std::make_shared<const SimplexMesh<2>>(mesh);
  const std::vector<Index> cells = identity(mesh.cell_count());
  const MeshPartition partition =
      partition_mesh(PolytopicMesh<2>(shared, cells, 1), petsc::world_rank_count());
  const int rank = petsc::world_rank();
  const RankSubmesh<2> part = rank_submesh(mesh, cells, partition, rank, cut_tag);
  ExplicitTriangleDG local_dg(*part.mesh, 1, problem.gas);
  const ElementHalo halo(partition, rank);
  DistributedExplicitDG dg(local_dg, halo, cut_tag);
  const BarthJespersenLimiter limiter(local_dg);
  const PositivityFix positivity(local_dg, 1e-10);
  auto limit = dg.stage_limiter([&](std::span<double> v) {
    limiter(v);
    positivity(v);
  });
  auto local = local_dg.project(initial);
  limit(local);
  TimeStepper stepper(dg, TimeScheme::ssp_rk2, limit);
  double t_local = 0;
  for (int s = 0; s < steps; ++s) {
    const double dt = dg.stable_time_step(local, t_local, cfl);
    stepper.step(local, t_local, dt, boundary);
    t_local += dt;
  }
  BOOST_TEST(std::abs(t_local / t - 1) <= 1e-13);
  BOOST_TEST(owned_difference(local_dg, local, whole_dg, whole, part.element, part.owned_count, 4,
                              3) <= 1e-10);

  // The stage limiter reads the ghosts' owners, not what the ghost entries held before: random
  // coefficients (the limiter acts nearly everywhere, at the partition's cut too) with every
  // ghost entry changed, limited, are the whole mesh's random coefficients limited.
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<double> random_whole(whole.size());
  for (double& x : random_whole) x = uniform(random);
  std::vector<double> limited_whole(random_whole);
  whole_limiter(limited_whole);
  std::vector<double> corrupted(local_dg.coefficient_count());
  for (Index k = 0; k < part.element_count(); ++k)
    for (int v = 0; v < 4; ++v)
      for (int i = 0; i < 3; ++i)
        corrupted[local_dg.coefficient_index(k, v, i)] =
            (k < part.owned_count ? 1.0 : 3.0) *
            random_whole[whole_dg.coefficient_index(part.element[std::size_t(k)], v, i)];
  auto limit_only = dg.stage_limiter([&](std::span<double> v) { limiter(v); });
  limit_only(corrupted);
  BOOST_TEST(owned_difference(local_dg, corrupted, whole_dg, limited_whole, part.element,
                              part.owned_count, 4, 3) <= 1e-14);
  BOOST_TEST((limited_whole != random_whole));
}

BOOST_AUTO_TEST_CASE(parts_read_from_their_files_march_as_the_parts_built_in_memory) {
  const auto law = testing::unit_square_hill_law();
  const testing::UnitSquareHill exact;
  const auto boundary = exact_boundary(exact);
  const auto initial = [&](const Point<2>& x) { return exact(x, 0.0); };
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(16, 0.2, 7));
  const Agglomeration parts = agglomerate(*fine, 128);
  const int p = 2, rank = petsc::world_rank(), ranks = petsc::world_rank_count();
  const PolytopicMesh<2> polygons(fine, parts.element_of_cell, p);
  const MeshPartition partition = partition_mesh(polygons, ranks);
  // Rank 0 writes the parts, every rank reads its own.
  const testing::RanksScratchFolder scratch("polydg_distributed_parts"),
      other_scratch("polydg_distributed_parts_two_layers");
  const std::filesystem::path &folder = scratch.path(), &other_folder = other_scratch.path();
  petsc::on_every_rank([&] {
    if (rank != 0) return;
    write_rank_parts<2>(folder, *fine, parts.element_of_cell, partition, cut_tag);
    write_rank_parts<2>(other_folder, *fine, parts.element_of_cell,
                        with_ghost_layers(partition, polygons, 2), cut_tag);
  });

  RankPart<2> read;
  petsc::on_every_rank([&] { read = read_rank_part<2>(folder, rank, ranks); });
  const ElementHalo halo(read.halo), built_halo(partition, rank);
  BOOST_TEST(halo.owned_count() == built_halo.owned_count());
  BOOST_TEST(halo.local_count() == built_halo.local_count());
  BOOST_TEST(halo.send_positions(3) == built_halo.send_positions(3),
             boost::test_tools::per_element());
  BOOST_TEST(halo.receive_positions(3) == built_halo.receive_positions(3),
             boost::test_tools::per_element());

  const RankSubmesh<2> built = rank_submesh(*fine, parts.element_of_cell, partition, rank, cut_tag);
  const auto march = [&](const RankSubmesh<2>& part, const ElementHalo& part_halo) {
    ExplicitPolygonDG local_dg(PolytopicMesh<2>(part.mesh, part.element_of_cell, p), p, law);
    DistributedExplicitDG dg(local_dg, part_halo, cut_tag);
    auto u = local_dg.project(initial);
    TimeStepper(dg, TimeScheme::rk4).advance(u, 0.0, 0.02, boundary, 0.5);
    return u;
  };
  const std::vector<double> from_file = march(read.submesh, halo),
                            from_memory = march(built, built_halo);
  BOOST_TEST(from_file == from_memory, boost::test_tools::per_element());

  // The last rank's part from another partition (two ghost layers): every rank refuses.
  if (ranks > 1) {
    RankPart<2> mixed;
    petsc::on_every_rank(
        [&] { mixed = read_rank_part<2>(rank == ranks - 1 ? other_folder : folder, rank, ranks); });
    BOOST_TEST(
        error_names([&] { ElementHalo{mixed.halo}; }, {"ElementHalo", "different partitions"}));
  }
  // A damaged file on the last rank: its error names it, the other ranks' says which rank.
  MPI_Barrier(PETSC_COMM_WORLD);
  if (rank == 0) {
    const std::filesystem::path last = rank_part_path(folder, ranks - 1, ranks);
    std::fstream file(last, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(std::streamoff(std::filesystem::file_size(last) / 2));
    file.put('\x55');
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  const auto damaged = [&] {
    petsc::on_every_rank([&] { read = read_rank_part<2>(folder, rank, ranks); });
  };
  if (rank == ranks - 1)
    BOOST_TEST(error_names(damaged, {"part_" + std::to_string(rank), "checksum"}));
  else
    BOOST_TEST(error_names(damaged, {"rank " + std::to_string(ranks - 1) + " failed"}));
}
