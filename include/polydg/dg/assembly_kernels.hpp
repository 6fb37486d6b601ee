#pragma once
/// The CPU reference kernels of the interior-penalty DG assembly (docs/theory.md, "The
/// IP-DG system, as assembled"; "Assembly: two approaches", Approach 2): one
/// function per integral kind, each looping over sub-simplices / sub-facets and adding straight
/// into the blocks of a BlockMatrix's values and into the right-hand side.
///
///   assemble_elements        ∫_κ A∇w·∇v + (b·∇w) v + c w v,  ∫_κ f v
///   assemble_interior_faces  SIP terms and upwind advection on interfaces (four blocks)
///   assemble_boundary_faces  SIP terms on diffusive Dirichlet points (nᵀAn > 0); −(b·n) w v
///                            and −(b·n) g_D v where b·n < 0 on ∂Ω_D ∪ ∂Ω− (on a slab's
///                            bottom face the rhs comes from the previous slab); ∫ g_N v on
///                            diffusive Neumann points (outflow adds nothing)
///   assemble_previous_slab_faces  the previous slab's data on a slab's bottom face
///
/// The integrands at one point are those of element_integrand.hpp and face_integrand.hpp, which
/// the CUDA kernels call too. Block (r, c) rows are test functions of element r, columns trial
/// functions of element c. Determinism: every kernel is parallel over elements or interfaces with
/// each output written by one iteration; the interior-face contributions to diagonal blocks go to
/// per-interface scratch and are added per element in a fixed order. The same input gives the same
/// bits on every run and thread count. The values must be zeroed before the first kernel. A
/// coefficient that is not finite at a quadrature point throws polydg::Error naming the
/// coefficient, the point and the element.
#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/core/point_io.hpp"
#include "polydg/dg/element_integrand.hpp"
#include "polydg/dg/face_integrand.hpp"
#include "polydg/dg/penalty.hpp"
#include "polydg/dg/quadrature_degree.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/dg/test_trial_product.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/fem/legendre_basis.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg {

/// What an assembly writes: the matrix values, the right-hand side, or both.
struct AssemblyTargets {
  bool matrix = true;
  bool rhs = true;
};

/// Everything a kernel reads and writes besides the coefficients.
template <int Dim>
struct AssemblyData {
  const QuadratureMesh<Dim>& mesh;
  const BlockPattern& pattern;
  std::span<const DiffusionRange<Dim>> diffusion_ranges;
  QuadratureDegrees degrees;
  double penalty_constant;
  AssemblyTargets targets;
  std::span<double> matrix;  ///< BlockMatrix values (empty when !targets.matrix)
  std::span<double> rhs;     ///< dof_count() entries (empty when !targets.rhs)
};

namespace detail {

/// All N_p basis functions of one element at one point: values, and gradients unless
/// `with_gradients` is false (then `gradient` is left unset: the rhs of elements and of the
/// previous slab's faces needs values only, and the gradients were most of a step's rhs time
/// in the heat demo).
template <int Dim>
struct BasisAtPoint {
  static constexpr int capacity = max_space_basis_size(Dim);
  int size;
  double value[capacity];
  double gradient[capacity][Dim];

  BasisAtPoint(BasisSpace space, int degree, const Box<Dim>& box, const Point<Dim>& x,
               bool with_gradients = true)
      : size(space_basis_size(space, Dim, degree)) {
    if (with_gradients)
      evaluate_space_basis_gradients<Dim, double>(space, degree, box, x, value, gradient);
    else
      evaluate_space_basis<Dim, double>(space, degree, box, x, value);
  }
};

inline double checked(double value, const char* name, Index element) {
  if (!std::isfinite(value)) raise(name, " is not finite (", value, ") in element ", element);
  return value;
}

template <int Dim>
const Point<Dim>& checked(const Point<Dim>& value, const char* name, Index element) {
  for (int i = 0; i < Dim; ++i) checked(value[i], name, element);
  return value;
}

template <int Dim>
const Tensor<Dim>& checked(const Tensor<Dim>& value, const char* name, Index element) {
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j) checked(value[i][j], name, element);
  return value;
}

