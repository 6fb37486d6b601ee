#pragma once
/// VTK output of 2D meshes as ASCII XML UnstructuredGrid files (.vtu), for ParaView / VisIt.
///
/// Polytopic meshes are written with true polygon cells (VTK_POLYGON = 7): one cell per
/// element whose vertices are the element's boundary loop, counter-clockwise, every fine
/// boundary vertex included. An element with a hole is written as one polygon that runs along
/// the outer loop, through a zero-width slit of interior fine edges to the hole, around it and
/// back (element_polygon): the polygon's shoelace area is the element's measure. If a hole
/// cannot be reached (not expected), only the outer loop is written and one warning is given.
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

/// One VTK_TRIANGLE per fine cell, with cell data: region, and element_id when
/// `element_of_cell` is given (its length must be the cell count). For debugging agglomeration.
void write_simplex_mesh_vtu(const std::filesystem::path& path, const SimplexMesh<2>& mesh,
                            std::span<const Index> element_of_cell = {});

}  // namespace polydg
