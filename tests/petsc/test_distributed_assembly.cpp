#define BOOST_TEST_MODULE distributed_assembly
// The distributed assembly under `mpiexec -n N` (ctest runs N = 1, 2, 3): every rank assembles
// its own block rows of an hp ADR problem on an agglomerated mesh (partition_numbering.hpp),
// and the result must be the serial system, renumbered: the same matrix and rhs (compared
// block by block in the mesh's own numbering, and through PETSc's MPIAIJ by products), the same
// GMRES iterations and solution, the same error norms (owned elements and halo interfaces
// summed over the ranks). Parts written to their files and read back by each rank (the
// distributed read: no rank holds the whole mesh) give the same numbering, rows and products.
#include <mpi.h>
#include <petscksp.h>
#include <petscmat.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "petsc_test_support.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/error_norms.hpp"
#include "polydg/dg/partition_numbering.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/rank_part_file.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/dense_block_operator.hpp"
#include "polydg/petsc/ghost_scatter.hpp"
#include "polydg/petsc/part_block_pattern.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/petsc/world.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "ranks_scratch_folder.hpp"

using namespace polydg;
using polydg::testing::error_names;

using PetscTestSession = testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

namespace {

using petsc::max_over_ranks;
using petsc::sum_over_ranks;
using petsc::world_rank;
using petsc::world_rank_count;

// A perturbed unit square agglomerated into `elements` polygons along a Hilbert curve, with the
// degrees 1, 2, 3 in turn (hp: blocks of 3, 6 and 10).
PolytopicMesh<2> hp_square_mesh(int n, Index elements) {
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.25, 7));
  AgglomerationOptions options;
  options.element_order = ElementOrder::hilbert_curve;
  const Agglomeration agglomeration = agglomerate(*fine, elements, options);
  std::vector<int> degrees(std::size_t(agglomeration.element_count));
  for (std::size_t e = 0; e < degrees.size(); ++e) degrees[e] = 1 + int(e % 3);
  return PolytopicMesh<2>(fine, agglomeration.element_of_cell, degrees);
}

// Bottom (tag 1) Neumann, the rest Dirichlet.
BoundaryConditions mixed_conditions() {
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(1, BoundaryKind::neumann);
  return conditions;
}

double exact(const Point<2>& x) { return std::sin(2 * x[0] + 1) * std::exp(x[1]); }
Point<2> exact_gradient(const Point<2>& x) {
  return {2 * std::cos(2 * x[0] + 1) * std::exp(x[1]), std::sin(2 * x[0] + 1) * std::exp(x[1])};
}

// ADR with a varying anisotropic diffusion, advection and reaction: a non-symmetric matrix whose
// every term (volume, interface, Dirichlet, Neumann, inflow) is exercised.
auto adr_coefficients() {
  return make_coefficients<2>()
      .with_diffusion([](const Point<2>& x) {
        Tensor<2> a = Tensor<2>::identity(1 + 0.5 * x[0]);
        a[0][1] = a[1][0] = 0.2;
        return a;
      })
      .with_advection(Point<2>{1.0, -0.5})
      .with_reaction(1.0)
      .with_source([](const Point<2>& x) { return 1 + x[0] * x[1]; })
      .with_dirichlet([](const Point<2>& x) { return exact(x); })
      .with_neumann([](const Point<2>& x, const Point<2>& n) {
        return (1 + 0.5 * x[0]) * dot(exact_gradient(x), n);
      });
}

// A sequential AIJ copy of a whole-mesh BlockMatrix on PETSC_COMM_SELF (the serial reference,
// which every rank solves alone).
Mat sequential_aij(const BlockMatrix<double>& matrix) {
  const BlockPattern& pattern = matrix.pattern();
  std::vector<GlobalIndex> rows(pattern.value_count()), columns(pattern.value_count());
  pattern.coo_indices(rows, columns);
  std::vector<PetscInt> petsc_rows(rows.begin(), rows.end()),
      petsc_columns(columns.begin(), columns.end());
  Mat mat = nullptr;
  const PetscInt n = PetscInt(pattern.dof_count());
  POLYDG_PETSC_CALL(MatCreate(PETSC_COMM_SELF, &mat));
  POLYDG_PETSC_CALL(MatSetSizes(mat, n, n, n, n));
  POLYDG_PETSC_CALL(MatSetType(mat, MATSEQAIJ));
  POLYDG_PETSC_CALL(MatSetPreallocationCOO(mat, PetscCount(rows.size()), petsc_rows.data(),
                                           petsc_columns.data()));
  POLYDG_PETSC_CALL(MatSetValuesCOO(mat, matrix.values().data(), INSERT_VALUES));
  std::vector<PetscInt> block_sizes(std::size_t(pattern.block_row_count()));
  for (Index e = 0; e < pattern.block_row_count(); ++e) block_sizes[e] = pattern.block_size(e);
  POLYDG_PETSC_CALL(
      MatSetVariableBlockSizes(mat, PetscInt(block_sizes.size()), block_sizes.data()));
  return mat;
}

