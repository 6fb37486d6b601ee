#include "polydg/dg/element_trace_constants.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/fem/affine_simplex_map.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/fem/quadrature_cache.hpp"

namespace polydg {
namespace {

// The degree of the rules: exact for products of two functions of W_κ (header) on every piece.
// PQ_p's W_κ has degree 2p − 2 in space and 2p in time, total degree 4p − 2 on the simplices
// (tetrahedra, and a slab's lateral boundary triangles).
int rule_degree(BasisSpace space, int p) {
  return space == BasisSpace::total_degree ? std::max(2 * (p - 1), 1) : 4 * p - 2;
}

template <int Dim>
int gradient_space_size(BasisSpace space, int p) {
  return space == BasisSpace::total_degree ? basis_size(Dim, p - 1)
                                           : basis_size(Dim - 1, p - 1) * (p + 1);
}

// values[k] = ψ_k(x), the bounding-box Legendre basis of W_κ (header).
template <int Dim>
void evaluate_gradient_space(BasisSpace space, int p, const Box<Dim>& box, const Point<Dim>& x,
                             double* values) {
  if (space == BasisSpace::total_degree) {
    evaluate_basis<Dim, double>(p - 1, box, x, values);
    return;
  }
  // P_{p−1} in the first Dim − 1 coordinates times P_p in the last, time-major like PQ_p.
  const Point<Dim> xi = box_coordinates(box, x);
  double table[Dim][max_basis_degree + 1];
  for (int i = 0; i < Dim; ++i) orthonormal_legendre(p, xi[i], table[i]);
  const int spatial = basis_size(Dim - 1, p - 1);
  for (int k = 0; k <= p; ++k) {
    MultiIndex<Dim - 1> beta{};
    for (int s = 0; s < spatial; ++s) {
      double value = table[Dim - 1][k];
      for (int i = 0; i + 1 < Dim; ++i) value *= table[i][beta[i]];
      values[k * spatial + s] = value;
      advance_multi_index(beta);
    }
  }
}

// matrix += w ψ ψᵀ (lower triangle, row-major n × n).
void add_outer_product(std::vector<double>& matrix, const double* psi, int n, double w) {
  for (int i = 0; i < n; ++i) {
    const double scaled = w * psi[i];
    double* row = matrix.data() + std::size_t(i) * std::size_t(n);
    for (int j = 0; j <= i; ++j) row[j] += scaled * psi[j];
  }
}

// In place: the lower triangle of `matrix` becomes L with L Lᵀ = matrix. False when a pivot is
// not positive (relative to the largest diagonal entry).
bool cholesky(std::vector<double>& matrix, int n) {
  double largest = 0;
  for (int i = 0; i < n; ++i)
    largest = std::fmax(largest, matrix[std::size_t(i) * std::size_t(n) + std::size_t(i)]);
  for (int j = 0; j < n; ++j) {
    double* row_j = matrix.data() + std::size_t(j) * std::size_t(n);
    double pivot = row_j[j];
    for (int k = 0; k < j; ++k) pivot -= row_j[k] * row_j[k];
    if (!(pivot > 1e-13 * largest)) return false;
    row_j[j] = std::sqrt(pivot);
    for (int i = j + 1; i < n; ++i) {
      double* row_i = matrix.data() + std::size_t(i) * std::size_t(n);
      double sum = row_i[j];
      for (int k = 0; k < j; ++k) sum -= row_i[k] * row_j[k];
      row_i[j] = sum / row_j[j];
    }
  }
  return true;
}

// Full symmetric C = L⁻¹ B L⁻ᵀ from L (lower triangle of `factor`) and B (lower triangle of
// `trace`); n × n row-major.
// The result is a buffer of the calling thread's, valid until its next call.
std::vector<double>& reduce_pencil(const std::vector<double>& factor,
                                   const std::vector<double>& trace, int n) {
  const auto at = [n](std::size_t i, std::size_t j) { return i * std::size_t(n) + j; };
  thread_local std::vector<double> b, y;
  b.assign(std::size_t(n) * std::size_t(n), 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) b[at(i, j)] = b[at(j, i)] = trace[at(i, j)];
  // Twice Y ← L⁻¹ Yᵀ: first L⁻¹ B, then L⁻¹ (L⁻¹ B)ᵀ = L⁻¹ B L⁻ᵀ (B symmetric).
  y.assign(b.size(), 0.0);
  for (int pass = 0; pass < 2; ++pass) {
    for (int column = 0; column < n; ++column)
      for (int i = 0; i < n; ++i) {
        double sum = b[at(column, i)];  // column `column` of bᵀ
        for (int k = 0; k < i; ++k) sum -= factor[at(i, k)] * y[at(k, column)];
        y[at(i, column)] = sum / factor[at(i, i)];
      }
    b.swap(y);
  }
  for (int i = 0; i < n; ++i)  // symmetric to rounding: take the mean
    for (int j = 0; j < i; ++j) b[at(i, j)] = b[at(j, i)] = 0.5 * (b[at(i, j)] + b[at(j, i)]);
  return b;
}

// The largest eigenvalue of the symmetric n × n matrix `a` (row-major, overwritten):
// Householder reduction to tridiagonal form, then bisection on the Sturm count, ending on the
// upper side of the bracket (a penalty may err high, not low).
double largest_symmetric_eigenvalue(std::vector<double>& a, int n) {
  const auto at = [n](std::size_t i, std::size_t j) { return i * std::size_t(n) + j; };
  thread_local std::vector<double> v, p, diagonal, off_squared;
  v.assign(static_cast<std::size_t>(n), 0.0);
  p.assign(static_cast<std::size_t>(n), 0.0);
  for (int k = 0; k + 2 < n; ++k) {
    double norm = 0;
    for (int i = k + 1; i < n; ++i) norm += a[at(i, k)] * a[at(i, k)];
    norm = std::sqrt(norm);
    if (norm == 0) continue;
    const double alpha = a[at(k + 1, k)] > 0 ? -norm : norm;
    for (int i = k + 1; i < n; ++i) v[i] = a[at(i, k)];
    v[k + 1] -= alpha;
    double vv = 0;
    for (int i = k + 1; i < n; ++i) vv += v[i] * v[i];
    if (vv == 0) continue;
    // A22 ← H A22 H with H = I − 2 v vᵀ / vᵀv: p = 2 A22 v / vᵀv, q = p − (vᵀp / vᵀv) v,
    // A22 ← A22 − v qᵀ − q vᵀ.
    for (int i = k + 1; i < n; ++i) {
      double sum = 0;
      for (int j = k + 1; j < n; ++j) sum += a[at(i, j)] * v[j];
      p[i] = 2 * sum / vv;
    }
    double vp = 0;
    for (int i = k + 1; i < n; ++i) vp += v[i] * p[i];
    const double scale = vp / vv;
    for (int i = k + 1; i < n; ++i) p[i] -= scale * v[i];
    for (int i = k + 1; i < n; ++i)
      for (int j = k + 1; j < n; ++j) a[at(i, j)] -= v[i] * p[j] + p[i] * v[j];
    a[at(k + 1, k)] = a[at(k, k + 1)] = alpha;
    for (int i = k + 2; i < n; ++i) a[at(i, k)] = a[at(k, i)] = 0;
  }
  diagonal.assign(static_cast<std::size_t>(n), 0.0);
  off_squared.assign(diagonal.size(), 0.0);
  double low = 0, high = 0;
  for (int i = 0; i < n; ++i) {
    diagonal[i] = a[at(i, i)];
    const double left = i > 0 ? std::fabs(a[at(i, i - 1)]) : 0;
    const double right = i + 1 < n ? std::fabs(a[at(i + 1, i)]) : 0;
    if (i > 0) off_squared[i] = left * left;
    low = i == 0 ? diagonal[i] - left - right : std::fmin(low, diagonal[i] - left - right);
    high = i == 0 ? diagonal[i] + left + right : std::fmax(high, diagonal[i] + left + right);
  }
  // Number of eigenvalues below x (Sturm sequence of the tridiagonal matrix).
  const auto count_below = [&](double x) {
    int count = 0;
    double q = 1;
    for (int i = 0; i < n; ++i) {
      q = diagonal[i] - x - (i > 0 ? off_squared[i] / q : 0);
      if (q == 0) q = -1e-300;
      if (q < 0) ++count;
    }
    return count;
  };
  for (int step = 0; step < 200 && high - low > 1e-14 * std::fmax(std::fabs(high), 1e-300);
       ++step) {
    const double middle = 0.5 * (low + high);
    if (count_below(middle) == n)
      high = middle;
    else
      low = middle;
  }
  return high;
}

// Each element's interfaces (CSR): element_interfaces[offsets[e] .. offsets[e + 1]].
struct ElementInterfaces {
  std::vector<Index> offsets;
  std::vector<Index> interfaces;
};

template <int Dim>
ElementInterfaces element_interfaces(const QuadratureMesh<Dim>& mesh) {
  ElementInterfaces result;
  result.offsets.assign(std::size_t(mesh.element_count()) + 1, 0);
  for (const auto& pair : mesh.interface_elements)
    for (Index e : pair) ++result.offsets[std::size_t(e) + 1];
  for (Index e = 0; e < mesh.element_count(); ++e) result.offsets[e + 1] += result.offsets[e];
  result.interfaces.resize(std::size_t(result.offsets.back()));
  std::vector<Index> fill(result.offsets.begin(), result.offsets.end() - 1);
  for (Index i = 0; i < mesh.interface_count(); ++i)
    for (Index e : mesh.interface_elements[i]) result.interfaces[fill[e]++] = i;
  return result;
}

}  // namespace

template <int Dim>
GeometryArray<double> compute_element_trace_constants(const QuadratureMesh<Dim>& mesh) {
  const ElementInterfaces adjacency = element_interfaces(mesh);
  // Every rule looked up once, before the parallel loop: a lookup takes the cache's lock, and
  // one per element and thread serialised the loop (0.9 s for 1.6 M polyhedra on 16 threads).
  struct Rules {
    const QuadratureRule<Dim>* element = nullptr;
    const QuadratureRule<Dim - 1>* interface = nullptr;
    const QuadratureRule<Dim - 1>* boundary = nullptr;
  };
  std::vector<Rules> rules_of_degree(std::size_t(mesh.max_degree()) + 1);
  for (int p = 1; p <= mesh.max_degree(); ++p) {
    const int degree = rule_degree(mesh.space, p);
    rules_of_degree[p] = {&element_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degree),
                          &interface_piece_rule<Dim>(mesh.pieces, mesh.slab_rules, degree),
                          &simplex_rule<Dim - 1>(degree)};
  }

