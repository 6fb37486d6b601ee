#pragma once
/// SimplexMesh: the fine conforming mesh of triangles (Dim = 2) or tetrahedra (Dim = 3) that
/// everything else is built from — vertices, cells, facets with their one or two cells,
/// boundary tags and cell regions (Gmsh physical groups).
///
/// Construction validates the input and throws polydg::Error naming the cell (and the file line
/// when the mesh came from a file) for: non-finite coordinates, a vertex index out of range, a
/// repeated vertex, a degenerate cell (measure ≤ 1e-12 · longest edge^Dim), a facet shared by
/// more than two cells, and two cells folded over each other across a shared facet (an inverted
/// cell). Cells of negative orientation are reordered to positive (counter-clockwise in 2D).
/// Boundary facets with no tag get `untagged_boundary_tag` (0), with one warning giving their
/// number; tagged facets that are interior or not facets of the mesh are ignored with a warning.
#include <array>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg {

/// Tag of an interior facet.
inline constexpr int interior_facet_tag = -1;
/// Tag given to boundary facets that the input did not tag (a Gmsh file with no physical group
/// on part of the boundary). Gmsh physical tags are positive, so 0 never clashes.
inline constexpr int untagged_boundary_tag = 0;

/// Where a mesh came from, to name the place in error messages.
struct MeshSource {
  std::string name = "mesh";
  /// Optional: the file line each cell was read from (same length as the cells, or empty).
  std::vector<long> cell_lines;
  /// "file.msh:123: cell 45" when the line is known, else "mesh: cell 45".
  std::string describe_cell(Index cell) const;
};

template <int Dim>
class SimplexMesh {
 public:
  static_assert(Dim == 2 || Dim == 3, "SimplexMesh is built for triangles and tetrahedra");
  static constexpr int dimension = Dim;
  static constexpr int vertices_per_cell = Dim + 1;
  static constexpr int vertices_per_facet = Dim;
  using Cell = std::array<Index, Dim + 1>;
  using Facet = std::array<Index, Dim>;
  struct TaggedFacet {
    Facet vertices;
    int tag;
  };

  SimplexMesh() = default;
  /// Validates and builds facets. `cell_regions` may be empty (all 0); `boundary_tags` lists
  /// tagged facets by their vertices in any order.
  SimplexMesh(std::vector<Point<Dim>> vertices, std::vector<Cell> cells,
              std::vector<int> cell_regions = {}, std::vector<TaggedFacet> boundary_tags = {},
              MeshSource source = {});

  Index vertex_count() const { return Index(vertices_.size()); }
  Index cell_count() const { return Index(cells_.size()); }
  Index facet_count() const { return Index(facet_vertices_.size()); }
  Index boundary_facet_count() const { return boundary_facet_count_; }

  const std::vector<Point<Dim>>& vertices() const { return vertices_; }
  const std::vector<Cell>& cells() const { return cells_; }
  const Cell& cell(Index c) const { return cells_[c]; }
  std::array<Point<Dim>, Dim + 1> cell_points(Index c) const;
  int cell_region(Index c) const { return cell_regions_[c]; }
  double cell_measure(Index c) const { return cell_measures_[c]; }
  /// cell_facets(c)[i] is the facet opposite the cell's local vertex i.
  const std::array<Index, Dim + 1>& cell_facets(Index c) const { return cell_facets_[c]; }

  /// Vertices of facet f in ascending order.
  const Facet& facet_vertices(Index f) const { return facet_vertices_[f]; }
  std::array<Point<Dim>, Dim> facet_points(Index f) const;
  /// The cells sharing facet f; the second is -1 on the boundary.
  const std::array<Index, 2>& facet_cells(Index f) const { return facet_cells_[f]; }
  bool is_boundary_facet(Index f) const { return facet_cells_[f][1] < 0; }
  /// interior_facet_tag for interior facets, else the boundary tag.
  int facet_tag(Index f) const { return facet_tags_[f]; }
  double facet_measure(Index f) const;
  /// Unit normal of facet f pointing out of facet_cells(f)[0].
  Point<Dim> facet_unit_normal(Index f) const;
  /// The distinct boundary tags present, ascending.
  std::vector<int> boundary_tag_values() const;
  /// Total measure of all cells.
  double total_measure() const;

  const MeshSource& source() const { return source_; }

 private:
  std::vector<Point<Dim>> vertices_;
  std::vector<Cell> cells_;
  std::vector<int> cell_regions_;
  std::vector<double> cell_measures_;
  std::vector<std::array<Index, Dim + 1>> cell_facets_;
  std::vector<Facet> facet_vertices_;
  std::vector<std::array<Index, 2>> facet_cells_;
  std::vector<int> facet_tags_;
  Index boundary_facet_count_ = 0;
  MeshSource source_;
};

extern template class SimplexMesh<2>;
extern template class SimplexMesh<3>;

}  // namespace polydg
