#include "polydg/dg/quadrature_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "polydg/core/error.hpp"

namespace polydg {
namespace {

// A permutation of 0..n−1 grouped by key (stable, so ascending within a group) and the group
// offsets: offsets[k] .. offsets[k + 1] are the items with key k.
void group_by_key(const std::vector<int>& keys, int max_key, std::vector<Index>& order,
                  std::vector<Index>& offsets) {
  offsets.assign(std::size_t(max_key) + 2, 0);
  for (int key : keys) ++offsets[key + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  order.resize(keys.size());
  std::vector<Index> fill(offsets.begin(), offsets.end() - 1);
  for (std::size_t i = 0; i < keys.size(); ++i) order[fill[keys[i]]++] = Index(i);
}

}  // namespace

template <int Dim>
QuadratureMesh<Dim>::QuadratureMesh(const PolytopicMesh<Dim>& mesh,
                                    const BoundaryConditions& conditions) {
  const SimplexMesh<Dim>& fine = mesh.fine_mesh();
  conditions.require_all(fine.boundary_tag_values(), fine.source().name);
  const Index elements = mesh.element_count();

  // Elements and their sub-simplices.
  element_boxes.resize(elements);
  element_degrees.resize(elements);
  element_measures.resize(elements);
  element_simplex_offsets.assign(std::size_t(elements) + 1, 0);
  simplex_vertices.reserve(mesh.simplex_count());
  for (Index e = 0; e < elements; ++e) {
    element_boxes[e] = mesh.element_box(e);
    element_degrees[e] = mesh.element_degree(e);
    element_measures[e] = mesh.element_measure(e);
    for (const auto& simplex : mesh.element_simplices(e)) {
      const auto points = mesh.simplex_points(simplex);
      SimplexVertices vertices;
      std::copy(points.begin(), points.end(), vertices.begin());
      simplex_vertices.push_back(vertices);
    }
    element_simplex_offsets[e + 1] = Index(simplex_vertices.size());
  }
  const int max_p = *std::max_element(element_degrees.begin(), element_degrees.end());
  group_by_key(element_degrees, max_p, elements_by_degree, degree_offsets);

  // Interfaces: the normal of each sub-facet points out of the interface's first element.
  const Index interfaces = mesh.interface_count();
  interface_elements.resize(interfaces);
  interface_facet_offsets.assign(std::size_t(interfaces) + 1, 0);
  std::vector<int> interface_degrees(interfaces);
  for (Index i = 0; i < interfaces; ++i) {
    interface_elements[i] = mesh.interface_elements(i);
    const auto [first, second] = interface_elements[i];
    interface_degrees[i] = std::max(element_degrees[first], element_degrees[second]);
    for (const auto& facet : mesh.interface_facets(i)) {
      const auto points = fine.facet_points(facet.facet);
      FacetVertices vertices;
      std::copy(points.begin(), points.end(), vertices.begin());
      interface_facet_vertices.push_back(vertices);
      Point<Dim> normal = fine.facet_unit_normal(facet.facet);
      if (mesh.element_of_cell(fine.facet_cells(facet.facet)[0]) != first) normal *= -1.0;
      interface_facet_normals.push_back(normal);
      interface_facet_measures.push_back(fine.facet_measure(facet.facet));
      interface_facet_cell_measures.push_back(
          {fine.cell_measure(facet.cells[0]), fine.cell_measure(facet.cells[1])});
    }
    interface_facet_offsets[i + 1] = Index(interface_facet_vertices.size());
  }
  group_by_key(interface_degrees, max_p, interfaces_by_degree, interface_degree_offsets);

  // Boundary sub-facets by element; the fine mesh's normal of a boundary facet points out.
  element_boundary_offsets.assign(std::size_t(elements) + 1, 0);
  for (Index e = 0; e < elements; ++e) {
    for (const auto& facet : mesh.element_boundary_facets(e)) {
      const auto points = fine.facet_points(facet.facet);
      FacetVertices vertices;
      std::copy(points.begin(), points.end(), vertices.begin());
      boundary_facet_vertices.push_back(vertices);
      boundary_facet_normals.push_back(fine.facet_unit_normal(facet.facet));
      boundary_facet_measures.push_back(fine.facet_measure(facet.facet));
      boundary_facet_cell_measures.push_back(fine.cell_measure(facet.cell));
      boundary_facet_tags.push_back(facet.tag);
      boundary_facet_kinds.push_back(conditions.kind(facet.tag));
    }
    element_boundary_offsets[e + 1] = Index(boundary_facet_vertices.size());
  }
}

template struct QuadratureMesh<2>;
template struct QuadratureMesh<3>;

}  // namespace polydg

namespace polydg {

template <int Dim>
void map_last_coordinate(QuadratureMesh<Dim>& mesh, double from_begin, double from_end,
                         double to_begin, double to_end) {
  require(from_end > from_begin && to_end > to_begin, "map_last_coordinate: empty interval [",
          from_begin, ", ", from_end, "] or [", to_begin, ", ", to_end, "]");
  constexpr int t = Dim - 1;
  const double scale = (to_end - to_begin) / (from_end - from_begin);
  // The end points map exactly (no rounding of t = to_end through the affine formula).
  const auto map = [&](double value) {
    if (value == from_begin) return to_begin;
    if (value == from_end) return to_end;
    return to_begin + (value - from_begin) * scale;
  };
  // A facet orthogonal to the last axis keeps its measure; one parallel to it scales.
  const auto facet_scale = [&](const Point<Dim>& normal) {
    const double along = std::abs(normal[t]);
    require(along < 1e-12 || std::abs(along - 1) < 1e-12,
            "map_last_coordinate: a facet with normal component ", normal[t],
            " along the last axis is neither parallel nor orthogonal to it");
    return along > 0.5 ? 1.0 : scale;
  };
  for (auto& vertices : mesh.simplex_vertices)
    for (auto& vertex : vertices) vertex[t] = map(vertex[t]);
  for (auto& box : mesh.element_boxes) {
    box.lower[t] = map(box.lower[t]);
    box.upper[t] = map(box.upper[t]);
  }
  for (double& measure : mesh.element_measures) measure *= scale;
  for (std::size_t f = 0; f < mesh.interface_facet_vertices.size(); ++f) {
    for (auto& vertex : mesh.interface_facet_vertices[f]) vertex[t] = map(vertex[t]);
    mesh.interface_facet_measures[f] *= facet_scale(mesh.interface_facet_normals[f]);
    for (double& cell : mesh.interface_facet_cell_measures[f]) cell *= scale;
  }
  for (std::size_t f = 0; f < mesh.boundary_facet_vertices.size(); ++f) {
    for (auto& vertex : mesh.boundary_facet_vertices[f]) vertex[t] = map(vertex[t]);
    mesh.boundary_facet_measures[f] *= facet_scale(mesh.boundary_facet_normals[f]);
    mesh.boundary_facet_cell_measures[f] *= scale;
  }
}

template void map_last_coordinate(QuadratureMesh<2>&, double, double, double, double);
template void map_last_coordinate(QuadratureMesh<3>&, double, double, double, double);

}  // namespace polydg
