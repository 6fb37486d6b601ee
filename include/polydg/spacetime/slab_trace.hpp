#pragma once
/// The trace of a space-time DG solution at the top of its slab, U(x, t_n⁻), as a DG function
/// on the spatial polytopic mesh (same elements, same boxes B_κ, degree p_κ): for output
/// (VTU / PVD time series) and as a spatial field for the user.
///
/// Exact, not sampled: with φ_α(x, t) = L̂_{α1}(ξ1) L̂_{α2}(ξ2) L̂_{α3}(ξt) and ξt = 1 at the top,
/// the spatial coefficient of (α1, α2) is Σ_{α3} U_{(α1, α2, α3)} L̂_{α3}(1),
/// L̂_k(1) = sqrt((2k + 1) / 2); for PQ_p likewise Σ_k U_{(β, k)} L̂_k(1).
#include <span>
#include <vector>

#include "polydg/fem/basis_space.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg {

/// `slab_pattern` and `slab_solution` of the slab mesh built from `spatial` (make_slab_mesh:
/// element e of the slab is κ_e × I_n, with the spatial mesh's degrees). Returns the spatial
/// coefficients in the layout of basis_size(2, p_e) per element. Throws polydg::Error when the
/// sizes do not match.
std::vector<double> top_trace(const PolytopicMesh<2>& spatial, const BlockPattern& slab_pattern,
                              std::span<const double> slab_solution,
                              BasisSpace space = BasisSpace::total_degree);

/// The same for the first elements.size() block rows of `slab_pattern` (a rank's owned
/// elements, which come first in its local pattern): row k is κ_e × I_n with e = elements[k],
/// an id in `spatial` (MeshPartition::owned_elements). Returns their spatial coefficients one
/// after another (the layout write_solution_vtu_piece reads); later rows and their
/// coefficients are not read.
std::vector<double> top_trace(const PolytopicMesh<2>& spatial, const BlockPattern& slab_pattern,
                              std::span<const double> slab_solution,
                              std::span<const Index> elements, BasisSpace space);

}  // namespace polydg
