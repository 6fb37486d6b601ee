#pragma once
/// The explicit modal DG discretisation of u_t + ∇·F(u) = 0 on a polygonal mesh (a
/// PolytopicMesh<2>, e.g. METIS agglomerates of a triangle mesh; docs/theory.md, "Explicit path
/// for conservation laws" and "Agglomeration and polytopic elements"): the CPU reference backend,
/// laid out as the triangle path (explicit_dg.hpp) so that a GPU port can mirror it array by
/// array and kernel by kernel.
///
///   using namespace polydg::hyperbolic;
///   ExplicitPolygonDG dg(polygons, 2, LinearAdvection{RotatingVelocity{{}, 2 * pi}});
///   auto u = dg.project([](const Point<2>& x) { return State<1>{{hill(x)}}; });
///   dg.residual(u, t, exact_boundary(exact), r);          // du/dt = r
///   double dt = dg.stable_time_step(u, t, 0.5);
/// The public shape is ExplicitTriangleDG's (the concept ExplicitDiscretisation,
/// explicit_discretisation.hpp), so a Runge–Kutta driver written against that concept steps both.
///
/// Basis: per element, the bounding-box Legendre basis φ_j of P_p (docs/theory.md, "Basis")
/// orthonormalised on the element, φ̃_i = Σ_{j ≤ i} C_ij φ_j with ∫_K φ̃_i φ̃_k = δ_ik (C lower
/// triangular, by modified Gram–Schmidt with one re-orthogonalisation on the values √w_q φ_j(x_q)
/// at the element's volume quadrature points, exact for degree 2p). Why not the Legendre basis
/// with each element's inverse mass matrix, which spans the same space:
///  * conditioning: on an elongated polygon lying across its box the φ_j are nearly dependent on
///    K (ξ_1 ≈ ±ξ_2 on a diagonal sliver): cond(M) = cond(A)², A the weighted value matrix, so
///    rounding grows like cond(A)² ε through a factorisation of M (Cholesky) but like cond(A) ε
///    through Gram–Schmidt on A. And with mass = I the stored coefficients have
///    ‖u_h‖_{L2(K)} = |ũ|₂: Runge–Kutta updates round relative to the solution, not to large
///    cancelling Legendre coefficients;
///  * the mean: φ̃_0 = 1/√|K| and every other φ̃_i has zero mean on K (the box Legendre modes are
///    orthogonal on B_K, not on K). The element mean is ũ_0/√|K| alone, and a slope limiter that
///    scales the modes i ≥ 1 keeps the mass, as on the Dubiner triangles;
///  * cost per step and memory: the same as with M⁻¹. The kernels evaluate the plain Legendre
///    products at the physical points (no per-point tables: memory per element is its box and
///    the N(N+1)/2 entries of C, as M⁻¹ would need), after one pass that turns each element's ũ
///    into Legendre coefficients û = Cᵀũ (N² per element, into a scratch vector), and they finish
///    with r̃ = C r̂ (N² per element) where M⁻¹ would cost the same product. The extra memory is
///    that scratch vector (one more coefficient vector).
/// Construction throws polydg::Error naming the element when, after orthogonalisation, a mode
/// keeps less than 1e-8 of its norm: the Legendre modes are numerically dependent on K (a
/// degenerate or extremely thin polygon for this degree), and values of φ̃ would lose 8 digits.
///
/// Semi-discrete system, with the mass = I:
///   dũ_i/dt = R_i(u) = Σ_j C_ij [ Σ_k w_k F(u_h(x_k))·∇φ_j(x_k)
///                                 − Σ_{sub-facets e of ∂K} |e| Σ_q w_q F*_e,q φ_j(x_e,q) (±1) ],
/// F*_e,q the local Lax–Friedrichs flux with the sub-facet's normal (out of its side 0), + on
/// side 0 and − on side 1. Quadrature: the simplex rule of degree 2p on each sub-triangle of
/// PolytopicMesh::element_simplices orthonormalises (so the mass is I to rounding) and
/// projects; the volume term (x_k, w_k) uses the same rule compressed, per element, to at most
/// dim P_2p of its points with positive weights and the same exactness (compressed_quadrature.hpp:
/// a polygon of k sub-triangles has k·V points, V = 3, 6, 12, 16 for p = 1..4, against dim P_2p =
/// 6, 15, 28, 45, so from k = 3 it costs up to k·V / dim P_2p times less); p + 1 Gauss points on
/// each fine facet of an interface or of ∂Ω (a sub-facet).
///
/// Coefficient layout: element-fastest, u[(v · N + i) · element_count + c] (coefficient_index),
/// as on triangles (coalesced loads with one GPU thread per element).
///
/// The residual is three passes (three kernels on a GPU), none writing what another thread of
/// the same pass writes, so there are no atomics, and each entry is the same sequence of
/// operations whatever the thread count: bitwise reproducible.
///  0. per element: û = Cᵀũ into the Legendre scratch (legendre_coefficients_kernel);
///  1. per sub-facet: u_left, u_right at its Q = p + 1 Gauss points from û (the boundary functor
///     gives the ghost state on ∂Ω), the LLF flux once per point, into a sub-facet-indexed scratch
///     flux[(v · Q + q) · facet_count + f] (polygon_facet_flux_kernel);
///  2. per element: the volume term over its rule's points, the gather of its sub-facets' fluxes
///     (a CSR list of (sub-facet, side)), then r̃ = C r̂ (polygon_element_residual_kernel).
/// Both sides evaluate their own basis at the sub-facet's physical Gauss points, so there are no
/// orientation tables: a point is origin + s_q · tangent of the sub-facet, whichever side asks.
///
/// Boundary conditions: as ExplicitTriangleDG, boundary(u_inside, x, n, t, tag) → State<m> with
/// the outward unit normal n and the fine facet's mesh tag (exact_boundary, reflecting_walls).
///
/// Time step: Δt = cfl · min_K h_K / (λ_max (2p + 1)), h_K = 2|K| / |∂K| (|∂K| the total length
/// of its interface and boundary sub-facets): the triangle path's inscribed radius 2|K|/perimeter
/// extended to polygons, so a polygon of one triangle has the triangle's step. It is the length
/// that the trace inverse inequality ‖v‖²_{∂K} ≲ p² |∂K|/|K| ‖v‖²_K, hence the spectral radius of
/// the DG operator, is measured in (docs/theory.md, "Penalty": the sharp constant scales like
/// |∂κ|/|κ| on agglomerates, not like 1/h of their fine triangles). Measured by power iteration
/// (linear advection, unit square): ρ h_min / (λ_max (2p + 1)) = 0.52–0.63 on triangles and
/// 0.60–0.97 on METIS agglomerates of 8 and 32 triangles for p = 1..4, growing with p on the
/// polygons; so the triangle path's CFL numbers keep their margin up to p = 4 (RK4 is stable to
/// |Δt ρ| ≈ 2.8). Far beyond, each element's sharp trace constant of P_p would be the length to
/// take.
///
/// Degrees: one degree p for every element, 0 ≤ p ≤ max_basis_degree (the mesh's own per-element
/// degrees, which its constructor requires, are not used). Checks (polydg::Error naming the
/// element and point): as ExplicitTriangleDG (vector sizes, non-physical initial states in
/// project, non-physical states in max_wave_speed), and a degenerate polygon (above).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/fem/legendre_1d.hpp"
#include "polydg/fem/legendre_basis.hpp"
#include "polydg/fem/simplex_quadrature.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/numerical_flux.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg::hyperbolic {

