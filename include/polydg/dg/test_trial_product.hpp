#pragma once
/// One quadrature point's contribution to a block in the factored form of the integrands
/// (element_integrand.hpp, face_integrand.hpp): entry (i, j) = Σ_k test_ik trial_jk over the
/// integrand's components. The CPU kernels add it point by point; the CUDA kernels
/// (include/polydg/detail/dg/tiled_point_schedule.cuh) form the same sums as register-tiled
/// products.

namespace polydg {

/// block[i · row_stride + j] += Σ_k test[k · test_stride + i] · trial[k · trial_stride + j] for
/// i < rows, j < columns, k < components (k in increasing order for every entry).
inline void add_test_trial_product(int rows, int columns, int components, const double* test,
                                   int test_stride, const double* trial, int trial_stride,
                                   double* block, int row_stride) {
  for (int i = 0; i < rows; ++i) {
    double* row = block + i * row_stride;
    for (int k = 0; k < components; ++k) {
      const double t = test[k * test_stride + i];
      const double* trial_k = trial + k * trial_stride;
      for (int j = 0; j < columns; ++j) row[j] += t * trial_k[j];
    }
  }
}

}  // namespace polydg