/// Adds `scale` · (at, x) context to an error raised while evaluating coefficients.
template <int Dim, class Body>
auto at_point(const Point<Dim>& x, Body&& body) {
  try {
    return body();
  } catch (const Error& error) {
    raise(error.what(), " at x = ", x);
  }
}

/// The quadrature points and weights of the facet piece `vertices` (a reference rule).
template <int Dim, class Visit>
void for_each_facet_point(const std::array<Point<Dim>, Dim>& vertices,
                          const QuadratureRule<Dim - 1>& rule, Visit&& visit) {
  const double ratio = affine_measure_ratio<Dim - 1, Dim>(vertices.data());
  for (std::size_t q = 0; q < rule.size(); ++q)
    visit(map_reference_point<Dim - 1, Dim>(vertices.data(), rule.points[q]),
          rule.weights[q] * ratio);
}

/// σ on a boundary sub-facet of element e (one element's term of docs/theory.md,
/// "Penalty").
template <int Dim>
double boundary_penalty(const AssemblyData<Dim>& data, Index e, Index facet) {
  const auto& mesh = data.mesh;
  return data.penalty_constant *
         penalty_term<Dim>(
             mesh.element_measures[e], mesh.boundary_facet_cell_measures[facet],
             mesh.boundary_facet_measures[facet], mesh.element_degrees[e],
             diffusion_bound(data.diffusion_ranges[e], mesh.boundary_facet_normals[facet]),
             mesh.penalty_scaling, element_trace_constant(mesh, e));
}

/// Looks every rule up once before a parallel loop (the cache builds on first use).
template <int Dim>
void prepare_rules(const QuadratureMesh<Dim>& mesh, const QuadratureDegrees& degrees) {
  for (int p = 0; p <= mesh.max_degree(); ++p) {
    element_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.element(p));
    interface_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degrees.face(p, p));
    simplex_rule<Dim - 1>(degrees.face(p, p));
  }
}

/// Where element e's kernels write: its diagonal block (N × N) and its rhs segment; null for
/// what this assembly does not write.
struct ElementTargets {
  Index element;
  int degree;
  int size;
  double* block;
  double* rhs;
};

template <int Dim>
ElementTargets element_targets(const AssemblyData<Dim>& data, Index e) {
  const int p = data.mesh.element_degrees[e];
  return {e, p, space_basis_size(data.mesh.space, Dim, p),
          data.targets.matrix
              ? data.matrix.data() + data.pattern.block_value_offset(data.pattern.diagonal_block(e))
              : nullptr,
          data.targets.rhs ? data.rhs.data() + data.pattern.dof_offset(e) : nullptr};
}

/// Runs visit(targets, facet, x, w) at every quadrature point of every element's boundary
/// sub-facets whose kind `select(kind)` accepts. Parallel over elements: each element's
/// targets have one writer, and its facets are visited in a fixed order.
template <int Dim, class Select, class Visit>
void for_each_boundary_point(const AssemblyData<Dim>& data, const Select& select,
                             const Visit& visit) {
  const auto& mesh = data.mesh;
  prepare_rules(mesh, data.degrees);
  parallel_for(0, mesh.owned_element_count, [&](Index e) {
    const ElementTargets targets = element_targets(data, e);
    for (Index f = mesh.element_boundary_offsets[e]; f < mesh.element_boundary_offsets[e + 1];
         ++f) {
      if (!select(mesh.boundary_facet_kinds[f])) continue;
      for_each_facet_point<Dim>(
          mesh.boundary_facet_vertices[f],
          simplex_rule<Dim - 1>(data.degrees.face(targets.degree, targets.degree)),
          [&](const Point<Dim>& x, double w) { visit(targets, f, x, w); });
    }
  });
}

}  // namespace detail