/// Largest basis size of the polygon kernels' local accumulators: dim P_p for p = max_basis_degree.
inline constexpr int max_polygon_basis_size = basis_size(2, max_basis_degree);
/// Per-thread arrays of basis values: dim P_Degree where the degree is a compile-time constant
/// (Degree ≥ 0), else room for any degree.
template <int Degree>
inline constexpr int polygon_basis_capacity = Degree < 0 ? max_polygon_basis_size
                                                         : basis_size(2, Degree);

/// Reference rules of the polygon solver: a simplex rule on the reference triangle (mapped onto
/// each sub-triangle) and Gauss points on [0, 1] (along each sub-facet).
struct PolygonQuadratureRules {
  /// Exactness degree of the volume rule.
  int volume_degree = 0;
  /// Points (r, s) at [2 q + k] on T = {r, s ≥ 0, r + s ≤ 1}; weights sum to 1/2.
  int volume_point_count = 0;
  std::vector<double> volume_points;
  std::vector<double> volume_weights;
  /// Gauss–Legendre points as t ∈ [0, 1] along a sub-facet, ascending; weights sum to 1.
  int edge_point_count = 0;
  std::vector<double> edge_parameters;
  std::vector<double> edge_weights;
};

/// The simplex rule of degree volume_degree (make_simplex_rule) and edge_point_count Gauss points.
/// Throws polydg::Error for a degree outside 0..max_quadrature_degree or edge_point_count < 1.
PolygonQuadratureRules make_polygon_quadrature_rules(int volume_degree, int edge_point_count);

/// Geometry and per-element basis of the polygon solver, in the flat entity-fastest layout of
/// TriangleGeometry (triangle_geometry.hpp): component k of element c at [k * element_count + c],
/// of sub-triangle s at [k * triangle_count + s], of sub-facet f at [k * facet_count + f].
struct PolygonGeometry {
  int degree = 0;
  /// N = (p + 1)(p + 2) / 2.
  int basis_size = 0;
  Index element_count = 0;
  /// Sub-triangles of all elements (the quadrature sub-triangulation), grouped by element.
  Index triangle_count = 0;
  /// Sub-facets: the fine facets of every interface (in interface order), then those on ∂Ω
  /// (grouped by element).
  Index facet_count = 0;