// GMRES(100) + element-block Jacobi (PCVPBJACOBI on the element blocks) to rtol 1e-12 from
// zero: the iterates are those of the renumbered system (block Jacobi commutes with a
// permutation of whole blocks), so the iteration count is the serial one up to rounding.
// Returns the iteration count.
PetscInt solve(Mat mat, Vec rhs, Vec solution) {
  KSP ksp = nullptr;
  PC pc = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  POLYDG_PETSC_CALL(PetscObjectGetComm(reinterpret_cast<PetscObject>(mat), &comm));
  POLYDG_PETSC_CALL(KSPCreate(comm, &ksp));
  POLYDG_PETSC_CALL(KSPSetOperators(ksp, mat, mat));
  POLYDG_PETSC_CALL(KSPSetType(ksp, KSPGMRES));
  POLYDG_PETSC_CALL(KSPGMRESSetRestart(ksp, 100));
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  POLYDG_PETSC_CALL(PCSetType(pc, PCVPBJACOBI));
  POLYDG_PETSC_CALL(KSPSetTolerances(ksp, 1e-12, 0.0, PETSC_DEFAULT, 1000));
  POLYDG_PETSC_CALL(KSPSolve(ksp, rhs, solution));
  KSPConvergedReason reason;
  POLYDG_PETSC_CALL(KSPGetConvergedReason(ksp, &reason));
  BOOST_TEST_REQUIRE(int(reason) > 0, "KSP did not converge: reason " << int(reason));
  PetscInt iterations = 0;
  POLYDG_PETSC_CALL(KSPGetIterationNumber(ksp, &iterations));
  POLYDG_PETSC_CALL(KSPDestroy(&ksp));
  return iterations;
}

struct SerialSystem {
  std::unique_ptr<Assembler<2>> assembler;
  std::unique_ptr<BlockMatrix<double>> matrix;
  std::vector<double> rhs;
};

SerialSystem serial_system(const PolytopicMesh<2>& mesh) {
  SerialSystem s;
  s.assembler = std::make_unique<Assembler<2>>(mesh, mixed_conditions());
  s.matrix = std::make_unique<BlockMatrix<double>>(s.assembler->make_matrix());
  s.rhs = s.assembler->make_vector();
  s.assembler->assemble(adr_coefficients(), *s.matrix, s.rhs);
  return s;
}

struct RankSystem {
  MeshPartition partition;
  std::unique_ptr<Assembler<2>> assembler;
  RankBlockPattern rows;
  std::unique_ptr<BlockMatrix<double>> matrix;
  std::vector<double> rhs;
  // The mesh element of each local element (owned, then ghosts).
  std::vector<Index> mesh_element;
};

RankSystem rank_system(const PolytopicMesh<2>& mesh) {
  RankSystem s;
  const int rank = world_rank();
  s.partition = partition_mesh(mesh, world_rank_count());
  s.assembler = std::make_unique<Assembler<2>>(
      QuadratureMesh<2>(mesh, mixed_conditions(), QuadraturePieces::simplices, s.partition, rank));
  s.rows =
      make_rank_block_pattern(s.assembler->pattern(), s.partition, rank,
                              partition_dof_offsets(mesh, s.partition, BasisSpace::total_degree));
  s.matrix = std::make_unique<BlockMatrix<double>>(s.assembler->make_matrix());
  s.rhs = s.assembler->make_vector();
  s.assembler->assemble(adr_coefficients(), *s.matrix, s.rhs);
  const Index begin = s.partition.part_begin[rank];
  for (Index k = 0; k < s.rows.owned_block_rows(); ++k)
    s.mesh_element.push_back(s.partition.old_from_new[begin + k]);
  for (Index n : s.partition.ghosts[rank]) s.mesh_element.push_back(s.partition.old_from_new[n]);
  return s;
}

