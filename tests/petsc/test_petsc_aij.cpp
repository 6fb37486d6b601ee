#define BOOST_TEST_MODULE petsc_aij
#include <petscksp.h>
#include <petscmat.h>

#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "../../src/petsc/csr_value_order.hpp"  // private to AijMatrix: its order check
#include "captured_warnings.hpp"
#include "error_message.hpp"
#include "petsc_test_support.hpp"
#include "polydg/core/error.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "shell_test_problems.hpp"

using namespace polydg;
using polydg::testing::error_names;

using PetscTestSession = testing::PetscTestSession;
BOOST_TEST_GLOBAL_FIXTURE(PetscTestSession);

namespace {

/// The whole matrix as a dense row-major array (MatGetValues on every (row, column)).
std::vector<double> dense_entries(Mat mat, GlobalIndex n) {
  std::vector<PetscInt> all(n);
  for (GlobalIndex i = 0; i < n; ++i) all[i] = PetscInt(i);
  std::vector<PetscScalar> dense(std::size_t(n * n));
  POLYDG_PETSC_CALL(
      MatGetValues(mat, PetscInt(n), all.data(), PetscInt(n), all.data(), dense.data()));
  return std::vector<double>(dense.begin(), dense.end());
}

/// Every entry of `mat` equals the BlockMatrix's (zero outside its blocks), exactly.
void check_same_entries(Mat mat, const BlockMatrix<double>& matrix) {
  const GlobalIndex n = matrix.pattern().dof_count();
  const std::vector<double> dense = dense_entries(mat, n);
  for (GlobalIndex i = 0; i < n; ++i)
    for (GlobalIndex j = 0; j < n; ++j)
      BOOST_TEST(dense[i * n + j] == matrix.entry(i, j), "entry (" << i << ", " << j << ")");
}

MatInfo local_info(Mat mat) {
  MatInfo info;
  POLYDG_PETSC_CALL(MatGetInfo(mat, MAT_LOCAL, &info));
  return info;
}

}  // namespace

BOOST_AUTO_TEST_CASE(aij_matrix_equals_the_block_matrix_entry_for_entry) {
  const auto pattern = testing::small_hp_pattern();
  const BlockMatrix<double> matrix = testing::random_block_matrix(pattern, 1);
  petsc::AijMatrix aij(*pattern);
  aij.update(matrix);

  const GlobalIndex n = pattern->dof_count();
  PetscInt rows = 0, columns = 0;
  POLYDG_PETSC_CALL(MatGetSize(aij.mat(), &rows, &columns));
  BOOST_TEST(GlobalIndex(rows) == n);
  BOOST_TEST(GlobalIndex(columns) == n);
  BOOST_TEST(aij.row_count() == n);
  BOOST_TEST(aij.value_count() == pattern->value_count());
  // Exactly the pattern's entries are stored, and all of them were preallocated.
  const MatInfo info = local_info(aij.mat());
  BOOST_TEST(info.nz_used == double(pattern->value_count()));
  BOOST_TEST(info.nz_allocated == double(pattern->value_count()));
  BOOST_TEST(info.mallocs == 0.0);

  check_same_entries(aij.mat(), matrix);
}

BOOST_AUTO_TEST_CASE(mat_mult_equals_block_matrix_multiply) {
  const auto pattern = testing::small_hp_pattern();
  const BlockMatrix<double> matrix = testing::random_block_matrix(pattern, 2);
  petsc::AijMatrix aij(*pattern);
  aij.update(matrix);

  const std::vector<double> x = testing::random_vector(pattern->dof_count(), 3);
  std::vector<double> expected(x.size()), product(x.size());
  matrix.multiply(x, expected);

  petsc::Vector px(*pattern), py(*pattern);
  petsc::copy_to_vec(x, px.vec());
  POLYDG_PETSC_CALL(MatMult(aij.mat(), px.vec(), py.vec()));
  petsc::copy_from_vec(py.vec(), product);
  for (std::size_t i = 0; i < x.size(); ++i)
    BOOST_TEST(product[i] == expected[i], boost::test_tools::tolerance(1e-13));
}

