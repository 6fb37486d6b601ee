#include "polydg/mesh/simplex_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <set>

#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/mesh/simplex_geometry.hpp"

namespace polydg {

std::string MeshSource::describe_cell(Index cell) const {
  if (std::size_t(cell) < cell_lines.size())
    return detail::concatenate(name, ":", cell_lines[cell], ": cell ", cell);
  return detail::concatenate(name, ": cell ", cell);
}

namespace {

template <int Dim>
double longest_edge(const std::array<Point<Dim>, Dim + 1>& p) {
  double longest = 0;
  for (int i = 0; i <= Dim; ++i)
    for (int j = i + 1; j <= Dim; ++j)
      longest = std::max(longest, std::sqrt(dot(p[i] - p[j], p[i] - p[j])));
  return longest;
}

template <std::size_t N>
std::string format_indices(const std::array<Index, N>& indices) {
  std::string text = "(";
  for (std::size_t i = 0; i < N; ++i) text += (i ? ", " : "") + std::to_string(indices[i]);
  return text + ")";
}

}  // namespace

template <int Dim>
SimplexMesh<Dim>::SimplexMesh(std::vector<Point<Dim>> vertices, std::vector<Cell> cells,
                              std::vector<int> cell_regions, std::vector<TaggedFacet> boundary_tags,
                              MeshSource source)
    : vertices_(std::move(vertices)),
      cells_(std::move(cells)),
      cell_regions_(std::move(cell_regions)),
      source_(std::move(source)) {
  const Index n_vertices = vertex_count();
  const Index n_cells = cell_count();
  require(n_cells > 0, source_.name, ": the mesh has no cells");
  if (cell_regions_.empty()) cell_regions_.assign(n_cells, 0);
  require(Index(cell_regions_.size()) == n_cells, source_.name, ": ", cell_regions_.size(),
          " cell regions given for ", n_cells, " cells");
  for (Index v = 0; v < n_vertices; ++v)
    for (int i = 0; i < Dim; ++i)
      if (!std::isfinite(vertices_[v][i]))
        raise(source_.name, ": vertex ", v, " has a non-finite coordinate");

  // The per-cell checks build their message only on failure (`if (!ok) raise(...)`, not
  // require): describe_cell formats a string, which would dominate on large meshes. Cells and
  // interior facets are checked in parallel (parallel_for raises the error of the smallest
  // failing index, as the serial loop did).
  // Cells: indices in range, distinct, non-degenerate, positively oriented.
  cell_measures_.resize(n_cells);
  parallel_for(0, n_cells, [&](GlobalIndex k) {
    const Index c = Index(k);
    Cell& cell = cells_[c];
    for (int i = 0; i <= Dim; ++i) {
      if (!(cell[i] >= 0 && cell[i] < n_vertices))
        raise(source_.describe_cell(c), ": vertex index ", cell[i], " out of range [0, ",
              n_vertices, ")");
      for (int j = 0; j < i; ++j)
        if (cell[i] == cell[j])
          raise(source_.describe_cell(c), ": vertex ", cell[i], " appears twice");
    }
    const auto points = cell_points(c);
    const double measure = simplex_signed_measure<Dim>(points.data());
    const double scale = std::pow(longest_edge<Dim>(points), Dim);
    if (!(std::abs(measure) > 1e-12 * scale))
      raise(source_.describe_cell(c), ": degenerate cell (", Dim == 2 ? "area " : "volume ",
            measure, ", longest edge ", longest_edge<Dim>(points), ")");
    if (measure < 0) std::swap(cell[Dim - 1], cell[Dim]);
    cell_measures_[c] = std::abs(measure);
  });

  // Facets: every cell contributes its Dim+1 facets as sorted vertex tuples; sorting the
  // (tuple, cell, local index) records groups the copies of each facet together.
  struct FacetRecord {
    Facet vertices;
    Index cell;
    int local;
  };
  const auto facet_of = [&](Index c, int i) {
    Facet facet;
    for (int k = 0, m = 0; k <= Dim; ++k)
      if (k != i) facet[m++] = cells_[c][k];
    std::sort(facet.begin(), facet.end());
    return facet;
  };
  // The records in lexicographic order of (vertices, cell), as one std::sort of them all gave
  // (a large part of extrude_to_slab's time on large slabs): placed by their first,
  // smallest vertex (a counting sort), then each vertex's few records sorted, in parallel.
  std::vector<std::size_t> first_vertex_offsets(std::size_t(n_vertices) + 1, 0);
  for (Index c = 0; c < n_cells; ++c)
    for (int i = 0; i <= Dim; ++i) ++first_vertex_offsets[std::size_t(facet_of(c, i)[0]) + 1];
  std::partial_sum(first_vertex_offsets.begin(), first_vertex_offsets.end(),
                   first_vertex_offsets.begin());
  std::vector<FacetRecord> records(first_vertex_offsets.back());
  {
    std::vector<std::size_t> next(first_vertex_offsets.begin(), first_vertex_offsets.end() - 1);
    for (Index c = 0; c < n_cells; ++c)
      for (int i = 0; i <= Dim; ++i) {
        const Facet facet = facet_of(c, i);
        records[next[std::size_t(facet[0])]++] = {facet, c, i};
      }
  }
  // Compared number by number: the std::array operators went through memcmp calls.
  parallel_for(0, n_vertices, [&](GlobalIndex v) {
    std::sort(records.begin() + std::ptrdiff_t(first_vertex_offsets[std::size_t(v)]),
              records.begin() + std::ptrdiff_t(first_vertex_offsets[std::size_t(v) + 1]),
              [](const FacetRecord& a, const FacetRecord& b) {
                for (int k = 1; k < Dim; ++k)
                  if (a.vertices[k] != b.vertices[k]) return a.vertices[k] < b.vertices[k];
                return a.cell < b.cell;
              });
  });
  cell_facets_.resize(n_cells);
  for (std::size_t begin = 0; begin < records.size();) {
    std::size_t end = begin + 1;
    while (end < records.size() && records[end].vertices == records[begin].vertices) ++end;
    if (end - begin > 2)
      raise(source_.describe_cell(records[begin + 2].cell), ": facet ",
            format_indices(records[begin].vertices), " is shared by ", end - begin, " cells (",
            records[begin].cell, ", ", records[begin + 1].cell, ", ", records[begin + 2].cell,
            (end - begin > 3 ? ", ..." : ""), "); a conforming mesh has at most two");
    const Index f = facet_count();
    facet_vertices_.push_back(records[begin].vertices);
    facet_cells_.push_back({records[begin].cell, end - begin == 2 ? records[begin + 1].cell : -1});
    facet_tags_.push_back(end - begin == 2 ? interior_facet_tag : untagged_boundary_tag);
    for (std::size_t r = begin; r < end; ++r) cell_facets_[records[r].cell][records[r].local] = f;
    begin = end;
  }

  // Two cells sharing a facet must lie on opposite sides of it, else one is folded over the
  // other (an inverted cell in a mesh whose orientations were fixed above).
  parallel_for(0, facet_count(), [&](GlobalIndex k) {
    const Index f = Index(k);
    if (is_boundary_facet(f)) return;
    const auto points = facet_points(f);
    Point<Dim> opposite[2];
    for (int s = 0; s < 2; ++s) {
      const Index c = facet_cells_[f][s];
      for (int i = 0; i <= Dim; ++i)
        if (cell_facets_[c][i] == f) opposite[s] = vertices_[cells_[c][i]];
    }
    const Point<Dim> normal = facet_scaled_normal<Dim>(points.data(), opposite[0]);
    if (!(dot(normal, opposite[1] - points[0]) > 0))
      raise(source_.describe_cell(facet_cells_[f][1]), ": cell overlaps cell ", facet_cells_[f][0],
            " across their common facet ", format_indices(facet_vertices_[f]),
            " (inverted or folded cell)");
  });
  boundary_facet_count_ = Index(std::count_if(facet_cells_.begin(), facet_cells_.end(),
                                              [](const auto& pair) { return pair[1] < 0; }));

  // Boundary tags, matched by sorted vertex tuple.
  std::size_t interior_tagged = 0, unknown_tagged = 0;
  std::vector<bool> tagged(facet_count(), false);
  for (TaggedFacet& entry : boundary_tags) {
    std::sort(entry.vertices.begin(), entry.vertices.end());
    const auto it =
        std::lower_bound(facet_vertices_.begin(), facet_vertices_.end(), entry.vertices);
    if (it == facet_vertices_.end() || *it != entry.vertices) {
      ++unknown_tagged;
      continue;
    }
    const Index f = Index(it - facet_vertices_.begin());
    if (!is_boundary_facet(f)) {
      ++interior_tagged;
      continue;
    }
    if (!tagged[f]) facet_tags_[f] = entry.tag;
    tagged[f] = true;
  }
  const auto untagged = std::count_if(tagged.begin(), tagged.end(), [](bool t) { return !t; }) -
                        (facet_count() - boundary_facet_count_);
  if (untagged > 0)
    warn(detail::concatenate(source_.name, ": ", untagged, " of ", boundary_facet_count_,
                             " boundary facets have no tag; they get tag ", untagged_boundary_tag));
  if (interior_tagged > 0)
    warn(detail::concatenate(source_.name, ": ", interior_tagged,
                             " tagged facets are interior facets; their tags are ignored"));
  if (unknown_tagged > 0)
    warn(detail::concatenate(source_.name, ": ", unknown_tagged,
                             " tagged facets are not facets of any cell; they are ignored"));
}

template <int Dim>
std::array<Point<Dim>, Dim + 1> SimplexMesh<Dim>::cell_points(Index c) const {
  std::array<Point<Dim>, Dim + 1> points;
  for (int i = 0; i <= Dim; ++i) points[i] = vertices_[cells_[c][i]];
  return points;
}

template <int Dim>
std::array<Point<Dim>, Dim> SimplexMesh<Dim>::facet_points(Index f) const {
  std::array<Point<Dim>, Dim> points;
  for (int i = 0; i < Dim; ++i) points[i] = vertices_[facet_vertices_[f][i]];
  return points;
}

template <int Dim>
double SimplexMesh<Dim>::facet_measure(Index f) const {
  const auto points = facet_points(f);
  return polydg::facet_measure<Dim>(points.data());
}

template <int Dim>
Point<Dim> SimplexMesh<Dim>::facet_unit_normal(Index f) const {
  const Index c = facet_cells_[f][0];
  Point<Dim> opposite{};
  for (int i = 0; i <= Dim; ++i)
    if (cell_facets_[c][i] == f) opposite = vertices_[cells_[c][i]];
  const auto points = facet_points(f);
  Point<Dim> normal = facet_scaled_normal<Dim>(points.data(), opposite);
  return normal * (1.0 / std::sqrt(dot(normal, normal)));
}

template <int Dim>
std::vector<int> SimplexMesh<Dim>::boundary_tag_values() const {
  std::set<int> tags;
  for (Index f = 0; f < facet_count(); ++f)
    if (is_boundary_facet(f)) tags.insert(facet_tags_[f]);
  return {tags.begin(), tags.end()};
}

template <int Dim>
double SimplexMesh<Dim>::total_measure() const {
  return std::accumulate(cell_measures_.begin(), cell_measures_.end(), 0.0);
}

template class SimplexMesh<2>;
template class SimplexMesh<3>;

}  // namespace polydg
