#pragma once
/// Agglomeration: groups the cells of a fine SimplexMesh into connected polytopic elements.
///
/// The result is a partition vector cell → element with dense element numbers 0..N−1 in which
/// every element is non-empty and connected through interior facets (the input a
/// PolytopicMesh needs). Graph partitioning is METIS k-way on the dual graph with contiguous
/// parts requested and a fixed seed, so a run is reproducible on the same METIS build (or,
/// with PartitionMethod::greedy_growth, parts grown without METIS, much faster). METIS does
/// not guarantee contiguity, so every partition — METIS's or a user's — goes through
/// repair_partition, which splits disconnected parts and merges small split-off pieces.
/// (METIS may print notes such as "Cannot bisect a graph with 0 vertices" when parts are
/// tiny; the parts it leaves empty are dropped by the repair.)
#include <cstdint>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

/// The dual graph of a simplex mesh in CSR form: cells are the nodes, two cells are adjacent
/// when they share an interior facet. neighbours[offsets[c] .. offsets[c+1]) are the cells
/// adjacent to cell c, in the order of c's local facets.
struct CellAdjacency {
  std::vector<Index> offsets;
  std::vector<Index> neighbours;

  Index cell_count() const { return Index(offsets.size()) - 1; }
  std::span<const Index> neighbours_of(Index cell) const {
    return {neighbours.data() + offsets[cell], neighbours.data() + offsets[cell + 1]};
  }
};

template <int Dim>
CellAdjacency cell_adjacency(const SimplexMesh<Dim>& mesh);

/// Which partitioner cuts the dual graph.
enum class PartitionMethod {
  /// METIS_PartGraphKway with METIS_OPTION_CONTIG: the default, the best cuts.
  kway,
  /// METIS_PartGraphRecursive (no contiguity option; the repair makes elements connected):
  /// several times faster when elements have only a few fine cells each (500k triangles into
  /// 126k elements: about 3 s instead of 17 s), but more parts need repair and METIS may
  /// leave a few parts far larger than the mean there (174 cells against a mean of 4).
  recursive_bisection,
  /// Not METIS: parts grown one after the other from the lowest unassigned cell, each step
  /// taking the unassigned neighbour with the most facets into the part, then the nearest to
  /// the seed (in cells, then by centre), up to a cumulative quota of the mean size (a part
  /// stuck below half of it joins a neighbour). Connected by construction, deterministic (the
  /// seed option is not used), about the requested count, and hundreds of times faster than
  /// METIS (one greedy pass, no multilevel partitioning), with polygons nearly as round
  /// but less even sizes (docs/theory.md, "Agglomeration and polytopic elements";
  /// docs/performance.md, "Mesh stage").
  /// The one method for millions of parts: METIS rejects some such counts (its target weights,
  /// single precision, do not sum to 1).
  greedy_growth,
};

/// How the elements of an agglomeration are numbered.
enum class ElementOrder {
  /// In the order of each element's first fine cell (the fine mesh's cell order).
  first_cell,
  /// Along a Hilbert curve through the element centres (polydg/mesh/element_order.hpp): nearby
  /// numbers are nearby in space, so a matrix's block rows with nearby numbers share more
  /// neighbours.
  hilbert_curve,
};

struct AgglomerationOptions {
  PartitionMethod method = PartitionMethod::kway;
  ElementOrder element_order = ElementOrder::first_cell;
  /// METIS_OPTION_SEED: the same seed gives the same partition with the same METIS build.
  int seed = 1;
  /// Repair policy: when a part is disconnected its largest piece keeps the part; another piece
  /// with fewer cells than merge_fraction × (mean cells per non-empty part) is merged (smallest
  /// pieces first) into the neighbouring element it shares most facets with, preferring
  /// elements that are not themselves waiting to merge; a larger piece becomes an element of
  /// its own. 0 keeps every piece as an element.
  double merge_fraction = 0.5;
  /// METIS (k-way or recursive bisection) may leave a few parts far larger than the mean: 2.56 M
  /// triangles into 853k parts gave one of 2,557 triangles against a mean of 3. A METIS part
  /// with more than largest_part_factor × (cells / elements requested) cells is cut by greedy
  /// growth on its own cells into parts of about the mean. Such an element is far from the mesh
  /// size the error estimates assume, and it bounds a GPU assembly (one thread block per
  /// element; docs/performance.md, "Distributed assembly"). 0 keeps METIS's parts; else >= 1.
  double largest_part_factor = 8;
};