  // Per element.
  /// The bounding box B_K: lower and upper corners, and 1 / (b_d − a_d), at [d * E + c].
  std::vector<double> box_lower, box_upper, inverse_extent;
  /// |K|.
  std::vector<double> measure;
  /// h_K = 2|K| / |∂K| (the CFL length, see the file comment).
  std::vector<double> size;
  /// C_ij (j ≤ i) of φ̃_i = Σ_j C_ij φ_j, packed by rows: [(i (i + 1) / 2 + j) * E + c].
  std::vector<double> orthonormalisation;
  /// ∫_K φ̃_0 (= √|K| up to rounding): Σ_K ∫_K u_h = Σ_K ũ_0 · this, the other modes having
  /// zero mean.
  std::vector<double> constant_mode_integral;
  /// Sub-triangles of element c: element_triangle_offsets[c] .. [c + 1].
  std::vector<Index> element_triangle_offsets;
  /// Sub-facets of element c: element_facets[k] for k in element_facet_offsets[c] .. [c + 1],
  /// with element_facet_sides[k] the side the element is on (0: the side whose outward normal
  /// the sub-facet stores; 1: the other, which takes the flux with a minus sign). Ordered by
  /// the element's interfaces (PolytopicMesh::element_interfaces), then its boundary sub-facets.
  std::vector<Index> element_facet_offsets;
  std::vector<Index> element_facets;
  std::vector<signed char> element_facet_sides;

  // The residual's volume rule, per element: the points and weights of the sub-triangles'
  // rule of degree 2p compressed to at most dim P_2p of those points (compress_positive_rule,
  // the same exactness) where there are more, else as they are. Points of element c:
  // element_point_offsets[c] .. [c + 1]; coordinates at [d * point_count + k], weights in
  // physical area (Σ over an element = |K|).
  Index point_count = 0;
  std::vector<Index> element_point_offsets;
  std::vector<double> point_coordinates;
  std::vector<double> point_weights;

  // Per sub-triangle: x = origin + J (r, s) with J's columns its edges from vertex 0
  // (positively oriented, so det J = 2 |T| > 0).
  std::vector<double> triangle_origin;       ///< [d * T + s]
  std::vector<double> triangle_jacobian;     ///< [(2 i + j) * T + s], row-major
  std::vector<double> triangle_determinant;  ///< [s]

  // Per sub-facet.
  /// The element on side 0 and side 1 (−1 on ∂Ω): [side * F + f].
  std::vector<Index> facet_element;
  /// First vertex (facet_vertices(f)[0] of the fine mesh) and the vector to the second: the
  /// Gauss point at t is origin + t · tangent.
  std::vector<double> facet_origin, facet_tangent;
  std::vector<double> facet_length;
  /// Unit normal out of the side-0 element: [d * F + f].
  std::vector<double> facet_normal;
  /// The fine facet's tag (interior_facet_tag on interfaces).
  std::vector<int> facet_tag;

  double min_size = 0;
};

/// The geometry of `mesh` and its elements' orthonormalised bases of degree `degree`, computed
/// with the volume rule of `rules` (which must be exact to degree 2 · degree). Throws
/// polydg::Error for a degree outside 0..max_basis_degree, a rule of too low a degree, and
/// naming the element for a degenerate polygon (zero measure or numerically dependent modes).
PolygonGeometry make_polygon_geometry(const PolytopicMesh<2>& mesh, int degree,
                                      const PolygonQuadratureRules& rules);

/// Raw pointers into PolygonGeometry and PolygonQuadratureRules: what a kernel receives
/// (trivially copyable; on a GPU the same struct with device pointers).
struct PolygonResidualView {
  Index elements, triangles, facets, points;
  int degree, basis_size, volume_points, edge_points;
  const double *box_lower, *box_upper, *inverse_extent, *orthonormalisation;
  const Index *element_triangle_offsets, *element_facet_offsets, *element_facets;
  const signed char* element_facet_sides;
  const double *triangle_origin, *triangle_jacobian, *triangle_determinant;
  const Index* facet_element;
  const double *facet_origin, *facet_tangent, *facet_length, *facet_normal;
  const int* facet_tag;
  const double *volume_points_rs, *volume_weights, *edge_parameters, *edge_weights;
  const Index* element_point_offsets;
  const double *point_coordinates, *point_weights;

  POLYDG_HD std::size_t coefficient(Index c, int v, int i) const {
    return (std::size_t(v) * basis_size + i) * elements + c;
  }
  POLYDG_HD std::size_t flux_entry(Index f, int v, int q) const {
    return (std::size_t(v) * edge_points + q) * facets + f;
  }
  /// C_ij of element c (j ≤ i).
  POLYDG_HD double orthonormalisation_entry(Index c, int i, int j) const {
    return orthonormalisation[(std::size_t(i) * (i + 1) / 2 + j) * elements + c];
  }
  POLYDG_HD Box<2> box(Index c) const {
    const std::size_t k = std::size_t(elements);
    return {{box_lower[c], box_lower[k + c]}, {box_upper[c], box_upper[k + c]}};
  }
  POLYDG_HD Point<2> inverse_extents(Index c) const {
    return {inverse_extent[c], inverse_extent[std::size_t(elements) + c]};
  }

  // The methods below take the degree as a template argument Degree ≥ 0 where the caller knows
  // it at compile time (the GPU's fixed-degree kernels: loops of constant length, per-thread
  // arrays of polygon_basis_capacity<Degree> in registers), else Degree = −1: the view's
  // degree, arrays of max_polygon_basis_size. Both run the same operations in the same order.

  /// The degree and basis size the loops run to.
  template <int Degree>
  POLYDG_HD int loop_degree() const {
    if constexpr (Degree < 0)
      return degree;
    else
      return Degree;
  }
  template <int Degree>
  POLYDG_HD int loop_size() const {
    if constexpr (Degree < 0)
      return basis_size;
    else
      return polygon_basis_capacity<Degree>;
  }