double max_abs(std::span<const double> values) {
  double m = 0;
  for (double v : values) m = std::max(m, std::abs(v));
  return m;
}

// Each rank's owned block rows and rhs against the whole mesh's, block by block in the mesh's
// own numbering: the same blocks, and values equal up to rounding (the same integrals summed in
// another order: flipped interfaces, ghost trace constants). Returns nothing; checks globally.
template <int Dim, class Coefficients>
void check_rank_rows(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                     const AssemblyOptions& options, const Coefficients& coefficients) {
  Assembler<Dim> whole_assembler(mesh, conditions, options);
  BlockMatrix<double> whole_matrix = whole_assembler.make_matrix();
  std::vector<double> whole_rhs = whole_assembler.make_vector();
  whole_assembler.assemble(coefficients, whole_matrix, whole_rhs);

  const int rank = world_rank();
  const MeshPartition partition = partition_mesh(mesh, world_rank_count());
  Assembler<Dim> assembler(QuadratureMesh<Dim>(mesh, conditions, options.pieces, partition, rank),
                           options);
  const RankBlockPattern rows = make_rank_block_pattern(
      assembler.pattern(), partition, rank, partition_dof_offsets(mesh, partition, options.space));
  BlockMatrix<double> matrix = assembler.make_matrix();
  std::vector<double> rhs = assembler.make_vector();
  assembler.assemble(coefficients, matrix, rhs);
  std::vector<Index> mesh_element;
  for (Index k = 0; k < rows.owned_block_rows(); ++k)
    mesh_element.push_back(partition.old_from_new[partition.part_begin[rank] + k]);
  for (Index n : partition.ghosts[rank]) mesh_element.push_back(partition.old_from_new[n]);

  const BlockPattern& pattern = rows.local();
  const BlockPattern& whole = whole_matrix.pattern();
  const double scale = max_abs(whole_matrix.values());
  const double rhs_scale = std::max(1.0, max_abs(whole_rhs));
  double difference = 0, rhs_difference = 0;
  Index missing = 0;
  for (Index k = 0; k < rows.owned_block_rows(); ++k) {
    const Index row = mesh_element[k];
    BOOST_TEST(pattern.block_row_begin(k + 1) - pattern.block_row_begin(k) ==
               whole.block_row_begin(row + 1) - whole.block_row_begin(row));
    for (Index b = pattern.block_row_begin(k); b < pattern.block_row_begin(k + 1); ++b) {
      const Index serial_block = whole.find_block(row, mesh_element[pattern.block_column(b)]);
      if (serial_block < 0) {
        ++missing;
        continue;
      }
      const GlobalIndex count = pattern.block_value_offset(b + 1) - pattern.block_value_offset(b);
      for (GlobalIndex i = 0; i < count; ++i)
        difference =
            std::max(difference,
                     std::abs(matrix.values()[pattern.block_value_offset(b) + i] -
                              whole_matrix.values()[whole.block_value_offset(serial_block) + i]));
    }
    for (Index i = 0; i < pattern.block_size(k); ++i)
      rhs_difference = std::max(rhs_difference, std::abs(rhs[pattern.dof_offset(k) + i] -
                                                         whole_rhs[whole.dof_offset(row) + i]));
  }
  BOOST_TEST(sum_over_ranks(double(missing)) == 0);
  BOOST_TEST(max_over_ranks(difference) <= 1e-14 * scale);
  BOOST_TEST(max_over_ranks(rhs_difference) <= 1e-14 * rhs_scale);
  // The owned rows cover the mesh once.
  BOOST_TEST(sum_over_ranks(double(rows.owned_block_rows())) == double(mesh.element_count()));
}

// The slab problem of the heat demo's kind on prisms K × I_n (space-time coefficients).
struct SlabSource {
  double operator()(const Point<3>& x) const { return std::sin(x[0] + x[2]) * x[1]; }
};

// A slab march's boundary: Dirichlet on the sides, the previous slab below, Neumann on top.
BoundaryConditions slab_march_conditions() {
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  return conditions;
}

