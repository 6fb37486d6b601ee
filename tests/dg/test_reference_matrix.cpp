#define BOOST_TEST_MODULE dg_reference_matrix
// The assembled IP-DG matrix and rhs, entry by entry, against a reference coded here from
// docs/theory.md alone: "Basis" (the bounding-box Legendre basis with its polynomials and the
// chain rule written out), "The IP-DG system, as assembled" (every term of its list, with
// the average and jump written per side) and "Penalty" (T_κ in closed form at p = 1, from its 3×3
// eigenproblem at p = 2; the sub_simplex and polytopic_cap forms of penalty.hpp). Nothing of the
// library's basis, quadrature, geometry or integrands is used: the reference integrates with its
// own Gauss rule (collapsed onto the triangles by the Duffy map), finds the facets, normals, boxes
// and areas from the fine mesh's vertices and cells, and sorts the boundary by its coordinates.
// Coefficients are constant and the data are quadratic, so both sides integrate exactly and agree
// to rounding.
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dg/dense_solver.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/mesh/generators.hpp"

using namespace polydg;

namespace {

using Vector2 = std::array<double, 2>;
using Matrix2 = std::array<Vector2, 2>;

double dot2(const Vector2& a, const Vector2& b) { return a[0] * b[0] + a[1] * b[1]; }
Vector2 times(const Matrix2& a, const Vector2& v) {
  return {a[0][0] * v[0] + a[0][1] * v[1], a[1][0] * v[0] + a[1][1] * v[1]};
}

// ---- quadrature --------------------------------------------------------------------------------

// The 4-point Gauss–Legendre rule on [−1, 1] in closed form: exact for degree 7.
struct GaussRule {
  std::array<double, 4> nodes, weights;
};

GaussRule gauss4() {
  const double r = 2 * std::sqrt(6.0 / 5) / 7;
  const double inner = std::sqrt(3.0 / 7 - r), outer = std::sqrt(3.0 / 7 + r);
  const double w_inner = (18 + std::sqrt(30.0)) / 36, w_outer = (18 - std::sqrt(30.0)) / 36;
  return {{-outer, -inner, inner, outer}, {w_outer, w_inner, w_inner, w_outer}};
}

struct WeightedPoint {
  Vector2 x;
  double weight;
};

// Triangle p0 p1 p2 by the Duffy map (u, v) ∈ [0, 1]² ↦ p0 + u (p1 − p0) + v (1 − u) (p2 − p0),
// Jacobian 2|T| (1 − u): 16 points, exact for degree 6 on the triangle.
std::vector<WeightedPoint> triangle_points(const std::array<Vector2, 3>& p) {
  const GaussRule g = gauss4();
  const double area = 0.5 * std::abs((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                                     (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]));
  std::vector<WeightedPoint> points;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const double u = (1 + g.nodes[a]) / 2, v = (1 + g.nodes[b]) / 2;
      const double s = u, t = v * (1 - u);
      WeightedPoint q;
      for (int d = 0; d < 2; ++d)
        q.x[d] = p[0][d] + s * (p[1][d] - p[0][d]) + t * (p[2][d] - p[0][d]);
      q.weight = g.weights[a] * g.weights[b] / 4 * (1 - u) * 2 * area;
      points.push_back(q);
    }
  return points;
}

// Segment a b: 4 Gauss points, exact for degree 7.
std::vector<WeightedPoint> segment_points(const Vector2& a, const Vector2& b) {
  const GaussRule g = gauss4();
  const double length = std::hypot(b[0] - a[0], b[1] - a[1]);
  std::vector<WeightedPoint> points;
  for (int k = 0; k < 4; ++k) {
    const double s = (1 + g.nodes[k]) / 2;
    points.push_back(
        {{a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1])}, g.weights[k] / 2 * length});
  }
  return points;
}

// ---- basis (docs/theory.md, "Basis") -----------------------------------------------------------