  /// φ_j(x), j < basis_size: element c's bounding-box Legendre basis (legendre_basis.hpp).
  template <int Degree = -1>
  POLYDG_HD void legendre_values(Index c, const Point<2>& x, double* phi) const {
    const Point<2> xi = box_coordinates(box(c), inverse_extents(c), x);
    double table[2][max_basis_degree + 1];
    const int p = loop_degree<Degree>();
    orthonormal_legendre(p, xi[0], table[0]);
    orthonormal_legendre(p, xi[1], table[1]);
    // The hierarchical order (advance_multi_index): degree d, then α = (d − a, a) for a = 0..d.
    // Written as two loops, the table indices are affine in the loop counters, so with a
    // compile-time degree they are constants and the tables stay in registers.
    int j = 0;
    POLYDG_UNROLL
    for (int d = 0; d <= p; ++d) {
      POLYDG_UNROLL
      for (int a = 0; a <= d; ++a) phi[j++] = table[0][d - a] * table[1][a];
    }
  }
  /// φ_j(x) and ∇φ_j(x) (physical coordinates).
  template <int Degree = -1>
  POLYDG_HD void legendre_values_and_gradients(Index c, const Point<2>& x, double* phi,
                                               double (*gradient)[2]) const {
    constexpr int stride = max_basis_degree + 1;
    double table[2 * stride];
    double derivative_table[2 * stride];
    const int p = loop_degree<Degree>();
    evaluate_basis_tables<2, double>(p, box(c), inverse_extents(c), x, table, derivative_table,
                                     stride);
    // basis_function_from_tables in the hierarchical order, as legendre_values loops.
    int j = 0;
    POLYDG_UNROLL
    for (int d = 0; d <= p; ++d) {
      POLYDG_UNROLL
      for (int a = 0; a <= d; ++a, ++j) {
        const double x_value = table[d - a], y_value = table[stride + a];
        phi[j] = x_value * y_value;
        gradient[j][0] = derivative_table[d - a] * y_value;
        gradient[j][1] = derivative_table[stride + a] * x_value;
      }
    }
  }

  /// û = Cᵀũ for element c: its Legendre coefficients from the orthonormal ones in u.
  template <int M, int Degree = -1>
  POLYDG_HD void to_legendre(const double* u, Index c,
                             double (*legendre)[polygon_basis_capacity<Degree>]) const {
    const int n = loop_size<Degree>();
    POLYDG_UNROLL
    for (int v = 0; v < M; ++v) {
      POLYDG_UNROLL
      for (int j = 0; j < n; ++j) {
        double sum = 0;
        POLYDG_UNROLL
        for (int i = j; i < n; ++i)
          sum += orthonormalisation_entry(c, i, j) * u[coefficient(c, v, i)];
        legendre[v][j] = sum;
      }
    }
  }
  /// Σ_{j ≤ i} C_ij integral[v][j]: integrals against the Legendre modes turned into the one
  /// against orthonormal mode i of element c.
  template <int Degree = -1>
  POLYDG_HD double orthonormal_integral(const double* integral, Index c, int i) const {
    double sum = 0;
    POLYDG_UNROLL
    for (int j = 0; j <= i; ++j) sum += orthonormalisation_entry(c, i, j) * integral[j];
    return sum;
  }
  /// out[coefficient(c, v, i)] = Σ_{j ≤ i} C_ij integral[v][j] (orthonormal_integral).
  template <int M, int Degree = -1>
  POLYDG_HD void from_legendre_integrals(const double (*integral)[polygon_basis_capacity<Degree>],
                                         Index c, double* out) const {
    POLYDG_UNROLL
    for (int v = 0; v < M; ++v) {
      POLYDG_UNROLL
      for (int i = 0; i < loop_size<Degree>(); ++i)
        out[coefficient(c, v, i)] = orthonormal_integral<Degree>(integral[v], c, i);
    }
  }
  /// Σ_j legendre[coefficient(c, v, j)] φ_j per variable: u_h where the Legendre basis of c
  /// takes the values phi (legendre: a Legendre-coefficient vector in the coefficient layout).
  template <int M, int Degree = -1>
  POLYDG_HD State<M> state_at(const double* legendre, Index c, const double* phi) const {
    State<M> s;
    POLYDG_UNROLL
    for (int v = 0; v < M; ++v) {
      double sum = 0;
      POLYDG_UNROLL
      for (int j = 0; j < loop_size<Degree>(); ++j) sum += legendre[coefficient(c, v, j)] * phi[j];
      s[v] = sum;
    }
    return s;
  }
  /// The same from an element's local Legendre coefficients (to_legendre).
  template <int M, int Degree = -1>
  POLYDG_HD State<M> local_state_at(const double (*legendre)[polygon_basis_capacity<Degree>],
                                    const double* phi) const {
    State<M> s;
    POLYDG_UNROLL
    for (int v = 0; v < M; ++v) {
      double sum = 0;
      POLYDG_UNROLL
      for (int j = 0; j < loop_size<Degree>(); ++j) sum += legendre[v][j] * phi[j];
      s[v] = sum;
    }
    return s;
  }