auto slab_coefficients() {
  return space_time_coefficients(make_coefficients<2>()
                                     .with_diffusion(1.0)
                                     .with_advection(Point<2>{1.0, 0.5})
                                     .with_reaction(1.0))
      .with_source(SlabSource{});
}

}  // namespace

BOOST_AUTO_TEST_CASE(each_ranks_block_rows_are_the_serial_ones) {
  check_rank_rows(hp_square_mesh(20, 90), mixed_conditions(), AssemblyOptions{},
                  adr_coefficients());
}

BOOST_AUTO_TEST_CASE(each_ranks_slab_rows_are_the_serial_ones) {
  // A 2D+1 slab on prism pieces (lateral rectangles also in the ghosts' outer facets), with
  // the previous-slab bottom and the Neumann top of a slab march.
  const PolytopicMesh<3> slab = make_slab_mesh(hp_square_mesh(12, 40));
  const BoundaryConditions conditions = slab_march_conditions();
  const auto coefficients = slab_coefficients();
  check_rank_rows(slab, conditions, slab_assembly_options(), coefficients);
}

BOOST_AUTO_TEST_CASE(the_mpiaij_matrix_is_the_serial_matrix_renumbered) {
  const PolytopicMesh<2> mesh = hp_square_mesh(20, 90);
  const SerialSystem serial = serial_system(mesh);
  const RankSystem local = rank_system(mesh);
  petsc::AijMatrix aij(local.rows);
  aij.update(*local.matrix);
  BOOST_TEST(aij.row_count() == serial.matrix->pattern().dof_count());

  // x = a function of the mesh numbering, in both numberings; y = A x compared on owned rows.
  const BlockPattern& whole = serial.matrix->pattern();
  const auto x_of = [](GlobalIndex serial_dof) { return std::cos(0.37 * double(serial_dof)); };
  std::vector<double> x_serial(whole.dof_count()), y_serial(whole.dof_count());
  for (GlobalIndex i = 0; i < whole.dof_count(); ++i) x_serial[i] = x_of(i);
  serial.matrix->multiply(x_serial, y_serial);

  const BlockPattern& pattern = local.rows.local();
  petsc::Vector x(local.rows), y(local.rows);
  std::vector<double> x_owned(local.rows.owned_dof_count());
  for (Index k = 0; k < local.rows.owned_block_rows(); ++k)
    for (Index i = 0; i < pattern.block_size(k); ++i)
      x_owned[pattern.dof_offset(k) + i] = x_of(whole.dof_offset(local.mesh_element[k]) + i);
  petsc::copy_to_vec(x_owned, x.vec());
  POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec()));
  std::vector<double> y_owned(x_owned.size());
  petsc::copy_from_vec(y.vec(), y_owned);
  double difference = 0;
  for (Index k = 0; k < local.rows.owned_block_rows(); ++k)
    for (Index i = 0; i < pattern.block_size(k); ++i)
      difference =
          std::max(difference, std::abs(y_owned[pattern.dof_offset(k) + i] -
                                        y_serial[whole.dof_offset(local.mesh_element[k]) + i]));
  BOOST_TEST(max_over_ranks(difference) <= 1e-13 * max_abs(y_serial));
}

