#pragma once
// Test helpers of the petsc stage: one PETSc session per test process, a small hp block
// pattern with random values, and options set for one test only.
#include <petscsys.h>

#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg::testing {

/// Boost global fixture: PetscInitialize / PetscFinalize once per test process, with the test's
/// command line (so `test_x -- -ksp_monitor` works).
struct PetscTestSession {
  petsc::Session session{boost::unit_test::framework::master_test_suite().argc,
                         boost::unit_test::framework::master_test_suite().argv};
};

/// 7 elements with block sizes 3 and 6 mixed and 8 interfaces (a chain plus two chords).
inline std::shared_ptr<const BlockPattern> small_hp_pattern() {
  const std::vector<std::array<Index, 2>> interfaces = {{0, 1}, {1, 2}, {2, 3}, {3, 4},
                                                        {4, 5}, {5, 6}, {0, 3}, {6, 2}};
  return std::make_shared<const BlockPattern>(std::vector<Index>{3, 6, 3, 6, 6, 3, 3}, interfaces);
}

/// Values uniform in [-1, 1], from a fixed seed.
inline BlockMatrix<double> random_block_matrix(std::shared_ptr<const BlockPattern> pattern,
                                               unsigned seed) {
  BlockMatrix<double> matrix(std::move(pattern));
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (double& v : matrix.values()) v = uniform(random);
  return matrix;
}

inline std::vector<double> random_vector(GlobalIndex size, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<double> v(size);
  for (double& x : v) x = uniform(random);
  return v;
}

/// A = B + Bᵀ + s I with s = 1 + the largest absolute row sum of B + Bᵀ: symmetric and
/// strictly diagonally dominant with a positive diagonal, so positive definite.
inline BlockMatrix<double> spd_block_matrix(const BlockMatrix<double>& b) {
  const BlockPattern& pattern = b.pattern();
  BlockMatrix<double> a(b.shared_pattern());
  std::vector<GlobalIndex> rows(pattern.value_count()), columns(pattern.value_count());
  pattern.coo_indices(rows, columns);
  std::vector<double> row_sum(pattern.dof_count(), 0.0);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    a.values()[k] = b.entry(rows[k], columns[k]) + b.entry(columns[k], rows[k]);
    row_sum[rows[k]] += std::abs(a.values()[k]);
  }
  double shift = 1;
  for (double s : row_sum) shift = std::max(shift, 1 + s);
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (rows[k] == columns[k]) a.values()[k] += shift;
  return a;
}

/// Sets a PETSc option for the lifetime of this object.
class ScopedOption {
 public:
  ScopedOption(std::string name, const std::string& value) : name_(std::move(name)) {
    POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, name_.c_str(), value.c_str()));
  }
  ~ScopedOption() { PetscOptionsClearValue(nullptr, name_.c_str()); }
  ScopedOption(const ScopedOption&) = delete;
  ScopedOption& operator=(const ScopedOption&) = delete;

 private:
  std::string name_;
};

/// The GMRES under which the shell tests compare iteration counts exactly, set under `prefix`
/// for the lifetime of `options`: restarted rarely, rtol 1e-9 (well above the level where
/// rounding decides), at most 2000 iterations, the preconditioner `pc`, and orthogonalization
/// with refinement: without it the last-bit differences between two correct products (shell
/// and AIJ sum in different orders) change the count on these small ill-conditioned systems.
inline void gmres_options(std::vector<std::unique_ptr<ScopedOption>>& options,
                          const std::string& prefix, const std::string& pc) {
  const auto set = [&](const std::string& name, const std::string& value) {
    options.push_back(std::make_unique<ScopedOption>("-" + prefix + name, value));
  };
  set("ksp_type", "gmres");
  set("ksp_gmres_restart", "300");
#if PETSC_VERSION_GE(3, 26, 0)
  set("ksp_orthogonalization_cgs_refinement_type", "refine_always");
#else
  set("ksp_gmres_cgs_refinement_type", "refine_always");
#endif
  set("pc_type", pc);
  set("ksp_rtol", "1e-9");
  set("ksp_max_it", "2000");
}

}  // namespace polydg::testing
