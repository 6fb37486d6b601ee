#pragma once
// Private pieces of the PolytopicMesh construction that live in their own files (boundary
// loop tracing and retriangulation are 2D-only geometry with jobs of their own).
#include <array>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::detail {

/// A fine facet on an element's boundary together with the element's cell that has it.
struct ElementSide {
  Index facet;
  Index cell;
};

/// 2D: the closed loops of an element's boundary, each a vertex cycle with the element on its
/// left. At a vertex where the boundary touches itself the trace turns into the exterior
/// wedge it came along, so each loop bounds one connected piece of the exterior: the outer
/// loop (positive area, returned first) and one clockwise loop per hole. Throws polydg::Error
/// naming `element` if the sides do not form closed loops.
std::vector<std::vector<Index>> trace_boundary_loops(const SimplexMesh<2>& mesh,
                                                     std::span<const ElementSide> sides,
                                                     Index element);

/// 2D: a triangulation of the polygon bounded by the counter-clockwise simple loop
/// `outer_loop` (fine vertex indices) with about one triangle per corner: the vertices where
/// the boundary runs straight (|sin| of the turn at most `tolerance`) are dropped,
/// then ears are clipped. Returns false — and leaves `triangles` empty — when ear clipping finds
/// no ear or the triangles' total area differs from `measure` by more than 1e-12 relative.
bool triangulate_polygon(const std::vector<Point<2>>& vertices, std::span<const Index> outer_loop,
                         double measure, double tolerance,
                         std::vector<std::array<Index, 3>>& triangles);

}  // namespace polydg::detail