BOOST_AUTO_TEST_CASE(gmres_iterations_solution_and_errors_match_the_serial_solve) {
  const PolytopicMesh<2> mesh = hp_square_mesh(20, 90);
  const SerialSystem serial = serial_system(mesh);
  const BlockPattern& whole = serial.matrix->pattern();

  // Serial reference, on every rank alone.
  Mat serial_mat = sequential_aij(*serial.matrix);
  Vec b_serial = nullptr, u_serial = nullptr;
  POLYDG_PETSC_CALL(MatCreateVecs(serial_mat, &u_serial, &b_serial));
  {
    PetscScalar* array = nullptr;
    POLYDG_PETSC_CALL(VecGetArray(b_serial, &array));
    std::copy(serial.rhs.begin(), serial.rhs.end(), array);
    POLYDG_PETSC_CALL(VecRestoreArray(b_serial, &array));
  }
  const PetscInt serial_iterations = solve(serial_mat, b_serial, u_serial);
  std::vector<double> u_h(whole.dof_count());
  petsc::copy_from_vec(u_serial, u_h);
  const ErrorNorms serial_errors =
      compute_error_norms(serial.assembler->quadrature_mesh(), adr_coefficients(), u_h, exact,
                          exact_gradient, error_norm_options(serial.assembler->options()));
  POLYDG_PETSC_CALL(VecDestroy(&b_serial));
  POLYDG_PETSC_CALL(VecDestroy(&u_serial));
  POLYDG_PETSC_CALL(MatDestroy(&serial_mat));

  // Distributed.
  const RankSystem local = rank_system(mesh);
  const BlockPattern& pattern = local.rows.local();
  petsc::AijMatrix aij(local.rows);
  aij.update(*local.matrix);
  petsc::Vector b(local.rows), u(local.rows);
  petsc::copy_to_vec(std::span<const double>(local.rhs).first(local.rows.owned_dof_count()),
                     b.vec());
  const PetscInt iterations = solve(aij.mat(), b.vec(), u.vec());
  BOOST_TEST_MESSAGE(iterations << " GMRES iterations on " << world_rank_count() << " ranks, "
                                << serial_iterations << " serial");
  BOOST_TEST(std::abs(iterations - serial_iterations) <= 1,
             iterations << " iterations on " << world_rank_count() << " ranks, "
                        << serial_iterations << " serial");

  std::vector<double> u_local(pattern.dof_count());
  petsc::GhostScatter(local.rows).gather(u.vec(), u_local);
  double difference = 0;
  for (Index k = 0; k < pattern.block_row_count(); ++k)  // ghosts too: the scatter's values
    for (Index i = 0; i < pattern.block_size(k); ++i)
      difference = std::max(difference, std::abs(u_local[pattern.dof_offset(k) + i] -
                                                 u_h[whole.dof_offset(local.mesh_element[k]) + i]));
  BOOST_TEST(max_over_ranks(difference) <= 1e-10 * max_abs(u_h));

  const ErrorNorms errors =
      compute_error_norms(local.assembler->quadrature_mesh(), adr_coefficients(), u_local, exact,
                          exact_gradient, error_norm_options(local.assembler->options()));
  const auto total = [](double norm) { return std::sqrt(sum_over_ranks(norm * norm)); };
  BOOST_TEST(total(errors.l2) == serial_errors.l2, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(total(errors.h1_seminorm) == serial_errors.h1_seminorm,
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(total(errors.dg) == serial_errors.dg, boost::test_tools::tolerance(1e-9));
}

namespace {

// The dense-block MATSHELL on each rank's local matrix (owned rows, then ghost rows; the ghosts'
// x from their owners) against the MPIAIJ of the same rows: products, products with an addend,
// diagonal, and a solve with element-block Jacobi.
void check_distributed_shell(bool overlapped) {
  const PolytopicMesh<2> mesh = hp_square_mesh(20, 90);
  const RankSystem local = rank_system(mesh);
  petsc::AijMatrix aij(local.rows);
  aij.update(*local.matrix);
  const DenseBlockMatrix<double> dense(*local.matrix);
  const petsc::DenseBlockOperator op(dense);
  BOOST_TEST(op.ghost_column_product(local.rows.owned_block_rows()) != nullptr);
  if (!overlapped)
    POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, "-gathered_shell_overlap_ghosts", "false"));
  petsc::ShellMatrix shell(op, local.rows, overlapped ? "" : "gathered_");
  if (!overlapped) {
    PetscBool used = PETSC_FALSE;
    POLYDG_PETSC_CALL(PetscOptionsUsed(nullptr, "gathered_shell_overlap_ghosts", &used));
    BOOST_TEST(used == PETSC_TRUE);
  }

  petsc::Vector x(local.rows), z(local.rows), y_aij(local.rows), y_shell(local.rows);
  std::vector<double> values(std::size_t(local.rows.owned_dof_count()));
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = std::sin(0.1 * double(i + 1) * double(world_rank() + 2));
  petsc::copy_to_vec(values, x.vec());
  for (double& v : values) v = std::cos(3 * v);
  petsc::copy_to_vec(values, z.vec());
  const auto difference = [&](Vec a, Vec b) {
    PetscReal norm_a = 0, norm_difference = 0;
    POLYDG_PETSC_CALL(VecNorm(a, NORM_INFINITY, &norm_a));
    POLYDG_PETSC_CALL(VecAXPY(b, -1.0, a));
    POLYDG_PETSC_CALL(VecNorm(b, NORM_INFINITY, &norm_difference));
    return double(norm_difference / norm_a);
  };
  POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y_aij.vec()));
  POLYDG_PETSC_CALL(MatMult(shell.mat(), x.vec(), y_shell.vec()));
  BOOST_TEST(difference(y_aij.vec(), y_shell.vec()) <= 1e-13);  // the sums' order differs
  POLYDG_PETSC_CALL(MatMultAdd(aij.mat(), x.vec(), z.vec(), y_aij.vec()));
  POLYDG_PETSC_CALL(MatMultAdd(shell.mat(), x.vec(), z.vec(), y_shell.vec()));
  BOOST_TEST(difference(y_aij.vec(), y_shell.vec()) <= 1e-13);
  POLYDG_PETSC_CALL(MatGetDiagonal(aij.mat(), y_aij.vec()));
  POLYDG_PETSC_CALL(MatGetDiagonal(shell.mat(), y_shell.vec()));
  BOOST_TEST(difference(y_aij.vec(), y_shell.vec()) == 0);

  petsc::Vector b(local.rows), u_aij(local.rows), u_shell(local.rows);
  petsc::copy_to_vec(std::span<const double>(local.rhs).first(local.rows.owned_dof_count()),
                     b.vec());
  const PetscInt aij_iterations = solve(aij.mat(), b.vec(), u_aij.vec());
  const PetscInt shell_iterations = solve(shell.mat(), b.vec(), u_shell.vec());
  BOOST_TEST(std::abs(aij_iterations - shell_iterations) <= 1,
             shell_iterations << " iterations with the shell, " << aij_iterations << " with AIJ");
  BOOST_TEST(difference(u_aij.vec(), u_shell.vec()) <= 1e-10);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_distributed_shell_is_the_mpiaij_matrix) {
  check_distributed_shell(/*overlapped=*/true);
}

