#pragma once
/// The explicit modal DG discretisation of u_t + ∇·F(u) = 0 on a triangle mesh (docs/theory.md,
/// "Explicit path for conservation laws"): the CPU reference backend, whose data layout and loop
/// structure are those of the GPU kernels, so that the two can be compared entry by entry.
///
///   using namespace polydg::hyperbolic;
///   ExplicitTriangleDG dg(mesh, 3, LinearAdvection{RotatingVelocity{{}, 2 * pi}});
///   auto u = dg.project([](const Point<2>& x) { return State<1>{{hill(x)}}; });
///   auto boundary = exact_boundary([](const Point<2>& x, double t) { return exact(x, t); });
///   TimeStepper(dg, TimeScheme::rk4).advance(u, 0.0, 1.0, boundary, 0.5);
///   auto errors = dg.l2_errors(u, exact, 1.0);
/// (TimeStepper: explicit_time_stepping.hpp.)
///
/// Semi-discrete system, with the orthonormal Dubiner basis (mass matrix |det J| I):
///   du_i/dt = R_i(u) = Σ_q w_q F(u_h(x_q))·(J^{−T} ∇̂φ_i)(r_q)
///                      − (1 / |det J|) Σ_{edges e} |e| Σ_q w_q F*_e,q · φ_i(x_e,q) · (±1),
/// the volume sum already divided by |det J| (it cancels) and evaluated as (J⁻¹F)·∇̂φ_i (one
/// contravariant flux per point, then two multiply-adds per mode), F*_e,q = F*(u_left, u_right,
/// n_e) the local Lax–Friedrichs flux with the facet's normal n_e (out of side 0), + on side 0 and
/// − on side 1.
///
/// Coefficient layout: element-fastest, u[(v · N + i) · element_count + c] for variable v,
/// mode i, element c (coefficient_index). With one GPU thread per element every load of a
/// coefficient (v, i) is coalesced across a warp; a per-element-contiguous layout would make
/// consecutive threads read addresses m·N·8 bytes apart. The Runge–Kutta updates are pointwise
/// on the flat vector and do not care.
///
/// The residual is two passes (two kernels on the GPU):
///  1. per facet: u_left, u_right at the facet's Q = p + 1 Gauss points (the boundary functor
///     gives the ghost state on the boundary), the LLF flux once per point, written to an
///     edge-indexed scratch array flux[(v · Q + q) · facet_count + f] (facet-fastest, coalesced
///     writes);
///  2. per element: the volume term, then a gather of its three facets' fluxes with the sign of
///     its side and the basis table of its (local edge, orientation).
/// No element writes anything another one writes, so there are no atomics, and each entry is
/// the same sequence of operations whatever the thread count: bitwise reproducible.
///
/// Boundary conditions: a functor boundary(u_inside, x, n, t, tag) → State<m>, the ghost state
/// at boundary Gauss point x with the outward unit normal n, at time t, on a facet with mesh tag
/// `tag`; the LLF flux is then taken between u_inside and the ghost state. exact_boundary
/// (Dirichlet / inflow data from a known solution) and reflecting_walls (Law::wall_state) are
/// provided; a user dispatches on the tag for mixed conditions. For a GPU backend the functor
/// must be trivially copyable with POLYDG_HD call operator, like a Law.
///
/// Checks (host, polydg::Error naming the element and the point): the degree range at
/// construction, vector sizes, an initial state that is not physical (Law::is_physical, which
/// includes finiteness) in project, and a state that is not physical at a volume quadrature
/// point in max_wave_speed — the reduction every time step computes anyway, so a blown-up or
/// non-physical solution is reported at the next step rather than propagated.
#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/fem/simplex_quadrature.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/dubiner_basis.hpp"
#include "polydg/hyperbolic/numerical_flux.hpp"
#include "polydg/hyperbolic/triangle_geometry.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::hyperbolic {

/// A boundary functor for Law (see above).
template <class Boundary, class Law>
concept BoundaryCondition = ConservationLaw<Law> &&
    requires(const Boundary& b, const State<Law::variables>& u, const Point<2>& x,
             const Point<2>& n, double t, int tag) {
  { b(u, x, n, t, tag) } -> std::convertible_to<State<Law::variables>>;
};