  /// The point of sub-triangle k at reference coordinates (r, s).
  POLYDG_HD Point<2> triangle_point(Index k, double r, double s) const {
    const std::size_t count = std::size_t(triangles);
    return {triangle_origin[k] + triangle_jacobian[k] * r + triangle_jacobian[count + k] * s,
            triangle_origin[count + k] + triangle_jacobian[2 * count + k] * r +
                triangle_jacobian[3 * count + k] * s};
  }
  /// Volume point q of sub-triangle s.
  POLYDG_HD Point<2> volume_point(Index s, int q) const {
    return triangle_point(s, volume_points_rs[2 * q], volume_points_rs[2 * q + 1]);
  }
  /// Point k of the residual's volume rule (PolygonGeometry::point_coordinates).
  POLYDG_HD Point<2> rule_point(Index k) const {
    return {point_coordinates[k], point_coordinates[std::size_t(points) + k]};
  }
  /// Gauss point q of sub-facet f.
  POLYDG_HD Point<2> facet_point(Index f, int q) const {
    const double t = edge_parameters[q];
    const std::size_t k = std::size_t(facets);
    return {facet_origin[f] + t * facet_tangent[f], facet_origin[k + f] + t * facet_tangent[k + f]};
  }
};

/// The view of `geometry` with the rules `rules` (host pointers: the arrays must outlive it).
inline PolygonResidualView polygon_residual_view(const PolygonGeometry& g,
                                                 const PolygonQuadratureRules& rules) {
  return {g.element_count,
          g.triangle_count,
          g.facet_count,
          g.point_count,
          g.degree,
          g.basis_size,
          rules.volume_point_count,
          rules.edge_point_count,
          g.box_lower.data(),
          g.box_upper.data(),
          g.inverse_extent.data(),
          g.orthonormalisation.data(),
          g.element_triangle_offsets.data(),
          g.element_facet_offsets.data(),
          g.element_facets.data(),
          g.element_facet_sides.data(),
          g.triangle_origin.data(),
          g.triangle_jacobian.data(),
          g.triangle_determinant.data(),
          g.facet_element.data(),
          g.facet_origin.data(),
          g.facet_tangent.data(),
          g.facet_length.data(),
          g.facet_normal.data(),
          g.facet_tag.data(),
          rules.volume_points.data(),
          rules.volume_weights.data(),
          rules.edge_parameters.data(),
          rules.edge_weights.data(),
          g.element_point_offsets.data(),
          g.point_coordinates.data(),
          g.point_weights.data()};
}

// The passes take the degree as PolygonResidualView's methods do: Degree ≥ 0 known at compile
// time (the GPU's fixed-degree kernels), −1 the view's.

/// Pass 0 of the residual for element c: legendre[coefficient(c, v, j)] = (Cᵀũ)_j.
template <int M, int Degree = -1>
POLYDG_HD void legendre_coefficients_kernel(const PolygonResidualView& g, const double* u, Index c,
                                            double* legendre) {
  double local[M][polygon_basis_capacity<Degree>];
  g.to_legendre<M, Degree>(u, c, local);
  POLYDG_UNROLL
  for (int v = 0; v < M; ++v) {
    POLYDG_UNROLL
    for (int j = 0; j < g.loop_size<Degree>(); ++j) legendre[g.coefficient(c, v, j)] = local[v][j];
  }
}

/// Pass 1 of the residual for sub-facet f: writes flux[flux_entry(f, v, q)] for all v, q, from
/// the Legendre coefficients of pass 0.
template <ConservationLaw Law, class Boundary, int Degree = -1>
POLYDG_HD void polygon_facet_flux_kernel(const PolygonResidualView& g, const Law& law,
                                         const Boundary& boundary, const double* legendre, double t,
                                         Index f, double* flux) {
  constexpr int m = Law::variables;
  const std::size_t fc = std::size_t(g.facets);
  const Index left = g.facet_element[f];
  const Index right = g.facet_element[fc + f];
  const Point<2> n{g.facet_normal[f], g.facet_normal[fc + f]};
  double phi[polygon_basis_capacity<Degree>];
  const int points = Degree < 0 ? g.edge_points : Degree + 1;
  POLYDG_UNROLL
  for (int q = 0; q < points; ++q) {
    const Point<2> x = g.facet_point(f, q);
    g.legendre_values<Degree>(left, x, phi);
    const State<m> u_left = g.state_at<m, Degree>(legendre, left, phi);
    State<m> u_right;
    if (right >= 0) {
      g.legendre_values<Degree>(right, x, phi);
      u_right = g.state_at<m, Degree>(legendre, right, phi);
    } else {
      u_right = boundary(u_left, x, n, t, g.facet_tag[f]);
    }
    const State<m> value = local_lax_friedrichs_flux(law, u_left, u_right, n, x, t);
    POLYDG_UNROLL
    for (int v = 0; v < m; ++v) flux[g.flux_entry(f, v, q)] = value[v];
  }
}

