#include "polydg/dg/quadrature_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <utility>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/core/point_io.hpp"
#include "polydg/dg/last_coordinate_map.hpp"
#include "polydg/fem/quadrature_cache.hpp"

namespace polydg {
namespace {

// A permutation of 0..n−1 grouped by key (stable, so ascending within a group) and the group
// offsets: offsets[k] .. offsets[k + 1] are the items with key k.
void group_by_key(std::span<const int> keys, int max_key, std::vector<Index>& order,
                  std::vector<Index>& offsets) {
  offsets.assign(std::size_t(max_key) + 2, 0);
  for (int key : keys) ++offsets[key + 1];
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  order.resize(keys.size());
  std::vector<Index> fill(offsets.begin(), offsets.end() - 1);
  for (std::size_t i = 0; i < keys.size(); ++i) order[fill[keys[i]]++] = Index(i);
}

}  // namespace

namespace {

// ---- slab prisms (QuadraturePieces::slab_prisms) ----

// The fine mesh of a slab seen as prisms: prism k is fine cells 3k..3k+2 (extrude_to_slab).
template <int Dim>
class SlabPrisms {
 public:
  explicit SlabPrisms(const SimplexMesh<Dim>& fine) : fine_(fine) {
    require(Dim == 3, "QuadratureMesh: slab_prisms needs a 3D space-time slab, not a ", Dim,
            "D mesh");
    require(fine.cell_count() % 3 == 0, "QuadratureMesh: slab_prisms needs a space-time slab ",
            "(extrude_to_slab), but ", fine.source().name, " has ", fine.cell_count(),
            " cells, not three per prism");
  }

  static Index of_cell(Index cell) { return cell / 3; }

  /// Prism k as (a, b, c, a'): its bottom simplex and the vertex above a.
  std::array<Point<Dim>, Dim + 1> vertices(Index prism) const {
    VertexList ids;
    for (Index c = 3 * prism; c < 3 * prism + 3; ++c)
      for (Index v : fine_.cell(c)) ids.push(v);
    const auto [bottom, top] = time_levels(ids, 2 * Dim, "cells", 3 * prism);
    std::array<Point<Dim>, Dim + 1> result;
    for (int k = 0; k < Dim; ++k) result[k] = point(bottom.ids[k]);
    result[Dim] = point(above(bottom.ids[0], top, "cells", 3 * prism));
    return result;
  }

  /// The lateral rectangle of the fine facets `facets` (its two triangles) as (p, q, p'):
  /// its bottom edge and the vertex above p.
  std::array<Point<Dim>, Dim> rectangle(std::span<const Index> facets) const {
    VertexList ids;
    for (Index f : facets)
      for (Index v : fine_.facet_vertices(f)) ids.push(v);
    const auto [bottom, top] = time_levels(ids, 2 * (Dim - 1), "facets", facets[0]);
    std::array<Point<Dim>, Dim> result;
    for (int k = 0; k + 1 < Dim; ++k) result[k] = point(bottom.ids[k]);
    result[Dim - 1] = point(above(bottom.ids[0], top, "facets", facets[0]));
    return result;
  }

 private:
  // Vertex numbers of up to three cells (no allocation: the constructor visits every prism).
  struct VertexList {
    std::array<Index, 3 * (Dim + 1)> ids{};
    int size = 0;
    void push(Index v) {
      if (size < int(ids.size())) ids[size++] = v;
    }
  };

  const Point<Dim>& point(Index v) const { return fine_.vertices()[v]; }

