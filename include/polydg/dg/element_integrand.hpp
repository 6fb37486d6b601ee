#pragma once
/// The element integrand of SPEC §2 at one quadrature point, for host and device: the one copy
/// of the mathematics that the CPU kernel assemble_elements (assembly_kernels.hpp) and the CUDA
/// element kernel (kernels/dg/element_kernel.cuh) both call.
///
///   block[i·n + j] += w (A∇φ_j·∇φ_i + (b·∇φ_j) φ_i + c φ_j φ_i)   row i = test, column j = trial
///   rhs[i]         += w f φ_i
///
/// evaluated as w · (Σ_d (A∇φ_j)_d ∂_d φ_i + (b·∇φ_j + c φ_j) φ_i), with A∇φ_j and b·∇φ_j
/// computed once per trial function (element_trial_terms) and then one entry at a time
/// (element_entry). The CPU loop (add_element_point) and the device kernel (one thread per
/// entry) evaluate the same expressions in the same order, so they differ only where the
/// device compiler contracts a multiply and an add into an FMA.
///
/// FLOPs per quadrature point, N basis functions, dimension d (for the performance report):
///   trial terms  N (2d² + 2d − 1)        A∇φ_j (d² mul + d² add), b·∇φ_j (d mul + d − 1 add)
///   entries      N² (2d + 6)             Σ_d (2d), c φ_j, +, ·φ_i, +, ·w, += (6)
///   rhs          3N                      w f, ·φ_i, +=
/// (basis evaluation and the map to the physical point are counted in the kernels).
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"

namespace polydg {

/// A∇φ_j and b·∇φ_j for one trial function with gradient grad_j.
template <int Dim, class Real>
POLYDG_HD inline void element_trial_terms(const Tensor<Dim, Real>& a, const Point<Dim, Real>& b,
                                          const Real* grad_j, Point<Dim, Real>& a_grad_j,
                                          Real& b_grad_j) {
  Point<Dim, Real> g;
  for (int d = 0; d < Dim; ++d) g[d] = grad_j[d];
  a_grad_j = a * g;
  b_grad_j = dot(b, g);
}

/// One entry (test i, trial j) of one point's contribution: w (A∇φ_j·∇φ_i + (b·∇φ_j + c φ_j) φ_i),
/// in the precision Real of the values (double on the CPU; float or double on the device).
template <int Dim, class Real>
POLYDG_HD inline Real element_entry(const Real* grad_i, Real phi_i,
                                    const Point<Dim, Real>& a_grad_j, Real b_grad_j, Real phi_j,
                                    Real c, Real w) {
  Real diffusion = 0;
  for (int d = 0; d < Dim; ++d) diffusion += a_grad_j[d] * grad_i[d];
  return w * (diffusion + (b_grad_j + c * phi_j) * phi_i);
}

/// One entry of one point's contribution to the rhs: w f φ_i.
template <class Real>
POLYDG_HD inline Real source_entry(Real phi_i, Real f, Real w) {
  return w * f * phi_i;
}

/// block (n × n, row-major, row = test) += one point's element integrand: values phi[0..n),
/// gradients grad[0..n), coefficients a, b, c at the point, weight w (reference weight × |det J|).
template <int Dim>
POLYDG_HD inline void add_element_point(int n, const double* phi, const double (*grad)[Dim],
                                        const Tensor<Dim>& a, const Point<Dim>& b, double c,
                                        double w, double* block) {
  for (int j = 0; j < n; ++j) {
    Point<Dim> a_grad_j;
    double b_grad_j;
    element_trial_terms<Dim>(a, b, grad[j], a_grad_j, b_grad_j);
    for (int i = 0; i < n; ++i)
      block[i * n + j] += element_entry<Dim>(grad[i], phi[i], a_grad_j, b_grad_j, phi[j], c, w);
  }
}

/// rhs[0..n) += w f φ_i.
POLYDG_HD inline void add_source_point(int n, const double* phi, double f, double w, double* rhs) {
  for (int i = 0; i < n; ++i) rhs[i] += source_entry(phi[i], f, w);
}

}  // namespace polydg