// L̂_k = sqrt((2k + 1)/2) P_k and its derivative, P_0 = 1, P_1 = ξ, P_2 = (3ξ² − 1)/2.
double legendre(int k, double xi) {
  if (k == 0) return std::sqrt(0.5);
  if (k == 1) return std::sqrt(1.5) * xi;
  return std::sqrt(2.5) * (3 * xi * xi - 1) / 2;
}
double legendre_derivative(int k, double xi) {
  if (k == 0) return 0;
  if (k == 1) return std::sqrt(1.5);
  return std::sqrt(2.5) * 3 * xi;
}

// (0,0) | (1,0) (0,1) | (2,0) (1,1) (0,2)
constexpr std::array<std::array<int, 2>, 6> multi_indices{
    {{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}}};

int basis_size(int p) { return (p + 1) * (p + 2) / 2; }

struct Box2 {
  Vector2 lower, upper;
};

struct BasisValues {
  std::array<double, 6> value{};
  std::array<Vector2, 6> gradient{};
};

BasisValues evaluate(const Box2& box, int p, const Vector2& x) {
  Vector2 xi, scale;
  for (int d = 0; d < 2; ++d) {
    xi[d] = (2 * x[d] - box.lower[d] - box.upper[d]) / (box.upper[d] - box.lower[d]);
    scale[d] = 2 / (box.upper[d] - box.lower[d]);
  }
  BasisValues result;
  for (int i = 0; i < basis_size(p); ++i) {
    const auto [kx, ky] = multi_indices[std::size_t(i)];
    result.value[i] = legendre(kx, xi[0]) * legendre(ky, xi[1]);
    result.gradient[i] = {legendre_derivative(kx, xi[0]) * scale[0] * legendre(ky, xi[1]),
                          legendre(kx, xi[0]) * legendre_derivative(ky, xi[1]) * scale[1]};
  }
  return result;
}

// ---- the mesh, found again from the fine vertices and cells ------------------------------------

double triangle_area(const std::array<Vector2, 3>& p) {
  return 0.5 * std::abs((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                        (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]));
}

struct ReferenceMesh {
  struct Facet {
    Vector2 a, b;
    std::array<int, 2> cells;       // cells[1] = −1 on ∂Ω
    std::array<Vector2, 2> normal;  // unit normal out of cells[s]
    int tag = 0;                    // ∂Ω: 1 bottom, 2 right, 3 top, 4 left
    double length = 0;
  };
  std::vector<std::array<Vector2, 3>> cells;
  std::vector<double> cell_areas;
  std::vector<int> element_of_cell;
  int element_count = 0;
  std::vector<Box2> boxes;
  std::vector<double> areas;
  // Facets between two elements and on ∂Ω; facets inside an element are dropped.
  std::vector<Facet> facets;
};

