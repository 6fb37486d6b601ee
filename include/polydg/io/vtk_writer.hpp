#pragma once
/// VTK output of 2D and 3D meshes as ASCII XML UnstructuredGrid files (.vtu), for ParaView /
/// VisIt.
///
/// 2D polytopic meshes are written with true polygon cells (VTK_POLYGON = 7): one cell per
/// element whose vertices are the element's boundary loop, counter-clockwise, every fine
/// boundary vertex included. An element with a hole is written as one polygon that runs along
/// the outer loop, through a zero-width slit of interior fine edges to the hole, around it and
/// back (element_polygon): the polygon's shoelace area is the element's measure. If a hole
/// cannot be reached (not expected), only the outer loop is written and one warning is given.
///
/// 3D polytopic meshes are written with polyhedron cells (VTK_POLYHEDRON = 42, with the XML
/// "faces" and "faceoffsets" arrays that ParaView and meshio read): one cell per element whose
/// faces are its boundary triangles — the facets of its fine tetrahedra whose other side is ∂Ω
/// or another element — oriented outward, and whose points are the fine vertices on its
/// boundary. The divergence theorem over these triangles gives the element's measure. Elements
/// need not be convex (ParaView draws them; filters that assume convex cells may not). The
/// cells are ordered by their point count, then by element (meshio's reader pairs polyhedra
/// with their cell data only in that order): the cell data "element_id" says which element a
/// cell is.
///
/// Coordinates are written with 17 significant digits (exact round trip of doubles).
///
/// Throws polydg::Error naming the path when the file cannot be opened or written.
#include <filesystem>
#include <span>

#include "polydg/core/types.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

/// One VTK_POLYGON per element, with cell data: element_id, degree, box_coverage (|B_κ|/|κ|),
/// faces, fine_cells, roundness, measure.
void write_polytopic_mesh_vtu(const std::filesystem::path& path, const PolytopicMesh<2>& mesh);

/// One VTK_POLYHEDRON per element (see above), with the cell data of the 2D writer: element_id,
/// degree, box_coverage, faces (PolytopicMesh's planar faces, not the triangles written),
/// fine_cells, roundness, measure. (The cell data "faces" and the Cells section's "faces"
/// share a name as the 2D and 3D files share their cell data; readers keep sections apart.)
void write_polytopic_mesh_vtu(const std::filesystem::path& path, const PolytopicMesh<3>& mesh);

/// One VTK_TRIANGLE per fine cell, with cell data: region, and element_id when
/// `element_of_cell` is given (its length must be the cell count). For debugging agglomeration.
void write_simplex_mesh_vtu(const std::filesystem::path& path, const SimplexMesh<2>& mesh,
                            std::span<const Index> element_of_cell = {});

/// One VTK_TETRA per fine cell, with the same cell data and the same check.
void write_simplex_mesh_vtu(const std::filesystem::path& path, const SimplexMesh<3>& mesh,
                            std::span<const Index> element_of_cell = {});

}  // namespace polydg