/// Element integrals into the diagonal blocks and the rhs. Parallel over the owned elements (all
/// of them on a whole mesh; a rank's part: quadrature_mesh.hpp).
template <int Dim, class Coefficients>
void assemble_elements(const AssemblyData<Dim>& data, const Coefficients& coefficients) {
  const auto& mesh = data.mesh;
  detail::prepare_rules(mesh, data.degrees);
  parallel_for(0, mesh.owned_element_count, [&](Index e) {
    const auto [element, p, n, block, rhs] = detail::element_targets(data, e);
    const auto& rule =
        element_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, data.degrees.element(p));
    constexpr int table_size = element_components<Dim> * detail::BasisAtPoint<Dim>::capacity;
    double test[table_size], trial[table_size];
    for (Index s = mesh.element_simplex_offsets[e]; s < mesh.element_simplex_offsets[e + 1]; ++s) {
      const auto& vertices = mesh.simplex_vertices[s];
      const double jacobian = affine_measure_ratio<Dim, Dim>(vertices.data());
      for (std::size_t q = 0; q < rule.size(); ++q) {
        const Point<Dim> x = map_reference_point<Dim, Dim>(vertices.data(), rule.points[q]);
        const double w = rule.weights[q] * jacobian;
        const detail::BasisAtPoint<Dim> phi(mesh.space, p, mesh.element_boxes[e], x, block);
        detail::at_point(x, [&] {
          if (block) {
            const Tensor<Dim> a = detail::checked(coefficients.diffusion(x), "A(x)", e);
            const Point<Dim> b = detail::checked(coefficients.advection(x), "b(x)", e);
            const double c = detail::checked(coefficients.reaction(x), "c(x)", e);
            add_element_point<Dim>(n, phi.value, phi.gradient, a, b, c, w, test, trial, block);
          }
          if (rhs) {
            const double f = detail::checked(coefficients.source(x), "f(x)", e);
            add_source_point(n, phi.value, f, w, rhs);
          }
          return 0;
        });
      }
    }
  });
}