  GeometryArray<double> constants(std::size_t(mesh.element_count()));
  parallel_for(0, mesh.element_count(), [&](Index e) {
    const int p = mesh.element_degrees[e];
    if (p == 0) {
      constants[e] = 0;
      return;
    }
    const int n = gradient_space_size<Dim>(mesh.space, p);
    const Rules& rules = rules_of_degree[p];
    const Box<Dim>& box = mesh.element_boxes[e];
    // Reused by each thread (no allocation per element).
    thread_local std::vector<double> mass, trace, psi;
    mass.assign(std::size_t(n) * std::size_t(n), 0.0);
    trace.assign(mass.size(), 0.0);
    psi.resize(static_cast<std::size_t>(n));

    const QuadratureRule<Dim>& element_rule = *rules.element;
    for (Index s = mesh.element_simplex_offsets[e]; s < mesh.element_simplex_offsets[e + 1]; ++s) {
      const Point<Dim>* vertices = mesh.simplex_vertices[s].data();
      const double ratio = affine_measure_ratio<Dim, Dim>(vertices);
      for (std::size_t q = 0; q < element_rule.size(); ++q) {
        evaluate_gradient_space<Dim>(
            mesh.space, p, box, map_reference_point<Dim, Dim>(vertices, element_rule.points[q]),
            psi.data());
        add_outer_product(mass, psi.data(), n, element_rule.weights[q] * ratio);
      }
    }
    // Interface facets count ½: each side's flux enters the average {{A∇v}} with weight ½.
    const auto add_facet = [&](const Point<Dim>* vertices, const QuadratureRule<Dim - 1>& rule,
                               double share) {
      const double ratio = share * affine_measure_ratio<Dim - 1, Dim>(vertices);
      for (std::size_t q = 0; q < rule.size(); ++q) {
        evaluate_gradient_space<Dim>(mesh.space, p, box,
                                     map_reference_point<Dim - 1, Dim>(vertices, rule.points[q]),
                                     psi.data());
        add_outer_product(trace, psi.data(), n, rule.weights[q] * ratio);
      }
    };
    const QuadratureRule<Dim - 1>& interface_rule = *rules.interface;
    for (Index k = adjacency.offsets[e]; k < adjacency.offsets[e + 1]; ++k) {
      const Index i = adjacency.interfaces[k];
      for (Index f = mesh.interface_facet_offsets[i]; f < mesh.interface_facet_offsets[i + 1]; ++f)
        add_facet(mesh.interface_facet_vertices[f].data(), interface_rule, 0.5);
    }
    // A ghost's interfaces to elements not on this rank (quadrature_mesh.hpp).
    if (e >= mesh.owned_element_count) {
      const Index g = e - mesh.owned_element_count;
      for (Index f = mesh.ghost_outer_facet_offsets[g]; f < mesh.ghost_outer_facet_offsets[g + 1];
           ++f)
        add_facet(mesh.ghost_outer_facet_vertices[f].data(), interface_rule, 0.5);
    }
    const QuadratureRule<Dim - 1>& boundary_rule = *rules.boundary;
    for (Index f = mesh.element_boundary_offsets[e]; f < mesh.element_boundary_offsets[e + 1]; ++f)
      if (mesh.boundary_facet_kinds[f] == BoundaryKind::dirichlet)
        add_facet(mesh.boundary_facet_vertices[f].data(), boundary_rule, 1.0);

    if (!cholesky(mass, n))
      raise("element trace constant: the mass matrix of element ", e, " (degree ", p, ", measure ",
            mesh.element_measures[e], ") is not positive definite; is the element degenerate?");
    if (n == 1) {  // W_κ the constants (P_1): the pencil is 1 × 1, λ_κ = trace / mass
      constants[e] = trace[0] / (mass[0] * mass[0]) / (Dim + 1);
      return;
    }
    std::vector<double>& reduced = reduce_pencil(mass, trace, n);
    constants[e] = largest_symmetric_eigenvalue(reduced, n) / (Dim + 1);
  });
  return constants;
}

template GeometryArray<double> compute_element_trace_constants(const QuadratureMesh<2>&);
template GeometryArray<double> compute_element_trace_constants(const QuadratureMesh<3>&);

}  // namespace polydg
