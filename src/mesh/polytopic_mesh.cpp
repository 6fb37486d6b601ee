#include "polydg/mesh/polytopic_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <tuple>

#include "polydg/core/error.hpp"
#include "polydg/core/parallel_errors.hpp"
#include "polydg/mesh/simplex_geometry.hpp"
#include "polytopic_construction.hpp"

namespace polydg {

namespace {

Index count_elements(std::span<const Index> element_of_cell) {
  Index largest = -1;
  for (Index label : element_of_cell) largest = std::max(largest, label);
  return largest + 1;
}

// Retriangulation drops a boundary vertex only where the boundary is straight up to round-off
// (|sin| of the turn ≤ 64 ε): dropping a vertex that is merely close to straight would cut off
// a sliver and the triangles would no longer cover the element exactly.
constexpr double straight_corner_tolerance = 64 * std::numeric_limits<double>::epsilon();

int checked_uniform_degree(int degree) {
  require(degree >= min_element_degree && degree <= max_element_degree, "PolytopicMesh: degree ",
          degree, " (given for every element) is outside [", min_element_degree, ", ",
          max_element_degree, "]");
  return degree;
}

// A fine facet on an element's boundary with what lies across it.
struct Side {
  Index facet;
  Index cell;       // the element's cell that has the facet (K_F)
  Index neighbour;  // the element across, or -1 on ∂Ω
  int tag;          // the boundary tag, or interior_facet_tag
};

// Union-find over an element's sides, for grouping them into faces.
struct SideSets {
  std::vector<Index> parent;
  void reset(Index count) {
    parent.resize(count);
    std::iota(parent.begin(), parent.end(), 0);
  }
  Index root(Index s) {
    while (parent[s] != s) s = parent[s] = parent[parent[s]];
    return s;
  }
  void join(Index a, Index b) { parent[root(a)] = root(b); }
};

// Faces of one element (see the header): sides that share a (Dim−1)-vertex subfacet, have the
// same thing across and parallel outward normals are in one face.
template <int Dim>
Index count_faces(const SimplexMesh<Dim>& mesh, std::span<const Side> sides, double tolerance,
                  SideSets& sets) {
  using Subfacet = std::array<Index, Dim - 1>;
  std::vector<Point<Dim>> normals(sides.size());
  std::vector<std::pair<Subfacet, Index>> subfacets;
  subfacets.reserve(sides.size() * Dim);
  for (std::size_t k = 0; k < sides.size(); ++k) {
    const Index f = sides[k].facet;
    normals[k] = mesh.facet_unit_normal(f);
    if (mesh.facet_cells(f)[0] != sides[k].cell) normals[k] *= -1.0;
    const auto& vertices = mesh.facet_vertices(f);  // ascending, so subfacets are too
    for (int drop = 0; drop < Dim; ++drop) {
      Subfacet subfacet;
      for (int i = 0, m = 0; i < Dim; ++i)
        if (i != drop) subfacet[m++] = vertices[i];
      subfacets.push_back({subfacet, Index(k)});
    }
  }
  std::sort(subfacets.begin(), subfacets.end());
  sets.reset(Index(sides.size()));
  for (std::size_t begin = 0; begin < subfacets.size();) {
    std::size_t end = begin + 1;
    while (end < subfacets.size() && subfacets[end].first == subfacets[begin].first) ++end;
    for (std::size_t i = begin; i < end; ++i)
      for (std::size_t j = i + 1; j < end; ++j) {
        const Side& a = sides[subfacets[i].second];
        const Side& b = sides[subfacets[j].second];
        const Point<Dim> difference = normals[subfacets[i].second] - normals[subfacets[j].second];
        if (a.neighbour == b.neighbour && a.tag == b.tag &&
            dot(difference, difference) <= tolerance * tolerance)
          sets.join(subfacets[i].second, subfacets[j].second);
      }
    begin = end;
  }
  Index faces = 0;
  for (Index k = 0; k < Index(sides.size()); ++k)
    if (sets.root(k) == k) ++faces;
  return faces;
}

// The sides of every element (its interface facets and ∂Ω facets), CSR, ascending by facet.
struct ElementSides {
  std::vector<Index> offsets;
  std::vector<Side> sides;
  std::span<const Side> of(Index e) const {
    return {sides.data() + offsets[e], sides.data() + offsets[e + 1]};
  }
};

template <int Dim>
ElementSides collect_element_sides(const PolytopicMesh<Dim>& mesh) {
  const Index n_elements = mesh.element_count();
  ElementSides result;
  result.offsets.assign(n_elements + 1, 0);
  for (Index e = 0; e < n_elements; ++e) {
    result.offsets[e + 1] = Index(mesh.element_boundary_facets(e).size());
    for (Index i : mesh.element_interfaces(e))
      result.offsets[e + 1] += Index(mesh.interface_facets(i).size());
  }
  std::partial_sum(result.offsets.begin(), result.offsets.end(), result.offsets.begin());
  result.sides.resize(result.offsets[n_elements]);
  std::vector<Index> fill(result.offsets.begin(), result.offsets.end() - 1);
  for (Index e = 0; e < n_elements; ++e)
    for (const auto& b : mesh.element_boundary_facets(e))
      result.sides[fill[e]++] = {b.facet, b.cell, -1, b.tag};
  for (Index i = 0; i < mesh.interface_count(); ++i) {
    const auto& pair = mesh.interface_elements(i);
    for (const auto& facet : mesh.interface_facets(i))
      for (int s = 0; s < 2; ++s)
        result.sides[fill[pair[s]]++] = {facet.facet, facet.cells[s], pair[1 - s],
                                         interior_facet_tag};
  }
  for (Index e = 0; e < n_elements; ++e)
    std::sort(result.sides.begin() + result.offsets[e],
              result.sides.begin() + result.offsets[e + 1],
              [](const Side& a, const Side& b) { return a.facet < b.facet; });
  return result;
}

// The bounding box and the diameter of an element. Both are attained at boundary vertices
// (the element lies in their convex hull), so only those are visited.
template <int Dim>
void box_and_diameter(const SimplexMesh<Dim>& mesh, std::span<const Side> sides, Box<Dim>& box,
                      double& diameter) {
  std::vector<Index> boundary_vertices;
  for (const Side& side : sides)
    for (Index v : mesh.facet_vertices(side.facet)) boundary_vertices.push_back(v);
  std::sort(boundary_vertices.begin(), boundary_vertices.end());
  boundary_vertices.erase(std::unique(boundary_vertices.begin(), boundary_vertices.end()),
                          boundary_vertices.end());
  const auto& vertices = mesh.vertices();
  box.lower = box.upper = vertices[boundary_vertices[0]];
  double diameter_squared = 0;
  for (std::size_t i = 0; i < boundary_vertices.size(); ++i) {
    const Point<Dim>& p = vertices[boundary_vertices[i]];
    for (int d = 0; d < Dim; ++d) {
      box.lower[d] = std::min(box.lower[d], p[d]);
      box.upper[d] = std::max(box.upper[d], p[d]);
    }
    for (std::size_t j = i + 1; j < boundary_vertices.size(); ++j) {
      const Point<Dim> difference = vertices[boundary_vertices[j]] - p;
      diameter_squared = std::max(diameter_squared, dot(difference, difference));
    }
  }
  diameter = std::sqrt(diameter_squared);
}

}  // namespace

template <int Dim>
PolytopicMesh<Dim>::PolytopicMesh(std::shared_ptr<const SimplexMesh<Dim>> fine_mesh,
                                  std::span<const Index> element_of_cell, int degree,
                                  const PolytopicMeshOptions& options)
    : PolytopicMesh(std::move(fine_mesh), element_of_cell,
                    std::vector<int>(std::size_t(count_elements(element_of_cell)),
                                     checked_uniform_degree(degree)),
                    options) {}

template <int Dim>
PolytopicMesh<Dim>::PolytopicMesh(std::shared_ptr<const SimplexMesh<Dim>> fine_mesh,
                                  std::span<const Index> element_of_cell, std::vector<int> degrees,
                                  const PolytopicMeshOptions& options)
    : fine_mesh_(std::move(fine_mesh)), degrees_(std::move(degrees)) {
  require(fine_mesh_ != nullptr, "PolytopicMesh: no fine mesh given");
  const Index n_cells = fine_mesh_->cell_count();
  require(Index(element_of_cell.size()) == n_cells, "PolytopicMesh: the partition has ",
          element_of_cell.size(), " entries for ", n_cells, " fine cells");
  for (Index c = 0; c < n_cells; ++c)
    require(element_of_cell[c] >= 0, "PolytopicMesh: fine cell ", c, " has negative element ",
            element_of_cell[c]);
  const Index n_elements = count_elements(element_of_cell);
  require(Index(degrees_.size()) == n_elements, "PolytopicMesh: ", degrees_.size(),
          " degrees given for ", n_elements, " elements");
  for (Index e = 0; e < n_elements; ++e)
    require(degrees_[e] >= min_element_degree && degrees_[e] <= max_element_degree,
            "PolytopicMesh: element ", e, " has degree ", degrees_[e], " outside [",
            min_element_degree, ", ", max_element_degree, "]");
  require(options.face_angle_tolerance >= 0 && options.face_angle_tolerance < 1,
          "PolytopicMesh: face_angle_tolerance ", options.face_angle_tolerance, " outside [0, 1)");
  build(element_of_cell, options);
}

template <int Dim>
void PolytopicMesh<Dim>::build(std::span<const Index> element_of_cell,
                               const PolytopicMeshOptions& options) {
  element_of_cell_.assign(element_of_cell.begin(), element_of_cell.end());
  collect_element_cells();
  require_connected_elements();
  collect_interfaces();
  collect_boundary_facets();
  compute_element_data(options);
}

template <int Dim>
void PolytopicMesh<Dim>::collect_element_cells() {
  const Index n_cells = fine_mesh_->cell_count();
  const Index n_elements = element_count();
  element_cell_offsets_.assign(n_elements + 1, 0);
  for (Index c = 0; c < n_cells; ++c) ++element_cell_offsets_[element_of_cell_[c] + 1];
  for (Index e = 0; e < n_elements; ++e)
    require(element_cell_offsets_[e + 1] > 0, "PolytopicMesh: element ", e,
            " has no fine cells (element numbers must be dense; repair_partition renumbers)");
  std::partial_sum(element_cell_offsets_.begin(), element_cell_offsets_.end(),
                   element_cell_offsets_.begin());
  element_cells_.resize(n_cells);
  std::vector<Index> fill(element_cell_offsets_.begin(), element_cell_offsets_.end() - 1);
  for (Index c = 0; c < n_cells; ++c) element_cells_[fill[element_of_cell_[c]]++] = c;
}

template <int Dim>
void PolytopicMesh<Dim>::require_connected_elements() const {
  // A breadth-first search through interior facets from each element's first cell has to
  // reach all of its cells.
  const SimplexMesh<Dim>& mesh = *fine_mesh_;
  std::vector<char> reached(mesh.cell_count(), 0);
  std::vector<Index> queue;
  for (Index e = 0; e < element_count(); ++e) {
    queue.assign(1, element_cells(e)[0]);
    reached[queue[0]] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (Index f : mesh.cell_facets(queue[head])) {
        if (mesh.is_boundary_facet(f)) continue;
        for (Index next : mesh.facet_cells(f))
          if (!reached[next] && element_of_cell_[next] == e) {
            reached[next] = 1;
            queue.push_back(next);
          }
      }
    require(Index(queue.size()) == element_fine_cell_count(e), "PolytopicMesh: element ", e,
            " is not connected: only ", queue.size(), " of its ", element_fine_cell_count(e),
            " fine cells are reachable from cell ", element_cells(e)[0],
            " through interior facets (repair_partition splits such elements)");
  }
}

template <int Dim>
void PolytopicMesh<Dim>::collect_interfaces() {
  // Interior facets whose cells lie in different elements, grouped by the element pair.
  // Facets are visited in ascending order and the sort is stable, so the facets of each
  // interface come out ascending.
  const SimplexMesh<Dim>& mesh = *fine_mesh_;
  struct InterfaceRecord {
    std::array<Index, 2> elements;
    InterfaceFacet facet;
  };
  std::vector<InterfaceRecord> records;
  for (Index f = 0; f < mesh.facet_count(); ++f) {
    if (mesh.is_boundary_facet(f)) continue;
    const auto& cells = mesh.facet_cells(f);
    const Index e0 = element_of_cell_[cells[0]], e1 = element_of_cell_[cells[1]];
    if (e0 == e1) continue;
    if (e0 < e1)
      records.push_back({{e0, e1}, {f, {cells[0], cells[1]}}});
    else
      records.push_back({{e1, e0}, {f, {cells[1], cells[0]}}});
  }
  std::stable_sort(
      records.begin(), records.end(),
      [](const InterfaceRecord& a, const InterfaceRecord& b) { return a.elements < b.elements; });
  interface_facet_offsets_.assign(1, 0);
  interface_facets_.reserve(records.size());
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (r == 0 || records[r].elements != records[r - 1].elements) {
      if (r > 0) interface_facet_offsets_.push_back(Index(r));
      interface_elements_.push_back(records[r].elements);
    }
    interface_facets_.push_back(records[r].facet);
  }
  if (!records.empty()) interface_facet_offsets_.push_back(Index(records.size()));

