#include "polydg/hyperbolic/triangle_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "polydg/core/error.hpp"
#include "polydg/fem/gauss_jacobi.hpp"
#include "polydg/fem/simplex_quadrature.hpp"
#include "polydg/hyperbolic/dubiner_basis.hpp"

namespace polydg::hyperbolic {

TriangleGeometry make_triangle_geometry(const SimplexMesh<2>& mesh) {
  require(mesh.cell_count() > 0, "make_triangle_geometry: the mesh '", mesh.source().name,
          "' has no cells");
  TriangleGeometry g;
  const Index cells = mesh.cell_count();
  const Index facets = mesh.facet_count();
  g.element_count = cells;
  g.facet_count = facets;
  g.origin.resize(2 * std::size_t(cells));
  g.jacobian.resize(4 * std::size_t(cells));
  g.inverse_jacobian.resize(4 * std::size_t(cells));
  g.determinant.resize(cells);
  g.size.resize(cells);
  g.element_facet.resize(3 * std::size_t(cells));
  g.element_facet_side.resize(3 * std::size_t(cells));
  g.min_size = std::numeric_limits<double>::infinity();

  for (Index c = 0; c < cells; ++c) {
    const auto x = mesh.cell_points(c);
    const double j00 = x[1][0] - x[0][0], j01 = x[2][0] - x[0][0];
    const double j10 = x[1][1] - x[0][1], j11 = x[2][1] - x[0][1];
    const double det = j00 * j11 - j01 * j10;
    // SimplexMesh orders cells counter-clockwise and rejects degenerate ones.
    require(det > 0, "make_triangle_geometry: ", mesh.source().describe_cell(c),
            " is not positively oriented (det J = ", det, ")");
    g.origin[c] = x[0][0];
    g.origin[cells + c] = x[0][1];
    const double jac[4] = {j00, j01, j10, j11};
    const double inv[4] = {j11 / det, -j01 / det, -j10 / det, j00 / det};
    for (int k = 0; k < 4; ++k) {
      g.jacobian[k * std::size_t(cells) + c] = jac[k];
      g.inverse_jacobian[k * std::size_t(cells) + c] = inv[k];
    }
    g.determinant[c] = det;
    double perimeter = 0;
    for (int e = 0; e < 3; ++e) {
      const Point<2> d = x[(e + 2) % 3] - x[(e + 1) % 3];
      perimeter += std::sqrt(dot(d, d));
    }
    g.size[c] = det / perimeter;  // 2|K| / perimeter with |K| = det / 2
    g.min_size = std::min(g.min_size, g.size[c]);
    for (int e = 0; e < 3; ++e) {
      const Index f = mesh.cell_facets(c)[e];
      g.element_facet[e * std::size_t(cells) + c] = f;
      g.element_facet_side[e * std::size_t(cells) + c] = mesh.facet_cells(f)[0] == c ? 0 : 1;
    }
  }

  g.facet_element.resize(2 * std::size_t(facets));
  g.facet_local_edge.resize(2 * std::size_t(facets));
  g.facet_orientation.resize(2 * std::size_t(facets));
  g.facet_origin.resize(2 * std::size_t(facets));
  g.facet_tangent.resize(2 * std::size_t(facets));
  g.facet_length.resize(facets);
  g.facet_normal.resize(2 * std::size_t(facets));
  g.facet_tag.resize(facets);
  for (Index f = 0; f < facets; ++f) {
    const auto& vertices = mesh.facet_vertices(f);
    const auto points = mesh.facet_points(f);
    const Point<2> tangent = points[1] - points[0];
    const Point<2> normal = mesh.facet_unit_normal(f);
    for (int d = 0; d < 2; ++d) {
      g.facet_origin[d * std::size_t(facets) + f] = points[0][d];
      g.facet_tangent[d * std::size_t(facets) + f] = tangent[d];
      g.facet_normal[d * std::size_t(facets) + f] = normal[d];
    }
    g.facet_length[f] = std::sqrt(dot(tangent, tangent));
    g.facet_tag[f] = mesh.facet_tag(f);
    for (int side = 0; side < 2; ++side) {
      const Index c = mesh.facet_cells(f)[side];
      g.facet_element[side * std::size_t(facets) + f] = c;
      signed char edge = -1, orientation = 0;
      if (c >= 0) {
        const auto& facets_of_c = mesh.cell_facets(c);
        edge = static_cast<signed char>(std::find(facets_of_c.begin(), facets_of_c.end(), f) -
                                        facets_of_c.begin());
        require(edge < 3, "make_triangle_geometry: facet ", f, " is not a facet of its cell ", c);
        // The local edge runs from local vertex e+1 to e+2 on T; orientation 0 when that is also
        // the facet's direction (from its lower-numbered vertex).
        orientation = mesh.cell(c)[(edge + 1) % 3] == vertices[0] ? 0 : 1;
      }
      g.facet_local_edge[side * std::size_t(facets) + f] = edge;
      g.facet_orientation[side * std::size_t(facets) + f] = orientation;
    }
  }
  return g;
}

namespace {

void fill_volume_part(ReferenceTables& tables, int degree, int rule_degree, bool gradients) {
  const QuadratureRule<2> rule = make_simplex_rule<2>(rule_degree);
  const int n = tables.basis_size;
  const int q_count = int(rule.size());
  tables.volume_point_count = q_count;
  tables.volume_points.resize(2 * std::size_t(q_count));
  tables.volume_weights = rule.weights;
  tables.volume_values.resize(std::size_t(q_count) * n);
  if (gradients) tables.volume_gradients.resize(2 * std::size_t(q_count) * n);
  std::vector<double> values(n);
  std::vector<double> grads(2 * std::size_t(n));
  for (int q = 0; q < q_count; ++q) {
    tables.volume_points[2 * q] = rule.points[q][0];
    tables.volume_points[2 * q + 1] = rule.points[q][1];
    evaluate_dubiner_basis_gradients(degree, rule.points[q], values.data(),
                                     reinterpret_cast<double(*)[2]>(grads.data()));
    for (int i = 0; i < n; ++i) {
      tables.volume_values[std::size_t(q) * n + i] = values[i];
      if (gradients)
        for (int k = 0; k < 2; ++k)
          tables.volume_gradients[(std::size_t(q) * n + i) * 2 + k] = grads[2 * i + k];
    }
  }
}

}  // namespace

ReferenceTables make_reference_tables(int degree) {
  require_dubiner_degree(degree);
  ReferenceTables tables;
  tables.degree = degree;
  tables.basis_size = dubiner_basis_size(degree);
  const int n = tables.basis_size;
  // Degree 2p: F(u_h)·∇φ has degree 2p − 1 for a constant-coefficient linear flux and 2p for the
  // rotating hill's a(x) linear in x.
  fill_volume_part(tables, degree, 2 * degree, true);

  const QuadratureRule<1> gauss = make_gauss_legendre(degree + 1);
  const int q_count = degree + 1;
  tables.edge_point_count = q_count;
  tables.edge_parameters.resize(q_count);
  tables.edge_weights.resize(q_count);
  for (int q = 0; q < q_count; ++q) {
    tables.edge_parameters[q] = 0.5 * (gauss.points[q][0] + 1.0);
    tables.edge_weights[q] = 0.5 * gauss.weights[q];
  }
  const Point<2> corner[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
  tables.edge_values.resize(std::size_t(3) * 2 * q_count * n);
  std::vector<double> values(n);
  for (int e = 0; e < 3; ++e)
    for (int o = 0; o < 2; ++o)
      for (int q = 0; q < q_count; ++q) {
        const double t = o == 0 ? tables.edge_parameters[q] : 1.0 - tables.edge_parameters[q];
        const Point<2>& a = corner[(e + 1) % 3];
        const Point<2>& b = corner[(e + 2) % 3];
        const Point<2> x = a + t * (b - a);
        evaluate_dubiner_basis(degree, x, values.data());
        for (int i = 0; i < n; ++i)
          tables.edge_values[((std::size_t(e) * 2 + o) * q_count + q) * n + i] = values[i];
      }
  return tables;
}

ReferenceTables make_volume_tables(int degree, int rule_degree) {
  require_dubiner_degree(degree);
  require_quadrature_degree(rule_degree, "make_volume_tables: rule degree");
  ReferenceTables tables;
  tables.degree = degree;
  tables.basis_size = dubiner_basis_size(degree);
  fill_volume_part(tables, degree, rule_degree, false);
  return tables;
}

}  // namespace polydg::hyperbolic
