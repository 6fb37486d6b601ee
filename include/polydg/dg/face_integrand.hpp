#pragma once
/// The face integrands of SPEC §2 at one quadrature point, for host and device: the one copy of
/// the mathematics that the CPU kernels (assembly_kernels.hpp) and the CUDA face kernels
/// (kernels/dg/interior_face_kernel.cuh, kernels/dg/boundary_face_kernel.cuh) both call.
///
/// Notation: φ the basis functions, flux_k = (A∇φ_k)·n = ∇φ_k·(A n) (A symmetric), n the unit
/// normal (on an interface: out of its first element), β = b·n, σ the penalty, w the weight.
///
/// Interior faces, block (r, c) of sides r (test φ_i) and c (trial φ_j), s_0 = 1, s_1 = −1:
///   w (−½ (s_r flux_j φ_i + s_c flux_i φ_j) + (σ s_r s_c + upwind(r, c, β)) φ_j φ_i)
/// i.e. −{{A∇w}}·[[v]] − {{A∇v}}·[[w]] + σ [[w]]·[[v]] and the upwind −(b·n_κ)⌊w⌋v on the inflow
/// side κ. FLOPs per entry: 12 (counted for the performance report).
///
/// Boundary faces, one element, per point a BoundaryPointTerms {flux, mass, rhs_value, rhs_flux}:
///   block[i][j] += w (mass φ_j φ_i − flux (flux_j φ_i + flux_i φ_j))     (8 FLOPs)
///   rhs[i]      += w (rhs_value φ_i − rhs_flux flux_i)                     (5 FLOPs)
/// where the terms combine, as classify_boundary_point decides from the boundary kind, nᵀAn
/// and β: the SIP terms on diffusive Dirichlet points (flux 1, mass σ, rhs σ g_D φ − g_D flux),
/// the inflow term on Dirichlet and non-diffusive points with β < 0 (mass −β, rhs −β g_D; on a
/// slab's bottom the rhs comes from the previous slab instead), and g_N on diffusive Neumann
/// points. Outflow adds nothing.
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/boundary_conditions.hpp"

namespace polydg {

/// (A∇φ)·n of one basis function with gradient grad, given A n.
template <int Dim, class Real>
POLYDG_HD inline Real normal_flux(const Real* grad, const Point<Dim, Real>& a_normal) {
  Real value = 0;
  for (int d = 0; d < Dim; ++d) value += grad[d] * a_normal[d];
  return value;
}

/// The upwind coefficient of block (r, c) for β = b·n (n out of side 0).
template <class Real>
POLYDG_HD inline Real interior_face_upwind(int r, int c, Real beta) {
  if (beta < 0 && r == 0) return c == 0 ? -beta : beta;
  if (beta > 0 && r == 1) return c == 1 ? beta : -beta;
  return 0;
}

/// One entry of one point's contribution to the interface block (r, c): test φ_i = phi_i with
/// flux flux_i on side r, trial φ_j = phi_j with flux flux_j on side c.
POLYDG_HD inline double interior_face_entry(int r, int c, double phi_i, double flux_i, double phi_j,
                                            double flux_j, double sigma, double beta, double w) {
  const double sign_r = r == 0 ? 1.0 : -1.0;
  const double sign_c = c == 0 ? 1.0 : -1.0;
  return w * (-0.5 * (sign_r * flux_j * phi_i + sign_c * flux_i * phi_j) +
              (sigma * (sign_r * sign_c) + interior_face_upwind(r, c, beta)) * phi_j * phi_i);
}

/// Which boundary terms act at one point (see the file comment).
struct BoundaryPointClass {
  bool dirichlet_diffusive = false;  ///< SIP terms: tag Dirichlet and nᵀAn > 0
  bool inflow = false;               ///< −(b·n) w v: β < 0, except on diffusive Neumann points
  bool neumann_diffusive = false;    ///< ∫ g_N v: tag Neumann and nᵀAn > 0
  bool inflow_data = false;          ///< the inflow rhs −β g_D (not on a slab's bottom)

  POLYDG_HD bool needs_dirichlet_data() const { return dirichlet_diffusive || inflow_data; }
  POLYDG_HD bool acts_on_matrix() const { return dirichlet_diffusive || inflow; }
  POLYDG_HD bool acts() const { return acts_on_matrix() || neumann_diffusive; }
};

POLYDG_HD inline BoundaryPointClass classify_boundary_point(BoundaryKind kind, double n_a_n,
                                                            double beta) {
  BoundaryPointClass point;
  const bool diffusive = n_a_n > 0;
  point.dirichlet_diffusive = kind == BoundaryKind::dirichlet && diffusive;
  point.neumann_diffusive = kind == BoundaryKind::neumann && diffusive;
  point.inflow = beta < 0 && !point.neumann_diffusive;
  point.inflow_data = point.inflow && kind != BoundaryKind::previous_slab;
  return point;
}

/// The coefficients of one boundary point's contribution (see the file comment), in the
/// precision Real of the values.
template <class Real = double>
struct BoundaryPointTerms {
  Real flux = 0;
  Real mass = 0;
  Real rhs_value = 0;
  Real rhs_flux = 0;
};

/// Terms of a classified point: σ used on diffusive Dirichlet points, g_D where
/// needs_dirichlet_data(), g_N on diffusive Neumann points (others may be passed as 0).
POLYDG_HD inline BoundaryPointTerms<> boundary_point_terms(const BoundaryPointClass& point,
                                                           double beta, double sigma,
                                                           double dirichlet_value,
                                                           double neumann_value) {
  BoundaryPointTerms<> terms;
  if (point.dirichlet_diffusive) {
    terms.flux = 1;
    terms.mass = sigma;
    terms.rhs_value = sigma * dirichlet_value;
    terms.rhs_flux = dirichlet_value;
  }
  if (point.inflow) terms.mass -= beta;
  if (point.inflow_data) terms.rhs_value -= beta * dirichlet_value;
  if (point.neumann_diffusive) terms.rhs_value += neumann_value;
  return terms;
}

/// One entry (test i, trial j) of one boundary point's contribution to the element's block.
template <class Real>
POLYDG_HD inline Real boundary_entry(const BoundaryPointTerms<Real>& terms, Real phi_i, Real flux_i,
                                     Real phi_j, Real flux_j, Real w) {
  return w * (terms.mass * phi_j * phi_i - terms.flux * (flux_j * phi_i + flux_i * phi_j));
}

/// One entry of one boundary point's contribution to the element's rhs.
template <class Real>
POLYDG_HD inline Real boundary_rhs_entry(const BoundaryPointTerms<Real>& terms, Real phi_i,
                                         Real flux_i, Real w) {
  return w * (terms.rhs_value * phi_i - terms.rhs_flux * flux_i);
}

}  // namespace polydg
