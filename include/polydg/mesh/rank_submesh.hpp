#pragma once
/// RankSubmesh: a rank's part of a partitioned mesh as a mesh of its own — the fine cells of the
/// elements it owns, then those of its ghosts (MeshPartition), with the fine mesh's boundary
/// tags and `cut_tag` on the facets where the ghost layer ends — so a solver that works on
/// whole meshes (ExplicitTriangleDG, ExplicitPolygonDG) runs on one rank's part unchanged:
///
///   const MeshPartition partition = partition_mesh(polygons, ranks);
///   const RankSubmesh<2> part = rank_submesh(fine, element_of_cell, partition, rank, cut_tag);
///   PolytopicMesh<2> local(part.shared_mesh(), part.element_of_cell, p);
///
/// Local element k < owned_count is the rank's k-th owned element (partition.owned_elements),
/// the others its ghosts in the partition's order: the layout of a rank's vectors. Local cells
/// are the owned elements' cells, then the ghosts', each element's in ascending fine order, and
/// local vertices are in ascending fine order, so every element has its cells, vertices and
/// their order as in the fine mesh (its geometry and basis are the same bits, and a slab
/// extruded from the part splits its prisms as the whole mesh's: extrude_to_slab). The cut facets
/// bound only ghosts (an owned element's neighbours are all local): what is computed there is not
/// the rank's to keep.
#include <memory>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

template <int Dim>
struct RankSubmesh {
  std::shared_ptr<const SimplexMesh<Dim>> mesh;
  /// Per local cell: its local element and its cell in the fine mesh.
  std::vector<Index> element_of_cell, fine_cell;
  /// Per local element: its element in the whole mesh (old numbering).
  std::vector<Index> element;
  Index owned_count = 0;

  std::shared_ptr<const SimplexMesh<Dim>> shared_mesh() const { return mesh; }
  Index element_count() const { return Index(element.size()); }
};

/// Rank `rank`'s RankSubmesh of the fine mesh `fine` whose cells form the elements
/// `element_of_cell` (a PolytopicMesh's) split by `partition`. Throws polydg::Error when
/// the partition is not of these elements, for a rank outside it, for a partition with an
/// empty part (on every rank alike: the explicit solvers need cells on each), and when
/// `cut_tag` is one of the fine mesh's boundary tags or the interior tag.
template <int Dim>
RankSubmesh<Dim> rank_submesh(const SimplexMesh<Dim>& fine, std::span<const Index> element_of_cell,
                              const MeshPartition& partition, int rank, int cut_tag);

/// A cut tag for `fine`'s parts: one above its largest boundary tag (1 with none), so none of
/// its own tags and not the interior tag.
template <int Dim>
int unused_boundary_tag(const SimplexMesh<Dim>& fine);

/// A mesh's cells split over ranks with each cell its own element (the elements of the
/// explicit triangle solvers): the element of each cell (the identity), partition_mesh over
/// `parts` with every cell the same weight (they have the same quadrature cost), its ghosts
/// widened to `ghost_layers` (with_ghost_layers), and a cut tag (unused_boundary_tag): what
/// rank_submesh and write_rank_parts take. Throws as partition_mesh and with_ghost_layers.
struct CellPartition {
  std::vector<Index> element_of_cell;
  MeshPartition partition;
  int cut_tag = 0;
};
template <int Dim>
CellPartition partition_cells(std::shared_ptr<const SimplexMesh<Dim>> fine, int parts,
                              int ghost_layers = 1);

/// Every rank's RankSubmesh (as rank_submesh's), one at a time, after one pass over the fine
/// mesh: each part() then costs its own cells, not the whole mesh's (write_rank_parts builds
/// them all). Holds references to its arguments; throws as rank_submesh.
template <int Dim>
class RankSubmeshes {
 public:
  RankSubmeshes(const SimplexMesh<Dim>& fine, std::span<const Index> element_of_cell,
                const MeshPartition& partition, int cut_tag);
  RankSubmesh<Dim> part(int rank);

 private:
  const SimplexMesh<Dim>& fine_;
  const MeshPartition& partition_;
  int cut_tag_;
  /// The fine cells of each (old) element, ascending: cells_[cell_begin_[e] .. cell_begin_[e+1]).
  std::vector<Index> cell_begin_, cells_;
  /// Scratch, -1 / 0 between calls: a fine vertex's local index, a fine cell's membership.
  std::vector<Index> local_vertex_;
  std::vector<char> local_cell_;
};

}  // namespace polydg