/// A partition of the fine cells into connected elements and what the repair had to do.
struct Agglomeration {
  /// element_of_cell[c] ∈ [0, element_count): the element of fine cell c. Elements are
  /// numbered in the order of their first cell (so no agglomeration gives the identity) or
  /// along a Hilbert curve (AgglomerationOptions::element_order).
  std::vector<Index> element_of_cell;
  Index element_count = 0;
  /// The number of parts asked for (METIS's nparts, or 1 + the largest label given to repair).
  Index requested_count = 0;
  /// Parts that came out disconnected and were split into their connected pieces.
  Index disconnected_parts = 0;
  /// Split-off pieces merged into a neighbouring element / kept as elements of their own.
  Index merged_pieces = 0;
  Index kept_pieces = 0;
  /// Parts with no cells (METIS may leave some when parts are tiny); removed by renumbering.
  Index empty_parts = 0;
  /// METIS parts above AgglomerationOptions::largest_part_factor × the mean, cut by greedy growth.
  Index split_parts = 0;
};

/// Partitions the mesh into `element_count` connected elements (about that many: the repair
/// may add or remove a few). Below about two cells per element METIS leaves many parts empty
/// (empty_parts): k-way into 336k parts of 504k triangles gives 195k elements, into 500k
/// parts 210k; PartitionMethod::greedy_growth gives the count asked for there (0.03 s).
/// When fewer than 90 % of the requested elements come out, a warning (polydg::warn) gives the
/// counts requested and made, the parts that came back empty or were merged, and a count to
/// ask for instead; within 90 % the count is "about" the request and nothing is said.
/// element_count = cell_count gives each cell its own element without calling METIS (the
/// no-agglomeration path), element_count = 1 one element per connected piece of the mesh.
/// Throws polydg::Error for element_count < 1 or > cell_count, or when METIS fails.
template <int Dim>
Agglomeration agglomerate(const SimplexMesh<Dim>& mesh, Index element_count,
                          const AgglomerationOptions& options = {});

/// Partitions the mesh into elements of about `cells_per_element` fine cells each
/// (element_count = round(cell_count / cells_per_element), at least 1). Throws polydg::Error
/// for cells_per_element < 1 or not finite.
template <int Dim>
Agglomeration agglomerate_by_cell_count(const SimplexMesh<Dim>& mesh, double cells_per_element,
                                        const AgglomerationOptions& options = {});

/// Groups the elements of an agglomeration into about `coarse_count` connected unions of
/// elements: a coarser agglomeration of the same fine mesh in which every element of
/// `element_of_cell` lies inside one coarse element, so the DG spaces are nested (a coarse
/// polynomial restricted to a fine element is a polynomial of that element). The element graph
/// (elements adjacent through an interior facet) is cut as agglomerate() cuts the dual graph
/// (options.method: METIS or greedy growth, from the elements' centres), then repaired on the
/// cells (a coarse part that came out disconnected is split into its pieces, which are whole
/// fine elements, so nesting holds). Throws polydg::Error when element_of_cell is not a dense
/// labelling of the mesh's cells or coarse_count is outside [1, element count].
template <int Dim>
Agglomeration coarsen_agglomeration(const SimplexMesh<Dim>& mesh,
                                    std::span<const Index> element_of_cell, Index coarse_count,
                                    const AgglomerationOptions& options = {});

/// Makes any partition (labels ≥ 0, one per cell, not necessarily dense) valid for a
/// PolytopicMesh: disconnected parts are split and small pieces merged (see
/// AgglomerationOptions::merge_fraction), empty labels dropped, elements renumbered densely in
/// the order of their first cell or along a Hilbert curve (element_order). Throws polydg::Error for
/// a wrong length or a negative label.
template <int Dim>
Agglomeration repair_partition(const SimplexMesh<Dim>& mesh, std::span<const Index> part_of_cell,
                               const AgglomerationOptions& options = {});

}  // namespace polydg