  const Index n_elements = element_count();
  element_interface_offsets_.assign(n_elements + 1, 0);
  for (const auto& pair : interface_elements_) {
    ++element_interface_offsets_[pair[0] + 1];
    ++element_interface_offsets_[pair[1] + 1];
  }
  std::partial_sum(element_interface_offsets_.begin(), element_interface_offsets_.end(),
                   element_interface_offsets_.begin());
  element_interfaces_.resize(element_interface_offsets_[n_elements]);
  // Interfaces are sorted by (a, b): element x first meets those with a < x (as b, a
  // ascending), then its own (x, b), b ascending — so each list is ordered by neighbour.
  std::vector<Index> fill(element_interface_offsets_.begin(), element_interface_offsets_.end() - 1);
  for (Index i = 0; i < interface_count(); ++i)
    for (Index e : interface_elements_[i]) element_interfaces_[fill[e]++] = i;
}

template <int Dim>
void PolytopicMesh<Dim>::collect_boundary_facets() {
  const SimplexMesh<Dim>& mesh = *fine_mesh_;
  const Index n_elements = element_count();
  boundary_facet_offsets_.assign(n_elements + 1, 0);
  for (Index f = 0; f < mesh.facet_count(); ++f)
    if (mesh.is_boundary_facet(f))
      ++boundary_facet_offsets_[element_of_cell_[mesh.facet_cells(f)[0]] + 1];
  std::partial_sum(boundary_facet_offsets_.begin(), boundary_facet_offsets_.end(),
                   boundary_facet_offsets_.begin());
  boundary_facets_.resize(boundary_facet_offsets_[n_elements]);
  std::vector<Index> fill(boundary_facet_offsets_.begin(), boundary_facet_offsets_.end() - 1);
  for (Index f = 0; f < mesh.facet_count(); ++f)
    if (mesh.is_boundary_facet(f)) {
      const Index c = mesh.facet_cells(f)[0];
      boundary_facets_[fill[element_of_cell_[c]]++] = {f, c, mesh.facet_tag(f)};
    }
}