ReferenceMesh make_reference_mesh(const SimplexMesh<2>& fine, const std::vector<Index>& partition) {
  ReferenceMesh mesh;
  mesh.element_of_cell.assign(partition.begin(), partition.end());
  mesh.element_count = 1 + *std::max_element(partition.begin(), partition.end());
  mesh.boxes.assign(std::size_t(mesh.element_count), Box2{{1e300, 1e300}, {-1e300, -1e300}});
  mesh.areas.assign(std::size_t(mesh.element_count), 0.0);
  std::map<std::pair<Index, Index>, std::vector<int>> cells_of_edge;
  for (std::size_t c = 0; c < fine.cells().size(); ++c) {
    const auto& cell = fine.cells()[c];
    std::array<Vector2, 3> p;
    for (int k = 0; k < 3; ++k) p[k] = {fine.vertices()[cell[k]][0], fine.vertices()[cell[k]][1]};
    mesh.cells.push_back(p);
    mesh.cell_areas.push_back(triangle_area(p));
    const int e = mesh.element_of_cell[c];
    mesh.areas[e] += mesh.cell_areas.back();
    for (const Vector2& x : p)
      for (int d = 0; d < 2; ++d) {
        mesh.boxes[e].lower[d] = std::min(mesh.boxes[e].lower[d], x[d]);
        mesh.boxes[e].upper[d] = std::max(mesh.boxes[e].upper[d], x[d]);
      }
    for (int k = 0; k < 3; ++k) {
      const Index u = cell[k], v = cell[(k + 1) % 3];
      cells_of_edge[{std::min(u, v), std::max(u, v)}].push_back(int(c));
    }
  }
  for (const auto& [edge, cells] : cells_of_edge) {
    ReferenceMesh::Facet facet;
    facet.a = {fine.vertices()[edge.first][0], fine.vertices()[edge.first][1]};
    facet.b = {fine.vertices()[edge.second][0], fine.vertices()[edge.second][1]};
    facet.cells = {cells[0], cells.size() == 2 ? cells[1] : -1};
    if (cells.size() == 2 && mesh.element_of_cell[cells[0]] == mesh.element_of_cell[cells[1]])
      continue;
    facet.length = std::hypot(facet.b[0] - facet.a[0], facet.b[1] - facet.a[1]);
    for (std::size_t s = 0; s < cells.size(); ++s) {
      // Perpendicular to the edge, pointing away from the cell's centroid.
      const auto& p = mesh.cells[cells[s]];
      const Vector2 centroid{(p[0][0] + p[1][0] + p[2][0]) / 3, (p[0][1] + p[1][1] + p[2][1]) / 3};
      Vector2 n{(facet.b[1] - facet.a[1]) / facet.length,
                -(facet.b[0] - facet.a[0]) / facet.length};
      if (n[0] * (centroid[0] - facet.a[0]) + n[1] * (centroid[1] - facet.a[1]) > 0)
        n = {-n[0], -n[1]};
      facet.normal[s] = n;
    }
    if (cells.size() == 1) {
      if (facet.a[1] == 0 && facet.b[1] == 0) facet.tag = 1;
      if (facet.a[0] == 1 && facet.b[0] == 1) facet.tag = 2;
      if (facet.a[1] == 1 && facet.b[1] == 1) facet.tag = 3;
      if (facet.a[0] == 0 && facet.b[0] == 0) facet.tag = 4;
      BOOST_REQUIRE(facet.tag != 0);
    }
    mesh.facets.push_back(facet);
  }
  return mesh;
}

// ---- the problem -------------------------------------------------------------------------------

struct Problem {
  std::string name;
  Matrix2 diffusion;
  Vector2 advection;
  double reaction;
  std::array<bool, 5> dirichlet_tag;  // by tag 1..4; the others Neumann
  double source(const Vector2& x) const { return 1 + x[0] - 2 * x[1] + x[0] * x[1] + x[0] * x[0]; }
  double dirichlet(const Vector2& x) const { return 0.5 + x[0] * x[0] - x[0] * x[1] + 0.3 * x[1]; }
  double neumann(const Vector2& x, const Vector2& n) const {
    return (1 + x[0] * x[1]) * n[0] + (x[0] - x[1] * x[1]) * n[1];
  }
  auto coefficients() const {
    const Problem copy = *this;
    const Tensor<2> a{{{diffusion[0][0], diffusion[0][1]}, {diffusion[1][0], diffusion[1][1]}}};
    return make_coefficients<2>()
        .with_diffusion(a)
        .with_advection(Point<2>{{advection[0], advection[1]}})
        .with_reaction(reaction)
        .with_source([copy](const Point<2>& x) {
          return copy.source({x[0], x[1]});
        })
        .with_dirichlet([copy](const Point<2>& x) {
          return copy.dirichlet({x[0], x[1]});
        })
        .with_neumann([copy](const Point<2>& x, const Point<2>& n) {
          return copy.neumann({x[0], x[1]}, {n[0], n[1]});
        });
  }
  BoundaryConditions conditions() const {
    BoundaryConditions result;
    for (int tag = 1; tag <= 4; ++tag)
      result.set(tag, dirichlet_tag[tag] ? BoundaryKind::dirichlet : BoundaryKind::neumann);
    return result;
  }
};

