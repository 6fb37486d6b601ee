#pragma once
/// The per-element factor of the default penalty (PenaltyScaling::element_trace, penalty.hpp;
/// the argument is in docs/theory.md, "Penalty"):
///
///   T_κ = λ_κ / (Dim + 1),   λ_κ = max over w ∈ W_κ, w ≠ 0, of ‖w‖²_{Γ_κ} / ‖w‖²_κ,
///
/// the sharp trace inverse constant of the element itself, whatever its number of faces, with
/// ‖w‖²_{Γ_κ} = Σ_F c_F ‖w‖²_F, c_F = ½ on interfaces (each side's flux enters the average
/// {{A∇v}} with weight ½) and 1 on Dirichlet facets.
/// * W_κ holds the components of A∇v for v in κ's space: P_{p−1} for P_p; for PQ_p (space-time
///   slabs, whose A = diag(a, 0) differentiates in space only) P_{p−1}(x) ⊗ P_p(t). Degree 0
///   elements have no gradient: T_κ = 0.
/// * Γ_κ is where the method has consistency terms: κ's interface sub-facets and its Dirichlet
///   boundary sub-facets (not Neumann ones, nor a slab's bottom and top).
/// λ_κ is the largest eigenvalue of the pencil (trace mass on Γ_κ, mass on κ) in the
/// bounding-box Legendre basis of W_κ, both by quadrature exact for the products on the mesh's
/// own pieces. For P_1, W_κ is the constants and λ_κ = Σ_F c_F |F| / |κ| exactly.
/// Invariant under map_last_coordinate (Γ_κ holds no facet normal to the time axis, and W_κ is
/// mapped onto itself), so a slab computes it once.
///
/// Throws polydg::Error naming the element when its mass matrix is not positive definite (a
/// degenerate element).
#include "polydg/dg/quadrature_mesh.hpp"

namespace polydg {

/// T_κ for every element of `mesh` (its degrees, space, pieces and slab rules), in parallel.
template <int Dim>
GeometryArray<double> compute_element_trace_constants(const QuadratureMesh<Dim>& mesh);

/// Sets the mesh's penalty scaling and, for element_trace, its element constants (computed
/// for the mesh's space; cleared for the other scalings). Call it after changing the space.
template <int Dim>
void set_penalty_scaling(QuadratureMesh<Dim>& mesh, PenaltyScaling scaling) {
  mesh.penalty_scaling = scaling;
  if (scaling == PenaltyScaling::element_trace)
    mesh.element_trace_constants = compute_element_trace_constants(mesh);
  else
    mesh.element_trace_constants = {};
}

extern template GeometryArray<double> compute_element_trace_constants(const QuadratureMesh<2>&);
extern template GeometryArray<double> compute_element_trace_constants(const QuadratureMesh<3>&);

}  // namespace polydg