/// Pass 2's sums for element c: integral[v][j] = the volume term over its sub-triangles minus
/// the gather of its sub-facets' fluxes, both against Legendre mode j.
template <ConservationLaw Law, int Degree = -1>
POLYDG_HD void polygon_element_integrals(const PolygonResidualView& g, const Law& law,
                                         const double* legendre, double t, const double* flux,
                                         Index c,
                                         double (*integral)[polygon_basis_capacity<Degree>]) {
  constexpr int m = Law::variables;
  const int n = g.loop_size<Degree>();
  POLYDG_UNROLL
  for (int v = 0; v < m; ++v) {
    POLYDG_UNROLL
    for (int j = 0; j < n; ++j) integral[v][j] = 0;
  }
  double phi[polygon_basis_capacity<Degree>];
  double gradient[polygon_basis_capacity<Degree>][2];

  for (Index k = g.element_point_offsets[c]; k < g.element_point_offsets[c + 1]; ++k) {
    const Point<2> x = g.rule_point(k);
    g.legendre_values_and_gradients<Degree>(c, x, phi, gradient);
    const State<m> uq = g.state_at<m, Degree>(legendre, c, phi);
    const Flux<m> fq = law.flux(uq, x, t);
    const double w = g.point_weights[k];
    double weighted[2][m];
    POLYDG_UNROLL
    for (int v = 0; v < m; ++v) {
      weighted[0][v] = w * fq[0][v];
      weighted[1][v] = w * fq[1][v];
    }
    POLYDG_UNROLL
    for (int j = 0; j < n; ++j) {
      POLYDG_UNROLL
      for (int v = 0; v < m; ++v)
        integral[v][j] += weighted[0][v] * gradient[j][0] + weighted[1][v] * gradient[j][1];
    }
  }

  const int points = Degree < 0 ? g.edge_points : Degree + 1;
  for (Index k = g.element_facet_offsets[c]; k < g.element_facet_offsets[c + 1]; ++k) {
    const Index f = g.element_facets[k];
    // The sub-facet's flux is along the normal out of side 0: side 1's outward flux is −F*.
    const double scale = g.element_facet_sides[k] == 0 ? g.facet_length[f] : -g.facet_length[f];
    POLYDG_UNROLL
    for (int q = 0; q < points; ++q) {
      g.legendre_values<Degree>(c, g.facet_point(f, q), phi);
      const double w = scale * g.edge_weights[q];
      POLYDG_UNROLL
      for (int v = 0; v < m; ++v) {
        const double wf = w * flux[g.flux_entry(f, v, q)];
        POLYDG_UNROLL
        for (int j = 0; j < n; ++j) integral[v][j] -= wf * phi[j];
      }
    }
  }
}

/// Pass 2 of the residual for element c: polygon_element_integrals turned into the orthonormal
/// modes (mass = I); writes r[coefficient(c, v, i)] for all v, i.
template <ConservationLaw Law, int Degree = -1>
POLYDG_HD void polygon_element_residual_kernel(const PolygonResidualView& g, const Law& law,
                                               const double* legendre, double t, const double* flux,
                                               Index c, double* r) {
  double integral[Law::variables][polygon_basis_capacity<Degree>];
  polygon_element_integrals<Law, Degree>(g, law, legendre, t, flux, c, integral);
  g.from_legendre_integrals<Law::variables, Degree>(integral, c, r);
}

/// The explicit DG discretisation of one Law on one polygonal mesh at one degree p.
template <ConservationLaw Law>
class ExplicitPolygonDG {
 public:
  static constexpr int variables = Law::variables;
  using StateType = State<variables>;

  /// Throws polydg::Error unless 0 ≤ degree ≤ max_basis_degree, and naming the element for a
  /// degenerate polygon (make_polygon_geometry).
  ExplicitPolygonDG(const PolytopicMesh<2>& mesh, int degree, Law law = {})
      : law_(law),
        degree_(checked_degree(degree)),
        rules_(make_polygon_quadrature_rules(2 * degree, degree + 1)),
        error_rules_(
            make_polygon_quadrature_rules(std::min(2 * degree + 4, max_quadrature_degree), 1)),
        geometry_(make_polygon_geometry(mesh, degree, rules_)),
        mesh_name_(mesh.fine_mesh().source().name) {
    legendre_.assign(coefficient_count(), 0.0);
    flux_.assign(std::size_t(variables) * rules_.edge_point_count * geometry_.facet_count, 0.0);
  }

  const Law& law() const { return law_; }
  int degree() const { return degree_; }
  /// min_K h_K, the length in stable_time_step().
  double min_element_size() const { return geometry_.min_size; }
  int basis_size() const { return geometry_.basis_size; }
  Index element_count() const { return geometry_.element_count; }
  const PolygonGeometry& geometry() const { return geometry_; }
  const PolygonQuadratureRules& rules() const { return rules_; }
  /// m · N · element_count.
  std::size_t coefficient_count() const {
    return std::size_t(variables) * basis_size() * element_count();
  }
  /// Position of orthonormal mode i of variable v of element c (element-fastest).
  std::size_t coefficient_index(Index c, int v, int i) const {
    return (std::size_t(v) * basis_size() + i) * element_count() + c;
  }
  /// The kernels' view of the geometry and the residual's rules.
  PolygonResidualView view() const { return make_view(rules_); }