  // The distinct vertices of `ids` (expected: `count`), split into the lower and upper time
  // level.
  std::pair<VertexList, VertexList> time_levels(VertexList ids, int count, const char* what,
                                                Index first) const {
    // Insertion into a sorted list without repeats (at most 12 numbers).
    VertexList distinct;
    for (int k = 0; k < ids.size; ++k) {
      int at = 0;
      while (at < distinct.size && distinct.ids[at] < ids.ids[k]) ++at;
      if (at < distinct.size && distinct.ids[at] == ids.ids[k]) continue;
      for (int m = distinct.size; m > at; --m) distinct.ids[m] = distinct.ids[m - 1];
      distinct.ids[at] = ids.ids[k];
      ++distinct.size;
    }
    ids = distinct;
    const auto time = [&](Index v) { return point(v)[Dim - 1]; };
    VertexList bottom, top;
    if (ids.size == count) {
      double t0 = time(ids.ids[0]), t1 = t0;
      for (int k = 1; k < ids.size; ++k) {
        t0 = std::min(t0, time(ids.ids[k]));
        t1 = std::max(t1, time(ids.ids[k]));
      }
      for (int k = 0; k < ids.size; ++k) {
        if (time(ids.ids[k]) == t0) bottom.push(ids.ids[k]);
        if (time(ids.ids[k]) == t1) top.push(ids.ids[k]);
      }
      if (t0 < t1 && bottom.size == count / 2 && top.size == count / 2) return {bottom, top};
    }
    raise("QuadratureMesh: slab_prisms needs a space-time slab (extrude_to_slab), but the fine ",
          what, " from ", first, " of ", fine_.source().name,
          " are not one prism (or lateral rectangle) between two time levels");
  }

  Index above(Index v, const VertexList& top, const char* what, Index first) const {
    for (int k = 0; k < top.size; ++k) {
      const Index u = top.ids[k];
      bool same = true;
      for (int c = 0; c + 1 < Dim; ++c) same = same && point(u)[c] == point(v)[c];
      if (same) return u;
    }
    raise("QuadratureMesh: slab_prisms: the fine ", what, " from ", first, " of ",
          fine_.source().name, " are not vertical (no vertex above ", point(v), ")");
  }

  const SimplexMesh<Dim>& fine_;
};

}  // namespace

template <int Dim>
const QuadratureRule<Dim>& element_piece_rule(QuadraturePieces pieces, SlabRules rules,
                                              int degree) {
  if (pieces == QuadraturePieces::simplices) return simplex_rule<Dim>(degree);
  if constexpr (Dim == 3) {
    if (rules == SlabRules::total_degree) return total_degree_prism_rule(degree);
  }
  return prism_rule<Dim>(degree, degree);
}

template <int Dim>
const QuadratureRule<Dim - 1>& interface_piece_rule(QuadraturePieces pieces, SlabRules rules,
                                                    int degree) {
  if (pieces == QuadraturePieces::simplices) return simplex_rule<Dim - 1>(degree);
  if constexpr (Dim == 3) {
    return rules == SlabRules::total_degree ? total_degree_square_rule(degree)
                                            : cube_rule<2>(degree);
  } else {
    raise("interface_piece_rule: slab_prisms needs a 3D space-time slab, not a ", Dim, "D mesh");
  }
}

/// Which elements and interfaces of a PolytopicMesh a QuadratureMesh holds: all of them (whole),
/// or a rank's part (the header's file comment), in its local order.
template <int Dim>
struct QuadratureMesh<Dim>::Selection {
  bool whole = true;
  /// The mesh element of each element here (owned first), and the owned count.
  std::vector<Index> elements;
  Index owned = 0;
  /// The mesh interface of each interface here, and whether its elements are here in the
  /// other order (local first < local second, as on a whole mesh).
  std::vector<Index> interfaces;
  std::vector<char> flipped;
  /// Per ghost (CSR): its mesh interfaces that are not here (to another ghost or to an element
  /// not here).
  std::vector<Index> outer_offsets, outer_interfaces;
  /// Per mesh element, its index here (−1: not here).
  std::vector<Index> local;
  /// A rank's part as a mesh of its own (rank_piece): its boundary facets of this tag are
  /// where the part ends, not the domain's boundary; they bound ghosts only, and count as
  /// their outer facets.
  std::optional<int> cut_tag;
  bool is_cut(int tag) const { return cut_tag && tag == *cut_tag; }

  Index element_count(const PolytopicMesh<Dim>& mesh) const {
    return whole ? mesh.element_count() : Index(elements.size());
  }
  Index element(Index k) const { return whole ? k : elements[k]; }
  Index interface_count(const PolytopicMesh<Dim>& mesh) const {
    return whole ? mesh.interface_count() : Index(interfaces.size());
  }
  Index interface(Index k) const { return whole ? k : interfaces[k]; }
  bool is_flipped(Index k) const { return !whole && flipped[k]; }

