// The device explicit solvers on a partitioned mesh under `mpiexec -n N`, one GPU per rank or
// several ranks sharing one (ctest runs N = 1, 2, 3): DeviceElementHalo and
// DistributedDeviceExplicitDG (polydg/cuda/distributed_device_explicit_dg.cuh) against one
// device's march on the whole mesh, which every rank also computes:
//  * the halo: owned entries tagged by their whole-mesh element, ghost entries garbage; after
//    an exchange every ghost entry is its element's tag, and no owned entry has changed;
//  * the rotating hill (linear advection, RK4) on agglomerated polygons, p = 2, and on
//    triangles, p = 1 (the element kernel fuses the stage update and the next wave speed): the
//    same steps, and every owned coefficient at T that of the whole mesh's march (1e-12 of the
//    solution's size: the same operations up to the order of a ghost's geometry sums); the
//    exchange overlapped with the facets that need no ghost gives the bits of the blocking one;
//  * a coarse double Mach reflection (Euler, SSP-RK2, the device Barth–Jespersen limiter and
//    positivity fix fused and deferred, behind the halo), with one ghost layer (an exchange
//    before each limiter) and two (none): the same steps and coefficients to 1e-10 of their size;
//  * a state that is not physical on one rank throws on every rank (no rank waits for ever).
// Exits 77 (ctest: Skipped) without a device.
#define BOOST_TEST_MODULE cuda_distributed_explicit
#include "gpu_test_main.hpp"
// (first: the headers below include Boost.Test, which would define a main)
#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "owned_difference.hpp"
#include "petsc/petsc_test_support.hpp"
#include "polydg/cuda/device_element_halo.cuh"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/cuda/device_explicit_polygon_dg.cuh"
#include "polydg/cuda/device_stage_limiters.cuh"
#include "polydg/cuda/distributed_device_explicit_dg.cuh"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/rank_submesh.hpp"
#include "polydg/petsc/world.hpp"
#include "unit_square_hill.hpp"

using namespace polydg;
using namespace polydg::hyperbolic;
using testing::identity;
using testing::owned_difference;
using testing::PetscTestSession;