BOOST_AUTO_TEST_CASE(the_distributed_shell_without_overlap_is_the_mpiaij_matrix) {
  check_distributed_shell(/*overlapped=*/false);
}

BOOST_AUTO_TEST_CASE(a_partition_of_another_mesh_or_rank_is_refused_by_name) {
  // Local checks, made on every rank before anything collective.
  const PolytopicMesh<2> mesh = hp_square_mesh(12, 40);
  const PolytopicMesh<2> other = hp_square_mesh(12, 30);
  const MeshPartition partition = partition_mesh(other, 1);
  BOOST_TEST(error_names(
      [&] {
        QuadratureMesh<2>(mesh, mixed_conditions(), QuadraturePieces::simplices, partition, 0);
      },
      {"30 elements", "40", "not this mesh's"}));
  const MeshPartition own = partition_mesh(mesh, 1);
  BOOST_TEST(error_names(
      [&] { QuadratureMesh<2>(mesh, mixed_conditions(), QuadraturePieces::simplices, own, 1); },
      {"rank 1", "partition's 1"}));
  BOOST_TEST(error_names(
      [&] {
        make_rank_block_pattern(std::make_shared<const BlockPattern>(), own, 0,
                                partition_dof_offsets(mesh, own, BasisSpace::total_degree));
      },
      {"block rows", "owns 40 elements"}));
}

BOOST_AUTO_TEST_CASE(more_ranks_than_elements_is_a_clear_error_on_every_rank) {
  // A mesh of 2 elements: with 3 ranks, every rank refuses the partition itself (no rank waits
  // for another: nothing collective has started).
  const PolytopicMesh<2> mesh = hp_square_mesh(4, 2);
  if (world_rank_count() <= mesh.element_count()) {
    BOOST_TEST(partition_mesh(mesh, world_rank_count()).part_count == world_rank_count());
    return;
  }
  BOOST_TEST(error_names([&] { partition_mesh(mesh, world_rank_count()); },
                         {std::to_string(world_rank_count()) + " parts", "only 2"}));
}