/// Interior faces: the symmetric interior penalty terms and the upwind advection term of every
/// interface, into its four blocks (a,a), (a,b), (b,a), (b,b). The off-diagonal blocks belong to
/// the interface alone and are written directly; the diagonal contributions go to
/// `diagonal_scratch` at `scratch_offsets[i]` (N_a² then N_b² values) and are then added per
/// element in the order of `element_interfaces` (CSR: the interfaces of each element).
/// The rhs gets nothing from interior faces.
template <int Dim, class Coefficients>
void assemble_interior_faces(const AssemblyData<Dim>& data, const Coefficients& coefficients,
                             std::span<const std::array<Index, 4>> interface_blocks,
                             std::span<const GlobalIndex> scratch_offsets,
                             std::span<double> diagonal_scratch,
                             std::span<const Index> element_interface_offsets,
                             std::span<const Index> element_interfaces) {
  if (!data.targets.matrix) return;
  const auto& mesh = data.mesh;
  detail::prepare_rules(mesh, data.degrees);
  parallel_for(0, mesh.interface_count(), [&](Index i) {
    const std::array<Index, 2> element = mesh.interface_elements[i];
    const int p[2] = {mesh.element_degrees[element[0]], mesh.element_degrees[element[1]]};
    const int n[2] = {space_basis_size(mesh.space, Dim, p[0]),
                      space_basis_size(mesh.space, Dim, p[1])};
    // block[r][c]: where contributions (test r, trial c) go.
    double* diagonal = diagonal_scratch.data() + scratch_offsets[i];
    double* block[2][2] = {
        {diagonal, data.matrix.data() + data.pattern.block_value_offset(interface_blocks[i][1])},
        {data.matrix.data() + data.pattern.block_value_offset(interface_blocks[i][2]),
         diagonal + n[0] * n[0]}};
    std::fill(diagonal, diagonal + n[0] * n[0] + n[1] * n[1], 0.0);
    const auto& rule =
        interface_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, data.degrees.face(p[0], p[1]));
    for (Index f = mesh.interface_facet_offsets[i]; f < mesh.interface_facet_offsets[i + 1]; ++f) {
      const Point<Dim>& normal = mesh.interface_facet_normals[f];
      double sigma = 0;
      for (int s = 0; s < 2; ++s)
        sigma = std::fmax(
            sigma, penalty_term<Dim>(
                       mesh.element_measures[element[s]], mesh.interface_facet_cell_measures[f][s],
                       mesh.interface_facet_measures[f], p[s],
                       diffusion_bound(data.diffusion_ranges[element[s]], normal),
                       mesh.penalty_scaling, element_trace_constant(mesh, element[s])));
      sigma *= data.penalty_constant;
      detail::for_each_facet_point<Dim>(
          mesh.interface_facet_vertices[f], rule, [&](const Point<Dim>& x, double w) {
            const detail::BasisAtPoint<Dim> phi0(mesh.space, p[0], mesh.element_boxes[element[0]],
                                                 x);
            const detail::BasisAtPoint<Dim> phi1(mesh.space, p[1], mesh.element_boxes[element[1]],
                                                 x);
            const detail::BasisAtPoint<Dim>* phi[2] = {&phi0, &phi1};
            const auto [a_normal, beta] = detail::at_point(x, [&] {
              const Tensor<Dim> a = detail::checked(coefficients.diffusion(x), "A(x)", element[0]);
              const Point<Dim> b = detail::checked(coefficients.advection(x), "b(x)", element[0]);
              return std::pair{a * normal, dot(b, normal)};
            });
            // The test and trial vectors of every basis function on both sides.
            constexpr int capacity = detail::BasisAtPoint<Dim>::capacity;
            double test[2][interior_face_components * capacity];
            double trial[2][interior_face_components * capacity];
            for (int s = 0; s < 2; ++s)
              for (int k = 0; k < n[s]; ++k) {
                const double flux = normal_flux<Dim>(phi[s]->gradient[k], a_normal);
                interior_face_test_vector(s, sigma, beta, w, phi[s]->value[k], flux, test[s] + k,
                                          n[s]);
                interior_face_trial_vector(s, phi[s]->value[k], flux, trial[s] + k, n[s]);
              }
            for (int r = 0; r < 2; ++r)
              for (int c = 0; c < 2; ++c)
                add_test_trial_product(n[r], n[c], interior_face_components, test[r], n[r],
                                       trial[c], n[c], block[r][c], n[c]);
          });
    }
  });
  // Gather the diagonal contributions per element, interfaces in a fixed order.
  parallel_for(0, mesh.owned_element_count, [&](Index e) {
    const int n = space_basis_size(mesh.space, Dim, mesh.element_degrees[e]);
    double* block =
        data.matrix.data() + data.pattern.block_value_offset(data.pattern.diagonal_block(e));
    for (Index k = element_interface_offsets[e]; k < element_interface_offsets[e + 1]; ++k) {
      const Index i = element_interfaces[k];
      const int side = mesh.interface_elements[i][0] == e ? 0 : 1;
      const int n0 =
          space_basis_size(mesh.space, Dim, mesh.element_degrees[mesh.interface_elements[i][0]]);
      const double* scratch = diagonal_scratch.data() + scratch_offsets[i] + side * n0 * n0;
      for (int v = 0; v < n * n; ++v) block[v] += scratch[v];
    }
  });
}