// A = [[2, 0.3], [0.3, 1]] (diffusive everywhere), b = (1, 0.5): the bottom (Dirichlet) and
// the left (Neumann: no inflow term there) are inflow, the right (Dirichlet) and the top
// (Neumann) outflow.
Problem anisotropic_problem() {
  return {
      "anisotropic A", {{{2, 0.3}, {0.3, 1}}}, {1, 0.5}, 1.5, {false, true, true, false, false}};
}

// A = diag(1, 0): nᵀAn = 0 on y = 0 and y = 1, where points are hyperbolic; b = (0.5, 1). The
// bottom (Neumann tag) is inflow with data g_D, the top (Dirichlet tag) outflow with nothing;
// left (Neumann) and right (Dirichlet) are diffusive. The top still counts in Γ_κ of the
// element_trace penalty, which goes by tag (element_trace_constants.hpp).
Problem degenerate_problem() {
  return {"A = diag(1, 0)", {{{1, 0}, {0, 0}}}, {0.5, 1}, 0.7, {false, false, true, true, false}};
}

// ---- the element constants T_κ (docs/theory.md, "Penalty") -------------------------------------

// Largest eigenvalue of the symmetric pencil (b, m), n ≤ 3: Cholesky m = L Lᵀ, then cyclic
// Jacobi rotations on L⁻¹ b L⁻ᵀ.
double largest_generalised_eigenvalue(std::vector<std::vector<double>> b,
                                      std::vector<std::vector<double>> m) {
  const std::size_t n = b.size();
  std::vector<std::vector<double>> l(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      double sum = m[i][j];
      for (std::size_t k = 0; k < j; ++k) sum -= l[i][k] * l[j][k];
      l[i][j] = i == j ? std::sqrt(sum) : sum / l[j][j];
    }
  // c = L⁻¹ b L⁻ᵀ: forward substitution on the columns, then on the rows.
  auto solve_lower = [&](std::vector<double> y) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < i; ++k) y[i] -= l[i][k] * y[k];
      y[i] /= l[i][i];
    }
    return y;
  };
  std::vector<std::vector<double>> x(n, std::vector<double>(n)), c(n, std::vector<double>(n));
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> column(n);
    for (std::size_t i = 0; i < n; ++i) column[i] = b[i][j];
    column = solve_lower(column);
    for (std::size_t i = 0; i < n; ++i) x[i][j] = column[i];  // x = L⁻¹ b
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<double> row = solve_lower(x[i]);  // (L⁻¹ xᵀ)ᵀ row i
    for (std::size_t j = 0; j < n; ++j) c[i][j] = row[j];
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) c[i][j] = c[j][i] = (c[i][j] + c[j][i]) / 2;
  for (int sweep = 0; sweep < 50; ++sweep) {
    double off = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) off += c[i][j] * c[i][j];
    if (off == 0) break;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q) {
        if (c[p][q] == 0) continue;
        const double theta = (c[q][q] - c[p][p]) / (2 * c[p][q]);
        const double t = (theta >= 0 ? 1 : -1) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double cs = 1 / std::sqrt(t * t + 1), sn = t * cs;
        for (std::size_t k = 0; k < n; ++k) {  // columns p, q
          const double ckp = c[k][p], ckq = c[k][q];
          c[k][p] = cs * ckp - sn * ckq;
          c[k][q] = sn * ckp + cs * ckq;
        }
        for (std::size_t k = 0; k < n; ++k) {  // rows p, q
          const double cpk = c[p][k], cqk = c[q][k];
          c[p][k] = cs * cpk - sn * cqk;
          c[q][k] = sn * cpk + cs * cqk;
        }
      }
  }
  double largest = c[0][0];
  for (std::size_t i = 1; i < n; ++i) largest = std::max(largest, c[i][i]);
  return largest;
}