/// Ghost state = the exact solution solution(x, t) (inflow / Dirichlet data; on outflow
/// boundaries the LLF flux upwinds the inside state anyway for linear advection).
template <class Solution>
struct ExactBoundary {
  Solution solution;
  template <int M>
  POLYDG_HD State<M> operator()(const State<M>&, const Point<2>& x, const Point<2>&, double t,
                                int) const {
    return solution(x, t);
  }
};
template <class Solution>
ExactBoundary<Solution> exact_boundary(Solution solution) {
  return {solution};
}

/// Ghost state = law.wall_state(u_inside, n) on every boundary facet.
template <ConservationLaw Law>
struct ReflectingWalls {
  Law law;
  POLYDG_HD State<Law::variables> operator()(const State<Law::variables>& u, const Point<2>&,
                                             const Point<2>& n, double, int) const {
    return law.wall_state(u, n);
  }
};
template <ConservationLaw Law>
ReflectingWalls<Law> reflecting_walls(const Law& law) {
  return {law};
}

/// Largest basis size of the Dubiner evaluators: the size of the kernels' local accumulators.
inline constexpr int max_dubiner_basis_size = dubiner_index(max_dubiner_degree + 1, 0);

/// Raw pointers into TriangleGeometry and ReferenceTables: what a kernel receives (trivially
/// copyable; on the GPU the same struct with device pointers).
struct ResidualView {
  Index elements, facets;
  int basis_size, volume_points, edge_points;
  const double *origin, *jacobian, *inverse_jacobian, *determinant;
  const Index* element_facet;
  const signed char* element_facet_side;
  const Index* facet_element;
  const signed char *facet_local_edge, *facet_orientation;
  const double *facet_origin, *facet_tangent, *facet_length, *facet_normal;
  const int* facet_tag;
  const double *volume_points_rs, *volume_weights, *volume_values, *volume_gradients;
  const double *edge_parameters, *edge_weights, *edge_values;

  POLYDG_HD std::size_t coefficient(Index c, int v, int i) const {
    return (std::size_t(v) * basis_size + i) * elements + c;
  }
  POLYDG_HD std::size_t flux_entry(Index f, int v, int q) const {
    return (std::size_t(v) * edge_points + q) * facets + f;
  }
  /// u_h of element c where the basis takes the values phi[0 .. basis_size).
  template <int M>
  POLYDG_HD State<M> state_at(const double* u, Index c, const double* phi) const {
    State<M> s;
    for (int v = 0; v < M; ++v) {
      double sum = 0;
      for (int i = 0; i < basis_size; ++i) sum += u[coefficient(c, v, i)] * phi[i];
      s[v] = sum;
    }
    return s;
  }
  /// u_h of element c at edge Gauss point q of its local edge e read with orientation o.
  template <int M>
  POLYDG_HD State<M> edge_state(const double* u, Index c, int e, int o, int q) const {
    return state_at<M>(u, c,
                       edge_values + ((std::size_t(e) * 2 + o) * edge_points + q) * basis_size);
  }
  /// u_h of element c at volume point q.
  template <int M>
  POLYDG_HD State<M> volume_state(const double* u, Index c, int q) const {
    return state_at<M>(u, c, volume_values + std::size_t(q) * basis_size);
  }
  POLYDG_HD Point<2> volume_point(Index c, int q) const {
    const double r = volume_points_rs[2 * q], s = volume_points_rs[2 * q + 1];
    const std::size_t k = std::size_t(elements);
    return {origin[c] + jacobian[c] * r + jacobian[k + c] * s,
            origin[k + c] + jacobian[2 * k + c] * r + jacobian[3 * k + c] * s};
  }
};