/// Boundary faces, one pass over every boundary point (see face_integrand.hpp for the terms):
/// the SIP terms on diffusive Dirichlet points (nᵀAn > 0), the inflow term −(b·n) w v (rhs
/// −(b·n) g_D v) where b·n < 0 except on diffusive Neumann points, and the rhs ∫ g_N v on
/// diffusive Neumann points. On previous_slab faces the inflow rhs comes from
/// assemble_previous_slab_faces instead. Parallel over elements.
template <int Dim, class Coefficients>
void assemble_boundary_faces(const AssemblyData<Dim>& data, const Coefficients& coefficients) {
  const auto& mesh = data.mesh;
  detail::for_each_boundary_point(
      data, [](BoundaryKind) { return true; },
      [&](const detail::ElementTargets& t, Index f, const Point<Dim>& x, double w) {
        const Index e = t.element;
        const int n = t.size;
        const Point<Dim>& normal = mesh.boundary_facet_normals[f];
        const auto [a_normal, beta] = detail::at_point(x, [&] {
          const Tensor<Dim> a = detail::checked(coefficients.diffusion(x), "A(x)", e);
          const Point<Dim> b = detail::checked(coefficients.advection(x), "b(x)", e);
          return std::pair{a * normal, dot(b, normal)};
        });
        const BoundaryPointClass point =
            classify_boundary_point(mesh.boundary_facet_kinds[f], dot(a_normal, normal), beta);
        if (!(t.block && point.acts_on_matrix()) && !(t.rhs && point.acts())) return;
        const double sigma = point.dirichlet_diffusive ? detail::boundary_penalty(data, e, f) : 0.0;
        double g_dirichlet = 0, g_neumann = 0;
        if (t.rhs && point.needs_dirichlet_data())
          g_dirichlet = detail::at_point(
              x, [&] { return detail::checked(coefficients.dirichlet(x), "g_D(x)", e); });
        if (t.rhs && point.neumann_diffusive)
          g_neumann = detail::at_point(
              x, [&] { return detail::checked(coefficients.neumann(x, normal), "g_N(x)", e); });
        const BoundaryPointTerms<> terms =
            boundary_point_terms(point, beta, sigma, g_dirichlet, g_neumann);
        const detail::BasisAtPoint<Dim> phi(mesh.space, t.degree, mesh.element_boxes[e], x);
        constexpr int capacity = detail::BasisAtPoint<Dim>::capacity;
        double test[boundary_face_components * capacity];
        double trial[boundary_face_components * capacity];
        for (int k = 0; k < n; ++k) {
          const double flux = normal_flux<Dim>(phi.gradient[k], a_normal);
          boundary_test_vector(phi.value[k], flux, test + k, n);
          boundary_trial_vector(terms, w, phi.value[k], flux, trial + k, n);
        }
        if (t.block && point.acts_on_matrix())
          add_test_trial_product(n, n, boundary_face_components, test, n, trial, n, t.block, n);
        if (t.rhs) {
          double rhs_trial[boundary_face_components];
          boundary_rhs_trial_vector(terms, w, rhs_trial, 1);
          add_test_trial_product(n, 1, boundary_face_components, test, n, rhs_trial, 1, t.rhs, 1);
        }
      });
}

/// The data term of previous_slab boundary faces (a space-time slab's bottom, the
/// (U⁻_{n−1}, W⁺_{n−1})_D of docs/theory.md, "Space-time slabs, as built"): rhs_i += ∫ value(e, x)
/// φ_i over element e's sub-facets of kind previous_slab, where value(e, x) is the previous slab's
/// solution on element e at the point x of the bottom face (or the initial condition u_0(x) on the
/// first slab). The weight is 1 (−b·n with b = (w, 1), n = (0, …, −1)). Parallel over elements;
/// adds to the rhs.
template <int Dim, class Value>
void assemble_previous_slab_faces(const AssemblyData<Dim>& data, const Value& value) {
  if (!data.targets.rhs) return;
  const auto& mesh = data.mesh;
  detail::for_each_boundary_point(
      data, [](BoundaryKind kind) { return kind == BoundaryKind::previous_slab; },
      [&](const detail::ElementTargets& t, Index, const Point<Dim>& x, double w) {
        const Index e = t.element;
        const double u = detail::at_point(
            x, [&] { return detail::checked(value(e, x), "the previous slab's value", e); });
        const detail::BasisAtPoint<Dim> phi(mesh.space, t.degree, mesh.element_boxes[e], x, false);
        for (int i = 0; i < t.size; ++i) t.rhs[i] += w * u * phi.value[i];
      });
}

}  // namespace polydg
