#define BOOST_TEST_MODULE solution_pvtu
// VTK output under `mpiexec -n N` (ctest runs N = 1, 2, 3): petsc::write_solution_pvtu writes
// one piece per rank with the rank's elements (their ids in the whole mesh) and rank 0 the
// .pvtu listing them; a failure on one rank throws on every rank (petsc::on_every_rank), which
// then still agree in the next collective call instead of waiting for ever.
#include <mpi.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "../io/vtu_test_reader.hpp"
#include "error_message.hpp"
#include "petsc_test_support.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/l2_projection.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/petsc/solution_pvtu.hpp"
#include "polydg/petsc/world.hpp"

using namespace polydg;
using polydg::testing::contains;
using polydg::testing::error_message;

using PetscTestSession = testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

namespace fs = std::filesystem;
using petsc::world_rank;
using petsc::world_rank_count;

namespace {

double linear(const Point<2>& x) { return 0.5 + x[0] - 2 * x[1]; }

// One folder per rank count, made by rank 0 before any rank uses it.
fs::path output_folder(const std::string& name) {
  const fs::path folder = fs::temp_directory_path() / "polydg_test_solution_pvtu" /
                          (name + "_" + std::to_string(world_rank_count()));
  if (world_rank() == 0) {
    fs::remove_all(folder);
    fs::create_directories(folder);
  }
  MPI_Barrier(PETSC_COMM_WORLD);
  return folder;
}

// Rank r's elements of `mesh` (MeshPartition::owned_elements) and their coefficients of u_h.
struct RankPart {
  MeshPartition partition;
  std::vector<double> coefficients;
};

RankPart rank_part(const PolytopicMesh<2>& mesh, std::span<const double> u_h) {
  RankPart part{partition_mesh(mesh, world_rank_count()), {}};
  std::vector<GlobalIndex> offsets(std::size_t(mesh.element_count()) + 1, 0);
  for (Index e = 0; e < mesh.element_count(); ++e)
    offsets[e + 1] = offsets[e] + basis_size(2, mesh.element_degree(e));
  for (Index e : part.partition.owned_elements(world_rank()))
    part.coefficients.insert(part.coefficients.end(), u_h.begin() + offsets[e],
                             u_h.begin() + offsets[e + 1]);
  return part;
}

PolytopicMesh<2> square_mesh() {
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(8, 0.2, 5));
  const Agglomeration agglomeration = agglomerate(*fine, 24);
  return PolytopicMesh<2>(fine, agglomeration.element_of_cell, 1);
}

}  // namespace

BOOST_AUTO_TEST_CASE(no_failure_no_throw_and_a_failure_throws_on_every_rank) {
  BOOST_CHECK_NO_THROW(petsc::on_every_rank([] {}));
  const int last = world_rank_count() - 1;
  const std::string message = error_message([&] {
    petsc::on_every_rank([&] { require(world_rank() != last, "rank ", last, "'s own error"); });
  });
  if (world_rank() == last)
    BOOST_TEST(message == "rank " + std::to_string(last) + "'s own error");
  else
    BOOST_TEST(message == "rank " + std::to_string(last) + " failed: rank " + std::to_string(last) +
                              "'s own error");
  // Every rank left on_every_rank the same way: the next collective call matches up.
  BOOST_TEST(petsc::sum_over_ranks(1.0) == double(world_rank_count()));
}

BOOST_AUTO_TEST_CASE(pieces_hold_each_rank_s_elements_and_rank_0_lists_them) {
  const PolytopicMesh<2> mesh = square_mesh();
  const std::vector<double> u_h = l2_project(mesh, linear);
  const RankPart part = rank_part(mesh, u_h);
  const fs::path pvtu = output_folder("pieces") / "u.pvtu";
  petsc::write_solution_pvtu(pvtu, mesh, part.partition.owned_elements(world_rank()),
                             part.coefficients);
  MPI_Barrier(PETSC_COMM_WORLD);

  const std::string piece = testing::read_file(solution_vtu_piece_path(pvtu, world_rank()));
  const std::vector<double> ids = testing::data_array(piece, "element_id");
  const std::vector<double> ranks = testing::data_array(piece, "rank");
  const std::set<Index> owned(part.partition.owned_elements(world_rank()).begin(),
                              part.partition.owned_elements(world_rank()).end());
  BOOST_TEST(std::set<Index>(ids.begin(), ids.end()) == owned);
  BOOST_TEST(ranks == std::vector<double>(ranks.size(), double(world_rank())));
  const std::vector<double> points = testing::data_array(piece, "Points");
  const std::vector<double> u = testing::data_array(piece, "u");
  for (std::size_t k = 0; k < u.size(); ++k)
    BOOST_CHECK_SMALL(u[k] - linear({points[3 * k], points[3 * k + 1]}), 1e-12);

  if (world_rank() == 0) {
    const std::string xml = testing::read_file(pvtu);
    for (int r = 0; r < world_rank_count(); ++r)
      BOOST_TEST(contains(xml, "<Piece Source=\"u_" + std::to_string(r) + ".vtu\"/>"), xml);
    BOOST_TEST(!contains(xml, "u_" + std::to_string(world_rank_count()) + ".vtu"));
  }
}

BOOST_AUTO_TEST_CASE(a_piece_one_rank_cannot_write_fails_on_every_rank) {
  const PolytopicMesh<2> mesh = square_mesh();
  const std::vector<double> u_h = l2_project(mesh, linear);
  const RankPart part = rank_part(mesh, u_h);
  const fs::path pvtu = output_folder("unwritable") / "u.pvtu";
  const int last = world_rank_count() - 1;
  const fs::path blocked = solution_vtu_piece_path(pvtu, last);
  if (world_rank() == 0) fs::create_directories(blocked);  // a folder where its piece goes
  MPI_Barrier(PETSC_COMM_WORLD);

  const std::string message = error_message([&] {
    petsc::write_solution_pvtu(pvtu, mesh, part.partition.owned_elements(world_rank()),
                               part.coefficients);
  });
  const std::string cannot_open = "cannot open '" + blocked.string() + "' for writing";
  BOOST_TEST(contains(message, cannot_open), message);
  if (world_rank() != last)
    BOOST_TEST(contains(message, "rank " + std::to_string(last) + " failed: "), message);
  BOOST_TEST(petsc::sum_over_ranks(1.0) == double(world_rank_count()));
  BOOST_TEST(!fs::exists(pvtu));  // rank 0 writes the .pvtu only once every piece is written
}