/// One element's modes, as the stage limiters (slope_limiter.hpp, positivity.hpp) read and
/// write them: in place in the solver's array (ElementModes, any basis size), or copied into a
/// fixed-size local array (LocalElementModes: registers on the GPU, one load of the element and
/// one store of the variables that changed). The limiters' loop bodies are written once against
/// get / set / size, so both give the same arithmetic in the same order.
struct ElementModes {
  double* element;     // &u[coefficient(c, 0, 0)]
  std::size_t stride;  // the element count: from mode to mode
  int n;               // the basis size
  /// Element c's modes in u.
  POLYDG_HD ElementModes(const ResidualView& g, double* u, Index c)
      : element(u + c), stride(std::size_t(g.elements)), n(g.basis_size) {}
  POLYDG_HD int size() const { return n; }
  POLYDG_HD double get(int v, int i) const { return element[std::size_t(v * n + i) * stride]; }
  POLYDG_HD void set(int v, int i, double value) {
    element[std::size_t(v * n + i) * stride] = value;
  }
};

/// M variables of N modes; N must be the solver's basis size (g.basis_size): the index
/// arithmetic uses N, a compile-time constant, so that each coefficient's address is the
/// element's plus a constant multiple of the element count.
template <int M, int N>
struct LocalElementModes {
  static_assert(M <= 32, "LocalElementModes: one bit per variable in `changed`");
  double a[M][N];
  unsigned changed = 0;  // bit v: some mode of variable v was set
  POLYDG_HD static constexpr int size() { return N; }
  POLYDG_HD double get(int v, int i) const { return a[v][i]; }
  POLYDG_HD void set(int v, int i, double value) {
    a[v][i] = value;
    changed |= 1u << v;
  }
  /// Element c's modes from the solver's array.
  POLYDG_HD void load(const ResidualView& g, const double* u, Index c) {
    const std::size_t stride = std::size_t(g.elements);
    const double* element = u + c;
    POLYDG_UNROLL
    for (int v = 0; v < M; ++v) {
      POLYDG_UNROLL
      for (int i = 0; i < N; ++i) a[v][i] = element[std::size_t(v * N + i) * stride];
    }
  }
  /// Writes back the modes ≥ 1 of each variable that was set (the means are never changed);
  /// nothing where nothing was.
  POLYDG_HD void store_changes(const ResidualView& g, double* u, Index c) const {
    if (changed == 0) return;
    const std::size_t stride = std::size_t(g.elements);
    double* element = u + c;
    POLYDG_UNROLL
    for (int v = 0; v < M; ++v) {
      if ((changed >> v & 1u) == 0) continue;
      POLYDG_UNROLL
      for (int i = 1; i < N; ++i) element[std::size_t(v * N + i) * stride] = a[v][i];
    }
  }
};

/// The largest degree for which the stage limiters keep an element's modes in a
/// LocalElementModes (as the GPU's fixed-degree residual kernels, p ≤ 4); above, they work in
/// place (ElementModes).
inline constexpr int largest_local_modes_degree = 4;

/// Calls function(std::integral_constant<int, N>{}) with N = basis_size and returns true where
/// basis_size is that of a degree p ≤ largest_local_modes_degree (N = 1, 3, 6, 10, 15); returns
/// false, calling nothing, for any other size.
template <class Function>
bool with_local_modes_size(int basis_size, Function&& function) {
  static_assert(largest_local_modes_degree == 4, "one case per degree below");
  switch (basis_size) {
    case dubiner_index(1, 0):
      function(std::integral_constant<int, dubiner_index(1, 0)>{});
      return true;
    case dubiner_index(2, 0):
      function(std::integral_constant<int, dubiner_index(2, 0)>{});
      return true;
    case dubiner_index(3, 0):
      function(std::integral_constant<int, dubiner_index(3, 0)>{});
      return true;
    case dubiner_index(4, 0):
      function(std::integral_constant<int, dubiner_index(4, 0)>{});
      return true;
    case dubiner_index(5, 0):
      function(std::integral_constant<int, dubiner_index(5, 0)>{});
      return true;
    default:
      return false;
  }
}

