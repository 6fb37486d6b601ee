#pragma once
/// The two format parsers of the Gmsh reader (private). Each starts after $EndMeshFormat,
/// reads the rest of the file into a RawMesh and skips sections it does not need.
#include "gmsh_input.hpp"
#include "gmsh_raw_mesh.hpp"

namespace polydg::gmsh {

/// What the $MeshFormat section says.
struct MeshFormat {
  int major_version = 0;  ///< 2 (MSH 2.2) or 4 (MSH 4.1)
  bool binary = false;
  bool swap_bytes = false;  ///< binary file written with the other byte order
  int size_bytes = 8;       ///< bytes of a size_t in binary data
};

/// MSH 2.2 ASCII ($Nodes and $Elements, physical tag = first element tag).
void parse_msh2(MshInput& input, RawMesh& mesh);
/// MSH 4.1 ASCII or binary ($Entities for physical tags, block-structured $Nodes, $Elements).
void parse_msh4(MshInput& input, RawMesh& mesh, const MeshFormat& format);

}  // namespace polydg::gmsh