namespace {

// Rank part files of `mesh` split by `partition`, written by rank 0 into a folder every rank
// names alike (RanksScratchFolder), read back by every rank; removed at the end.
struct PartsOnDisk {
  testing::RanksScratchFolder scratch{"polydg_assembly_parts"};
  RankPart<2> part;
  PartsOnDisk(const PolytopicMesh<2>& mesh, const MeshPartition& partition, int cut_tag) {
    const std::filesystem::path& folder = scratch.path();
    std::vector<Index> element_of_cell(std::size_t(mesh.fine_mesh().cell_count()));
    for (Index c = 0; c < mesh.fine_mesh().cell_count(); ++c)
      element_of_cell[std::size_t(c)] = mesh.element_of_cell(c);
    petsc::on_every_rank([&] {
      if (world_rank() == 0)
        write_rank_parts<2>(folder, mesh.fine_mesh(), element_of_cell, partition, cut_tag);
    });
    petsc::on_every_rank(
        [&] { part = read_rank_part<2>(folder, world_rank(), world_rank_count()); });
  }
  /// The part as a polytopic mesh, each local element of degree degree_of(its id).
  template <class DegreeOf>
  PolytopicMesh<2> piece(DegreeOf degree_of) const {
    std::vector<int> degrees;
    for (const Index e : part.submesh.element) degrees.push_back(degree_of(e));
    return PolytopicMesh<2>(part.submesh.mesh, part.submesh.element_of_cell, degrees);
  }
};

int hp_degree(Index e) { return 1 + int(e % 3); }  // hp_square_mesh's

// Every local element's global first unknown, and the owned rows' blocks, values and rhs: the
// reference's, up to rounding (facet sums in another order).
void check_same_rank_rows(const RankBlockPattern& rows, const BlockMatrix<double>& matrix,
                          std::span<const double> rhs, const RankBlockPattern& reference_rows,
                          const BlockMatrix<double>& reference_matrix,
                          std::span<const double> reference_rhs) {
  BOOST_TEST(rows.global_dof_count() == reference_rows.global_dof_count());
  BOOST_TEST(rows.owned_block_rows() == reference_rows.owned_block_rows());
  BOOST_TEST_REQUIRE(rows.local().block_row_count() == reference_rows.local().block_row_count());
  for (Index k = 0; k < rows.local().block_row_count(); ++k)
    BOOST_TEST(rows.global_first_dof(k) == reference_rows.global_first_dof(k));
  const BlockPattern &a = rows.local(), &b = reference_rows.local();
  const double scale = max_over_ranks(max_abs(reference_matrix.values()));
  const double rhs_scale = std::max(1.0, max_over_ranks(max_abs(reference_rhs)));
  double difference = 0, rhs_difference = 0;
  for (Index k = 0; k < rows.owned_block_rows(); ++k) {
    BOOST_TEST_REQUIRE(a.block_row_begin(k + 1) - a.block_row_begin(k) ==
                       b.block_row_begin(k + 1) - b.block_row_begin(k));
    for (Index j = 0; j < a.block_row_begin(k + 1) - a.block_row_begin(k); ++j) {
      const Index block_a = a.block_row_begin(k) + j, block_b = b.block_row_begin(k) + j;
      BOOST_TEST(a.block_column(block_a) == b.block_column(block_b));
      for (GlobalIndex v = 0; v < a.block_value_offset(block_a + 1) - a.block_value_offset(block_a);
           ++v)
        difference = std::max(
            difference, std::abs(matrix.values()[a.block_value_offset(block_a) + v] -
                                 reference_matrix.values()[b.block_value_offset(block_b) + v]));
    }
    for (Index i = 0; i < a.block_size(k); ++i)
      rhs_difference = std::max(
          rhs_difference, std::abs(rhs[a.dof_offset(k) + i] - reference_rhs[b.dof_offset(k) + i]));
  }
  BOOST_TEST(max_over_ranks(difference) <= 1e-14 * scale);
  BOOST_TEST(max_over_ranks(rhs_difference) <= 1e-14 * rhs_scale);
}

}  // namespace

