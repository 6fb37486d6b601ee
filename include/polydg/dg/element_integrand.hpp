#pragma once
/// The element integrand (docs/theory.md, "The IP-DG system, as assembled") at one quadrature
/// point, for host and device: the one copy of the mathematics that the CPU kernel
/// assemble_elements (assembly_kernels.hpp) and the CUDA element kernel
/// (include/polydg/detail/dg/element_kernel.cuh) both call.
///
///   block[i·n + j] += w (A∇φ_j·∇φ_i + (b·∇φ_j) φ_i + c φ_j φ_i)   row i = test, column j = trial
///   rhs[i]         += w f φ_i
///
/// written as a sum over Dim + 1 components of a test vector of φ_i and a trial vector of φ_j,
///
///   test_i  = (φ_i, ∂_1 φ_i, …, ∂_Dim φ_i)
///   trial_j = w (b·∇φ_j + c φ_j, (A∇φ_j)_1, …, (A∇φ_j)_Dim)        entry = Σ_k test_ik trial_jk
///
/// so that a point's block is a rank-(Dim + 1) product of two N × (Dim + 1) tables, each built
/// once per function (the device forms blocks as register-tiled products of these tables), and
/// the rhs is one more trial column, (w f, 0, …, 0).
///
/// Where A's last row and column are zero by construction — the space-time A = diag(a, 0) of
/// docs/theory.md, "Space-time slabs, as built", which has no diffusion along the time axis
/// (SpaceTimeDiffusion) — the last component, ∂_Dim φ_i · w (A∇φ_j)_Dim, is an exact zero and is
/// left out: Dim components (element_components_for). Leaving out products that are exact zeros
/// keeps the sums' bits (a sum that starts at +0 is never −0, and adding ±0 to it changes nothing),
/// and saves a quarter of the products on 2D+1 slabs.
///
/// FLOPs per quadrature point, N basis functions, dimension d (for the performance report):
///   trial vectors  N (2d² + 2d + 2)      A∇φ (2d²−d), b·∇φ + cφ (2d+1), × w (d+1)
///   entries        N² · 2 (d + 1)         one FMA per component
///   rhs            1 + N · 2
/// (basis evaluation and the map to the physical point are counted in the kernels).
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/test_trial_product.hpp"

namespace polydg {

/// Components of the element's test and trial vectors.
template <int Dim>
inline constexpr int element_components = Dim + 1;

/// Whether a diffusion coefficient type has a zero last row and column by construction: it says
/// so with `static constexpr bool last_axis_free = true` (SpaceTimeDiffusion).
template <class Diffusion>
inline constexpr bool last_axis_free_diffusion = requires {
  requires Diffusion::last_axis_free;
};

/// The components the element integrand needs for a diffusion coefficient of this type: Dim
/// where its last row and column are zero (the last component is an exact zero), else Dim + 1.
template <int Dim, class Diffusion>
inline constexpr int element_components_for =
    last_axis_free_diffusion<Diffusion> ? Dim : element_components<Dim>;

/// The test vector of φ with value phi and gradient grad: component k at test[k · stride], for
/// the first Components of (φ, ∂_1 φ, …, ∂_Dim φ).
template <int Dim, class Real, int Components = element_components<Dim>>
POLYDG_HD inline void element_test_vector(Real phi, const Real* grad, Real* test, int stride) {
  static_assert(Components == Dim || Components == Dim + 1);
  test[0] = phi;
  for (int d = 0; d + 1 < Components; ++d) test[(d + 1) * stride] = grad[d];
}

/// The trial vector of φ (value phi, gradient grad) at a point with coefficients a, b, c and
/// weight w (reference weight × |det J|): component k at trial[k · stride], k < Components
/// (Components = Dim: a's last row is zero, element_components_for).
template <int Dim, class Real, int Components = element_components<Dim>>
POLYDG_HD inline void element_trial_vector(const Tensor<Dim, Real>& a, const Point<Dim, Real>& b,
                                           Real c, Real w, Real phi, const Real* grad, Real* trial,
                                           int stride) {
  static_assert(Components == Dim || Components == Dim + 1);
  Point<Dim, Real> g;
  for (int d = 0; d < Dim; ++d) g[d] = grad[d];
  const Point<Dim, Real> a_grad = a * g;
  trial[0] = w * (dot(b, g) + c * phi);
  for (int d = 0; d + 1 < Components; ++d) trial[(d + 1) * stride] = w * a_grad[d];
}

/// The trial vector of the rhs at a point with source f and weight w: (w f, 0, …, 0), Components
/// entries.
template <int Dim, class Real, int Components = element_components<Dim>>
POLYDG_HD inline void source_trial_vector(Real f, Real w, Real* trial, int stride) {
  trial[0] = w * f;
  for (int d = 0; d + 1 < Components; ++d) trial[(d + 1) * stride] = Real(0);
}

/// block (n × n, row-major, row = test) += one point's element integrand: values phi[0..n),
/// gradients grad[0..n), coefficients a, b, c at the point, weight w. `test` and `trial` are
/// scratch of (Dim + 1) · n entries each.
template <int Dim>
inline void add_element_point(int n, const double* phi, const double (*grad)[Dim],
                              const Tensor<Dim>& a, const Point<Dim>& b, double c, double w,
                              double* test, double* trial, double* block) {
  constexpr int components = element_components<Dim>;
  for (int j = 0; j < n; ++j) {
    element_test_vector<Dim, double>(phi[j], grad[j], test + j, n);
    element_trial_vector<Dim, double>(a, b, c, w, phi[j], grad[j], trial + j, n);
  }
  add_test_trial_product(n, n, components, test, n, trial, n, block, n);
}

/// rhs[0..n) += w f φ_i.
inline void add_source_point(int n, const double* phi, double f, double w, double* rhs) {
  const double wf = w * f;
  for (int i = 0; i < n; ++i) rhs[i] += phi[i] * wf;
}

}  // namespace polydg