/// Pass 1 of the residual for facet f: writes flux[flux_entry(f, v, q)] for all v, q.
template <ConservationLaw Law, class Boundary>
POLYDG_HD void facet_flux_kernel(const ResidualView& g, const Law& law, const Boundary& boundary,
                                 const double* u, double t, Index f, double* flux) {
  constexpr int m = Law::variables;
  const std::size_t fc = std::size_t(g.facets);
  const Index left = g.facet_element[f];
  const Index right = g.facet_element[fc + f];
  const int left_edge = g.facet_local_edge[f];
  const int left_orientation = g.facet_orientation[f];
  const int right_edge = g.facet_local_edge[fc + f];
  const int right_orientation = g.facet_orientation[fc + f];
  const Point<2> n{g.facet_normal[f], g.facet_normal[fc + f]};
  for (int q = 0; q < g.edge_points; ++q) {
    const double s = g.edge_parameters[q];
    const Point<2> x{g.facet_origin[f] + s * g.facet_tangent[f],
                     g.facet_origin[fc + f] + s * g.facet_tangent[fc + f]};
    const State<m> u_left = g.edge_state<m>(u, left, left_edge, left_orientation, q);
    const State<m> u_right = right >= 0
                                 ? g.edge_state<m>(u, right, right_edge, right_orientation, q)
                                 : State<m>(boundary(u_left, x, n, t, g.facet_tag[f]));
    const State<m> value = local_lax_friedrichs_flux(law, u_left, u_right, n, x, t);
    for (int v = 0; v < m; ++v) flux[g.flux_entry(f, v, q)] = value[v];
  }
}

/// Pass 2 of the residual for element c: volume term and the gather of its facets' fluxes,
/// divided by the mass |det J|; writes r[coefficient(c, v, i)] for all v, i.
template <ConservationLaw Law>
POLYDG_HD void element_residual_kernel(const ResidualView& g, const Law& law, const double* u,
                                       double t, const double* flux, Index c, double* r) {
  constexpr int m = Law::variables;
  const int n = g.basis_size;
  const std::size_t k = std::size_t(g.elements);
  // J⁻¹, row-major: ∂φ/∂x_i = Σ_j (J⁻¹)[j][i] ∂̂φ/∂r_j.
  const double a00 = g.inverse_jacobian[c], a01 = g.inverse_jacobian[k + c];
  const double a10 = g.inverse_jacobian[2 * k + c], a11 = g.inverse_jacobian[3 * k + c];
  double volume[m][max_dubiner_basis_size];
  double surface[m][max_dubiner_basis_size];
  for (int v = 0; v < m; ++v)
    for (int i = 0; i < n; ++i) volume[v][i] = surface[v][i] = 0;

  for (int q = 0; q < g.volume_points; ++q) {
    const State<m> uq = g.volume_state<m>(u, c, q);
    const Flux<m> fq = law.flux(uq, g.volume_point(c, q), t);
    // F·(J^{−T} ∇̂φ) = (J⁻¹ F)·∇̂φ: the weighted contravariant flux once per point, then two
    // multiply-adds per mode and variable.
    const double w = g.volume_weights[q];
    double contravariant[2][m];
    for (int v = 0; v < m; ++v) {
      contravariant[0][v] = w * (a00 * fq[0][v] + a01 * fq[1][v]);
      contravariant[1][v] = w * (a10 * fq[0][v] + a11 * fq[1][v]);
    }
    const double* grad = g.volume_gradients + std::size_t(q) * n * 2;
    for (int i = 0; i < n; ++i)
      for (int v = 0; v < m; ++v)
        volume[v][i] += contravariant[0][v] * grad[2 * i] + contravariant[1][v] * grad[2 * i + 1];
  }

  for (int e = 0; e < 3; ++e) {
    const Index f = g.element_facet[e * k + c];
    const int side = g.element_facet_side[e * k + c];
    const int o = g.facet_orientation[side * std::size_t(g.facets) + f];
    // The facet's flux is along the normal out of side 0: the outward flux of side 1 is −F*.
    const double scale = side == 0 ? g.facet_length[f] : -g.facet_length[f];
    for (int q = 0; q < g.edge_points; ++q) {
      const double* phi = g.edge_values + ((std::size_t(e) * 2 + o) * g.edge_points + q) * n;
      const double w = scale * g.edge_weights[q];
      for (int v = 0; v < m; ++v) {
        const double wf = w * flux[g.flux_entry(f, v, q)];
        for (int i = 0; i < n; ++i) surface[v][i] += wf * phi[i];
      }
    }
  }

  const double inverse_mass = 1.0 / g.determinant[c];
  for (int v = 0; v < m; ++v)
    for (int i = 0; i < n; ++i)
      r[g.coefficient(c, v, i)] = volume[v][i] - surface[v][i] * inverse_mass;
}

