#include "polydg/mesh/agglomeration.hpp"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "polydg/core/error.hpp"

namespace polydg {

namespace {

// METIS is built with 32- or 64-bit idx_t (IDXTYPEWIDTH in metis.h); every count handed to it
// is checked to fit before conversion.
template <class Integer>
idx_t to_metis_index(Integer value, const char* what) {
  require(value >= 0 && std::uint64_t(value) <= std::uint64_t(std::numeric_limits<idx_t>::max()),
          "agglomerate: ", what, " = ", value, " does not fit METIS's idx_t (", IDXTYPEWIDTH,
          " bits)");
  return idx_t(value);
}

// Labels each cell with its connected piece of the dual graph restricted to cells of equal
// label. Pieces are numbered in the order of their first cell.
std::vector<Index> connected_pieces(const CellAdjacency& graph, std::span<const Index> label,
                                    Index& piece_count) {
  const Index n_cells = graph.cell_count();
  std::vector<Index> piece(n_cells, -1);
  std::vector<Index> queue;
  queue.reserve(n_cells);
  piece_count = 0;
  for (Index seed = 0; seed < n_cells; ++seed) {
    if (piece[seed] >= 0) continue;
    queue.clear();
    queue.push_back(seed);
    piece[seed] = piece_count;
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (Index next : graph.neighbours_of(queue[head]))
        if (piece[next] < 0 && label[next] == label[seed]) {
          piece[next] = piece_count;
          queue.push_back(next);
        }
    ++piece_count;
  }
  return piece;
}

// Union-find over pieces; the root of a merged set is the piece it was merged into.
struct PieceSets {
  std::vector<Index> parent;
  explicit PieceSets(Index count) : parent(count) { std::iota(parent.begin(), parent.end(), 0); }
  Index root(Index p) {
    while (parent[p] != p) p = parent[p] = parent[parent[p]];
    return p;
  }
};

// The repair shared by every entry point; `requested_count` is the number of labels asked for
// (labels are in [0, requested_count)).
Agglomeration repair(const CellAdjacency& graph, std::span<const Index> label,
                     Index requested_count, double merge_fraction) {
  require(std::isfinite(merge_fraction) && merge_fraction >= 0, "agglomeration: merge_fraction ",
          merge_fraction, " must be finite and >= 0");
  const Index n_cells = graph.cell_count();
  Agglomeration result;
  result.requested_count = requested_count;

  Index piece_count = 0;
  const std::vector<Index> piece = connected_pieces(graph, label, piece_count);

  // Cells of each piece (CSR, cells ascending) and the pieces of each label.
  std::vector<Index> piece_offsets(piece_count + 1, 0);
  for (Index c = 0; c < n_cells; ++c) ++piece_offsets[piece[c] + 1];
  std::partial_sum(piece_offsets.begin(), piece_offsets.end(), piece_offsets.begin());
  std::vector<Index> piece_cells(n_cells);
  {
    std::vector<Index> fill(piece_offsets.begin(), piece_offsets.end() - 1);
    for (Index c = 0; c < n_cells; ++c) piece_cells[fill[piece[c]]++] = c;
  }
  const auto piece_size = [&](Index p) { return piece_offsets[p + 1] - piece_offsets[p]; };
  const auto piece_label = [&](Index p) { return label[piece_cells[piece_offsets[p]]]; };

  // The largest piece of each label keeps it (ties: the piece with the lowest first cell); the
  // others are split-off pieces.
  std::vector<Index> largest_piece(requested_count, -1);
  std::vector<Index> pieces_per_label(requested_count, 0);
  for (Index p = 0; p < piece_count; ++p) {
    const Index l = piece_label(p);
    ++pieces_per_label[l];
    if (largest_piece[l] < 0 || piece_size(p) > piece_size(largest_piece[l])) largest_piece[l] = p;
  }
  Index nonempty_labels = 0;
  for (Index l = 0; l < requested_count; ++l) {
    if (pieces_per_label[l] == 0) ++result.empty_parts;
    if (pieces_per_label[l] > 0) ++nonempty_labels;
    if (pieces_per_label[l] > 1) ++result.disconnected_parts;
  }

  // Small split-off pieces, smallest first, join a neighbouring set. Both sets are connected
  // and adjacent, so their union is connected: every set stays connected however merges
  // chain. Settled sets (kept pieces) are preferred over pieces still waiting to merge, so
  // that merges do not pile up into one large element; among those, the set sharing the most
  // facets wins (the roundest result), ties going to the lowest set index (deterministic).
  const double mean_part_size = double(n_cells) / std::max<Index>(nonempty_labels, 1);
  const double merge_below = merge_fraction * mean_part_size;
  std::vector<char> settled(piece_count, 1);
  std::vector<Index> small_pieces;
  for (Index p = 0; p < piece_count; ++p)
    if (p != largest_piece[piece_label(p)]) {
      if (piece_size(p) < merge_below) {
        small_pieces.push_back(p);
        settled[p] = 0;
      } else {
        ++result.kept_pieces;
      }
    }
  std::stable_sort(small_pieces.begin(), small_pieces.end(),
                   [&](Index a, Index b) { return piece_size(a) < piece_size(b); });
  PieceSets sets(piece_count);
  std::vector<Index> neighbour_sets;
  for (Index p : small_pieces) {
    const Index own = sets.root(p);
    neighbour_sets.clear();
    for (Index k = piece_offsets[p]; k < piece_offsets[p + 1]; ++k)
      for (Index next : graph.neighbours_of(piece_cells[k])) {
        const Index other = sets.root(piece[next]);
        if (other != own) neighbour_sets.push_back(other);
      }
    if (neighbour_sets.empty()) {  // a piece of the mesh that touches nothing else
      settled[own] = 1;
      ++result.kept_pieces;
      continue;
    }
    std::sort(neighbour_sets.begin(), neighbour_sets.end());
    Index best = -1, best_count = 0;
    for (std::size_t begin = 0; begin < neighbour_sets.size();) {
      std::size_t end = begin;
      while (end < neighbour_sets.size() && neighbour_sets[end] == neighbour_sets[begin]) ++end;
      const Index candidate = neighbour_sets[begin], count = Index(end - begin);
      const bool better = best < 0 || settled[candidate] > settled[best] ||
                          (settled[candidate] == settled[best] && count > best_count);
      if (better) {
        best = candidate;
        best_count = count;
      }
      begin = end;
    }
    sets.parent[own] = best;
    ++result.merged_pieces;
  }

  // Dense renumbering in the order of each element's first cell.
  std::vector<Index> element_of_set(piece_count, -1);
  result.element_of_cell.resize(n_cells);
  for (Index c = 0; c < n_cells; ++c) {
    const Index set = sets.root(piece[c]);
    if (element_of_set[set] < 0) element_of_set[set] = result.element_count++;
    result.element_of_cell[c] = element_of_set[set];
  }
  return result;
}

bool is_connected(const CellAdjacency& graph) {
  const std::vector<Index> same(graph.cell_count(), 0);
  Index piece_count = 0;
  connected_pieces(graph, same, piece_count);
  return piece_count <= 1;
}

// METIS on the dual graph. For k-way, contiguous parts are requested only when the dual graph
// is connected: METIS 5.1 stops with an error (through a signal) on a disconnected graph with
// METIS_OPTION_CONTIG set.
std::vector<Index> metis_partition(const CellAdjacency& graph, Index part_count,
                                   const AgglomerationOptions& settings) {
  idx_t vertex_count = to_metis_index(graph.cell_count(), "cell count");
  idx_t constraint_count = 1;
  idx_t parts = to_metis_index(part_count, "part count");
  std::vector<idx_t> offsets(graph.offsets.size()), neighbours(graph.neighbours.size());
  to_metis_index(graph.neighbours.size(), "dual graph edge count × 2");
  std::copy(graph.offsets.begin(), graph.offsets.end(), offsets.begin());
  std::copy(graph.neighbours.begin(), graph.neighbours.end(), neighbours.begin());

  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = settings.seed;
  options[METIS_OPTION_NUMBERING] = 0;
  const bool kway = settings.method == PartitionMethod::kway;
  if (kway) options[METIS_OPTION_CONTIG] = is_connected(graph) ? 1 : 0;

  idx_t edge_cut = 0;
  std::vector<idx_t> part(vertex_count, 0);
  const auto partitioner = kway ? METIS_PartGraphKway : METIS_PartGraphRecursive;
  const int status =
      partitioner(&vertex_count, &constraint_count, offsets.data(), neighbours.data(), nullptr,
                  nullptr, nullptr, &parts, nullptr, nullptr, options, &edge_cut, part.data());
  require(status == METIS_OK,
          "agglomerate: ", kway ? "METIS_PartGraphKway" : "METIS_PartGraphRecursive", " into ",
          part_count, " parts failed with status ", status,
          status == METIS_ERROR_MEMORY  ? " (out of memory)"
          : status == METIS_ERROR_INPUT ? " (invalid input)"
                                        : "");
  std::vector<Index> result(part.begin(), part.end());
  for (Index c = 0; c < Index(result.size()); ++c)
    require(result[c] >= 0 && result[c] < part_count, "agglomerate: METIS put cell ", c,
            " in part ", result[c], " outside [0, ", part_count, ")");
  return result;
}

}  // namespace

template <int Dim>
CellAdjacency cell_adjacency(const SimplexMesh<Dim>& mesh) {
  const Index n_cells = mesh.cell_count();
  CellAdjacency graph;
  graph.offsets.assign(n_cells + 1, 0);
  for (Index c = 0; c < n_cells; ++c)
    for (Index f : mesh.cell_facets(c))
      if (!mesh.is_boundary_facet(f)) ++graph.offsets[c + 1];
  std::partial_sum(graph.offsets.begin(), graph.offsets.end(), graph.offsets.begin());
  graph.neighbours.resize(graph.offsets[n_cells]);
  for (Index c = 0; c < n_cells; ++c) {
    Index k = graph.offsets[c];
    for (Index f : mesh.cell_facets(c)) {
      if (mesh.is_boundary_facet(f)) continue;
      const auto& cells = mesh.facet_cells(f);
      graph.neighbours[k++] = cells[0] == c ? cells[1] : cells[0];
    }
  }
  return graph;
}

template <int Dim>
Agglomeration agglomerate(const SimplexMesh<Dim>& mesh, Index element_count,
                          const AgglomerationOptions& options) {
  const Index n_cells = mesh.cell_count();
  require(element_count >= 1 && element_count <= n_cells, "agglomerate: ", element_count,
          " elements requested from a mesh of ", n_cells, " cells; need 1 <= elements <= cells");
  const CellAdjacency graph = cell_adjacency(mesh);
  std::vector<Index> part(n_cells, 0);
  if (element_count == n_cells)
    std::iota(part.begin(), part.end(), 0);  // no agglomeration: METIS is not needed
  else if (element_count > 1)
    part = metis_partition(graph, element_count, options);
  return repair(graph, part, element_count, options.merge_fraction);
}

template <int Dim>
Agglomeration agglomerate_by_cell_count(const SimplexMesh<Dim>& mesh, double cells_per_element,
                                        const AgglomerationOptions& options) {
  require(std::isfinite(cells_per_element) && cells_per_element >= 1,
          "agglomerate_by_cell_count: ", cells_per_element,
          " cells per element requested; need a finite number >= 1");
  const double count = std::round(double(mesh.cell_count()) / cells_per_element);
  return agglomerate(mesh, std::clamp(Index(count), Index(1), mesh.cell_count()), options);
}

template <int Dim>
Agglomeration repair_partition(const SimplexMesh<Dim>& mesh, std::span<const Index> part_of_cell,
                               const AgglomerationOptions& options) {
  require(Index(part_of_cell.size()) == mesh.cell_count(),
          "repair_partition: ", part_of_cell.size(), " labels given for ", mesh.cell_count(),
          " cells");
  Index label_count = 0;
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    require(part_of_cell[c] >= 0, "repair_partition: cell ", c, " has negative label ",
            part_of_cell[c]);
    label_count = std::max(label_count, part_of_cell[c] + 1);
  }
  return repair(cell_adjacency(mesh), part_of_cell, label_count, options.merge_fraction);
}

template CellAdjacency cell_adjacency(const SimplexMesh<2>&);
template CellAdjacency cell_adjacency(const SimplexMesh<3>&);
template Agglomeration agglomerate(const SimplexMesh<2>&, Index, const AgglomerationOptions&);
template Agglomeration agglomerate(const SimplexMesh<3>&, Index, const AgglomerationOptions&);
template Agglomeration agglomerate_by_cell_count(const SimplexMesh<2>&, double,
                                                 const AgglomerationOptions&);
template Agglomeration agglomerate_by_cell_count(const SimplexMesh<3>&, double,
                                                 const AgglomerationOptions&);
template Agglomeration repair_partition(const SimplexMesh<2>&, std::span<const Index>,
                                        const AgglomerationOptions&);
template Agglomeration repair_partition(const SimplexMesh<3>&, std::span<const Index>,
                                        const AgglomerationOptions&);

}  // namespace polydg