bool in_trace_boundary(const ReferenceMesh::Facet& facet, const Problem& problem) {
  return facet.cells[1] >= 0 || problem.dirichlet_tag[std::size_t(facet.tag)];
}
double trace_weight(const ReferenceMesh::Facet& facet) { return facet.cells[1] >= 0 ? 0.5 : 1.0; }

// p = 1: T_κ = Σ_{F ⊂ Γ_κ} c_F |F| / (3 |κ|), Γ_κ the element's interface and Dirichlet-tagged
// facets (element_trace_constants.hpp), c_F = ½ on interfaces, 1 on Dirichlet facets.
// p = 2: λ_κ / 3 with λ_κ the largest eigenvalue of (Σ c_F ∫_F w w', ∫_κ w w') on W = P_1,
// here in the monomials 1, x − x̄, y − ȳ (the eigenvalue does not depend on the basis).
std::vector<double> element_trace_constants(const ReferenceMesh& mesh, const Problem& problem,
                                            int p) {
  std::vector<double> constants(std::size_t(mesh.element_count));
  for (int e = 0; e < mesh.element_count; ++e) {
    const Vector2 centre{(mesh.boxes[e].lower[0] + mesh.boxes[e].upper[0]) / 2,
                         (mesh.boxes[e].lower[1] + mesh.boxes[e].upper[1]) / 2};
    auto monomials = [&](const Vector2& x) {
      return std::array<double, 3>{1, x[0] - centre[0], x[1] - centre[1]};
    };
    const std::size_t n = p == 1 ? 1 : 3;
    std::vector<std::vector<double>> trace(n, std::vector<double>(n, 0.0)), mass = trace;
    double trace_measure = 0;
    for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
      if (mesh.element_of_cell[c] != e) continue;
      for (const WeightedPoint& q : triangle_points(mesh.cells[c])) {
        const auto w = monomials(q.x);
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < n; ++j) mass[i][j] += q.weight * w[i] * w[j];
      }
    }
    for (const auto& facet : mesh.facets) {
      const bool mine = mesh.element_of_cell[facet.cells[0]] == e ||
                        (facet.cells[1] >= 0 && mesh.element_of_cell[facet.cells[1]] == e);
      if (!mine || !in_trace_boundary(facet, problem)) continue;
      trace_measure += trace_weight(facet) * facet.length;
      for (const WeightedPoint& q : segment_points(facet.a, facet.b)) {
        const auto w = monomials(q.x);
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < n; ++j)
            trace[i][j] += trace_weight(facet) * q.weight * w[i] * w[j];
      }
    }
    constants[e] = p == 1 ? trace_measure / (3 * mesh.areas[e])
                          : largest_generalised_eigenvalue(trace, mass) / 3;
  }
  return constants;
}

// ---- the reference system (docs/theory.md, "The IP-DG system, as assembled") ---------

struct System {
  std::vector<double> matrix, rhs;
};