  /// Rank `rank`'s part (header's file comment).
  static Selection rank_part(const PolytopicMesh<Dim>& mesh, const MeshPartition& partition,
                             int rank) {
    require(Index(partition.part_of_element.size()) == mesh.element_count(),
            "QuadratureMesh: the partition has ", partition.part_of_element.size(),
            " elements, the mesh ", mesh.element_count(), ": it is not this mesh's");
    require(rank >= 0 && rank < partition.part_count, "QuadratureMesh: rank ", rank,
            " is not a part of the partition's ", partition.part_count);
    Selection s;
    s.whole = false;
    const Index begin = partition.part_begin[rank], end = partition.part_begin[rank + 1];
    const auto& ghosts = partition.ghosts[rank];
    s.owned = end - begin;
    s.elements.reserve(std::size_t(s.owned) + ghosts.size());
    for (Index n = begin; n < end; ++n) s.elements.push_back(partition.old_from_new[n]);
    for (Index n : ghosts) s.elements.push_back(partition.old_from_new[n]);
    s.local.assign(std::size_t(mesh.element_count()), -1);
    for (std::size_t k = 0; k < s.elements.size(); ++k) s.local[s.elements[k]] = Index(k);
    const std::vector<Index>& local = s.local;

    // The interfaces of owned elements (each once: listed from its lower local side), sorted by
    // local pair.
    std::vector<std::pair<std::array<Index, 2>, Index>> pairs;
    for (Index k = 0; k < s.owned; ++k)
      for (Index i : mesh.element_interfaces(s.elements[k])) {
        const Index other = local[mesh.neighbour(i, s.elements[k])];
        require(other >= 0, "QuadratureMesh: the partition's ghosts of rank ", rank,
                " lack a neighbour of element ", s.elements[k], ": it is not this mesh's");
        if (other < s.owned && other < k) continue;
        pairs.push_back({{std::min(k, other), std::max(k, other)}, i});
      }
    std::sort(pairs.begin(), pairs.end());
    s.interfaces.reserve(pairs.size());
    s.flipped.reserve(pairs.size());
    for (const auto& [pair, i] : pairs) {
      s.interfaces.push_back(i);
      s.flipped.push_back(local[mesh.interface_elements(i)[0]] != pair[0]);
    }
    s.add_outer_interfaces(mesh);
    return s;
  }

  /// A rank's part read as a mesh of its own (the header's file comment): its elements in
  /// their order, the first `owned` owned.
  static Selection rank_piece(const PolytopicMesh<Dim>& mesh, Index owned, int cut_tag) {
    require(owned >= 0 && owned <= mesh.element_count(), "QuadratureMesh: ", owned,
            " owned elements of a part of ", mesh.element_count());
    Selection s;
    s.whole = false;
    s.owned = owned;
    s.cut_tag = cut_tag;
    s.elements.resize(std::size_t(mesh.element_count()));
    std::iota(s.elements.begin(), s.elements.end(), Index(0));
    s.local = s.elements;
    for (Index k = 0; k < owned; ++k)
      for (const auto& facet : mesh.element_boundary_facets(k))
        require(facet.tag != cut_tag, "QuadratureMesh: owned element ", k, " of ",
                mesh.fine_mesh().source().name, " has a facet of the cut tag ", cut_tag,
                ": a part's owned elements have all their neighbours in it");
    for (Index i = 0; i < mesh.interface_count(); ++i) {
      const auto pair = mesh.interface_elements(i);
      if (pair[0] >= owned && pair[1] >= owned) continue;  // between two ghosts
      s.interfaces.push_back(i);
    }
    // The mesh's interfaces come sorted by element pair (PolytopicMesh), first < second.
    s.flipped.assign(s.interfaces.size(), 0);
    s.add_outer_interfaces(mesh);
    return s;
  }