/// The explicit DG discretisation of one Law on one triangle mesh at one degree p.
template <ConservationLaw Law>
class ExplicitTriangleDG {
 public:
  static constexpr int variables = Law::variables;
  using StateType = State<variables>;

  /// Throws polydg::Error unless 0 ≤ degree ≤ max_dubiner_degree, or for a mesh without cells.
  ExplicitTriangleDG(const SimplexMesh<2>& mesh, int degree, Law law = {})
      : law_(law),
        degree_(checked_degree(degree)),
        geometry_(make_triangle_geometry(mesh)),
        tables_(make_reference_tables(degree)),
        error_tables_(make_volume_tables(degree, std::min(2 * degree + 4, max_quadrature_degree))),
        mesh_name_(mesh.source().name) {
    flux_.assign(std::size_t(variables) * tables_.edge_point_count * geometry_.facet_count, 0.0);
  }

  const Law& law() const { return law_; }
  int degree() const { return degree_; }
  /// min_K h_K, the length in stable_time_step().
  double min_element_size() const { return geometry_.min_size; }
  int basis_size() const { return tables_.basis_size; }
  Index element_count() const { return geometry_.element_count; }
  const TriangleGeometry& geometry() const { return geometry_; }
  const ReferenceTables& tables() const { return tables_; }
  /// m · N · element_count.
  std::size_t coefficient_count() const {
    return std::size_t(variables) * basis_size() * element_count();
  }
  /// Position of mode i of variable v of element c in a coefficient vector (element-fastest).
  std::size_t coefficient_index(Index c, int v, int i) const {
    return (std::size_t(v) * basis_size() + i) * element_count() + c;
  }
  /// The kernels' view of the geometry and tables.
  ResidualView view() const {
    const auto& g = geometry_;
    const auto& t = tables_;
    return {g.element_count,
            g.facet_count,
            t.basis_size,
            t.volume_point_count,
            t.edge_point_count,
            g.origin.data(),
            g.jacobian.data(),
            g.inverse_jacobian.data(),
            g.determinant.data(),
            g.element_facet.data(),
            g.element_facet_side.data(),
            g.facet_element.data(),
            g.facet_local_edge.data(),
            g.facet_orientation.data(),
            g.facet_origin.data(),
            g.facet_tangent.data(),
            g.facet_length.data(),
            g.facet_normal.data(),
            g.facet_tag.data(),
            t.volume_points.data(),
            t.volume_weights.data(),
            t.volume_values.data(),
            t.volume_gradients.data(),
            t.edge_parameters.data(),
            t.edge_weights.data(),
            t.edge_values.data()};
  }