System reference_system(const ReferenceMesh& mesh, const Problem& problem, int p,
                        PenaltyScaling scaling) {
  const double penalty_constant = 10;  // C_σ, AssemblyOptions' default
  const int basis = basis_size(p);
  const std::size_t dofs = std::size_t(mesh.element_count * basis);
  System system{std::vector<double>(dofs * dofs, 0.0), std::vector<double>(dofs, 0.0)};
  auto add = [&](int row_element, int i, int column_element, int j, double value) {
    system.matrix[std::size_t(row_element * basis + i) * dofs +
                  std::size_t(column_element * basis + j)] += value;
  };
  const Matrix2& a = problem.diffusion;
  const Vector2& b = problem.advection;
  const std::vector<double> trace_constants = element_trace_constants(mesh, problem, p);

  // Element terms ∫_κ A∇φ_j·∇φ_i + (b·∇φ_j) φ_i + c φ_j φ_i, rhs ∫_κ f φ_i.
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    const int e = mesh.element_of_cell[c];
    for (const WeightedPoint& q : triangle_points(mesh.cells[c])) {
      const BasisValues phi = evaluate(mesh.boxes[e], p, q.x);
      for (int i = 0; i < basis; ++i) {
        for (int j = 0; j < basis; ++j)
          add(e, i, e, j,
              q.weight * (dot2(times(a, phi.gradient[j]), phi.gradient[i]) +
                          dot2(b, phi.gradient[j]) * phi.value[i] +
                          problem.reaction * phi.value[j] * phi.value[i]));
        system.rhs[std::size_t(e * basis + i)] += q.weight * problem.source(q.x) * phi.value[i];
      }
    }
  }

  // σ on a facet: C_σ times the larger of its elements' terms.
  auto penalty = [&](const ReferenceMesh::Facet& facet) {
    double largest = 0;
    for (int s = 0; s < (facet.cells[1] >= 0 ? 2 : 1); ++s) {
      const int cell = facet.cells[s], e = mesh.element_of_cell[cell];
      const Vector2& n = facet.normal[s];
      const double a_bar = dot2(n, times(a, n));  // ‖nᵀAn‖ on κ, A constant
      const double p2 = double(p * p);
      double term = 0;
      if (scaling == PenaltyScaling::element_trace) term = a_bar * trace_constants[e];
      if (scaling == PenaltyScaling::sub_simplex)
        term = a_bar * p2 * facet.length / mesh.cell_areas[cell];
      if (scaling == PenaltyScaling::polytopic_cap)
        term = std::min(mesh.areas[e] / mesh.cell_areas[cell], p2) * a_bar * p2 * facet.length /
               mesh.areas[e];
      largest = std::max(largest, term);
    }
    return penalty_constant * largest;
  };

  for (const auto& facet : mesh.facets) {
    const double sigma = penalty(facet);
    if (facet.cells[1] >= 0) {
      // Interior: −∫ ({{A∇w}}·[[v]] + {{A∇v}}·[[w]] − σ [[w]]·[[v]]) with w = φ_j on side t
      // only, v = φ_i on side s only: [[w]] = φ_j n_t, [[v]] = φ_i n_s, {{A∇w}} = ½ A∇φ_j; and
      // the upwind −Σ_κ ∫_{∂−κ} (b·n_κ) (w⁺ − w⁻) v⁺ of both sides.
      const std::array<int, 2> elements{mesh.element_of_cell[facet.cells[0]],
                                        mesh.element_of_cell[facet.cells[1]]};
      for (const WeightedPoint& q : segment_points(facet.a, facet.b)) {
        const std::array<BasisValues, 2> phi{evaluate(mesh.boxes[elements[0]], p, q.x),
                                             evaluate(mesh.boxes[elements[1]], p, q.x)};
        for (int s = 0; s < 2; ++s)
          for (int t = 0; t < 2; ++t)
            for (int i = 0; i < basis; ++i)
              for (int j = 0; j < basis; ++j) {
                const double value =
                    -0.5 * dot2(times(a, phi[t].gradient[j]), facet.normal[s]) * phi[s].value[i] -
                    0.5 * dot2(times(a, phi[s].gradient[i]), facet.normal[t]) * phi[t].value[j] +
                    sigma * dot2(facet.normal[t], facet.normal[s]) * phi[t].value[j] *
                        phi[s].value[i];
                add(elements[s], i, elements[t], j, q.weight * value);
              }
        for (int s = 0; s < 2; ++s) {
          const double beta = dot2(b, facet.normal[s]);
          if (beta >= 0) continue;
          const int other = 1 - s;
          for (int i = 0; i < basis; ++i)
            for (int j = 0; j < basis; ++j) {
              add(elements[s], i, elements[s], j,
                  -q.weight * beta * phi[s].value[j] * phi[s].value[i]);
              add(elements[s], i, elements[other], j,
                  q.weight * beta * phi[other].value[j] * phi[s].value[i]);
            }
        }
      }
      continue;
    }
    // Boundary, classified per point: diffusive where nᵀAn > 0.
    const int e = mesh.element_of_cell[facet.cells[0]];
    const Vector2& n = facet.normal[0];
    const bool dirichlet = problem.dirichlet_tag[std::size_t(facet.tag)];
    for (const WeightedPoint& q : segment_points(facet.a, facet.b)) {
      const BasisValues phi = evaluate(mesh.boxes[e], p, q.x);
      const bool diffusive = dot2(n, times(a, n)) > 0;
      const double beta = dot2(b, n), g_d = problem.dirichlet(q.x);
      for (int i = 0; i < basis; ++i) {
        double& rhs = system.rhs[std::size_t(e * basis + i)];
        const double flux_i = dot2(times(a, phi.gradient[i]), n);
        if (diffusive && dirichlet) {
          for (int j = 0; j < basis; ++j)
            add(e, i, e, j,
                q.weight * (-dot2(times(a, phi.gradient[j]), n) * phi.value[i] -
                            flux_i * phi.value[j] + sigma * phi.value[j] * phi.value[i]));
          rhs += q.weight * g_d * (sigma * phi.value[i] - flux_i);
        }
        if (diffusive && !dirichlet) rhs += q.weight * problem.neumann(q.x, n) * phi.value[i];
        // Inflow on ∂Ω_D ∪ ∂Ω−: not at a diffusive point of a Neumann tag.
        if (beta < 0 && (dirichlet || !diffusive)) {
          for (int j = 0; j < basis; ++j)
            add(e, i, e, j, -q.weight * beta * phi.value[j] * phi.value[i]);
          rhs += -q.weight * beta * g_d * phi.value[i];
        }
      }
    }
  }
  return system;
}

