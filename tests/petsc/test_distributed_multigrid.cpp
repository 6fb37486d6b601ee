#define BOOST_TEST_MODULE distributed_multigrid
// The agglomeration multigrid over MPI ranks (AgglomerationMultigrid with a MeshPartition;
// partition_levels, polydg/dg/level_partition.hpp) under `mpiexec -n N` (ctest runs N = 1, 2,
// 3), against the one-rank hierarchy:
//  * the level partitions: level 0 is the assembly's numbering (partition_dof_offsets); each
//    coarse element's rank owns the most of its children's unknowns; each rank's unknowns are
//    one contiguous range per level, and every element is numbered once;
//  * every prolongation is the serial one renumbered (its product with the same coarse
//    function, compared per fine element: exact up to the sums' order);
//  * the distributed MPIAIJ's inverted element blocks (PCPBJACOBI's) are the owned blocks';
//  * CG with the multigrid (Galerkin levels, the LinearSolver defaults; then the coarse levels
//    rediscretised over the ranks) on the distributed MPIAIJ of SIPG Poisson: within the
//    one-rank bound of 15 iterations, at the direct solution;
//  * the rediscretised coarse levels over the ranks are the whole levels' matrices renumbered
//    (their products, 1e-13).
#include <mpi.h>
#include <petscksp.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <span>
#include <vector>

#include "petsc_test_support.hpp"
#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/dg/level_partition.hpp"
#include "polydg/dg/partition_numbering.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/petsc/agglomeration_multigrid.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/rediscretised_level_operators.hpp"
#include "polydg/petsc/world.hpp"
#include "polydg/sparse/invert_blocks.hpp"

using namespace polydg;

using PetscTestSession = testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

namespace {

using petsc::max_over_ranks;
using petsc::world_rank;
using petsc::world_rank_count;

// An agglomerated perturbed unit square with degrees 1, 2, 3 in turn (hp): 4 levels or more.
PolytopicMesh<2> hp_square_mesh() {
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(24, 0.25, 5));
  const Agglomeration agglomeration = agglomerate(*fine, 300);
  std::vector<int> degrees(std::size_t(agglomeration.element_count));
  for (std::size_t e = 0; e < degrees.size(); ++e) degrees[e] = 1 + int(e % 3);
  return PolytopicMesh<2>(fine, agglomeration.element_of_cell, degrees);
}

HierarchyOptions small_coarsest() {
  HierarchyOptions options;
  options.coarsest_dofs = 100;
  return options;
}

constexpr double pi = 3.14159265358979323846;

