#pragma once
/// Prolongation between the DG spaces of two nested agglomerations of one fine mesh
/// (coarsen_agglomeration, polydg/mesh/agglomeration.hpp): every fine element κ lies inside one
/// coarse element K, so a coarse basis function ψ_j of K restricted to κ is a polynomial of
/// degree p_K, and of κ's space where p_K ≤ p_κ. Its coefficients in κ's basis φ_i are the L2
/// projection onto κ, exact then:
///
///   P_κ = M_κ⁻¹ B_κ,   (M_κ)_ik = ∫_κ φ_i φ_k,   (B_κ)_ij = ∫_κ φ_i ψ_j,
///
/// both by quadrature on κ's sub-simplices of degree 2 max(p_κ, p_K) (exact for the products).
/// The prolongation is block-sparse, one N_κ × N_K block per fine element; restriction is its
/// transpose (docs/theory.md, "Agglomeration multigrid").
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

struct Prolongation {
  /// coarse_of_fine[κ]: the coarse element that contains fine element κ.
  std::vector<Index> coarse_of_fine;
  /// Fine element κ's block starts at values[block_offsets[κ]]: N_κ rows (its basis functions)
  /// × N_K columns (its coarse element's), row-major.
  std::vector<std::size_t> block_offsets;
  std::vector<double> values;
  /// The first unknown of each element of either space (dg_coefficient_offsets, one entry
  /// more than elements): fine element κ's rows are fine_offsets[κ] + i, coarse element K's
  /// columns coarse_offsets[K] + j.
  std::vector<GlobalIndex> fine_offsets, coarse_offsets;

  GlobalIndex fine_dof_count() const { return fine_offsets.back(); }
  GlobalIndex coarse_dof_count() const { return coarse_offsets.back(); }
};

/// The prolongation from `coarse` to `fine` (same fine mesh; total-degree bases). Parallel over
/// fine elements. Throws polydg::Error naming the element when a fine element's cells lie in
/// more than one coarse element (not nested), when the meshes do not share their fine mesh,
/// when a coarse element has a higher degree than a fine element inside it (its functions are
/// not in the fine space) or when a mass matrix is not positive definite.
template <int Dim>
Prolongation make_prolongation(const PolytopicMesh<Dim>& fine, const PolytopicMesh<Dim>& coarse);

}  // namespace polydg