// ---- the meshes --------------------------------------------------------------------------------

// unit_square_mesh(2) is a union jack: its 8 triangles all meet at the centre vertex, around
// which they lie in the order 0 (bottom, left half), 2, 3, 6, 7, 5, 4, 1 (left, lower half).
struct TestMesh {
  std::string name;
  std::shared_ptr<const SimplexMesh<2>> fine;
  std::vector<Index> partition;
};

std::vector<TestMesh> test_meshes() {
  const auto perturbed = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(2, 0.2, 3));
  const auto structured = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(2));
  return {// Elements of 3, 2, 1 and 2 triangles around the moved centre.
          {"4 elements", perturbed, {0, 0, 0, 1, 3, 3, 1, 2}},
          // One triangle (cell 6) and the other seven around it: an interface of two facets, one
          // of them horizontal (ā = 0 on both sides where A = diag(1, 0)), and a non-convex
          // element.
          {"2 elements", structured, {1, 1, 1, 1, 1, 1, 0, 1}}};
}

std::string scaling_name(PenaltyScaling scaling) {
  if (scaling == PenaltyScaling::element_trace) return "element_trace";
  if (scaling == PenaltyScaling::sub_simplex) return "sub_simplex";
  return "polytopic_cap";
}

// Entries of `library` farther than 1e-12 × max |reference| from `reference`, and the farthest.
struct Comparison {
  double scale = 0, error = 0;
  std::size_t worst = 0;
  int differing = 0;
};

Comparison compare(const std::vector<double>& library, const std::vector<double>& reference) {
  BOOST_REQUIRE_EQUAL(library.size(), reference.size());
  Comparison result;
  for (double v : reference) result.scale = std::max(result.scale, std::abs(v));
  for (std::size_t k = 0; k < reference.size(); ++k) {
    const double error = std::abs(library[k] - reference[k]);
    if (error > 1e-12 * result.scale) ++result.differing;
    if (error > result.error) {
      result.error = error;
      result.worst = k;
    }
  }
  return result;
}

}  // namespace