namespace {

constexpr int cut_tag = 1000;

/// The rotating hill's fine mesh and its agglomerates (every rank builds the same).
struct HillMesh {
  std::shared_ptr<const SimplexMesh<2>> fine =
      std::make_shared<const SimplexMesh<2>>(unit_square_mesh(16, 0.2, 7));
  std::vector<Index> element_of_cell = agglomerate(*fine, 128).element_of_cell;
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

BOOST_AUTO_TEST_CASE(the_device_halo_gives_each_ghost_its_owners_entries) {
  const HillMesh mesh;
  const MeshPartition partition = partition_mesh(
      PolytopicMesh<2>(mesh.fine, mesh.element_of_cell, 1), petsc::world_rank_count());
  const int rank = petsc::world_rank();
  const RankSubmesh<2> part =
      rank_submesh(*mesh.fine, mesh.element_of_cell, partition, rank, cut_tag);
  const ElementHalo halo(partition, rank);
  const std::size_t values = 3;
  const DeviceElementHalo device_halo(halo, values);
  const std::size_t local = std::size_t(part.element_count());
  // Value j of element k: its whole-mesh element and j where owned, −1 for a ghost.
  const auto tag = [&](std::size_t k, std::size_t j) {
    return 10.0 * double(part.element[k]) + double(j);
  };
  std::vector<double> u(values * local);
  for (std::size_t j = 0; j < values; ++j)
    for (std::size_t k = 0; k < local; ++k)
      u[j * local + k] = k < std::size_t(part.owned_count) ? tag(k, j) : -1.0;
  device::DeviceBuffer<double> device_u{std::span<const double>(u)};
  device_halo.exchange(device_u.data());
  const std::vector<double> exchanged = device_u.to_host();
  long wrong = 0;
  for (std::size_t j = 0; j < values; ++j)
    for (std::size_t k = 0; k < local; ++k) wrong += exchanged[j * local + k] != tag(k, j);
  BOOST_TEST(wrong == 0);
  BOOST_TEST(device_halo.receive_count() == values * std::size_t(partition.ghost_count(rank)));
}

namespace {

/// The hill marched to T = 0.05 by one GPU on the whole mesh (device_whole of whole_dg) and by
/// DistributedDeviceExplicitDG on this rank's part (device_local of local_dg), overlapped and
/// blocking: the same steps, every owned coefficient to 1e-12, the two exchange orders the same
/// bits; `modes` per variable.
template <class DeviceWhole, class WholeDG, class DeviceLocal, class LocalDG>
void check_hill_against_the_whole_mesh(DeviceWhole& device_whole, const WholeDG& whole_dg,
                                       DeviceLocal& device_local, const LocalDG& local_dg,
                                       const RankSubmesh<2>& part, const ElementHalo& halo,
                                       int modes) {
  const testing::UnitSquareHill exact;
  const auto boundary = exact_boundary(exact);
  const auto initial = [&](const Point<2>& x) { return exact(x, 0.0); };
  const double t_end = 0.05, cfl = 0.5;

  auto whole_u = device_whole.upload(whole_dg.project(initial));
  const TimeSteppingStatistics whole_steps =
      DeviceTimeStepper(device_whole, TimeScheme::rk4).advance(whole_u, 0, t_end, boundary, cfl);
  const std::vector<double> whole = device_whole.download(whole_u);

  DistributedDeviceExplicitDG dg(device_local, halo, cut_tag);
  BOOST_TEST((dg.halo_facet_count() > 0) == (petsc::world_rank_count() > 1));
  auto local_u = device_local.upload(local_dg.project(initial));
  const TimeSteppingStatistics steps =
      DeviceTimeStepper(dg, TimeScheme::rk4).advance(local_u, 0, t_end, boundary, cfl);
  const std::vector<double> local = device_local.download(local_u);

  BOOST_TEST(steps.steps == whole_steps.steps);
  BOOST_TEST(std::abs(steps.smallest_step / whole_steps.smallest_step - 1) <= 1e-14);
  BOOST_TEST(owned_difference(local_dg, local, whole_dg, whole, part.element, part.owned_count, 1,
                              modes) <= 1e-12);

  DistributedDeviceExplicitDG blocking(device_local, halo, cut_tag, HaloExchange::blocking);
  local_u = device_local.upload(local_dg.project(initial));
  DeviceTimeStepper(blocking, TimeScheme::rk4).advance(local_u, 0, t_end, boundary, cfl);
  BOOST_TEST((device_local.download(local_u) == local));
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_rotating_hill_on_polygons_is_the_whole_meshs_device_march) {
  const auto law = testing::unit_square_hill_law();
  const HillMesh mesh;
  const int p = 2;
  const ExplicitPolygonDG whole_dg(PolytopicMesh<2>(mesh.fine, mesh.element_of_cell, p), p, law);
  DeviceExplicitPolygonDG device_whole(whole_dg);

  const MeshPartition partition = partition_mesh(
      PolytopicMesh<2>(mesh.fine, mesh.element_of_cell, p), petsc::world_rank_count());
  const int rank = petsc::world_rank();
  const RankSubmesh<2> part =
      rank_submesh(*mesh.fine, mesh.element_of_cell, partition, rank, cut_tag);
  const ExplicitPolygonDG local_dg(PolytopicMesh<2>(part.mesh, part.element_of_cell, p), p, law);
  DeviceExplicitPolygonDG device_local(local_dg);
  check_hill_against_the_whole_mesh(device_whole, whole_dg, device_local, local_dg, part,
                                    ElementHalo(partition, rank), (p + 1) * (p + 2) / 2);
}

BOOST_AUTO_TEST_CASE(the_rotating_hill_on_triangles_with_fused_updates_is_the_whole_meshs) {
  const auto law = testing::unit_square_hill_law();
  const SimplexMesh<2> mesh = unit_square_mesh(20, 0.2, 3);
  const int p = 1;
  const ExplicitTriangleDG whole_dg(mesh, p, law);
  DeviceExplicitTriangleDG device_whole(whole_dg);
  BOOST_REQUIRE(device_whole.fuses_stage_update());

  const auto shared = std::make_shared<const SimplexMesh<2>>(mesh);
  const std::vector<Index> cells = identity(mesh.cell_count());
  const MeshPartition partition =
      partition_mesh(PolytopicMesh<2>(shared, cells, p), petsc::world_rank_count());
  const int rank = petsc::world_rank();
  const RankSubmesh<2> part = rank_submesh(mesh, cells, partition, rank, cut_tag);
  const ExplicitTriangleDG local_dg(*part.mesh, p, law);
  DeviceExplicitTriangleDG device_local(local_dg);
  check_hill_against_the_whole_mesh(device_whole, whole_dg, device_local, local_dg, part,
                                    ElementHalo(partition, rank), 3);
}

BOOST_AUTO_TEST_CASE(a_limited_double_mach_reflection_is_the_whole_meshs_device_march) {
  const DoubleMachReflection problem;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(6, problem);
  const auto boundary = double_mach_reflection_boundary(problem);
  const auto initial = [&](const Point<2>& x) { return problem.initial_state(x); };
  const double t_end = 0.01, cfl = 0.3;

  const ExplicitTriangleDG whole_dg(mesh, 1, problem.gas);
  const BarthJespersenLimiter whole_limiter(whole_dg);
  const PositivityFix whole_positivity(whole_dg, 1e-10);
  DeviceExplicitTriangleDG device_whole(whole_dg);
  const DeviceBarthJespersenLimiter device_whole_limiter(device_whole, whole_limiter);
  const DevicePositivityFix device_whole_positivity(device_whole, whole_positivity);
  const DeviceLimiterAndPositivityFix whole_limit(device_whole_limiter, device_whole_positivity);
  auto whole_u = device_whole.upload(whole_dg.project(initial));
  whole_limit(whole_u);
  const TimeSteppingStatistics whole_steps =
      DeviceTimeStepper(device_whole, TimeScheme::ssp_rk2, whole_limit)
          .advance(whole_u, 0, t_end, boundary, cfl);
  const std::vector<double> whole = device_whole.download(whole_u);
  BOOST_TEST(whole_steps.steps >= 10);

  const auto shared = std::make_shared<const SimplexMesh<2>>(mesh);
  const std::vector<Index> cells = identity(mesh.cell_count());
  const PolytopicMesh<2> elements(shared, cells, 1);
  const MeshPartition one_layer = partition_mesh(elements, petsc::world_rank_count());
  // One ghost layer: an exchange before each limiter; two: none (the first layer's means are
  // the rank's own).
  for (const MeshPartition& partition : {one_layer, with_ghost_layers(one_layer, elements, 2)}) {
    BOOST_TEST_CONTEXT(partition.ghost_layers << " ghost layer(s)") {
      const int rank = petsc::world_rank();
      const RankSubmesh<2> part = rank_submesh(mesh, cells, partition, rank, cut_tag);
      const ExplicitTriangleDG local_dg(*part.mesh, 1, problem.gas);
      const BarthJespersenLimiter limiter(local_dg);
      const PositivityFix positivity(local_dg, 1e-10);
      DeviceExplicitTriangleDG device_local(local_dg);
      const DeviceBarthJespersenLimiter device_limiter(device_local, limiter);
      const DevicePositivityFix device_positivity(device_local, positivity);
      const DeviceLimiterAndPositivityFix both(device_limiter, device_positivity);
      const ElementHalo halo(partition, rank);
      BOOST_TEST(halo.ghost_layers() == partition.ghost_layers);
      DistributedDeviceExplicitDG dg(device_local, halo, cut_tag);
      auto limit = dg.stage_limiter(both);
      static_assert(DeviceDeferredStageLimiter<decltype(limit)>, "stays deferred behind the halo");
      auto local_u = device_local.upload(local_dg.project(initial));
      limit(local_u);
      const TimeSteppingStatistics steps = DeviceTimeStepper(dg, TimeScheme::ssp_rk2, limit)
                                               .advance(local_u, 0, t_end, boundary, cfl);

      BOOST_TEST(steps.steps == whole_steps.steps);
      BOOST_TEST(owned_difference(local_dg, device_local.download(local_u), whole_dg, whole,
                                  part.element, part.owned_count, 4, 3) <= 1e-10);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_state_that_is_not_physical_on_one_rank_throws_on_every_rank) {
  const DoubleMachReflection problem;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(4, problem);
  const auto shared = std::make_shared<const SimplexMesh<2>>(mesh);
  const std::vector<Index> cells = identity(mesh.cell_count());
  const MeshPartition partition =
      partition_mesh(PolytopicMesh<2>(shared, cells, 1), petsc::world_rank_count());
  const int rank = petsc::world_rank();
  const RankSubmesh<2> part = rank_submesh(mesh, cells, partition, rank, cut_tag);
  const ExplicitTriangleDG local_dg(*part.mesh, 1, problem.gas);
  DeviceExplicitTriangleDG device_local(local_dg);
  const ElementHalo halo(partition, rank);
  DistributedDeviceExplicitDG dg(device_local, halo, cut_tag);
  auto u = local_dg.project([&](const Point<2>& x) { return problem.initial_state(x); });
  // The last rank's first owned element gets a negative density; every rank must throw.
  if (rank == petsc::world_rank_count() - 1) u[local_dg.coefficient_index(0, 0, 0)] = -1.0;
  auto device_u = device_local.upload(u);
  BOOST_CHECK_THROW(dg.stable_time_step(device_u, 0.0, 0.3), Error);
  // A ghost's stale state is not looked at: negative densities in every ghost are no error.
  u = local_dg.project([&](const Point<2>& x) { return problem.initial_state(x); });
  for (Index k = part.owned_count; k < part.element_count(); ++k)
    u[local_dg.coefficient_index(k, 0, 0)] = -1.0;
  device_local.upload(u, device_u);
  BOOST_TEST(std::isfinite(dg.stable_time_step(device_u, 0.0, 0.3)));
}
