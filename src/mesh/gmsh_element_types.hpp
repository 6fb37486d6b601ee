#pragma once
/// The Gmsh element types the reader knows by number (private to the reader): the numbers and
/// node counts are those of the MSH format documentation ("MSH file format", element types).
#include <string_view>

namespace polydg::gmsh {

struct ElementType {
  int id;                 ///< Gmsh's number, e.g. 2 for the 3-node triangle
  std::string_view name;  ///< e.g. "6-node second-order triangle"
  int dimension;          ///< 0 point, 1 line, 2 surface, 3 volume
  int node_count;
  int order;  ///< polynomial order of the geometry
};

/// The type with Gmsh number `id`, or nullptr if the reader does not know it.
const ElementType* find_element_type(int id);

/// Gmsh's number of the first-order simplex of `dimension` (15 point, 1 line, 2 triangle,
/// 4 tetrahedron).
int simplex_type_id(int dimension);

}  // namespace polydg::gmsh