BOOST_AUTO_TEST_CASE(matrix_and_rhs_match_the_independent_reference) {
  for (const TestMesh& test_mesh : test_meshes())
    for (const Problem& problem : {anisotropic_problem(), degenerate_problem()})
      for (int p = 1; p <= 2; ++p)
        for (PenaltyScaling scaling : {PenaltyScaling::element_trace, PenaltyScaling::sub_simplex,
                                       PenaltyScaling::polytopic_cap}) {
          BOOST_TEST_CONTEXT(test_mesh.name << ", " << problem.name << ", p = " << p << ", "
                                            << scaling_name(scaling)) {
            const PolytopicMesh<2> mesh(test_mesh.fine, test_mesh.partition, p);
            AssemblyOptions options;
            options.penalty_scaling = scaling;
            Assembler<2> assembler(mesh, problem.conditions(), options);
            auto matrix = assembler.make_matrix();
            auto rhs = assembler.make_vector();
            assembler.assemble(problem.coefficients(), matrix, rhs);

            const ReferenceMesh reference_mesh =
                make_reference_mesh(*test_mesh.fine, test_mesh.partition);
            const System reference = reference_system(reference_mesh, problem, p, scaling);
            const BlockPattern& pattern = *assembler.pattern();
            BOOST_REQUIRE_EQUAL(pattern.block_row_count(), reference_mesh.element_count);
            for (Index e = 0; e < pattern.block_row_count(); ++e) {
              BOOST_REQUIRE_EQUAL(pattern.block_size(e), basis_size(p));
              BOOST_REQUIRE_EQUAL(pattern.dof_offset(e), e * basis_size(p));
            }
            if (scaling == PenaltyScaling::element_trace) {
              const auto constants = element_trace_constants(reference_mesh, problem, p);
              for (Index e = 0; e < pattern.block_row_count(); ++e)
                BOOST_TEST(assembler.quadrature_mesh().element_trace_constants[e] == constants[e],
                           boost::test_tools::tolerance(1e-12));
            }

            const std::vector<double> dense = testing::dense_matrix(matrix);
            const Comparison on_matrix = compare(dense, reference.matrix);
            const Comparison on_rhs = compare(rhs, reference.rhs);
            const std::size_t n = reference.rhs.size(), row = on_matrix.worst / n,
                              column = on_matrix.worst % n, size = std::size_t(basis_size(p));
            BOOST_TEST(on_matrix.differing == 0,
                       on_matrix.differing
                           << " matrix entries differ by more than 1e-12 × " << on_matrix.scale
                           << "; the most at (" << row << ", " << column << ") = (element "
                           << row / size << " φ_" << row % size << ", element " << column / size
                           << " φ_" << column % size << "): library " << dense[on_matrix.worst]
                           << ", reference " << reference.matrix[on_matrix.worst]);
            BOOST_TEST(on_rhs.differing == 0,
                       on_rhs.differing << " rhs entries differ by more than 1e-12 × "
                                        << on_rhs.scale << "; the most at " << on_rhs.worst
                                        << " (element " << on_rhs.worst / size << " φ_"
                                        << on_rhs.worst % size << "): library " << rhs[on_rhs.worst]
                                        << ", reference " << reference.rhs[on_rhs.worst]);
            BOOST_TEST_MESSAGE(test_mesh.name << ", " << problem.name << ", p = " << p << ", "
                                              << scaling_name(scaling) << ": largest entry "
                                              << on_matrix.scale << ", difference "
                                              << on_matrix.error << "; rhs " << on_rhs.scale << ", "
                                              << on_rhs.error);
          }
        }
}