  /// r = R(u) at time t (see the file comment). Uses the object's Legendre and flux scratch, so
  /// one residual at a time per object. Throws polydg::Error for wrong vector sizes.
  template <BoundaryCondition<Law> Boundary>
  void residual(std::span<const double> u, double t, const Boundary& boundary,
                std::span<double> r) {
    require(u.size() == coefficient_count() && r.size() == coefficient_count(),
            "ExplicitPolygonDG::residual: vectors of ", u.size(), " and ", r.size(),
            " coefficients, expected ", coefficient_count());
    const PolygonResidualView g = view();
    const Law law = law_;
    const double* in = u.data();
    double* legendre = legendre_.data();
    double* flux = flux_.data();
    double* out = r.data();
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (Index c = 0; c < g.elements; ++c)
        legendre_coefficients_kernel<variables>(g, in, c, legendre);
#pragma omp for schedule(static)
      for (Index f = 0; f < g.facets; ++f)
        polygon_facet_flux_kernel(g, law, boundary, legendre, t, f, flux);
#pragma omp for schedule(static)
      for (Index c = 0; c < g.elements; ++c)
        polygon_element_residual_kernel(g, law, legendre, t, flux, c, out);
    }
  }

  /// The sub-facet fluxes of the last residual: flux[(v · Q + q) · facet_count + f].
  std::span<const double> facet_fluxes() const { return flux_; }

  /// L2 projection of initial(x) → State<m> by the volume rule of degree 2p on the
  /// sub-triangles: ũ_i = Σ_q w_q f(x_q) φ̃_i(x_q). Throws polydg::Error naming the element and
  /// the point where initial(x) is not physical (Law::is_physical).
  template <class Initial>
  std::vector<double> project(const Initial& initial) const {
    const PolygonResidualView g = view();
    std::vector<double> u(coefficient_count());
    Index bad = std::numeric_limits<Index>::max();
#pragma omp parallel for schedule(static) reduction(min : bad)
    for (Index c = 0; c < g.elements; ++c) {
      double integral[variables][max_polygon_basis_size] = {};
      double phi[max_polygon_basis_size];
      for (Index s = g.element_triangle_offsets[c]; s < g.element_triangle_offsets[c + 1]; ++s)
        for (int q = 0; q < g.volume_points; ++q) {
          const Point<2> x = g.volume_point(s, q);
          const StateType value = initial(x);
          if (!law_.is_physical(value)) bad = std::min(bad, c);
          g.legendre_values(c, x, phi);
          const double w = g.volume_weights[q] * g.triangle_determinant[s];
          for (int v = 0; v < variables; ++v)
            for (int j = 0; j < g.basis_size; ++j) integral[v][j] += w * value[v] * phi[j];
        }
      g.from_legendre_integrals<variables>(integral, c, u.data());
    }
    if (bad != std::numeric_limits<Index>::max())
      for (Index s = g.element_triangle_offsets[bad]; s < g.element_triangle_offsets[bad + 1]; ++s)
        for (int q = 0; q < g.volume_points; ++q) {
          const Point<2> x = g.volume_point(s, q);
          const StateType value = initial(x);
          if (!law_.is_physical(value))
            raise("ExplicitPolygonDG::project on ", mesh_name_, ": the initial state ",
                  describe_state(value), " at x = (", x[0], ", ", x[1], ") in element ", bad,
                  " is not physical (non-finite or outside the law's admissible states)");
        }
    return u;
  }

  /// λ_max: the largest max_normal_wave_speed over the points of the residual's volume rule
  /// (PolygonGeometry::point_coordinates) of all elements and the directions n ∈ {e_x, e_y,
  /// (e_x ± e_y)/√2}, as ExplicitTriangleDG::max_wave_speed.
  /// A max-reduction, so independent of the thread count. Throws polydg::Error naming the
  /// element and the point of the first state that is not physical. With
  /// first_elements ≥ 0, over the first that many elements only (a rank's owned ones).
  double max_wave_speed(std::span<const double> u, double t, Index first_elements = -1) const {
    require(u.size() == coefficient_count(), "ExplicitPolygonDG::max_wave_speed: ", u.size(),
            " coefficients, expected ", coefficient_count());
    require(first_elements <= element_count(),
            "ExplicitPolygonDG::max_wave_speed: ", first_elements, " elements of ",
            element_count());
    const Index counted = first_elements < 0 ? element_count() : first_elements;
    const PolygonResidualView g = view();
    double speed = 0;
    Index bad = std::numeric_limits<Index>::max();
#pragma omp parallel for schedule(static) reduction(max : speed) reduction(min : bad)
    for (Index c = 0; c < counted; ++c) {
      double legendre[variables][max_polygon_basis_size];
      double phi[max_polygon_basis_size];
      g.to_legendre<variables>(u.data(), c, legendre);
      for (Index k = g.element_point_offsets[c]; k < g.element_point_offsets[c + 1]; ++k) {
        const Point<2> x = g.rule_point(k);
        g.legendre_values(c, x, phi);
        const StateType uq = g.local_state_at<variables>(legendre, phi);
        if (!law_.is_physical(uq)) {
          bad = std::min(bad, c);
          continue;
        }
        speed = std::max(speed, sampled_max_wave_speed(law_, uq, x, t));
      }
    }
    if (bad != std::numeric_limits<Index>::max()) {
      double legendre[variables][max_polygon_basis_size];
      double phi[max_polygon_basis_size];
      g.to_legendre<variables>(u.data(), bad, legendre);
      for (Index k = g.element_point_offsets[bad]; k < g.element_point_offsets[bad + 1]; ++k) {
        const Point<2> x = g.rule_point(k);
        g.legendre_values(bad, x, phi);
        const StateType uq = g.local_state_at<variables>(legendre, phi);
        if (!law_.is_physical(uq))
          raise("ExplicitPolygonDG on ", mesh_name_, " at t = ", t, ": the state ",
                describe_state(uq), " at x = (", x[0], ", ", x[1], ") in element ", bad,
                " is not physical (non-finite or outside the law's admissible states)");
      }
    }
    return speed;
  }

  /// Δt = cfl · min_K h_K / (λ_max (2p + 1)), h_K = 2|K| / |∂K| (file comment). Throws as
  /// max_wave_speed, and for a non-positive cfl.
  double stable_time_step(std::span<const double> u, double t, double cfl) const {
    require(cfl > 0 && std::isfinite(cfl), "ExplicitPolygonDG: CFL number ", cfl,
            " is not positive");
    const double speed = max_wave_speed(u, t);
    if (speed <= 0) return std::numeric_limits<double>::infinity();
    return cfl * geometry_.min_size / (speed * (2 * degree_ + 1));
  }

  /// Σ_K ∫_K u_h per variable: Σ_K ũ_0 ∫_K φ̃_0 (the other modes have zero mean). Summed in
  /// element order (deterministic).
  std::array<double, variables> total_integral(std::span<const double> u) const {
    require(u.size() == coefficient_count(), "ExplicitPolygonDG::total_integral: ", u.size(),
            " coefficients, expected ", coefficient_count());
    std::array<double, variables> total{};
    for (Index c = 0; c < element_count(); ++c)
      for (int v = 0; v < variables; ++v)
        total[v] += geometry_.constant_mode_integral[c] * u[coefficient_index(c, v, 0)];
    return total;
  }

  /// ‖u_h − exact(·, t)‖_{L2(Ω)} per variable, by the simplex rule of degree
  /// min(2p + 4, max_quadrature_degree) on each sub-triangle; summed in element order. With
  /// first_elements ≥ 0, over the first that many elements only (a rank's owned ones on its
  /// RankSubmesh: add the squares over the ranks).
  template <class Exact>
  std::array<double, variables> l2_errors(std::span<const double> u, const Exact& exact, double t,
                                          Index first_elements = -1) const {
    require(u.size() == coefficient_count(), "ExplicitPolygonDG::l2_errors: ", u.size(),
            " coefficients, expected ", coefficient_count());
    require(first_elements <= element_count(), "ExplicitPolygonDG::l2_errors: ", first_elements,
            " elements of ", element_count());
    const Index counted = first_elements < 0 ? element_count() : first_elements;
    const PolygonResidualView g = make_view(error_rules_);
    std::vector<double> per_element(std::size_t(variables) * g.elements);
#pragma omp parallel for schedule(static)
    for (Index c = 0; c < g.elements; ++c) {
      double legendre[variables][max_polygon_basis_size];
      double phi[max_polygon_basis_size];
      g.to_legendre<variables>(u.data(), c, legendre);
      double sum[variables] = {};
      for (Index s = g.element_triangle_offsets[c]; s < g.element_triangle_offsets[c + 1]; ++s)
        for (int q = 0; q < g.volume_points; ++q) {
          const Point<2> x = g.volume_point(s, q);
          g.legendre_values(c, x, phi);
          const StateType value = g.local_state_at<variables>(legendre, phi);
          const StateType reference = exact(x, t);
          const double w = g.volume_weights[q] * g.triangle_determinant[s];
          for (int v = 0; v < variables; ++v) {
            const double difference = value[v] - reference[v];
            sum[v] += w * difference * difference;
          }
        }
      for (int v = 0; v < variables; ++v) per_element[std::size_t(v) * g.elements + c] = sum[v];
    }
    std::array<double, variables> errors{};
    for (int v = 0; v < variables; ++v) {
      for (Index c = 0; c < counted; ++c) errors[v] += per_element[std::size_t(v) * g.elements + c];
      errors[v] = std::sqrt(errors[v]);
    }
    return errors;
  }

 private:
  static int checked_degree(int degree) {
    require(degree >= 0 && degree <= max_basis_degree, "ExplicitPolygonDG: degree p = ", degree,
            " is outside the supported range 0..", max_basis_degree);
    return degree;
  }
  PolygonResidualView make_view(const PolygonQuadratureRules& rules) const {
    return polygon_residual_view(geometry_, rules);
  }

  Law law_;
  int degree_;
  PolygonQuadratureRules rules_;
  PolygonQuadratureRules error_rules_;
  PolygonGeometry geometry_;
  std::string mesh_name_;
  std::vector<double> legendre_;
  std::vector<double> flux_;
};

template <class Law>
ExplicitPolygonDG(const PolytopicMesh<2>&, int, Law) -> ExplicitPolygonDG<Law>;

}  // namespace polydg::hyperbolic
