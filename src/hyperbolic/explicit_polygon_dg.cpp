#include "polydg/hyperbolic/explicit_polygon_dg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/fem/compressed_quadrature.hpp"
#include "polydg/fem/gauss_jacobi.hpp"
#include "polydg/fem/simplex_quadrature.hpp"

namespace polydg::hyperbolic {

PolygonQuadratureRules make_polygon_quadrature_rules(int volume_degree, int edge_point_count) {
  require_quadrature_degree(volume_degree, "make_polygon_quadrature_rules: volume degree");
  require(edge_point_count >= 1, "make_polygon_quadrature_rules: ", edge_point_count,
          " Gauss points per sub-facet, expected at least 1");
  PolygonQuadratureRules rules;
  const QuadratureRule<2> triangle = make_simplex_rule<2>(volume_degree);
  rules.volume_degree = volume_degree;
  rules.volume_point_count = int(triangle.size());
  rules.volume_points.resize(2 * triangle.size());
  for (std::size_t q = 0; q < triangle.size(); ++q) {
    rules.volume_points[2 * q] = triangle.points[q][0];
    rules.volume_points[2 * q + 1] = triangle.points[q][1];
  }
  rules.volume_weights = triangle.weights;

  const QuadratureRule<1> gauss = make_gauss_legendre(edge_point_count);
  rules.edge_point_count = edge_point_count;
  rules.edge_parameters.resize(edge_point_count);
  rules.edge_weights.resize(edge_point_count);
  for (int q = 0; q < edge_point_count; ++q) {
    rules.edge_parameters[q] = 0.5 * (gauss.points[q][0] + 1.0);
    rules.edge_weights[q] = 0.5 * gauss.weights[q];
  }
  return rules;
}

namespace {

// A mode that keeps less than this fraction of its norm after orthogonalisation against the
// lower ones makes the element's basis numerically dependent: φ̃ = Σ C_ij φ_j would then be
// evaluated with about 1 / fraction times the rounding of the φ_j (8 of 16 digits lost).
constexpr double smallest_kept_fraction = 1e-8;

// Fills the per-element and per-sub-triangle arrays of element c (its box, measure, size,
// sub-triangles at their offsets) — everything but the orthonormalisation.
void fill_element(const PolytopicMesh<2>& mesh, Index c, PolygonGeometry& g) {
  const std::size_t elements = std::size_t(g.element_count);
  const std::size_t triangles = std::size_t(g.triangle_count);
  const Box<2>& box = mesh.element_box(c);
  for (int d = 0; d < 2; ++d) {
    g.box_lower[d * elements + c] = box.lower[d];
    g.box_upper[d * elements + c] = box.upper[d];
    g.inverse_extent[d * elements + c] = 1.0 / (box.upper[d] - box.lower[d]);
  }
  g.measure[c] = mesh.element_measure(c);
  g.size[c] = 2 * mesh.element_measure(c) / mesh.element_boundary_measure(c);
  Index s = g.element_triangle_offsets[c];
  for (const auto& simplex : mesh.element_simplices(c)) {
    const auto x = mesh.simplex_points(simplex);
    const double j00 = x[1][0] - x[0][0], j01 = x[2][0] - x[0][0];
    const double j10 = x[1][1] - x[0][1], j11 = x[2][1] - x[0][1];
    g.triangle_origin[s] = x[0][0];
    g.triangle_origin[triangles + s] = x[0][1];
    g.triangle_jacobian[s] = j00;
    g.triangle_jacobian[triangles + s] = j01;
    g.triangle_jacobian[2 * triangles + s] = j10;
    g.triangle_jacobian[3 * triangles + s] = j11;
    g.triangle_determinant[s] = j00 * j11 - j01 * j10;
    ++s;
  }
}

// Orthonormalises element c's Legendre basis on the element (modified Gram–Schmidt, each mode
// twice against the lower ones: "twice is enough" keeps the result orthonormal to rounding
// whatever the conditioning, as long as no mode falls below smallest_kept_fraction). Writes C and
// ∫φ̃_0; returns false for a degenerate element. `values` and `coefficients` are scratch.
bool orthonormalise_element(const PolygonResidualView& view, Index c, PolygonGeometry& g,
                            std::vector<double>& values, std::vector<double>& coefficients) {
  const int n = g.basis_size;
  const std::size_t elements = std::size_t(g.element_count);
  // values[j * P + k] = √w_k φ_j(x_k) over the element's P volume points.
  const Index first = g.element_triangle_offsets[c], last = g.element_triangle_offsets[c + 1];
  const std::size_t points = std::size_t(last - first) * view.volume_points;
  values.assign(points * n, 0.0);
  coefficients.assign(std::size_t(n) * n, 0.0);  // row i: the coefficients of φ̃_i
  double phi[max_polygon_basis_size];
  double constant_integral = 0;  // Σ_k w_k φ_0(x_k)
  std::size_t k = 0;
  for (Index s = first; s < last; ++s)
    for (int q = 0; q < view.volume_points; ++q, ++k) {
      const double w = view.volume_weights[q] * g.triangle_determinant[s];
      if (!(w > 0)) return false;
      view.legendre_values(c, view.volume_point(s, q), phi);
      const double root = std::sqrt(w);
      for (int j = 0; j < n; ++j) values[j * points + k] = root * phi[j];
      constant_integral += w * phi[0];
    }
  for (int i = 0; i < n; ++i) {
    double* v = values.data() + i * points;
    double* ci = coefficients.data() + std::size_t(i) * n;
    ci[i] = 1;
    double initial_norm = 0;
    for (std::size_t p = 0; p < points; ++p) initial_norm += v[p] * v[p];
    initial_norm = std::sqrt(initial_norm);
    for (int pass = 0; pass < 2; ++pass)
      for (int l = 0; l < i; ++l) {
        const double* vl = values.data() + l * points;
        const double* cl = coefficients.data() + std::size_t(l) * n;
        double projection = 0;
        for (std::size_t p = 0; p < points; ++p) projection += vl[p] * v[p];
        for (std::size_t p = 0; p < points; ++p) v[p] -= projection * vl[p];
        for (int j = 0; j <= l; ++j) ci[j] -= projection * cl[j];
      }
    double norm = 0;
    for (std::size_t p = 0; p < points; ++p) norm += v[p] * v[p];
    norm = std::sqrt(norm);
    if (!(norm > smallest_kept_fraction * initial_norm)) return false;
    for (std::size_t p = 0; p < points; ++p) v[p] /= norm;
    for (int j = 0; j <= i; ++j) ci[j] /= norm;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      g.orthonormalisation[(std::size_t(i) * (i + 1) / 2 + j) * elements + c] =
          coefficients[std::size_t(i) * n + j];
  g.constant_mode_integral[c] = coefficients[0] * constant_integral;
  return true;
}

// The residual's volume rule of each element (PolygonGeometry::point_coordinates): its
// sub-triangles' points and weights, compressed to at most dim P_degree of them where there are
// more (compress_positive_rule, which keeps them as they are where it cannot).
void compress_volume_rules(const PolytopicMesh<2>& mesh, const PolygonResidualView& view,
                           int degree, PolygonGeometry& g) {
  const std::size_t elements = std::size_t(g.element_count);
  std::vector<std::vector<Point<2>>> points(elements);
  std::vector<std::vector<double>> weights(elements);
  // Dynamic: the compression's cost grows like the cube of an element's point count.
#pragma omp parallel for schedule(dynamic, 64)
  for (Index c = 0; c < g.element_count; ++c) {
    for (Index s = g.element_triangle_offsets[c]; s < g.element_triangle_offsets[c + 1]; ++s)
      for (int q = 0; q < view.volume_points; ++q) {
        points[c].push_back(view.volume_point(s, q));
        weights[c].push_back(view.volume_weights[q] * g.triangle_determinant[s]);
      }
    compress_positive_rule(mesh.element_box(c), degree, points[c], weights[c]);
  }
  g.element_point_offsets.assign(elements + 1, 0);
  for (std::size_t c = 0; c < elements; ++c)
    g.element_point_offsets[c + 1] = g.element_point_offsets[c] + Index(points[c].size());
  g.point_count = g.element_point_offsets.back();
  const std::size_t count = std::size_t(g.point_count);
  g.point_coordinates.resize(2 * count);
  g.point_weights.resize(count);
  for (std::size_t c = 0; c < elements; ++c)
    for (std::size_t i = 0; i < points[c].size(); ++i) {
      const std::size_t k = std::size_t(g.element_point_offsets[c]) + i;
      g.point_coordinates[k] = points[c][i][0];
      g.point_coordinates[count + k] = points[c][i][1];
      g.point_weights[k] = weights[c][i];
    }
}

}  // namespace

PolygonGeometry make_polygon_geometry(const PolytopicMesh<2>& mesh, int degree,
                                      const PolygonQuadratureRules& rules) {
  const std::string& name = mesh.fine_mesh().source().name;
  require(degree >= 0 && degree <= max_basis_degree, "make_polygon_geometry: degree p = ", degree,
          " is outside the supported range 0..", max_basis_degree);
  require(rules.volume_degree >= 2 * degree, "make_polygon_geometry: a volume rule of degree ",
          rules.volume_degree, " cannot orthonormalise a basis of degree ", degree,
          " (needs degree ", 2 * degree, ")");
  const SimplexMesh<2>& fine = mesh.fine_mesh();
  PolygonGeometry g;
  g.degree = degree;
  g.basis_size = basis_size(2, degree);
  const Index elements = mesh.element_count();
  require(elements > 0, "make_polygon_geometry: the polytopic mesh on '", name,
          "' has no elements");
  g.element_count = elements;
  g.triangle_count = mesh.simplex_count();
  const std::size_t e_count = std::size_t(elements);

  // Sub-facets: the fine facets of the interfaces, then the boundary facets by element.
  Index facets = 0;
  for (Index i = 0; i < mesh.interface_count(); ++i)
    facets += Index(mesh.interface_facets(i).size());
  const Index interface_facets = facets;
  facets += mesh.boundary_facet_count();
  g.facet_count = facets;
  const std::size_t f_count = std::size_t(facets);
  g.facet_element.resize(2 * f_count);
  g.facet_origin.resize(2 * f_count);
  g.facet_tangent.resize(2 * f_count);
  g.facet_length.resize(f_count);
  g.facet_normal.resize(2 * f_count);
  g.facet_tag.resize(f_count);
  // Where each interface's and each element's boundary sub-facets start.
  std::vector<Index> interface_first(std::size_t(mesh.interface_count()) + 1, 0);
  for (Index i = 0; i < mesh.interface_count(); ++i)
    interface_first[i + 1] = interface_first[i] + Index(mesh.interface_facets(i).size());
  std::vector<Index> boundary_first(e_count + 1, interface_facets);
  for (Index c = 0; c < elements; ++c)
    boundary_first[c + 1] = boundary_first[c] + Index(mesh.element_boundary_facets(c).size());

  const auto set_facet = [&](Index f, Index fine_facet, Index side0, Index side1,
                             const Point<2>& normal) {
    const auto points = fine.facet_points(fine_facet);
    const Point<2> tangent = points[1] - points[0];
    g.facet_element[f] = side0;
    g.facet_element[f_count + f] = side1;
    for (int d = 0; d < 2; ++d) {
      g.facet_origin[d * f_count + f] = points[0][d];
      g.facet_tangent[d * f_count + f] = tangent[d];
      g.facet_normal[d * f_count + f] = normal[d];
    }
    g.facet_length[f] = std::sqrt(dot(tangent, tangent));
    g.facet_tag[f] = fine.facet_tag(fine_facet);
  };
  for (Index i = 0; i < mesh.interface_count(); ++i) {
    const auto [first, second] = mesh.interface_elements(i);
    Index f = interface_first[i];
    for (const auto& facet : mesh.interface_facets(i)) {
      // The fine mesh's normal points out of facet_cells[0]; the sub-facet's out of `first`.
      Point<2> normal = fine.facet_unit_normal(facet.facet);
      if (mesh.element_of_cell(fine.facet_cells(facet.facet)[0]) != first) normal *= -1.0;
      set_facet(f++, facet.facet, first, second, normal);
    }
  }
  for (Index c = 0; c < elements; ++c) {
    Index f = boundary_first[c];
    for (const auto& facet : mesh.element_boundary_facets(c))
      set_facet(f++, facet.facet, c, -1, fine.facet_unit_normal(facet.facet));
  }

  // Each element's sub-facets: its interfaces' (in element_interfaces order), then its boundary.
  g.element_facet_offsets.assign(e_count + 1, 0);
  for (Index c = 0; c < elements; ++c) {
    Index count = Index(mesh.element_boundary_facets(c).size());
    for (Index i : mesh.element_interfaces(c)) count += Index(mesh.interface_facets(i).size());
    g.element_facet_offsets[c + 1] = g.element_facet_offsets[c] + count;
  }
  g.element_facets.resize(std::size_t(g.element_facet_offsets.back()));
  g.element_facet_sides.resize(g.element_facets.size());
  for (Index c = 0; c < elements; ++c) {
    Index k = g.element_facet_offsets[c];
    for (Index i : mesh.element_interfaces(c)) {
      const signed char side = mesh.interface_elements(i)[0] == c ? 0 : 1;
      for (Index f = interface_first[i]; f < interface_first[i + 1]; ++f) {
        g.element_facets[k] = f;
        g.element_facet_sides[k++] = side;
      }
    }
    for (Index f = boundary_first[c]; f < boundary_first[c + 1]; ++f) {
      g.element_facets[k] = f;
      g.element_facet_sides[k++] = 0;
    }
  }

  // Elements and their sub-triangles.
  g.box_lower.resize(2 * e_count);
  g.box_upper.resize(2 * e_count);
  g.inverse_extent.resize(2 * e_count);
  g.measure.resize(e_count);
  g.size.resize(e_count);
  g.orthonormalisation.resize(std::size_t(g.basis_size) * (g.basis_size + 1) / 2 * e_count);
  g.constant_mode_integral.resize(e_count);
  g.element_triangle_offsets.assign(e_count + 1, 0);
  for (Index c = 0; c < elements; ++c)
    g.element_triangle_offsets[c + 1] =
        g.element_triangle_offsets[c] + Index(mesh.element_simplices(c).size());
  const std::size_t t_count = std::size_t(g.triangle_count);
  g.triangle_origin.resize(2 * t_count);
  g.triangle_jacobian.resize(4 * t_count);
  g.triangle_determinant.resize(t_count);

  // The view's basis evaluation needs only the boxes and the sub-triangles (filled first); the
  // orthonormalisation then reads them. Elements are independent: parallel, and the smallest
  // failing element is reported whatever the thread count.
  Index degenerate = std::numeric_limits<Index>::max();
#pragma omp parallel for schedule(static) reduction(min : degenerate)
  for (Index c = 0; c < elements; ++c) {
    fill_element(mesh, c, g);
    if (!(g.measure[c] > 0) || !(g.size[c] > 0)) degenerate = std::min(degenerate, c);
  }
  require(degenerate == std::numeric_limits<Index>::max(), "make_polygon_geometry on '", name,
          "': element ", degenerate, " is a degenerate polygon (measure ",
          degenerate < elements ? g.measure[degenerate] : 0.0, ")");
  g.min_size = *std::min_element(g.size.begin(), g.size.end());

  // The orthonormalisation and the compressed rules are not filled yet: the passes below read
  // the boxes, the sub-triangles and the reference rules only.
  const PolygonResidualView view = polygon_residual_view(g, rules);
#pragma omp parallel reduction(min : degenerate)
  {
    std::vector<double> values, coefficients;  // per thread, reused across its elements
#pragma omp for schedule(static)
    for (Index c = 0; c < elements; ++c)
      if (!orthonormalise_element(view, c, g, values, coefficients))
        degenerate = std::min(degenerate, c);
  }
  require(degenerate == std::numeric_limits<Index>::max(), "make_polygon_geometry on '", name,
          "': the degree-", degree, " Legendre modes of element ", degenerate,
          " are numerically dependent on it (a mode keeps less than ", smallest_kept_fraction,
          " of its norm after orthogonalisation): a degenerate or too thin polygon for this "
          "degree");
  compress_volume_rules(mesh, view, rules.volume_degree, g);
  return g;
}

}  // namespace polydg::hyperbolic
