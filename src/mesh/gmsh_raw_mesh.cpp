#include "gmsh_raw_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace polydg::gmsh {

void RawMesh::add_node(const MshInput& input, std::uint64_t tag, const std::array<double, 3>& xyz) {
  if (wanted_dimension == 0) return;
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(xyz[i]))
      input.fail("node ", tag, " has a non-finite coordinate (", "xyz"[i], " = ", xyz[i], ")");
  if (node_coordinates.size() >= std::size_t(std::numeric_limits<Index>::max()))
    input.fail("more than ", std::numeric_limits<Index>::max(), " nodes");
  const auto [position, inserted] = node_index.emplace(tag, Index(node_coordinates.size()));
  if (!inserted) input.fail("node tag ", tag, " is defined twice");
  node_coordinates.push_back(xyz);
  node_tags.push_back(tag);
  node_lines.push_back(input.reported_line());
}

ElementUse RawMesh::classify(const MshInput& input, const ElementType& type) {
  highest_element_dimension = std::max(highest_element_dimension, type.dimension);
  const int d = wanted_dimension;
  if (d == 0 || type.dimension < d - 1) return ElementUse::ignore;
  if (type.dimension > d)
    input.fail("element type ", type.id, " (", type.name, ") is ", type.dimension,
               "-dimensional, but a ", d, "-dimensional mesh was asked for; read this file with ",
               "read_gmsh<", type.dimension, ">");
  if (type.id != simplex_type_id(type.dimension))
    input.fail("unsupported element type ", type.id, " (", type.name,
               "): polydg reads first-order triangles and tetrahedra only; ",
               type.order > 1 ? "use first-order elements (Gmsh: Mesh.ElementOrder = 1)"
                              : "use simplices (Gmsh: no recombination into quadrangles)");
  return type.dimension == d ? ElementUse::cell : ElementUse::facet;
}

void RawMesh::finish_nodes() {
  std::uint64_t largest_tag = 0;
  for (const std::uint64_t tag : node_tags) largest_tag = std::max(largest_tag, tag);
  if (node_tags.empty() || largest_tag > 4 * node_tags.size() + 1024) return;
  dense_node_index.assign(largest_tag + 1, -1);
  for (const auto& [tag, index] : node_index) dense_node_index[tag] = index;
  node_index.clear();
}

Index RawMesh::node(const MshInput& input, std::uint64_t tag) const {
  if (!dense_node_index.empty()) {
    if (tag < dense_node_index.size() && dense_node_index[tag] >= 0) return dense_node_index[tag];
  } else if (const auto position = node_index.find(tag); position != node_index.end()) {
    return position->second;
  }
  input.fail("element refers to node ", tag, ", which $Nodes does not define");
}

void RawMesh::check_physical_tag(const MshInput& input, long long tag) {
  if (tag < 0) input.fail("physical tag ", tag, " is negative; Gmsh physical tags are positive");
}

void RawMesh::add_element(const MshInput& input, ElementUse use, int physical_tag,
                          std::span<const Index> nodes) {
  if (use == ElementUse::cell) {
    if (cell_physical_tags.size() >= std::size_t(std::numeric_limits<Index>::max()))
      input.fail("more than ", std::numeric_limits<Index>::max(), " cells");
    cell_nodes.insert(cell_nodes.end(), nodes.begin(), nodes.end());
    cell_physical_tags.push_back(physical_tag);
    cell_lines.push_back(input.in_binary() ? 0 : input.line_number());
  } else if (use == ElementUse::facet && physical_tag != 0) {
    facet_nodes.insert(facet_nodes.end(), nodes.begin(), nodes.end());
    facet_physical_tags.push_back(physical_tag);
  }
}

}  // namespace polydg::gmsh
