#pragma once
/// The face integrands (docs/theory.md, "The IP-DG system, as assembled") at one quadrature point,
/// for host and device: the one copy of the mathematics that the CPU kernels (assembly_kernels.hpp)
/// and the CUDA face kernels (include/polydg/detail/dg/interior_face_kernel.cuh,
/// include/polydg/detail/dg/boundary_face_kernel.cuh) both call.
///
/// Notation: φ the basis functions, flux_k = (A∇φ_k)·n = ∇φ_k·(A n) (A symmetric), n the unit
/// normal (on an interface: out of its first element), β = b·n, σ the penalty, w the weight.
///
/// Interior faces, block (r, c) of sides r (test φ_i) and c (trial φ_j), s_0 = 1, s_1 = −1:
///   w (−½ (s_r flux_j φ_i + s_c flux_i φ_j) + (σ s_r s_c − β s_c u_r) φ_j φ_i)
/// i.e. −{{A∇w}}·[[v]] − {{A∇v}}·[[w]] + σ [[w]]·[[v]] and the upwind −(b·n_κ)⌊w⌋v on the inflow
/// side κ (u_r = 1 when side r is the inflow side: β < 0 for r = 0, β > 0 for r = 1). Grouped
/// by the trial function's two factors s_c φ_j and flux_j, it is a sum over two components of a
/// test vector of (r, φ_i) and a trial vector of (c, φ_j):
///   test_i  = w (σ s_r φ_i − ½ flux_i − β u_r φ_i, −½ s_r φ_i)
///   trial_j = (s_c φ_j, flux_j)                                       entry = Σ_k test_ik trial_jk
/// so one interface's four blocks are one (N_a + N_b)² product per point. FLOPs: 4 per entry
/// (three components, one per term, took 6: the products are most of the interface's work).
///
/// Boundary faces, one element, per point a BoundaryPointTerms {flux, mass, rhs_value, rhs_flux}:
///   block[i][j] += w (mass φ_j φ_i − flux (flux_j φ_i + flux_i φ_j))
///   rhs[i]      += w (rhs_value φ_i − rhs_flux flux_i)
/// as sums over two components: test_i = (φ_i, flux_i), trial_j = w (mass φ_j − flux flux_j,
/// −flux φ_j), and the rhs's trial column w (rhs_value, −rhs_flux) (4 FLOPs per entry),
/// where the terms combine, as classify_boundary_point decides from the boundary kind, nᵀAn
/// and β: the SIP terms on diffusive Dirichlet points (flux 1, mass σ, rhs σ g_D φ − g_D flux),
/// the inflow term on Dirichlet and non-diffusive points with β < 0 (mass −β, rhs −β g_D; on a
/// slab's bottom the rhs comes from the previous slab instead), and g_N on diffusive Neumann
/// points. Outflow adds nothing.
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/element_integrand.hpp"

namespace polydg {

/// (A∇φ)·n of one basis function with gradient grad, given A n.
template <int Dim, class Real>
POLYDG_HD inline Real normal_flux(const Real* grad, const Point<Dim, Real>& a_normal) {
  Real value = 0;
  for (int d = 0; d < Dim; ++d) value += grad[d] * a_normal[d];
  return value;
}

/// Components of the interior faces' test and trial vectors.
inline constexpr int interior_face_components = 2;

/// The test vector of φ (value phi, normal flux flux) on side r at a point with penalty σ,
/// β = b·n (n out of side 0) and weight w: component k at test[k · stride].
template <class Real>
POLYDG_HD inline void interior_face_test_vector(int r, Real sigma, Real beta, Real w, Real phi,
                                                Real flux, Real* test, int stride) {
  const bool inflow_side = r == 0 ? beta < 0 : beta > 0;
  const Real signed_phi = r == 0 ? phi : -phi;
  test[0] = w * (sigma * signed_phi - Real(0.5) * flux - (inflow_side ? beta * phi : Real(0)));
  test[stride] = w * (Real(-0.5) * signed_phi);
}

/// The trial vector of φ (value phi, normal flux flux) on side c: component k at
/// trial[k · stride].
template <class Real>
POLYDG_HD inline void interior_face_trial_vector(int c, Real phi, Real flux, Real* trial,
                                                 int stride) {
  trial[0] = c == 0 ? phi : -phi;
  trial[stride] = flux;
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

/// Whether an advection coefficient type has a positive last component by construction: it says
/// so with `static constexpr bool last_component_positive = true` (SpaceTimeAdvection, b = (w, 1)).
template <class Advection>
inline constexpr bool positive_last_component_advection = requires {
  requires Advection::last_component_positive;
};

/// Whether, for coefficients of this type, no boundary term acts at any point of a facet whose
/// normal is along +e_last (is_last_axis_top, quadrature_mesh.hpp: a slab's top face), whatever
/// its tag: A's last row and column are zero, so nᵀAn = 0 (not diffusive), and b's last
/// component is positive, so β > 0 (outflow) — classify_boundary_point finds nothing for the
/// matrix or the rhs. (Non-finite spatial data make nᵀAn or β NaN there: neither diffusive nor
/// inflow, idle all the same.) The device's boundary kernels then leave those facets out.
template <class Coefficients>
inline constexpr bool top_face_idle = last_axis_free_diffusion<decltype(Coefficients::diffusion)>&&
    positive_last_component_advection<decltype(Coefficients::advection)>;

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

/// Components of the boundary faces' test and trial vectors.
inline constexpr int boundary_face_components = 2;

/// The test vector of φ (value phi, normal flux flux): component k at test[k · stride].
template <class Real>
POLYDG_HD inline void boundary_test_vector(Real phi, Real flux, Real* test, int stride) {
  test[0] = phi;
  test[stride] = flux;
}

/// The trial vector of φ (value phi, normal flux flux) at a point with terms and weight w.
template <class Real>
POLYDG_HD inline void boundary_trial_vector(const BoundaryPointTerms<Real>& terms, Real w, Real phi,
                                            Real flux, Real* trial, int stride) {
  trial[0] = w * (terms.mass * phi - terms.flux * flux);
  trial[stride] = w * (-terms.flux * phi);
}

/// The rhs's trial column at a point with terms and weight w: w (rhs_value, −rhs_flux).
template <class Real>
POLYDG_HD inline void boundary_rhs_trial_vector(const BoundaryPointTerms<Real>& terms, Real w,
                                                Real* trial, int stride) {
  trial[0] = w * terms.rhs_value;
  trial[stride] = w * (-terms.rhs_flux);
}

}  // namespace polydg
