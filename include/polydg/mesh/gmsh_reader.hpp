#pragma once
/// Reading Gmsh meshes (.msh files) into a SimplexMesh.
///
/// Formats: MSH 2.2 ASCII, MSH 4.1 ASCII and MSH 4.1 binary (either byte order, 4- or 8-byte
/// size_t). MSH 1, MSH 2 binary, MSH 4.0 and partitioned files are refused with an error.
///
/// What read_gmsh<Dim> takes from the file:
/// * cells: the first-order simplices of dimension Dim (3-node triangles, 4-node tetrahedra);
///   a cell's physical tag becomes its region (0 when it has none);
/// * boundary tags: first-order facets (2-node lines in 2D, 3-node triangles in 3D) that have
///   a physical tag; facets without one are skipped;
/// * nothing else: points and other lower-dimensional elements are ignored.
/// Physical tags: MSH 2 gives an element's physical tag as its first tag; MSH 4.1 gives it
/// through the element's entity in $Entities. An entity in several physical groups gives its
/// elements the FIRST physical tag listed (MSH 2 writes such an element once per group; the
/// reader keeps the first copy and drops the others, with a warning). A 4.1 file without
/// $Entities has no physical tags.
/// Boundary facets that no tagged facet covers get untagged_boundary_tag (0), and SimplexMesh
/// warns once with their number: that is the library's policy, not an error.
/// Vertices are the nodes that cells use, in file order; other nodes are dropped. In 2D these
/// must all have the same z (Gmsh writes z = 0), which is dropped.
///
/// Errors: polydg::Error "<file>:<line>: <what is wrong>" (in binary sections, the line of
/// the section header and the byte offset in it) for a truncated file, a missing $MeshFormat,
/// $Nodes or $Elements, an unsupported version, an unknown or unsupported element type (quads,
/// second-order elements, tetrahedra in a 2D read), a node tag that $Nodes does not define, a
/// non-numeric field, counts that disagree with the entries, NaN or infinite coordinates, and a
/// 2D mesh that is not in a plane z = constant. Degenerate or inverted cells and facets shared
/// by more than two cells are found by the SimplexMesh constructor, whose message names the
/// cell's file line (ASCII files; binary files give the cell index only).
#include <istream>
#include <string>

#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

/// Reads the Gmsh file at `path` as a mesh of triangles (Dim = 2) or tetrahedra (Dim = 3).
template <int Dim>
SimplexMesh<Dim> read_gmsh(const std::string& path);

/// Reads a Gmsh mesh from `in` (opened in binary mode for binary files); `name` stands for the
/// file in error messages.
template <int Dim>
SimplexMesh<Dim> read_gmsh(std::istream& in, const std::string& name);

/// The highest dimension of the elements in a Gmsh file (2 for a triangle mesh, 3 for a
/// tetrahedral one), to pick read_gmsh<2> or read_gmsh<3>. Parses the file without building a
/// mesh; throws polydg::Error as read_gmsh does, and if the file has no elements.
int gmsh_mesh_dimension(const std::string& path);
int gmsh_mesh_dimension(std::istream& in, const std::string& name);

}  // namespace polydg
