#include "gmsh_element_types.hpp"

#include <array>

namespace polydg::gmsh {
namespace {

// Every fixed-size type up to fifth order; the rest (types 32 and above except 92 and 93)
// are rare enough that "unknown element type" is a fair answer.
constexpr std::array<ElementType, 33> element_types{{
    {1, "2-node line", 1, 2, 1},
    {2, "3-node triangle", 2, 3, 1},
    {3, "4-node quadrangle", 2, 4, 1},
    {4, "4-node tetrahedron", 3, 4, 1},
    {5, "8-node hexahedron", 3, 8, 1},
    {6, "6-node prism", 3, 6, 1},
    {7, "5-node pyramid", 3, 5, 1},
    {8, "3-node second-order line", 1, 3, 2},
    {9, "6-node second-order triangle", 2, 6, 2},
    {10, "9-node second-order quadrangle", 2, 9, 2},
    {11, "10-node second-order tetrahedron", 3, 10, 2},
    {12, "27-node second-order hexahedron", 3, 27, 2},
    {13, "18-node second-order prism", 3, 18, 2},
    {14, "14-node second-order pyramid", 3, 14, 2},
    {15, "1-node point", 0, 1, 1},
    {16, "8-node second-order quadrangle", 2, 8, 2},
    {17, "20-node second-order hexahedron", 3, 20, 2},
    {18, "15-node second-order prism", 3, 15, 2},
    {19, "13-node second-order pyramid", 3, 13, 2},
    {20, "9-node third-order incomplete triangle", 2, 9, 3},
    {21, "10-node third-order triangle", 2, 10, 3},
    {22, "12-node fourth-order incomplete triangle", 2, 12, 4},
    {23, "15-node fourth-order triangle", 2, 15, 4},
    {24, "15-node fifth-order incomplete triangle", 2, 15, 5},
    {25, "21-node fifth-order triangle", 2, 21, 5},
    {26, "4-node third-order line", 1, 4, 3},
    {27, "5-node fourth-order line", 1, 5, 4},
    {28, "6-node fifth-order line", 1, 6, 5},
    {29, "20-node third-order tetrahedron", 3, 20, 3},
    {30, "35-node fourth-order tetrahedron", 3, 35, 4},
    {31, "56-node fifth-order tetrahedron", 3, 56, 5},
    {92, "64-node third-order hexahedron", 3, 64, 3},
    {93, "125-node fourth-order hexahedron", 3, 125, 4},
}};

}  // namespace

const ElementType* find_element_type(int id) {
  for (const ElementType& type : element_types)
    if (type.id == id) return &type;
  return nullptr;
}

int simplex_type_id(int dimension) {
  constexpr int ids[] = {15, 1, 2, 4};
  return ids[dimension];
}

}  // namespace polydg::gmsh
