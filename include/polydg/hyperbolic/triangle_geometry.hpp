#pragma once
/// Geometry and reference tables of the explicit modal DG solver on triangles (docs/theory.md,
/// "Explicit path for conservation laws"), precomputed once on the host, in the flat layout the
/// kernels read: the CPU reference (explicit_dg.hpp) and a GPU backend index the same arrays the
/// same way, so a device copy is a memcpy per array.
///
/// Layout: every per-entity array is entity-fastest ("structure of arrays"): component k of
/// element c is at [k * element_count + c], component k of facet f at [k * facet_count + f].
/// With one GPU thread per element (per facet), consecutive threads then read consecutive
/// addresses for every component: coalesced loads. The CPU loops walk the same arrays.
///
/// Reference triangle T = {(r, s): r, s ≥ 0, r + s ≤ 1} with vertices V_0 = (0, 0),
/// V_1 = (1, 0), V_2 = (0, 1); element c maps x = x_0 + J (r, s) with x_0 its vertex 0 and the
/// columns of J its edges to vertices 1 and 2 (cells are counter-clockwise, so det J > 0).
///
/// Edges: local edge e of an element is the one opposite its local vertex e
/// (SimplexMesh::cell_facets), run on T from V_{(e+1)%3} to V_{(e+2)%3}. A facet's Gauss points
/// are numbered along the facet from facet_vertices(f)[0] to facet_vertices(f)[1]
/// (ascending global vertex numbers: both sides agree on it). Seen from a side, that direction is
/// its local edge's reference direction (orientation 0) or the reverse (orientation 1); the
/// reference tables hold the basis at the Gauss points of every (edge, orientation), so a kernel
/// needs no coordinate transformation on the edges, only the pair (edge, orientation).
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::hyperbolic {

struct TriangleGeometry {
  Index element_count = 0;
  Index facet_count = 0;

  // Per element (entity-fastest, see above).
  /// x_0: [d * element_count + c], d = 0, 1.
  std::vector<double> origin;
  /// J (row-major, J[i][j] = ∂x_i/∂r_j): [(2 i + j) * element_count + c].
  std::vector<double> jacobian;
  /// J⁻¹ (row-major): [(2 i + j) * element_count + c]. The physical gradient of φ is
  /// J^{−T} ∇̂φ, i.e. ∂φ/∂x_i = Σ_j (J⁻¹)[j][i] ∂̂φ/∂r_j.
  std::vector<double> inverse_jacobian;
  /// |det J| = 2 |K|: the mass matrix of the orthonormal Dubiner basis is |det J| I.
  std::vector<double> determinant;
  /// h_K = 2 |K| / perimeter, the radius of the inscribed circle: the length of the CFL
  /// condition (explicit_dg.hpp). It bounds the distance a wave may travel in a step from every
  /// point of K to the boundary, whatever the shape, where the longest edge or the diameter
  /// would overstate it on a thin triangle.
  std::vector<double> size;
  /// The facet of local edge e: [e * element_count + c] (= SimplexMesh::cell_facets(c)[e]).
  std::vector<Index> element_facet;
  /// Which side of that facet the element is (0: facet_cells(f)[0], whose outward normal the
  /// facet stores; 1: the other one, which takes the facet's flux with a minus sign).
  std::vector<signed char> element_facet_side;

  // Per facet.
  /// facet_cells(f): [s * facet_count + f], s = 0, 1; −1 for side 1 on the boundary.
  std::vector<Index> facet_element;
  /// The local edge the facet is in its side-s element: [s * facet_count + f] (−1 if none).
  std::vector<signed char> facet_local_edge;
  /// Orientation (0 or 1, above) of the facet's Gauss points in its side-s element.
  std::vector<signed char> facet_orientation;
  /// Starting point facet_vertices(f)[0]: [d * facet_count + f].
  std::vector<double> facet_origin;
  /// facet_vertices(f)[1] − facet_vertices(f)[0]: the Gauss point at t ∈ [0, 1] is
  /// facet_origin + t · facet_tangent.
  std::vector<double> facet_tangent;
  /// |e|.
  std::vector<double> facet_length;
  /// Unit normal out of the side-0 element: [d * facet_count + f].
  std::vector<double> facet_normal;
  /// SimplexMesh::facet_tag (interior_facet_tag for interior facets).
  std::vector<int> facet_tag;

  double min_size = 0;
};

/// The geometry of `mesh` in the layout above. Throws polydg::Error for a mesh without cells.
TriangleGeometry make_triangle_geometry(const SimplexMesh<2>& mesh);

/// Basis values and gradients at the reference quadrature points of one degree p, for the
/// kernels (all flat, mode-fastest: a thread loops over modes at a fixed point).
struct ReferenceTables {
  int degree = 0;
  /// N = (p + 1)(p + 2) / 2.
  int basis_size = 0;

  /// Volume rule of degree 2p on T (weights sum to 1/2): points (r, s) at [2 q + k].
  int volume_point_count = 0;
  std::vector<double> volume_points;
  std::vector<double> volume_weights;
  /// φ_i(r_q): [q * N + i]; ∂̂φ_i/∂r_k (r_q): [(q * N + i) * 2 + k].
  std::vector<double> volume_values;
  std::vector<double> volume_gradients;

  /// p + 1 Gauss–Legendre points per edge (exact to degree 2p + 1), as t ∈ [0, 1] along the
  /// facet, ascending, with weights summing to 1 (multiply by |e|).
  int edge_point_count = 0;
  std::vector<double> edge_parameters;
  std::vector<double> edge_weights;
  /// φ_i at Gauss point q of local edge e seen with orientation o:
  /// [((e * 2 + o) * Q + q) * N + i], Q = edge_point_count; orientation 1 reads the edge
  /// backwards (the point at t_q on the facet is at 1 − t_q along the reference edge).
  std::vector<double> edge_values;
};

/// Tables of degree `degree` for the residual. Throws polydg::Error unless
/// 0 ≤ degree ≤ max_dubiner_degree.
ReferenceTables make_reference_tables(int degree);

/// Values (no gradients) of the basis at the points of the simplex rule of degree
/// `rule_degree`, for projections and error norms: same fields as ReferenceTables' volume part
/// (edge part empty, volume_gradients empty).
ReferenceTables make_volume_tables(int degree, int rule_degree);

}  // namespace polydg::hyperbolic
