#pragma once
/// Uniform (red) refinement of a fine simplex mesh: the levels of a convergence study on a
/// mesh read from a file, with the file's tags and regions.
///
/// Every edge gets one midpoint, shared by all cells around the edge (a conforming mesh); a
/// triangle becomes 4 by its edge midpoints, a tetrahedron 8 by Bey's rule (4 corner
/// tetrahedra and the inner octahedron cut along the diagonal between the midpoints of its
/// local edges 02 and 13; docs/theory.md, "Uniform refinement"), whose descendants fall into
/// at most 3 congruence classes per original tetrahedron however often it is refined.
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

/// The red refinement of `mesh`. Vertices: the old ones (same numbers), then one midpoint per
/// edge, in the order of the edges' sorted vertex pairs. Cells: the children of cell c are
/// 4c..4c+3 (2D) / 8c..8c+7 (3D), positively oriented, with c's region. Each child of a
/// boundary facet takes its parent's tag (untagged_boundary_tag included). Total and
/// per-region measures, and boundary measures per tag, are those of `mesh` up to rounding.
/// Throws polydg::Error for a mesh with no cells, or when the refined counts would not fit
/// the 32-bit Index.
template <int Dim>
SimplexMesh<Dim> refine(const SimplexMesh<Dim>& mesh);

}  // namespace polydg