  /// Per ghost: its interfaces not here (to another ghost, or to an element not here).
  void add_outer_interfaces(const PolytopicMesh<Dim>& mesh) {
    const Index ghosts = Index(elements.size()) - owned;
    outer_offsets.assign(std::size_t(ghosts) + 1, 0);
    for (Index g = 0; g < ghosts; ++g) {
      const Index e = elements[std::size_t(owned + g)];
      for (Index i : mesh.element_interfaces(e))
        if (local[mesh.neighbour(i, e)] < 0 || local[mesh.neighbour(i, e)] >= owned)
          outer_interfaces.push_back(i);
      outer_offsets[std::size_t(g) + 1] = Index(outer_interfaces.size());
    }
  }
};

template <int Dim>
QuadratureMesh<Dim>::QuadratureMesh(const PolytopicMesh<Dim>& mesh,
                                    const BoundaryConditions& conditions, QuadraturePieces pieces_)
    : QuadratureMesh(mesh, conditions, pieces_, Selection{}) {}

template <int Dim>
QuadratureMesh<Dim>::QuadratureMesh(const PolytopicMesh<Dim>& mesh,
                                    const BoundaryConditions& conditions, QuadraturePieces pieces_,
                                    const MeshPartition& partition, int rank)
    : QuadratureMesh(mesh, conditions, pieces_, Selection::rank_part(mesh, partition, rank)) {}

template <int Dim>
QuadratureMesh<Dim>::QuadratureMesh(const PolytopicMesh<Dim>& part,
                                    const BoundaryConditions& conditions, QuadraturePieces pieces_,
                                    Index owned_elements, int cut_tag)
    : QuadratureMesh(part, conditions, pieces_,
                     Selection::rank_piece(part, owned_elements, cut_tag)) {}

template <int Dim>
QuadratureMesh<Dim>::QuadratureMesh(const PolytopicMesh<Dim>& mesh,
                                    const BoundaryConditions& conditions, QuadraturePieces pieces_,
                                    const Selection& selection)
    : pieces(pieces_) {
  const SimplexMesh<Dim>& fine = mesh.fine_mesh();
  std::vector<int> tags = fine.boundary_tag_values();
  std::erase_if(tags, [&](int tag) { return selection.is_cut(tag); });
  conditions.require_all(tags, fine.source().name);
  const Index elements = selection.element_count(mesh);
  owned_element_count = selection.whole ? elements : selection.owned;
  std::optional<SlabPrisms<Dim>> prisms;
  if (pieces == QuadraturePieces::slab_prisms) prisms.emplace(fine);

  // Every array is filled in parallel (OpenMP) in two passes — the pieces per item, then
  // each item's pieces at its offset — in the order of the serial loops, so the arrays do not
  // depend on the thread count; an error names the smallest failing element or interface.

  // Elements and their pieces (a prism is its three cells, which follow each other in the
  // element's ascending cell list).
  element_boxes.resize(elements);
  element_degrees.resize(elements);
  element_measures.resize(elements);
  element_simplex_offsets.assign(std::size_t(elements) + 1, 0);
  parallel_for(0, elements, [&](GlobalIndex e) {
    const Index m = selection.element(Index(e));
    element_boxes[e] = mesh.element_box(m);
    element_degrees[e] = mesh.element_degree(m);
    element_measures[e] = mesh.element_measure(m);
    element_simplex_offsets[e + 1] = prisms ? Index((mesh.element_cells(m).size() + 2) / 3)
                                            : Index(mesh.element_simplices(m).size());
  });
  std::partial_sum(element_simplex_offsets.begin(), element_simplex_offsets.end(),
                   element_simplex_offsets.begin());
  simplex_vertices.resize(std::size_t(element_simplex_offsets.back()));
  parallel_for(0, elements, [&](GlobalIndex e) {
    const Index m = selection.element(Index(e));
    Index at = element_simplex_offsets[e];
    if (prisms) {
      const auto cells = mesh.element_cells(m);
      for (std::size_t c = 0; c < cells.size(); c += 3) {
        require(cells[c] % 3 == 0 && c + 2 < cells.size() && cells[c + 2] == cells[c] + 2,
                "QuadratureMesh: slab_prisms: element ", m, " of ", fine.source().name,
                " does not consist of whole prisms (fine cells 3k..3k+2)");
        simplex_vertices[at++] = prisms->vertices(SlabPrisms<Dim>::of_cell(cells[c]));
      }
    } else {
      for (const auto& simplex : mesh.element_simplices(m)) {
        const auto points = mesh.simplex_points(simplex);
        std::copy(points.begin(), points.end(), simplex_vertices[at++].begin());
      }
    }
  });
  const int max_p =
      elements == 0 ? 0 : *std::max_element(element_degrees.begin(), element_degrees.end());
  // Only owned elements are integrated over: the degree groups list them alone.
  group_by_key(std::span<const int>(element_degrees).first(std::size_t(owned_element_count)), max_p,
               elements_by_degree, degree_offsets);

  // The pieces of mesh interface i seen from mesh element `first` (normals out of it, the
  // |K_F| of its side first). With prisms, the two triangles of a lateral rectangle (the
  // facets between the same two prisms) become one piece, in the order of their first triangle
  // (so an interface has half as many pieces as facets, or it is not made of rectangles and
  // raises). Writes from `at` on; normals, measures and cell measures where non-null.
  const auto piece_count = [&](Index i) {
    const std::size_t facets = mesh.interface_facets(i).size();
    return Index(prisms ? facets / 2 : facets);
  };
  const auto write_pieces = [&](Index i, Index first, Index at, FacetVertices* vertices,
                                Point<Dim>* normals, double* measures,
                                std::array<double, 2>* cell_measures) {
    const auto facets = mesh.interface_facets(i);
    const int side = mesh.interface_elements(i)[0] == first ? 0 : 1;
    thread_local std::vector<char> done;  // per thread: no allocation per interface
    done.assign(facets.size(), 0);
    for (std::size_t k = 0; k < facets.size(); ++k) {
      if (done[k]) continue;
      const auto& facet = facets[k];
      Point<Dim> normal = fine.facet_unit_normal(facet.facet);
      if (mesh.element_of_cell(fine.facet_cells(facet.facet)[0]) != first) normal *= -1.0;
      double facet_measure = 0;
      std::array<double, 2> cell_measure{};
      if (prisms) {
        const Index prism[2] = {SlabPrisms<Dim>::of_cell(facet.cells[0]),
                                SlabPrisms<Dim>::of_cell(facet.cells[1])};
        // The penalty stays the tetrahedral sub-mesh's: |F| is a triangle's area (the two
        // halves are equal) and |K_F| on each side the smaller of the two triangles' cells, so
        // σ on the rectangle is the larger of its triangles' (penalty_term grows with |F| and
        // falls with |K_F|) and never below the simplex pieces' σ.
        std::array<Index, 2> rectangle{};
        std::size_t rectangle_facets = 0;
        cell_measure = {std::numeric_limits<double>::infinity(),
                        std::numeric_limits<double>::infinity()};
        for (std::size_t m = k; m < facets.size(); ++m)
          if (SlabPrisms<Dim>::of_cell(facets[m].cells[0]) == prism[0] &&
              SlabPrisms<Dim>::of_cell(facets[m].cells[1]) == prism[1]) {
            if (rectangle_facets < rectangle.size()) rectangle[rectangle_facets] = facets[m].facet;
            ++rectangle_facets;
            facet_measure = std::max(facet_measure, fine.facet_measure(facets[m].facet));
            for (int s = 0; s < 2; ++s)
              cell_measure[s] = std::min(cell_measure[s], fine.cell_measure(facets[m].cells[s]));
            done[m] = 1;
          }
        require(rectangle_facets == 2, "QuadratureMesh: slab_prisms: ", rectangle_facets,
                " fine facets of interface ", i, " lie between prisms ", prism[0], " and ",
                prism[1], " of ", fine.source().name, " (a lateral rectangle has two)");
        vertices[at] = prisms->rectangle(rectangle);
      } else {
        const auto points = fine.facet_points(facet.facet);
        std::copy(points.begin(), points.end(), vertices[at].begin());
        facet_measure = fine.facet_measure(facet.facet);
        cell_measure = {fine.cell_measure(facet.cells[0]), fine.cell_measure(facet.cells[1])};
      }
      if (normals) normals[at] = normal;
      if (measures) measures[at] = facet_measure;
      if (cell_measures) cell_measures[at] = {cell_measure[side], cell_measure[1 - side]};
      ++at;
    }
  };

  // Interfaces: the normal of each piece points out of the interface's first element.
  const Index interfaces = selection.interface_count(mesh);
  interface_elements.resize(interfaces);
  interface_facet_offsets.assign(std::size_t(interfaces) + 1, 0);
  std::vector<int> interface_degrees(interfaces);
  parallel_for(0, interfaces, [&](GlobalIndex i) {
    const Index m = selection.interface(Index(i));
    auto pair = mesh.interface_elements(m);
    if (selection.is_flipped(Index(i))) std::swap(pair[0], pair[1]);
    interface_elements[i] = pair;  // mesh numbers; made local below
    interface_degrees[i] = std::max(mesh.element_degree(pair[0]), mesh.element_degree(pair[1]));
    interface_facet_offsets[i + 1] = piece_count(m);
  });
  std::partial_sum(interface_facet_offsets.begin(), interface_facet_offsets.end(),
                   interface_facet_offsets.begin());
  const std::size_t interface_pieces = std::size_t(interface_facet_offsets.back());
  interface_facet_vertices.resize(interface_pieces);
  interface_facet_normals.resize(interface_pieces);
  interface_facet_measures.resize(interface_pieces);
  interface_facet_cell_measures.resize(interface_pieces);
  parallel_for(0, interfaces, [&](GlobalIndex i) {
    write_pieces(selection.interface(Index(i)), interface_elements[i][0],
                 interface_facet_offsets[i], interface_facet_vertices.data(),
                 interface_facet_normals.data(), interface_facet_measures.data(),
                 interface_facet_cell_measures.data());
  });
  if (!selection.whole)
    for (auto& pair : interface_elements)
      pair = {selection.local[pair[0]], selection.local[pair[1]]};
  group_by_key(interface_degrees, max_p, interfaces_by_degree, interface_degree_offsets);

  // Ghosts' outer interface pieces (vertices only: the trace constants read nothing else).
  // On a part read as a mesh of its own, a ghost's cut facets (its interfaces to elements not
  // here) come after its outer interfaces' pieces: each facet, or with prisms each lateral
  // rectangle (the two cut facets of one prism with one normal).
  const auto cut_facet_count = [&](Index e) {
    Index count = 0;
    if (selection.cut_tag)
      for (const auto& facet : mesh.element_boundary_facets(e))
        count += selection.is_cut(facet.tag);
    return count;
  };
  const auto write_cut_pieces = [&](Index e, FacetVertices* at) {
    thread_local std::vector<typename PolytopicMesh<Dim>::BoundaryFacet> cut;
    cut.clear();
    for (const auto& facet : mesh.element_boundary_facets(e))
      if (selection.is_cut(facet.tag)) cut.push_back(facet);
    if (!prisms) {
      for (const auto& facet : cut) {
        const auto points = fine.facet_points(facet.facet);
        std::copy(points.begin(), points.end(), (at++)->begin());
      }
      return;
    }
    thread_local std::vector<char> paired;
    paired.assign(cut.size(), 0);
    for (std::size_t k = 0; k < cut.size(); ++k) {
      if (paired[k]) continue;
      const Point<Dim> normal = fine.facet_unit_normal(cut[k].facet);
      std::size_t m = k + 1;
      while (m < cut.size() &&
             (paired[m] ||
              SlabPrisms<Dim>::of_cell(cut[m].cell) != SlabPrisms<Dim>::of_cell(cut[k].cell) ||
              dot(fine.facet_unit_normal(cut[m].facet), normal) < 1 - 1e-12))
        ++m;
      require(m < cut.size(), "QuadratureMesh: slab_prisms: the cut facet ", cut[k].facet,
              " of element ", e, " of ", fine.source().name,
              " has no second triangle in its prism's lateral rectangle");
      paired[m] = 1;
      const Index rectangle[2] = {cut[k].facet, cut[m].facet};
      *at++ = prisms->rectangle(rectangle);
    }
  };
  if (!selection.whole) {
    const Index ghosts = elements - owned_element_count;
    ghost_outer_facet_offsets.assign(std::size_t(ghosts) + 1, 0);
    for (Index g = 0; g < ghosts; ++g) {
      const Index cut = cut_facet_count(selection.element(owned_element_count + g));
      Index count = prisms ? cut / 2 : cut;
      for (Index k = selection.outer_offsets[g]; k < selection.outer_offsets[g + 1]; ++k)
        count += piece_count(selection.outer_interfaces[k]);
      ghost_outer_facet_offsets[g + 1] = ghost_outer_facet_offsets[g] + count;
    }
    ghost_outer_facet_vertices.resize(std::size_t(ghost_outer_facet_offsets.back()));
    parallel_for(0, ghosts, [&](GlobalIndex g) {
      Index at = ghost_outer_facet_offsets[g];
      for (Index k = selection.outer_offsets[g]; k < selection.outer_offsets[g + 1]; ++k) {
        const Index i = selection.outer_interfaces[k];
        write_pieces(i, selection.element(owned_element_count + Index(g)), at,
                     ghost_outer_facet_vertices.data(), nullptr, nullptr, nullptr);
        at += piece_count(i);
      }
      if (selection.cut_tag)
        write_cut_pieces(selection.element(owned_element_count + Index(g)),
                         ghost_outer_facet_vertices.data() + at);
    });
  }

  // Boundary sub-facets by element; the fine mesh's normal of a boundary facet points out.
  // They stay triangles (with their tetrahedra's measures) also with prisms.
  element_boundary_offsets.assign(std::size_t(elements) + 1, 0);
  for (Index e = 0; e < elements; ++e)
    element_boundary_offsets[e + 1] =
        element_boundary_offsets[e] +
        Index(mesh.element_boundary_facets(selection.element(e)).size()) -
        cut_facet_count(selection.element(e));
  const std::size_t boundary_pieces = std::size_t(element_boundary_offsets.back());
  boundary_facet_vertices.resize(boundary_pieces);
  boundary_facet_normals.resize(boundary_pieces);
  boundary_facet_measures.resize(boundary_pieces);
  boundary_facet_cell_measures.resize(boundary_pieces);
  boundary_facet_tags.resize(boundary_pieces);
  boundary_facet_kinds.resize(boundary_pieces);
  element_boundary_previous_slab_ends.resize(std::size_t(elements));
  element_boundary_top_begins.resize(std::size_t(elements));
  parallel_for(0, elements, [&](GlobalIndex e) {
    // Each facet's place in the element's range from one look at it (its normal computed
    // once): the previous_slab facets first, then the others not on top, each in the mesh's
    // order, then the others whose normal is along +e_last (is_last_axis_top) filled from the
    // end (so in reverse mesh order).
    // On a part, without its cut facets (copied only there: a whole mesh's are all kept).
    using BoundaryFacet = typename PolytopicMesh<Dim>::BoundaryFacet;
    std::span<const BoundaryFacet> facets =
        mesh.element_boundary_facets(selection.element(Index(e)));
    thread_local std::vector<BoundaryFacet> uncut;
    if (selection.cut_tag) {
      uncut.clear();
      for (const BoundaryFacet& facet : facets)
        if (!selection.is_cut(facet.tag)) uncut.push_back(facet);
      facets = uncut;
    }
    thread_local std::vector<Point<Dim>> normals;  // per thread: no allocation per element
    thread_local std::vector<BoundaryKind> kinds;
    thread_local std::vector<char> groups;  // 0 previous slab, 1 other, 2 top
    normals.resize(facets.size());
    kinds.resize(facets.size());
    groups.resize(facets.size());
    Index previous_slab = 0;
    for (std::size_t k = 0; k < facets.size(); ++k) {
      normals[k] = fine.facet_unit_normal(facets[k].facet);
      kinds[k] = conditions.kind(facets[k].tag);
      groups[k] = kinds[k] == BoundaryKind::previous_slab ? 0
                  : is_last_axis_top(normals[k])          ? 2
                                                          : 1;
      previous_slab += groups[k] == 0;
    }
    const Index begin = element_boundary_offsets[e];
    Index next[3] = {begin, begin + previous_slab, element_boundary_offsets[e + 1]};
    for (std::size_t k = 0; k < facets.size(); ++k) {
      const auto& facet = facets[k];
      const Index at = groups[k] == 2 ? --next[2] : next[int(groups[k])]++;
      const auto points = fine.facet_points(facet.facet);
      std::copy(points.begin(), points.end(), boundary_facet_vertices[at].begin());
      boundary_facet_normals[at] = normals[k];
      boundary_facet_measures[at] = fine.facet_measure(facet.facet);
      boundary_facet_cell_measures[at] = fine.cell_measure(facet.cell);
      boundary_facet_tags[at] = facet.tag;
      boundary_facet_kinds[at] = kinds[k];
    }
    element_boundary_previous_slab_ends[e] = begin + previous_slab;
    element_boundary_top_begins[e] = next[1];  // = next[2]
  });
}

template const QuadratureRule<2>& element_piece_rule<2>(QuadraturePieces, SlabRules, int);
template const QuadratureRule<3>& element_piece_rule<3>(QuadraturePieces, SlabRules, int);
template const QuadratureRule<1>& interface_piece_rule<2>(QuadraturePieces, SlabRules, int);
template const QuadratureRule<2>& interface_piece_rule<3>(QuadraturePieces, SlabRules, int);
template struct QuadratureMesh<2>;
template struct QuadratureMesh<3>;

}  // namespace polydg