BOOST_AUTO_TEST_CASE(second_update_changes_values_without_new_allocation) {
  const auto pattern = testing::small_hp_pattern();
  const BlockMatrix<double> first = testing::random_block_matrix(pattern, 4);
  const BlockMatrix<double> second = testing::random_block_matrix(pattern, 5);
  petsc::AijMatrix aij(*pattern);
  aij.update(first);

  const Mat mat = aij.mat();
  PetscObjectState nonzero_state_before = 0, nonzero_state_after = 0;
  POLYDG_PETSC_CALL(MatGetNonzeroState(mat, &nonzero_state_before));

  aij.update(second);

  POLYDG_PETSC_CALL(MatGetNonzeroState(mat, &nonzero_state_after));
  BOOST_TEST(aij.mat() == mat);                             // the same Mat object
  BOOST_TEST(nonzero_state_after == nonzero_state_before);  // the same nonzero structure
  const MatInfo info = local_info(mat);
  BOOST_TEST(info.mallocs == 0.0);
  BOOST_TEST(info.nz_allocated == double(pattern->value_count()));

  check_same_entries(mat, second);
}

BOOST_AUTO_TEST_CASE(update_with_another_pattern_throws) {
  const auto pattern = testing::small_hp_pattern();
  const std::vector<std::array<Index, 2>> interfaces = {{0, 1}};
  const auto other = std::make_shared<const BlockPattern>(std::vector<Index>{3, 3}, interfaces);
  petsc::AijMatrix aij(*pattern);
  // Both sizes are named: the matrix's and the ones the AijMatrix was created for.
  const std::string expected =
      "polydg::petsc::AijMatrix::update: the BlockMatrix has 6 rows and 36 values, the AijMatrix "
      "was created for " +
      std::to_string(pattern->dof_count()) + " rows and " + std::to_string(pattern->value_count()) +
      " values";
  BOOST_TEST(error_names([&] { aij.update(BlockMatrix<double>(other)); }, {expected}));
}