template <int Dim>
void PolytopicMesh<Dim>::compute_element_data(const PolytopicMeshOptions& options) {
  const SimplexMesh<Dim>& mesh = *fine_mesh_;
  const Index n_elements = element_count();
  const ElementSides sides = collect_element_sides(*this);
  boxes_.resize(n_elements);
  measures_.assign(n_elements, 0.0);
  diameters_.assign(n_elements, 0.0);
  boundary_measures_.assign(n_elements, 0.0);
  face_counts_.assign(n_elements, 0);
  simplex_offsets_.assign(1, 0);
  simplices_.reserve(mesh.cell_count());
  if constexpr (Dim == 2) {
    element_loop_offsets_.assign(1, 0);
    loop_vertex_offsets_.assign(1, 0);
  }
  // Each element's own numbers, in parallel (the faces' normals and subfacet sorts were most of
  // a 3D slab's build); the element's sums are in the serial loop's order.
  parallel_for(0, n_elements, [&](GlobalIndex k) {
    const Index e = Index(k);
    const std::span<const Side> element_sides = sides.of(e);
    for (Index c : element_cells(e)) measures_[e] += mesh.cell_measure(c);
    for (const Side& side : element_sides) boundary_measures_[e] += mesh.facet_measure(side.facet);
    box_and_diameter(mesh, element_sides, boxes_[e], diameters_[e]);
    SideSets side_sets;
    face_counts_[e] =
        count_faces<Dim>(mesh, element_sides, options.face_angle_tolerance, side_sets);
  });
  // The loops and the quadrature simplices, appended in element order.
  std::vector<detail::ElementSide> loop_sides;
  std::vector<std::array<Index, 3>> triangles;
  for (Index e = 0; e < n_elements; ++e) {
    const std::span<const Side> element_sides = sides.of(e);
    bool retriangulated = false;
    if constexpr (Dim == 2) {
      loop_sides.clear();
      for (const Side& side : element_sides) loop_sides.push_back({side.facet, side.cell});
      const auto loops = detail::trace_boundary_loops(mesh, loop_sides, e);
      for (const auto& loop : loops) {
        loop_vertices_.insert(loop_vertices_.end(), loop.begin(), loop.end());
        loop_vertex_offsets_.push_back(Index(loop_vertices_.size()));
      }
      element_loop_offsets_.push_back(Index(loop_vertex_offsets_.size()) - 1);

      if (options.retriangulate && element_fine_cell_count(e) > 1) {
        const bool triangulated = loops.size() == 1 && detail::triangulate_polygon(
                                                           mesh.vertices(), loops[0], measures_[e],
                                                           straight_corner_tolerance, triangles);
        if (!triangulated)
          ++retriangulation_fallbacks_;
        else if (Index(triangles.size()) < element_fine_cell_count(e)) {
          simplices_.insert(simplices_.end(), triangles.begin(), triangles.end());
          retriangulated = true;
        }
      }
    }
    if (!retriangulated)
      for (Index c : element_cells(e)) simplices_.push_back(mesh.cell(c));
    simplex_offsets_.push_back(Index(simplices_.size()));
  }
}

template <int Dim>
std::array<Point<Dim>, Dim + 1> PolytopicMesh<Dim>::simplex_points(const Simplex& simplex) const {
  std::array<Point<Dim>, Dim + 1> points;
  for (int i = 0; i <= Dim; ++i) points[i] = fine_mesh_->vertices()[simplex[i]];
  return points;
}

template <int Dim>
double PolytopicMesh<Dim>::element_roundness(Index e) const {
  // d^d ω_d with ω_2 = π, ω_3 = 4π/3.
  constexpr double scale = Dim == 2 ? 4 * std::numbers::pi : 36 * std::numbers::pi;
  return scale * std::pow(measures_[e], Dim - 1) / std::pow(boundary_measures_[e], Dim);
}

template class PolytopicMesh<2>;
template class PolytopicMesh<3>;

}  // namespace polydg