namespace polydg {

template <int Dim>
void check_last_axis_facets(const QuadratureMesh<Dim>& mesh) {
  constexpr int t = Dim - 1;
  const auto check = [](std::span<const Point<Dim>> normals, const char* kind) {
    for (std::size_t f = 0; f < normals.size(); ++f) {
      const double along = std::abs(normals[f][t]);
      require(along < 1e-12 || std::abs(along - 1) < 1e-12, "map_last_coordinate: ", kind,
              " sub-facet ", f, " has the normal component ", normals[f][t],
              " along the last axis: it is neither parallel nor orthogonal to it");
    }
  };
  check(mesh.interface_facet_normals, "interface");
  check(mesh.boundary_facet_normals, "boundary");
}

template <int Dim>
void map_last_coordinate(QuadratureMesh<Dim>& mesh, double from_begin, double from_end,
                         double to_begin, double to_end) {
  const LastCoordinateMap map(from_begin, from_end, to_begin, to_end);
  check_last_axis_facets(mesh);
  constexpr int t = Dim - 1;
  for (auto& vertices : mesh.simplex_vertices)
    for (auto& vertex : vertices) vertex[t] = map(vertex[t]);
  for (auto& box : mesh.element_boxes) {
    box.lower[t] = map(box.lower[t]);
    box.upper[t] = map(box.upper[t]);
  }
  for (double& measure : mesh.element_measures) measure *= map.scale;
  for (std::size_t f = 0; f < mesh.interface_facet_vertices.size(); ++f) {
    for (auto& vertex : mesh.interface_facet_vertices[f]) vertex[t] = map(vertex[t]);
    mesh.interface_facet_measures[f] *= map.facet_scale(mesh.interface_facet_normals[f][t]);
    for (double& cell : mesh.interface_facet_cell_measures[f]) cell *= map.scale;
  }
  for (std::size_t f = 0; f < mesh.boundary_facet_vertices.size(); ++f) {
    for (auto& vertex : mesh.boundary_facet_vertices[f]) vertex[t] = map(vertex[t]);
    mesh.boundary_facet_measures[f] *= map.facet_scale(mesh.boundary_facet_normals[f][t]);
    mesh.boundary_facet_cell_measures[f] *= map.scale;
  }
}

template void check_last_axis_facets(const QuadratureMesh<2>&);
template void check_last_axis_facets(const QuadratureMesh<3>&);
template void map_last_coordinate(QuadratureMesh<2>&, double, double, double, double);
template void map_last_coordinate(QuadratureMesh<3>&, double, double, double, double);

}  // namespace polydg