BOOST_AUTO_TEST_CASE(unknowns_beyond_petsc_int_throw_before_allocating) {
  if (sizeof(PetscInt) != 4) return;  // a 64-bit-index PETSc indexes these
  // Two elements of 2^30 unknowns: 2^31 rows, one more than 32-bit PetscInt can index.
  const std::vector<std::array<Index, 2>> no_interfaces;
  const BlockPattern huge(std::vector<Index>{Index(1) << 30, Index(1) << 30}, no_interfaces);
  BOOST_CHECK_EXCEPTION(petsc::AijMatrix{huge}, Error, [](const Error& e) {
    const std::string what = e.what();
    return what.find("2147483648 unknowns") != std::string::npos &&
           what.find("--with-64-bit-indices") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(aij_matrix_is_move_only_and_keeps_its_mat) {
  const auto pattern = testing::small_hp_pattern();
  petsc::AijMatrix first(*pattern);
  const Mat mat = first.mat();
  petsc::AijMatrix second(std::move(first));
  BOOST_TEST(first.mat() == nullptr);
  BOOST_TEST(second.mat() == mat);
  petsc::AijMatrix third;
  third = std::move(second);
  BOOST_TEST(third.mat() == mat);
  BOOST_TEST(error_names([&] { first.update(BlockMatrix<double>(pattern)); },
                         {"polydg::petsc::AijMatrix::update: the AijMatrix is empty"}));
  static_assert(!std::is_copy_constructible_v<petsc::AijMatrix>);
}

BOOST_AUTO_TEST_CASE(vector_round_trip_and_size_checks) {
  const auto pattern = testing::small_hp_pattern();
  petsc::Vector v(*pattern);
  PetscInt size = 0;
  POLYDG_PETSC_CALL(VecGetSize(v.vec(), &size));
  BOOST_TEST(GlobalIndex(size) == pattern->dof_count());

  const std::vector<double> values = testing::random_vector(pattern->dof_count(), 6);
  petsc::copy_to_vec(values, v.vec());
  PetscScalar sum = 0;
  POLYDG_PETSC_CALL(VecSum(v.vec(), &sum));
  double expected_sum = 0;
  for (double x : values) expected_sum += x;
  BOOST_TEST(double(sum) == expected_sum, boost::test_tools::tolerance(1e-13));

  std::vector<double> back(values.size());
  petsc::copy_from_vec(v.vec(), back);
  BOOST_TEST(back == values, boost::test_tools::per_element());

  std::vector<double> wrong(values.size() + 1);
  const std::string sizes = ": the Vec has " + std::to_string(values.size()) +
                            " local entries, the array " + std::to_string(wrong.size());
  BOOST_TEST(error_names([&] { petsc::copy_to_vec(wrong, v.vec()); },
                         {"polydg::petsc::copy_to_vec" + sizes}));
  BOOST_TEST(error_names([&] { petsc::copy_from_vec(v.vec(), wrong); },
                         {"polydg::petsc::copy_from_vec" + sizes}));
}

// -[prefix]mat_type reaches the Mat (so a PETSc built with CUDA can be given aijcusparse, whose
// values update_from_device() writes in place); a host type keeps the staged path, and a type
// PETSc does not know is refused with PETSc's message.
BOOST_AUTO_TEST_CASE(mat_type_comes_from_the_options_database) {
  const auto pattern = testing::small_hp_pattern();
  {
    const testing::ScopedOption type("-typed_mat_type", "seqaij");
    const petsc::AijMatrix aij(*pattern, "typed_");
    PetscBool same = PETSC_FALSE;
    POLYDG_PETSC_CALL(
        PetscObjectTypeCompare(reinterpret_cast<PetscObject>(aij.mat()), MATSEQAIJ, &same));
    BOOST_TEST(same == PETSC_TRUE);
    BOOST_TEST(!aij.values_on_device());
  }
  const testing::ScopedOption type("-untyped_mat_type", "no_such_type");
  BOOST_CHECK_EXCEPTION(petsc::AijMatrix(*pattern, "untyped_"), Error, [](const Error& e) {
    return std::string(e.what()).find("no_such_type") != std::string::npos;
  });
}

// update() writes a MATSEQAIJ's value array directly (csr_value_order.hpp). A KSP must see the
// new values: the direct solve is factored again after the update, without KSPSetOperators.
BOOST_AUTO_TEST_CASE(a_direct_solve_after_an_update_uses_the_new_values) {
  const auto pattern = testing::small_hp_pattern();
  const BlockMatrix<double> first =
      testing::spd_block_matrix(testing::random_block_matrix(pattern, 6));
  const BlockMatrix<double> second =
      testing::spd_block_matrix(testing::random_block_matrix(pattern, 7));
  petsc::AijMatrix aij(*pattern);
  aij.update(first);
  KSP ksp = nullptr;
  POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
  POLYDG_PETSC_CALL(KSPSetOperators(ksp, aij.mat(), aij.mat()));
  POLYDG_PETSC_CALL(KSPSetType(ksp, KSPPREONLY));
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  POLYDG_PETSC_CALL(PCSetType(pc, PCLU));
  const std::vector<double> b = testing::random_vector(pattern->dof_count(), 8);
  petsc::Vector pb(*pattern), px(*pattern);
  petsc::copy_to_vec(b, pb.vec());
  std::vector<double> x(b.size()), residual(b.size());
  for (const BlockMatrix<double>* matrix : {&first, &second}) {
    if (matrix == &second) aij.update(second);
    POLYDG_PETSC_CALL(KSPSolve(ksp, pb.vec(), px.vec()));
    petsc::copy_from_vec(px.vec(), x);
    matrix->multiply(x, residual);
    for (std::size_t i = 0; i < b.size(); ++i)
      BOOST_TEST(residual[i] == b[i], boost::test_tools::tolerance(1e-12));
  }
  POLYDG_PETSC_CALL(KSPDestroy(&ksp));
}

// A Mat type other than MATSEQAIJ (here MATSEQAIJPERM, a SeqAIJ with its own products) takes
// its values through MatSetValuesCOO(): the same entries.
BOOST_AUTO_TEST_CASE(other_host_mat_types_get_the_same_entries) {
  const auto pattern = testing::small_hp_pattern();
  const BlockMatrix<double> matrix = testing::random_block_matrix(pattern, 9);
  const testing::ScopedOption type("-perm_mat_type", "seqaijperm");
  petsc::AijMatrix aij(*pattern, "perm_");
  PetscBool perm = PETSC_FALSE;
  POLYDG_PETSC_CALL(
      PetscObjectTypeCompare(reinterpret_cast<PetscObject>(aij.mat()), MATSEQAIJPERM, &perm));
  BOOST_TEST(perm == PETSC_TRUE);
  aij.update(matrix);
  check_same_entries(aij.mat(), matrix);
}

// The CSR order is used only for a Mat it was checked against: a MATSEQAIJ with another
// pattern's entries (same unknowns, one interface fewer) is refused, so AijMatrix would keep
// MatSetValuesCOO for it.
BOOST_AUTO_TEST_CASE(the_csr_order_is_checked_against_the_mat) {
  const auto pattern = testing::small_hp_pattern();
  const std::vector<std::array<Index, 2>> fewer = {{0, 1}, {1, 2}, {2, 3}, {3, 4},
                                                   {4, 5}, {5, 6}, {0, 3}};
  const BlockPattern other(std::vector<Index>{3, 6, 3, 6, 6, 3, 3}, fewer);
  BOOST_TEST(other.dof_count() == pattern->dof_count());
  const petsc::AijMatrix aij(*pattern);
  const petsc::AijMatrix other_aij(other);
  const petsc::detail::CsrValueOrder order(*pattern);
  BOOST_TEST(order.matches(aij.mat(), *pattern));
  BOOST_TEST(!order.matches(other_aij.mat(), *pattern));
  BOOST_TEST(!petsc::detail::CsrValueOrder(other).matches(aij.mat(), other));
}

namespace {

/// What MatIsSymmetricKnown() says: "symmetric", "not symmetric" or "unknown".
std::string symmetry_known(Mat mat) {
  PetscBool known = PETSC_FALSE, symmetric = PETSC_FALSE;
  POLYDG_PETSC_CALL(MatIsSymmetricKnown(mat, &known, &symmetric));
  return known == PETSC_FALSE ? "unknown" : symmetric == PETSC_TRUE ? "symmetric" : "not symmetric";
}

/// What MatIsSPDKnown() says: "SPD", "not SPD" or "unknown".
std::string spd_known(Mat mat) {
  PetscBool known = PETSC_FALSE, spd = PETSC_FALSE;
  POLYDG_PETSC_CALL(MatIsSPDKnown(mat, &known, &spd));
  return known == PETSC_FALSE ? "unknown" : spd == PETSC_TRUE ? "SPD" : "not SPD";
}

bool symmetry_eternal(Mat mat) {
  PetscBool eternal = PETSC_TRUE;
  POLYDG_PETSC_CALL(MatGetOption(mat, MAT_SYMMETRY_ETERNAL, &eternal));
  return eternal == PETSC_TRUE;
}

}  // namespace

// update() tells PETSc whether the values are symmetric (MAT_SYMMETRIC, not eternal), on the
// direct CSR path (MATSEQAIJ) and through MatSetValuesCOO (MATSEQAIJPERM), and sets it again
// at every update. MAT_SPD is the caller's to give: forgotten at an update unless eternal,
// cleared with a warning by values that are not symmetric.
BOOST_AUTO_TEST_CASE(update_sets_mat_symmetric_from_the_values) {
  const auto pattern = testing::small_hp_pattern();
  const BlockMatrix<double> nonsymmetric = testing::random_block_matrix(pattern, 31);
  const BlockMatrix<double> symmetric = testing::spd_block_matrix(nonsymmetric);
  const testing::ScopedOption type("-coo_mat_type", "seqaijperm");
  for (const std::string prefix : {"", "coo_"}) {
    BOOST_TEST_CONTEXT("options prefix '" << prefix << "'") {
      petsc::AijMatrix aij(*pattern, prefix);
      BOOST_TEST(symmetry_known(aij.mat()) == "unknown");  // no values yet
      aij.update(symmetric);
      BOOST_TEST(symmetry_known(aij.mat()) == "symmetric");
      BOOST_TEST(!symmetry_eternal(aij.mat()));
      aij.update(nonsymmetric);
      BOOST_TEST(symmetry_known(aij.mat()) == "not symmetric");
      aij.update(symmetric);
      BOOST_TEST(symmetry_known(aij.mat()) == "symmetric");

      POLYDG_PETSC_CALL(MatSetOption(aij.mat(), MAT_SPD, PETSC_TRUE));
      aij.update(symmetric);
      BOOST_TEST(spd_known(aij.mat()) == "unknown");  // not eternal: forgotten, as PETSc does
      POLYDG_PETSC_CALL(MatSetOption(aij.mat(), MAT_SPD, PETSC_TRUE));
      POLYDG_PETSC_CALL(MatSetOption(aij.mat(), MAT_SPD_ETERNAL, PETSC_TRUE));
      aij.update(symmetric);
      BOOST_TEST(spd_known(aij.mat()) == "SPD");
      BOOST_TEST(symmetry_known(aij.mat()) == "symmetric");
      const testing::CapturedWarnings warnings;
      aij.update(nonsymmetric);
      BOOST_TEST(spd_known(aij.mat()) == "not SPD");
      BOOST_TEST(symmetry_known(aij.mat()) == "not symmetric");
      BOOST_TEST(warnings.messages.size() == 1u);
      BOOST_TEST(warnings.contain("declared SPD (MAT_SPD)"));
    }
  }
}

// The library's SIPG matrices: symmetric without advection (A symmetric), not with it.
BOOST_AUTO_TEST_CASE(sipg_poisson_is_symmetric_and_advection_is_not) {
  const testing::DgSystem poisson = testing::poisson(testing::uniform_mesh(2));
  const testing::DgSystem advection = testing::advection_diffusion(testing::uniform_mesh(2));
  petsc::AijMatrix aij(poisson.matrix.pattern());
  aij.update(poisson.matrix);
  BOOST_TEST(symmetry_known(aij.mat()) == "symmetric");
  aij.update(advection.matrix);
  BOOST_TEST(symmetry_known(aij.mat()) == "not symmetric");
  // PETSc's entry-by-entry comparison with the transpose agrees (MatIsTranspose: absolute
  // tolerance 1e-10; the entries are O(1) to O(100), their rounding O(1e-13)). MatIsSymmetric
  // would only read the flag back.
  PetscBool petsc_symmetric = PETSC_TRUE;
  POLYDG_PETSC_CALL(MatIsTranspose(aij.mat(), aij.mat(), 1e-10, &petsc_symmetric));
  BOOST_TEST(petsc_symmetric == PETSC_FALSE);
  aij.update(poisson.matrix);
  POLYDG_PETSC_CALL(MatIsTranspose(aij.mat(), aij.mat(), 1e-10, &petsc_symmetric));
  BOOST_TEST(petsc_symmetric == PETSC_TRUE);
}
