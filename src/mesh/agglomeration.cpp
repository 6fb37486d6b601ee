#include "polydg/mesh/agglomeration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <queue>
#include <string>
#include <tuple>
#include <utility>

#include "metis_partition.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/mesh/element_order.hpp"

namespace polydg {

namespace {

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

// METIS on the dual graph (metis_partition.hpp). For k-way, contiguous parts are requested only
// when the dual graph is connected.
std::vector<Index> metis_partition(const CellAdjacency& graph, Index part_count,
                                   const AgglomerationOptions& settings) {
  detail::MetisSettings metis;
  metis.caller = "agglomerate";
  metis.kway = settings.method == PartitionMethod::kway;
  metis.contiguous = metis.kway && is_connected(graph);
  metis.seed = settings.seed;
  return detail::metis_partition(graph, part_count, metis);
}

template <int Dim>
Point<Dim> cell_centre(const SimplexMesh<Dim>& mesh, Index cell) {
  Point<Dim> sum{};
  for (const Point<Dim>& vertex : mesh.cell_points(cell)) sum = sum + vertex;
  return (1.0 / (Dim + 1)) * sum;
}

template <int Dim>
std::vector<Point<Dim>> cell_centres(const SimplexMesh<Dim>& mesh) {
  std::vector<Point<Dim>> centres(std::size_t(mesh.cell_count()));
  for (Index c = 0; c < mesh.cell_count(); ++c) centres[c] = cell_centre(mesh, c);
  return centres;
}

// Greedy growth (PartitionMethod::greedy_growth). Parts are grown one after the other from
// the lowest unassigned cell up to their quota (cumulative, so that about part_count parts
// come out); each step adds the unassigned neighbour with the most facets into the part, then
// the one fewest cells from the seed, then the one whose centre is nearest the seed's, then
// the lowest, which keeps parts compact. A part left below half the mean size (its cells'
// neighbours were already taken) joins the neighbouring part it shares most facets with.
// Every part is connected by construction. Work: O(cells × neighbours × log(part size)).
template <int Dim>
std::vector<Index> greedy_partition(const CellAdjacency& graph, std::span<const Point<Dim>> centres,
                                    Index part_count, Index& merged_parts) {
  const Index n_cells = graph.cell_count();
  const double mean_size = double(n_cells) / double(part_count);
  std::vector<Index> part(n_cells, -1);
  // Per unassigned cell, its facets into the growing part and its distance in cells from the
  // seed when first reached; per part, its facets shared with the part being merged (all zero
  // between uses; `touched` lists what to reset).
  std::vector<Index> links(n_cells, 0), depth(n_cells, 0), shared(n_cells, 0);
  std::vector<Index> members, touched, neighbour_parts;
  // The frontier by (facets into the part, −distance in cells, −squared distance of the centres,
  // −cell), largest first: notches are filled first, then the part grows ring by ring. Counts
  // only grow, so an entry whose count is no longer the cell's is stale and skipped. (Lowest
  // cell alone as the tie-break grew strips along the numbering: roundness 0.10 at 63 cells.)
  std::priority_queue<std::tuple<Index, Index, double, Index>> frontier;
  Index seed = 0;
  const auto add = [&](Index cell, Index label) {
    part[cell] = label;
    members.push_back(cell);
    for (Index next : graph.neighbours_of(cell))
      if (part[next] < 0) {
        if (links[next] == 0) {
          touched.push_back(next);
          depth[next] = depth[cell] + 1;
        }
        const Point<Dim> offset = centres[next] - centres[seed];
        frontier.push({++links[next], -depth[next], -dot(offset, offset), -next});
      }
  };
  Index parts = 0;
  merged_parts = 0;
  GlobalIndex assigned = 0;
  for (; seed < n_cells; ++seed) {
    if (part[seed] >= 0) continue;
    const Index label = parts++;
    // Cumulative, but never below half the mean: parts merged into a neighbour leave `assigned`
    // ahead of the count, and quotas of 1 cell would then be stuck, merged and pushed into the
    // neighbours one after the other (in 3D at 4 cells per part: 194 parts of 768 requested).
    const GlobalIndex quota =
        std::max<GlobalIndex>(GlobalIndex(std::ceil(0.5 * mean_size)),
                              GlobalIndex(std::llround(double(label + 1) * mean_size)) - assigned);
    members.clear();
    depth[seed] = 0;
    add(seed, label);
    while (GlobalIndex(members.size()) < quota && !frontier.empty()) {
      const auto [count, negative_depth, negative_distance, negative_cell] = frontier.top();
      frontier.pop();
      const Index cell = -negative_cell;
      if (part[cell] < 0 && count == links[cell]) add(cell, label);
    }
    frontier = {};
    for (Index cell : touched) links[cell] = depth[cell] = 0;
    touched.clear();
    if (double(members.size()) < 0.5 * mean_size) {
      for (Index member : members)
        for (Index next : graph.neighbours_of(member)) {
          const Index other = part[next];
          if (other < 0 || other == label) continue;
          if (shared[other]++ == 0) neighbour_parts.push_back(other);
        }
      Index target = -1, target_links = 0;
      for (Index other : neighbour_parts) {
        if (shared[other] > target_links || (shared[other] == target_links && other < target)) {
          target = other;
          target_links = shared[other];
        }
        shared[other] = 0;
      }
      neighbour_parts.clear();
      if (target >= 0) {
        for (Index member : members) part[member] = target;
        --parts;
        ++merged_parts;
      }
    }
    assigned += GlobalIndex(members.size());
  }
  return part;
}

// Cuts every part of more than `factor` × the mean cells (mean: cells / label_count) into about
// size / mean parts by greedy growth on the part's own cells (its dual graph restricted to it).
// The first cut keeps the part's label, the others take labels from label_count on. Returns
// the label count after the cuts; split_parts counts the parts cut.
template <int Dim>
Index split_large_parts(const SimplexMesh<Dim>& mesh, const CellAdjacency& graph,
                        std::vector<Index>& part, Index label_count, double factor,
                        Index& split_parts) {
  split_parts = 0;
  if (factor == 0) return label_count;
  const Index n_cells = graph.cell_count();
  const double mean_size = double(n_cells) / double(label_count);
  std::vector<Index> size(label_count, 0);
  for (Index c = 0; c < n_cells; ++c) ++size[part[c]];
  // The cells of each large part, in ascending order (one pass over the mesh).
  std::vector<Index> large_index(label_count, -1);
  std::vector<std::vector<Index>> large_cells;
  for (Index l = 0; l < label_count; ++l)
    if (double(size[l]) > factor * mean_size) {
      large_index[l] = Index(large_cells.size());
      large_cells.emplace_back();
    }
  if (large_cells.empty()) return label_count;
  for (Index c = 0; c < n_cells; ++c)
    if (large_index[part[c]] >= 0) large_cells[large_index[part[c]]].push_back(c);

  std::vector<Index> local(n_cells, -1);
  Index next_label = label_count;
  for (const std::vector<Index>& cells : large_cells) {
    const Index label = part[cells.front()], count = Index(cells.size());
    for (Index i = 0; i < count; ++i) local[cells[i]] = i;
    CellAdjacency part_graph;
    part_graph.offsets.assign(1, 0);
    std::vector<Point<Dim>> centres(cells.size());
    for (Index i = 0; i < count; ++i) {
      for (Index next : graph.neighbours_of(cells[i]))
        if (part[next] == label) part_graph.neighbours.push_back(local[next]);
      part_graph.offsets.push_back(Index(part_graph.neighbours.size()));
      centres[i] = cell_centre(mesh, cells[i]);
    }
    Index merged_parts = 0;
    const Index pieces = std::max<Index>(2, Index(std::llround(double(count) / mean_size)));
    const std::vector<Index> piece =
        greedy_partition<Dim>(part_graph, centres, std::min(pieces, count), merged_parts);
    const Index piece_count = *std::max_element(piece.begin(), piece.end()) + 1;
    for (Index i = 0; i < count; ++i)
      part[cells[i]] = piece[i] == 0 ? label : next_label + piece[i] - 1;
    next_label += piece_count - 1;
    if (piece_count > 1) ++split_parts;
  }
  return next_label;
}

// A partition well short of the request is reported: the caller asked for a resolution it did
// not get, typically by asking for fewer than about two cells per element, where METIS leaves
// many parts empty (agglomeration.hpp). "Well short" is below 90 % of the request: within a
// tenth the count is "about" the request (the repair adds or removes a few elements).
void warn_about_shortfall(const Agglomeration& result, Index cell_count, bool greedy,
                          Index merged_parts) {
  if (10 * GlobalIndex(result.element_count) >= 9 * GlobalIndex(result.requested_count)) return;
  std::string why;
  if (result.empty_parts > 0)
    why = detail::concatenate("; ", result.empty_parts, " parts came back empty");
  if (merged_parts > 0)
    why += detail::concatenate("; ", merged_parts,
                               " parts stopped below half the mean size and were merged");
  char cells_per_element[32];
  std::snprintf(cells_per_element, sizeof cells_per_element, "%.2f",
                double(cell_count) / double(result.requested_count));
  warn(detail::concatenate("agglomerate: ", result.element_count, " elements made of ",
                           result.requested_count, " requested from ", cell_count, " cells (",
                           cells_per_element, " cells per element)", why,
                           "; below about 2 cells per element parts come out empty or merged: "
                           "request fewer elements (at most about ",
                           cell_count / 2, ")",
                           greedy ? ""
                                  : " or PartitionMethod::greedy_growth, which makes about "
                                    "as many as requested"));
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

namespace {
/// The agglomeration in the order options.element_order asks for (repair numbers by first cell).
template <int Dim>
Agglomeration in_element_order(const SimplexMesh<Dim>& mesh, Agglomeration agglomeration,
                               const AgglomerationOptions& options) {
  if (options.element_order == ElementOrder::hilbert_curve)
    order_elements_along_hilbert_curve(mesh, agglomeration);
  return agglomeration;
}
}  // namespace

template <int Dim>
Agglomeration agglomerate(const SimplexMesh<Dim>& mesh, Index element_count,
                          const AgglomerationOptions& options) {
  const Index n_cells = mesh.cell_count();
  require(element_count >= 1 && element_count <= n_cells, "agglomerate: ", element_count,
          " elements requested from a mesh of ", n_cells, " cells; need 1 <= elements <= cells");
  const CellAdjacency graph = cell_adjacency(mesh);
  std::vector<Index> part(n_cells, 0);
  const bool greedy = options.method == PartitionMethod::greedy_growth && element_count > 1 &&
                      element_count < n_cells;
  require(options.largest_part_factor == 0 ||
              (std::isfinite(options.largest_part_factor) && options.largest_part_factor >= 1),
          "agglomerate: largest_part_factor ", options.largest_part_factor,
          " must be 0 (keep METIS's parts) or a finite number >= 1");
  Index greedy_merged_parts = 0, split_parts = 0, labels = element_count;
  if (element_count == n_cells)
    std::iota(part.begin(), part.end(), 0);  // no agglomeration: no partitioner needed
  else if (greedy)
    part = greedy_partition<Dim>(graph, cell_centres(mesh), element_count, greedy_merged_parts);
  else if (element_count > 1) {
    part = metis_partition(graph, element_count, options);
    labels = split_large_parts(mesh, graph, part, element_count, options.largest_part_factor,
                               split_parts);
  }
  Agglomeration result;
  if (!greedy) {
    result = repair(graph, part, labels, options.merge_fraction);
    result.requested_count = element_count;
    result.split_parts = split_parts;
  } else {
    // Greedy growth labels its parts 0..parts−1 (about element_count of them), connected
    // already: the repair only renumbers them.
    labels = *std::max_element(part.begin(), part.end()) + 1;
    result = repair(graph, part, labels, options.merge_fraction);
    result.requested_count = element_count;
  }
  warn_about_shortfall(result, n_cells, greedy, greedy_merged_parts);
  return in_element_order(mesh, std::move(result), options);
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
  return in_element_order(
      mesh, repair(cell_adjacency(mesh), part_of_cell, label_count, options.merge_fraction),
      options);
}

namespace {
/// The element graph of a partition: elements adjacent when two of their cells share an
/// interior facet, each neighbour once, in CSR form.
CellAdjacency element_adjacency(const CellAdjacency& cells, std::span<const Index> element_of_cell,
                                Index element_count) {
  std::vector<std::vector<Index>> neighbours(static_cast<std::size_t>(element_count));
  for (Index c = 0; c < cells.cell_count(); ++c)
    for (const Index d : cells.neighbours_of(c))
      if (element_of_cell[c] != element_of_cell[d])
        neighbours[element_of_cell[c]].push_back(element_of_cell[d]);
  CellAdjacency graph;
  graph.offsets.assign(std::size_t(element_count) + 1, 0);
  for (Index e = 0; e < element_count; ++e) {
    std::vector<Index>& list = neighbours[e];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    graph.offsets[e + 1] = graph.offsets[e] + Index(list.size());
    graph.neighbours.insert(graph.neighbours.end(), list.begin(), list.end());
  }
  return graph;
}
}  // namespace

template <int Dim>
Agglomeration coarsen_agglomeration(const SimplexMesh<Dim>& mesh,
                                    std::span<const Index> element_of_cell, Index coarse_count,
                                    const AgglomerationOptions& options) {
  require(Index(element_of_cell.size()) == mesh.cell_count(),
          "coarsen_agglomeration: ", element_of_cell.size(), " element labels given for ",
          mesh.cell_count(), " cells");
  Index element_count = 0;
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    require(element_of_cell[c] >= 0, "coarsen_agglomeration: cell ", c, " has negative element ",
            element_of_cell[c]);
    element_count = std::max(element_count, element_of_cell[c] + 1);
  }
  require(coarse_count >= 1 && coarse_count <= element_count,
          "coarsen_agglomeration: ", coarse_count, " coarse elements requested from ",
          element_count, " elements; need 1 <= coarse elements <= elements");
  const CellAdjacency cells = cell_adjacency(mesh);
  const CellAdjacency elements = element_adjacency(cells, element_of_cell, element_count);
  std::vector<Index> part(std::size_t(element_count), 0);
  if (coarse_count == element_count) {
    std::iota(part.begin(), part.end(), 0);
  } else if (coarse_count > 1 && options.method == PartitionMethod::greedy_growth) {
    // The elements' centres: the mean of their cells' centres.
    const std::vector<Point<Dim>> cell_centre = cell_centres(mesh);
    std::vector<Point<Dim>> centres(std::size_t(element_count), Point<Dim>{});
    std::vector<double> cells_in(std::size_t(element_count), 0.0);
    for (Index c = 0; c < mesh.cell_count(); ++c) {
      centres[element_of_cell[c]] = centres[element_of_cell[c]] + cell_centre[c];
      cells_in[element_of_cell[c]] += 1;
    }
    for (Index e = 0; e < element_count; ++e)
      centres[e] = (1.0 / std::max(cells_in[e], 1.0)) * centres[e];
    Index merged = 0;
    part = greedy_partition<Dim>(elements, centres, coarse_count, merged);
  } else if (coarse_count > 1) {
    part = metis_partition(elements, coarse_count, options);
  }
  std::vector<Index> part_of_cell(std::size_t(mesh.cell_count()));
  Index labels = 1;
  for (Index c = 0; c < mesh.cell_count(); ++c) {
    part_of_cell[c] = part[element_of_cell[c]];
    labels = std::max(labels, part_of_cell[c] + 1);
  }
  Agglomeration result = repair(cells, part_of_cell, labels, options.merge_fraction);
  result.requested_count = coarse_count;
  return in_element_order(mesh, std::move(result), options);
}

template CellAdjacency cell_adjacency(const SimplexMesh<2>&);
template CellAdjacency cell_adjacency(const SimplexMesh<3>&);
template Agglomeration agglomerate(const SimplexMesh<2>&, Index, const AgglomerationOptions&);
template Agglomeration agglomerate(const SimplexMesh<3>&, Index, const AgglomerationOptions&);
template Agglomeration agglomerate_by_cell_count(const SimplexMesh<2>&, double,
                                                 const AgglomerationOptions&);
template Agglomeration agglomerate_by_cell_count(const SimplexMesh<3>&, double,
                                                 const AgglomerationOptions&);
template Agglomeration coarsen_agglomeration(const SimplexMesh<2>&, std::span<const Index>, Index,
                                             const AgglomerationOptions&);
template Agglomeration coarsen_agglomeration(const SimplexMesh<3>&, std::span<const Index>, Index,
                                             const AgglomerationOptions&);
template Agglomeration repair_partition(const SimplexMesh<2>&, std::span<const Index>,
                                        const AgglomerationOptions&);
template Agglomeration repair_partition(const SimplexMesh<3>&, std::span<const Index>,
                                        const AgglomerationOptions&);

}  // namespace polydg