auto poisson_coefficients() {
  return make_coefficients<2>()
      .with_diffusion(1.0)
      .with_source(
          [](const Point<2>& x) { return 2 * pi * pi * std::sin(pi * x[0]) * std::sin(pi * x[1]); })
      .with_dirichlet(0.0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(level_partitions_number_every_element_once_per_rank_range) {
  const PolytopicMesh<2> mesh = hp_square_mesh();
  const AgglomerationHierarchy<2> hierarchy(mesh, small_coarsest());
  BOOST_TEST_REQUIRE(hierarchy.level_count() >= 4);
  const MeshPartition partition = partition_mesh(mesh, world_rank_count());
  const std::vector<GlobalIndex> offsets = dg_coefficient_offsets<2>(mesh.degrees());
  const std::vector<LevelPartition> levels =
      partition_levels(hierarchy.prolongations(), offsets, partition);
  BOOST_TEST_REQUIRE(int(levels.size()) == hierarchy.level_count());

  // Level 0: the assembly's numbering.
  const std::vector<GlobalIndex> assembly =
      partition_dof_offsets(mesh, partition, BasisSpace::total_degree);
  for (Index e = 0; e < mesh.element_count(); ++e)
    BOOST_TEST(levels[0].first_dof[std::size_t(e)] ==
               assembly[std::size_t(partition.new_from_old[std::size_t(e)])]);

  for (std::size_t l = 0; l < levels.size(); ++l) {
    const LevelPartition& level = levels[l];
    const std::vector<GlobalIndex> sizes_offsets =
        l == 0 ? offsets : hierarchy.prolongation(int(l) - 1).coarse_offsets;
    BOOST_TEST(level.dof_count() == hierarchy.dof_count(int(l)));
    // Each element's unknowns lie in its owner's range, and no two elements share one.
    std::vector<int> covered(std::size_t(level.dof_count()), 0);
    for (std::size_t e = 0; e < level.owner.size(); ++e) {
      const int r = level.owner[e];
      const GlobalIndex size = sizes_offsets[e + 1] - sizes_offsets[e];
      BOOST_TEST(level.first_dof[e] >= level.rank_dof_begin[std::size_t(r)]);
      BOOST_TEST(level.first_dof[e] + size <= level.rank_dof_begin[std::size_t(r) + 1]);
      for (GlobalIndex i = 0; i < size; ++i) ++covered[std::size_t(level.first_dof[e] + i)];
    }
    BOOST_TEST(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
    if (l == 0) continue;
    // The owner of a coarse element owns the most of its children's unknowns.
    const Prolongation& p = hierarchy.prolongation(int(l) - 1);
    std::vector<std::vector<GlobalIndex>> share(
        level.owner.size(), std::vector<GlobalIndex>(std::size_t(world_rank_count()), 0));
    for (std::size_t e = 0; e < p.coarse_of_fine.size(); ++e)
      share[std::size_t(p.coarse_of_fine[e])][std::size_t(levels[l - 1].owner[e])] +=
          p.fine_offsets[e + 1] - p.fine_offsets[e];
    for (std::size_t c = 0; c < level.owner.size(); ++c)
      BOOST_TEST(share[c][std::size_t(level.owner[c])] ==
                 *std::max_element(share[c].begin(), share[c].end()));
  }
}

BOOST_AUTO_TEST_CASE(each_prolongation_is_the_serial_one_renumbered) {
  const PolytopicMesh<2> mesh = hp_square_mesh();
  const AgglomerationHierarchy<2> hierarchy(mesh, small_coarsest());
  const MeshPartition partition = partition_mesh(mesh, world_rank_count());
  const petsc::AgglomerationMultigrid multigrid(hierarchy, partition);
  const std::vector<LevelPartition> levels = partition_levels(
      hierarchy.prolongations(), dg_coefficient_offsets<2>(mesh.degrees()), partition);
  const int rank = world_rank();
  double worst = 0;
  for (int l = 0; l + 1 < hierarchy.level_count(); ++l) {
    const Prolongation& p = hierarchy.prolongation(l);
    const LevelPartition &fine = levels[std::size_t(l)], &coarse = levels[std::size_t(l) + 1];
    // A coarse function, its coefficients by the serial index; this rank's owned part of it.
    const auto coefficient = [](GlobalIndex k) { return std::sin(0.7 * double(k) + 0.3); };
    std::vector<double> owned_coarse(std::size_t(coarse.owned_dof_count(rank)));
    for (std::size_t c = 0; c + 1 < p.coarse_offsets.size(); ++c) {
      if (coarse.owner[c] != rank) continue;
      for (GlobalIndex j = 0; j < p.coarse_offsets[c + 1] - p.coarse_offsets[c]; ++j)
        owned_coarse[std::size_t(coarse.first_dof[c] - coarse.rank_dof_begin[std::size_t(rank)] +
                                 j)] = coefficient(p.coarse_offsets[c] + j);
    }
    Vec x = nullptr, y = nullptr;
    POLYDG_PETSC_CALL(MatCreateVecs(multigrid.prolongation(l), &x, &y));
    petsc::copy_to_vec(owned_coarse, x);
    POLYDG_PETSC_CALL(MatMult(multigrid.prolongation(l), x, y));
    std::vector<double> owned_fine(std::size_t(fine.owned_dof_count(rank)));
    petsc::copy_from_vec(y, owned_fine);
    POLYDG_PETSC_CALL(VecDestroy(&x));
    POLYDG_PETSC_CALL(VecDestroy(&y));
    // The serial product, fine element by fine element.
    for (std::size_t e = 0; e < p.coarse_of_fine.size(); ++e) {
      if (fine.owner[e] != rank) continue;
      const Index parent = p.coarse_of_fine[e];
      const GlobalIndex n = p.fine_offsets[e + 1] - p.fine_offsets[e];
      const GlobalIndex m = p.coarse_offsets[parent + 1] - p.coarse_offsets[parent];
      for (GlobalIndex i = 0; i < n; ++i) {
        double expected = 0, scale = 0;
        for (GlobalIndex j = 0; j < m; ++j) {
          const double term = p.values[p.block_offsets[e] + std::size_t(i * m + j)] *
                              coefficient(p.coarse_offsets[parent] + j);
          expected += term;
          scale += std::abs(term);
        }
        const double got =
            owned_fine[std::size_t(fine.first_dof[e] - fine.rank_dof_begin[std::size_t(rank)] + i)];
        worst = std::max(worst, std::abs(got - expected) / (scale + 1e-300));
      }
    }
  }
  BOOST_TEST(max_over_ranks(worst) <= 1e-14);
}

BOOST_AUTO_TEST_CASE(cg_with_the_distributed_multigrid_meets_the_serial_bound) {
  // SIPG Poisson, p = 2, on 512 polygons of 4 triangles, each rank's rows of the MPIAIJ: CG
  // with the multigrid (LinearSolver's defaults for it: Galerkin levels, W-cycles, Chebyshev on
  // the element blocks) reaches rtol 1e-8 within the 15 iterations a one-rank solve of this
  // kind must meet (test_agglomeration_multigrid), at the solution of a direct solve
  // (PCREDUNDANT: LU of the whole matrix) to 1e-4 (the systems' condition numbers, ≲ 1e5,
  // bound the error's growth from the residual's).
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(32, 0.2, 3));
  const PolytopicMesh<2> mesh(fine, agglomerate(*fine, 512).element_of_cell, 2);
  const AgglomerationHierarchy<2> hierarchy(mesh, small_coarsest());
  const MeshPartition partition = partition_mesh(mesh, world_rank_count());
  const AssemblyOptions options;
  Assembler<2> assembler(QuadratureMesh<2>(mesh, BoundaryConditions(BoundaryKind::dirichlet),
                                           options.pieces, partition, world_rank()),
                         options);
  const RankBlockPattern rows =
      make_rank_block_pattern(assembler.pattern(), partition, world_rank(),
                              partition_dof_offsets(mesh, partition, options.space));
  BlockMatrix<double> matrix = assembler.make_matrix();
  std::vector<double> rhs = assembler.make_vector();
  assembler.assemble(poisson_coefficients(), matrix, rhs);
  petsc::AijMatrix aij(rows);
  aij.update(matrix);
  petsc::Vector b(rows), x(rows), x_direct(rows);
  petsc::copy_to_vec(std::span<const double>(rhs).first(std::size_t(rows.owned_dof_count())),
                     b.vec());

  // PCPBJACOBI's blocks (MatInvertBlockDiagonal on the MPIAIJ, column-major) are the owned
  // elements' diagonal blocks inverted: the MPIAIJ's diagonal part carries the block size.
  const PetscScalar* inverted = nullptr;
  POLYDG_PETSC_CALL(MatInvertBlockDiagonal(aij.mat(), &inverted));
  const Index owned = rows.owned_block_rows();
  const Index n = rows.local().block_size(0);
  std::vector<double> blocks;
  for (Index e = 0; e < owned; ++e) {
    const auto values = matrix.block_values(rows.local().diagonal_block(e));
    blocks.insert(blocks.end(), values.begin(), values.end());
  }
  const std::vector<double> expected =
      invert_diagonal_blocks(std::vector<Index>(std::size_t(owned), n), blocks);
  double worst = 0;
  for (Index e = 0; e < owned; ++e)
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j) {
        const std::size_t at = std::size_t(e * n * n);
        worst = std::max(worst, std::abs(inverted[at + std::size_t(j * n + i)] -
                                         expected[at + std::size_t(i * n + j)]) /
                                    std::abs(expected[at + std::size_t(i * n + i)]));
      }
  BOOST_TEST(max_over_ranks(worst) <= 1e-10);

  const testing::ScopedOption direct_ksp("-direct_ksp_type", "preonly"),
      direct_pc("-direct_pc_type", "redundant");
  petsc::SolverOptions direct;
  direct.options_prefix = "direct_";
  petsc::solve(aij.mat(), b.vec(), x_direct.vec(), nullptr, direct);

  const petsc::AgglomerationMultigrid multigrid(hierarchy, partition);
  const testing::ScopedOption ksp("-mg_test_ksp_type", "cg"), pc("-mg_test_pc_type", "mg"),
      rtol("-mg_test_ksp_rtol", "1e-8");
  petsc::SolverOptions solver;
  solver.options_prefix = "mg_test_";
  solver.dm = multigrid.dm();
  const petsc::SolveResult result = petsc::solve(aij.mat(), b.vec(), x.vec(), nullptr, solver);
  BOOST_TEST_MESSAGE(result.iterations << " CG iterations on " << world_rank_count() << " ranks, "
                                       << multigrid.level_count() << " levels");
  BOOST_TEST(result.iterations <= 15);

  PetscReal norm = 0, difference = 0;
  POLYDG_PETSC_CALL(VecNorm(x_direct.vec(), NORM_INFINITY, &norm));
  POLYDG_PETSC_CALL(VecAXPY(x.vec(), -1.0, x_direct.vec()));
  POLYDG_PETSC_CALL(VecNorm(x.vec(), NORM_INFINITY, &difference));
  BOOST_TEST(double(difference / norm) <= 1e-4);

  // With the coarse levels rediscretised over the ranks: the same bound.
  petsc::AgglomerationMultigrid rediscretised(hierarchy, partition);
  const std::vector<petsc::AijMatrix> levels = petsc::rediscretised_level_operators(
      hierarchy, partition, BoundaryConditions(BoundaryKind::dirichlet), poisson_coefficients());
  rediscretised.set_level_operators(petsc::mats_of(levels));
  solver.dm = rediscretised.dm();
  petsc::Vector x_rediscretised(rows);
  const petsc::SolveResult own_levels =
      petsc::solve(aij.mat(), b.vec(), x_rediscretised.vec(), nullptr, solver);
  BOOST_TEST_MESSAGE(own_levels.iterations << " CG iterations with rediscretised levels on "
                                           << world_rank_count() << " ranks");
  BOOST_TEST(own_levels.iterations <= 15);
  POLYDG_PETSC_CALL(VecAXPY(x_rediscretised.vec(), -1.0, x_direct.vec()));
  POLYDG_PETSC_CALL(VecNorm(x_rediscretised.vec(), NORM_INFINITY, &difference));
  BOOST_TEST(double(difference / norm) <= 1e-4);
}

BOOST_AUTO_TEST_CASE(rediscretised_levels_over_the_ranks_are_the_serial_ones_renumbered) {
  // Each coarse level's operator assembled by the ranks on their parts of the level's mesh
  // against the whole level's BlockMatrix (every rank assembles it): the same products, in the
  // level's partition numbering.
  const PolytopicMesh<2> mesh = hp_square_mesh();
  const AgglomerationHierarchy<2> hierarchy(mesh, small_coarsest());
  const MeshPartition partition = partition_mesh(mesh, world_rank_count());
  const BoundaryConditions conditions(BoundaryKind::dirichlet);
  const std::vector<petsc::AijMatrix> operators = petsc::rediscretised_level_operators(
      hierarchy, partition, conditions, poisson_coefficients());
  const std::vector<LevelPartition> levels = partition_levels(
      hierarchy.prolongations(), dg_coefficient_offsets<2>(mesh.degrees()), partition);
  const int rank = world_rank();
  double worst = 0;
  for (int l = 1; l < hierarchy.level_count(); ++l) {
    Assembler<2> whole(hierarchy.mesh(l), conditions);
    BlockMatrix<double> matrix = whole.make_matrix();
    whole.assemble_matrix(poisson_coefficients(), matrix);
    const std::vector<GlobalIndex> offsets = dg_coefficient_offsets<2>(hierarchy.mesh(l).degrees());
    std::vector<double> x(std::size_t(offsets.back())), y(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = std::cos(0.3 * double(k) + 0.1);
    matrix.multiply(x, y);
    const LevelPartition& level = levels[std::size_t(l)];
    const GlobalIndex begin = level.rank_dof_begin[std::size_t(rank)];
    std::vector<double> owned_x(std::size_t(level.owned_dof_count(rank))), owned_y(owned_x.size());
    const auto for_owned = [&](auto&& body) {
      for (std::size_t c = 0; c + 1 < offsets.size(); ++c)
        if (level.owner[c] == rank)
          for (GlobalIndex j = 0; j < offsets[c + 1] - offsets[c]; ++j)
            body(std::size_t(level.first_dof[c] - begin + j), std::size_t(offsets[c] + j));
    };
    for_owned([&](std::size_t local, std::size_t serial) { owned_x[local] = x[serial]; });
    Vec xv = nullptr, yv = nullptr;
    POLYDG_PETSC_CALL(MatCreateVecs(operators[std::size_t(l)].mat(), &xv, &yv));
    petsc::copy_to_vec(owned_x, xv);
    POLYDG_PETSC_CALL(MatMult(operators[std::size_t(l)].mat(), xv, yv));
    petsc::copy_from_vec(yv, owned_y);
    POLYDG_PETSC_CALL(VecDestroy(&xv));
    POLYDG_PETSC_CALL(VecDestroy(&yv));
    double largest = 0;
    for (const double v : y) largest = std::max(largest, std::abs(v));
    for_owned([&](std::size_t local, std::size_t serial) {
      worst = std::max(worst, std::abs(owned_y[local] - y[serial]) / largest);
    });
  }
  BOOST_TEST(max_over_ranks(worst) <= 1e-13);
}
