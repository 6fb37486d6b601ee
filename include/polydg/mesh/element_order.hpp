#pragma once
/// Element orders for cache locality: numbering agglomerated elements along a Hilbert curve.
///
/// An agglomeration numbers its elements in the order of their first fine cell, which follows
/// the fine mesh's cell order (row by row on a structured background mesh). Along a Hilbert
/// curve through the element centres, elements with nearby numbers are nearby in space in every
/// direction, so the block rows a GPU thread block (or a CPU cache line of x) works on share
/// more of their neighbours' entries of x. Like MFEM's Mesh::GetHilbertElementOrdering, this is
/// an option (AgglomerationOptions::element_order), not the default.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

/// The bits per coordinate of hilbert_index: 2^21 cells per side, 63 bits in 3D.
inline constexpr int hilbert_bits = 21;

/// The position along the Hilbert curve of Dim dimensions (Skilling's algorithm, "Programming
/// the Hilbert curve", 2004) of the grid cell `cell`, each coordinate in [0, 2^hilbert_bits).
/// Consecutive positions are grid cells that share a face.
template <int Dim>
std::uint64_t hilbert_index(std::array<std::uint32_t, Dim> cell);

/// The new number of each element when the elements (element_of_cell: cell → element, dense
/// 0..element_count−1) are ordered along the Hilbert curve through their centres (the mean of
/// their cells' centroids, on a 2^21 grid over the mesh's bounding box); ties keep the old
/// order. Throws polydg::Error for a wrong length or a label outside 0..element_count−1.
template <int Dim>
std::vector<Index> hilbert_element_order(const SimplexMesh<Dim>& mesh,
                                         std::span<const Index> element_of_cell,
                                         Index element_count);

/// Renumbers the agglomeration's elements along the Hilbert curve (hilbert_element_order).
template <int Dim>
void order_elements_along_hilbert_curve(const SimplexMesh<Dim>& mesh, Agglomeration& agglomeration);

}  // namespace polydg