BOOST_AUTO_TEST_CASE(parts_read_from_their_files_number_and_assemble_as_the_partition) {
  const PolytopicMesh<2> mesh = hp_square_mesh(20, 90);
  const RankSystem reference = rank_system(mesh);  // from the whole mesh and its partition
  const int rank = world_rank(), ranks = world_rank_count();
  constexpr int cut_tag = 100;
  const PartsOnDisk parts(mesh, reference.partition, cut_tag);
  const hyperbolic::ElementHalo halo(parts.part.halo);
  const auto piece_assembler = [&](auto degree_of) {
    return std::make_unique<Assembler<2>>(
        QuadratureMesh<2>(parts.piece(degree_of), mixed_conditions(), QuadraturePieces::simplices,
                          parts.part.submesh.owned_count, cut_tag));
  };
  const auto assembler = piece_assembler(hp_degree);
  const RankBlockPattern rows = petsc::part_block_pattern(assembler->pattern(), halo);
  BlockMatrix<double> matrix = assembler->make_matrix();
  std::vector<double> rhs = assembler->make_vector();
  assembler->assemble(adr_coefficients(), matrix, rhs);
  check_same_rank_rows(rows, matrix, rhs, reference.rows, *reference.matrix, reference.rhs);

  // Through PETSc: the MPIAIJ of the parts times a vector is the partition's.
  petsc::AijMatrix aij(rows), reference_aij(reference.rows);
  aij.update(matrix);
  reference_aij.update(*reference.matrix);
  petsc::Vector x(rows), y(rows), y_reference(reference.rows);
  std::vector<double> x_owned(std::size_t(rows.owned_dof_count()));
  for (std::size_t i = 0; i < x_owned.size(); ++i)
    x_owned[i] = std::cos(0.37 * double(rows.global_dof_begin() + GlobalIndex(i)));
  petsc::copy_to_vec(x_owned, x.vec());
  POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec()));
  POLYDG_PETSC_CALL(MatMult(reference_aij.mat(), x.vec(), y_reference.vec()));
  std::vector<double> y_owned(x_owned.size()), y_reference_owned(x_owned.size());
  petsc::copy_from_vec(y.vec(), y_owned);
  petsc::copy_from_vec(y_reference.vec(), y_reference_owned);
  double product_difference = 0;
  for (std::size_t i = 0; i < y_owned.size(); ++i)
    product_difference = std::max(product_difference, std::abs(y_owned[i] - y_reference_owned[i]));
  BOOST_TEST(max_over_ranks(product_difference) <=
             1e-13 * std::max(1.0, max_over_ranks(max_abs(y_reference_owned))));

  // Degrees that differ from a ghost's owner's (here: p = 1 on the last rank) are refused on
  // every rank, naming the ghost.
  if (ranks > 1) {
    const auto other =
        piece_assembler([&](Index e) { return rank == ranks - 1 ? 1 : hp_degree(e); });
    BOOST_TEST(error_names([&] { petsc::part_block_pattern(other->pattern(), halo); },
                           {"part_block_pattern", "on its owner"}));
  }
}

BOOST_AUTO_TEST_CASE(slab_parts_read_from_their_files_assemble_as_the_partition) {
  // The slab of a spatial part (make_slab_mesh of the piece: prism pieces, the cut's lateral
  // rectangles among the ghosts' outer facets) against the whole slab's rows of the same
  // partition (a spatial partition is the slab's: slab element e is κ_e × I).
  const PolytopicMesh<2> spatial = hp_square_mesh(12, 40);
  const MeshPartition partition = partition_mesh(spatial, world_rank_count());
  const BoundaryConditions conditions = slab_march_conditions();
  const auto coefficients = slab_coefficients();
  const AssemblyOptions options = slab_assembly_options();
  const int rank = world_rank();

  const PolytopicMesh<3> slab = make_slab_mesh(spatial);
  Assembler<3> reference(QuadratureMesh<3>(slab, conditions, options.pieces, partition, rank),
                         options);
  const RankBlockPattern reference_rows = make_rank_block_pattern(
      reference.pattern(), partition, rank, partition_dof_offsets(slab, partition, options.space));
  BlockMatrix<double> reference_matrix = reference.make_matrix();
  std::vector<double> reference_rhs = reference.make_vector();
  reference.assemble(coefficients, reference_matrix, reference_rhs);

  constexpr int cut_tag = 100;
  const PartsOnDisk parts(spatial, partition, cut_tag);
  const hyperbolic::ElementHalo halo(parts.part.halo);
  Assembler<3> assembler(QuadratureMesh<3>(make_slab_mesh(parts.piece(hp_degree)), conditions,
                                           options.pieces, parts.part.submesh.owned_count, cut_tag),
                         options);
  const RankBlockPattern rows = petsc::part_block_pattern(assembler.pattern(), halo);
  BlockMatrix<double> matrix = assembler.make_matrix();
  std::vector<double> rhs = assembler.make_vector();
  assembler.assemble(coefficients, matrix, rhs);
  check_same_rank_rows(rows, matrix, rhs, reference_rows, reference_matrix, reference_rhs);
}