  /// r = R(u) at time t (see the file comment). Uses the object's facet-flux scratch, so one
  /// residual at a time per object. Throws polydg::Error for wrong vector sizes.
  template <BoundaryCondition<Law> Boundary>
  void residual(std::span<const double> u, double t, const Boundary& boundary,
                std::span<double> r) {
    require(u.size() == coefficient_count() && r.size() == coefficient_count(),
            "ExplicitTriangleDG::residual: vectors of ", u.size(), " and ", r.size(),
            " coefficients, expected ", coefficient_count());
    const ResidualView g = view();
    const Law law = law_;
    const double* in = u.data();
    double* flux = flux_.data();
    double* out = r.data();
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (Index f = 0; f < g.facets; ++f) facet_flux_kernel(g, law, boundary, in, t, f, flux);
#pragma omp for schedule(static)
      for (Index c = 0; c < g.elements; ++c) element_residual_kernel(g, law, in, t, flux, c, out);
    }
  }

  /// The facet fluxes of the last residual: flux[(v · Q + q) · facet_count + f].
  std::span<const double> facet_fluxes() const { return flux_; }

  /// L2 projection of initial(x) → State<m> by the volume rule: u_i = Σ_q w_q f(x_q) φ_i(r_q)
  /// (the mass |det J| cancels). Throws polydg::Error naming the element and the point where
  /// initial(x) is not physical (Law::is_physical: finite, and e.g. ρ, p > 0 for Euler).
  template <class Initial>
  std::vector<double> project(const Initial& initial) const {
    const ResidualView g = view();
    std::vector<double> u(coefficient_count());
    Index bad = std::numeric_limits<Index>::max();
#pragma omp parallel for schedule(static) reduction(min : bad)
    for (Index c = 0; c < g.elements; ++c) {
      double sum[variables][max_dubiner_basis_size] = {};
      for (int q = 0; q < g.volume_points; ++q) {
        const StateType value = initial(g.volume_point(c, q));
        if (!law_.is_physical(value)) bad = std::min(bad, c);
        const double* phi = g.volume_values + std::size_t(q) * g.basis_size;
        for (int v = 0; v < variables; ++v)
          for (int i = 0; i < g.basis_size; ++i)
            sum[v][i] += g.volume_weights[q] * value[v] * phi[i];
      }
      for (int v = 0; v < variables; ++v)
        for (int i = 0; i < g.basis_size; ++i) u[g.coefficient(c, v, i)] = sum[v][i];
    }
    if (bad != std::numeric_limits<Index>::max()) {
      for (int q = 0; q < g.volume_points; ++q) {
        const Point<2> x = g.volume_point(bad, q);
        const StateType value = initial(x);
        if (!law_.is_physical(value))
          raise("ExplicitTriangleDG::project on ", mesh_name_, ": the initial state ",
                describe_state(value), " at x = (", x[0], ", ", x[1], ") in element ", bad,
                " is not physical (non-finite or outside the law's admissible states)");
      }
    }
    return u;
  }

  /// λ_max: the largest max_normal_wave_speed over the volume quadrature points of all elements
  /// and the directions n ∈ {e_x, e_y, (e_x ± e_y)/√2} (for speeds |v·n| + c, as of advection
  /// and Euler, within cos(π/8) of the maximum over all directions; the CFL number absorbs it).
  /// A max-reduction, so independent of the thread count. Throws polydg::Error naming the
  /// element and the point of the first state that is not physical. With
  /// first_elements ≥ 0, over the first that many elements only (a rank's owned ones).
  double max_wave_speed(std::span<const double> u, double t, Index first_elements = -1) const {
    require(u.size() == coefficient_count(), "ExplicitTriangleDG::max_wave_speed: ", u.size(),
            " coefficients, expected ", coefficient_count());
    require(first_elements <= element_count(),
            "ExplicitTriangleDG::max_wave_speed: ", first_elements, " elements of ",
            element_count());
    const Index counted = first_elements < 0 ? element_count() : first_elements;
    const ResidualView g = view();
    double speed = 0;
    Index bad = std::numeric_limits<Index>::max();
#pragma omp parallel for schedule(static) reduction(max : speed) reduction(min : bad)
    for (Index c = 0; c < counted; ++c)
      for (int q = 0; q < g.volume_points; ++q) {
        const StateType uq = g.volume_state<variables>(u.data(), c, q);
        if (!law_.is_physical(uq)) {
          bad = std::min(bad, c);
          continue;
        }
        const Point<2> x = g.volume_point(c, q);
        speed = std::max(speed, sampled_max_wave_speed(law_, uq, x, t));
      }
    if (bad != std::numeric_limits<Index>::max())
      for (int q = 0; q < g.volume_points; ++q) {
        const StateType uq = g.volume_state<variables>(u.data(), bad, q);
        if (!law_.is_physical(uq)) {
          const Point<2> x = g.volume_point(bad, q);
          raise("ExplicitTriangleDG on ", mesh_name_, " at t = ", t, ": the state ",
                describe_state(uq), " at x = (", x[0], ", ", x[1], ") in element ", bad,
                " is not physical (non-finite or outside the law's admissible states)");
        }
      }
    return speed;
  }

  /// Δt = cfl · min_K h_K / (λ_max (2p + 1)), h_K = 2|K| / perimeter (the inscribed radius,
  /// TriangleGeometry::size). Throws as max_wave_speed, and for a non-positive cfl.
  double stable_time_step(std::span<const double> u, double t, double cfl) const {
    require(cfl > 0 && std::isfinite(cfl), "ExplicitTriangleDG: CFL number ", cfl,
            " is not positive");
    const double speed = max_wave_speed(u, t);
    if (speed <= 0) return std::numeric_limits<double>::infinity();
    return cfl * geometry_.min_size / (speed * (2 * degree_ + 1));
  }

  /// Σ_K ∫_K u_h per variable: |det J| u_0 ∫_T φ_0 = |det J| u_0 / √2 (φ_0 = √2, |T| = 1/2).
  /// Summed in element order (deterministic).
  std::array<double, variables> total_integral(std::span<const double> u) const {
    std::array<double, variables> total{};
    for (Index c = 0; c < element_count(); ++c)
      for (int v = 0; v < variables; ++v)
        total[v] += geometry_.determinant[c] * u[coefficient_index(c, v, 0)];
    for (double& x : total) x *= 0.70710678118654752;
    return total;
  }

  /// ‖u_h − exact(·, t)‖_{L2(Ω)} per variable, by the simplex rule of degree
  /// min(2p + 4, max_quadrature_degree) on each element; summed in element order. With
  /// first_elements ≥ 0, over the first that many elements only (a rank's owned ones on its
  /// RankSubmesh: add the squares over the ranks).
  template <class Exact>
  std::array<double, variables> l2_errors(std::span<const double> u, const Exact& exact, double t,
                                          Index first_elements = -1) const {
    require(u.size() == coefficient_count(), "ExplicitTriangleDG::l2_errors: ", u.size(),
            " coefficients, expected ", coefficient_count());
    require(first_elements <= element_count(), "ExplicitTriangleDG::l2_errors: ", first_elements,
            " elements of ", element_count());
    const Index counted = first_elements < 0 ? element_count() : first_elements;
    const ResidualView g = view();
    const auto& e = error_tables_;
    std::vector<double> per_element(std::size_t(variables) * g.elements);
#pragma omp parallel for schedule(static)
    for (Index c = 0; c < g.elements; ++c) {
      double sum[variables] = {};
      for (int q = 0; q < e.volume_point_count; ++q) {
        const double r = e.volume_points[2 * q], s = e.volume_points[2 * q + 1];
        const std::size_t k = std::size_t(g.elements);
        const Point<2> x{g.origin[c] + g.jacobian[c] * r + g.jacobian[k + c] * s,
                         g.origin[k + c] + g.jacobian[2 * k + c] * r + g.jacobian[3 * k + c] * s};
        const StateType reference = exact(x, t);
        const double* phi = e.volume_values.data() + std::size_t(q) * e.basis_size;
        for (int v = 0; v < variables; ++v) {
          double value = 0;
          for (int i = 0; i < e.basis_size; ++i) value += u[g.coefficient(c, v, i)] * phi[i];
          const double difference = value - reference[v];
          sum[v] += e.volume_weights[q] * difference * difference;
        }
      }
      for (int v = 0; v < variables; ++v)
        per_element[std::size_t(v) * g.elements + c] = g.determinant[c] * sum[v];
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
    require(degree >= 0 && degree <= max_dubiner_degree, "ExplicitTriangleDG: degree p = ", degree,
            " is outside the supported range 0..", max_dubiner_degree);
    return degree;
  }

  Law law_;
  int degree_;
  TriangleGeometry geometry_;
  ReferenceTables tables_;
  ReferenceTables error_tables_;
  std::string mesh_name_;
  std::vector<double> flux_;
};

template <class Law>
ExplicitTriangleDG(const SimplexMesh<2>&, int, Law) -> ExplicitTriangleDG<Law>;

}  // namespace polydg::hyperbolic
