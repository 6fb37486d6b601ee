#include "polydg/mesh/rank_submesh.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "polydg/core/error.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

template <int Dim>
RankSubmeshes<Dim>::RankSubmeshes(const SimplexMesh<Dim>& fine,
                                  std::span<const Index> element_of_cell,
                                  const MeshPartition& partition, int cut_tag)
    : fine_(fine), partition_(partition), cut_tag_(cut_tag) {
  const Index elements = Index(partition.part_of_element.size());
  require(Index(element_of_cell.size()) == fine.cell_count(),
          "rank_submesh: ", element_of_cell.size(), " element ids for ", fine.cell_count(),
          " cells");
  // Every rank computes the same partition, so every rank refuses it alike: none waits at a
  // collective call for a rank whose solver could not be built on no cells.
  require(partition.empty_part_count == 0, "rank_submesh: the partition leaves ",
          partition.empty_part_count, " of its ", partition.part_count,
          " parts without an element (a rank with no cells to march): run on fewer ranks");
  const std::vector<int> tags = fine.boundary_tag_values();
  require(
      cut_tag != interior_facet_tag && std::find(tags.begin(), tags.end(), cut_tag) == tags.end(),
      "rank_submesh: the cut tag ", cut_tag,
      " is a boundary tag of the mesh (or the interior tag); choose another");
  // Each element's cells, ascending (a counting sort of the cells by element).
  cell_begin_.assign(std::size_t(elements) + 1, 0);
  for (Index c = 0; c < fine.cell_count(); ++c) {
    const Index e = element_of_cell[std::size_t(c)];
    require(e >= 0 && e < elements, "rank_submesh: cell ", c, " is in element ", e, " of ",
            elements, ": the partition is not of these elements");
    ++cell_begin_[std::size_t(e) + 1];
  }
  for (std::size_t e = 0; e < std::size_t(elements); ++e) cell_begin_[e + 1] += cell_begin_[e];
  cells_.resize(std::size_t(fine.cell_count()));
  std::vector<Index> at(cell_begin_.begin(), cell_begin_.end() - 1);
  for (Index c = 0; c < fine.cell_count(); ++c)
    cells_[std::size_t(at[std::size_t(element_of_cell[std::size_t(c)])]++)] = c;
  local_vertex_.assign(std::size_t(fine.vertex_count()), -1);
  local_cell_.assign(std::size_t(fine.cell_count()), 0);
}

template <int Dim>
RankSubmesh<Dim> RankSubmeshes<Dim>::part(int rank) {
  require(rank >= 0 && rank < partition_.part_count, "rank_submesh: rank ", rank,
          " is not a part of the partition's ", partition_.part_count);
  RankSubmesh<Dim> part;
  // Local elements: the owned ones, then the ghosts (old indices).
  const std::span<const Index> owned = partition_.owned_elements(rank);
  part.element.assign(owned.begin(), owned.end());
  for (const Index ghost : partition_.ghosts[std::size_t(rank)])
    part.element.push_back(partition_.old_from_new[std::size_t(ghost)]);
  part.owned_count = Index(owned.size());

  // The cells in local element order, each element's ascending; the vertices they use in the
  // fine mesh's order, so that a rule that goes by vertex number (extrude_to_slab's prism
  // diagonals) chooses on the part as on the whole mesh.
  std::vector<Index> used;
  for (Index k = 0; k < part.element_count(); ++k) {
    const std::size_t e = std::size_t(part.element[std::size_t(k)]);
    for (Index i = cell_begin_[e]; i < cell_begin_[e + 1]; ++i) {
      const Index c = cells_[std::size_t(i)];
      part.fine_cell.push_back(c);
      part.element_of_cell.push_back(k);
      local_cell_[std::size_t(c)] = 1;
      for (const Index v : fine_.cell(c))
        if (local_vertex_[std::size_t(v)] < 0) {
          local_vertex_[std::size_t(v)] = 0;
          used.push_back(v);
        }
    }
  }
  std::sort(used.begin(), used.end());
  std::vector<Point<Dim>> vertices;
  vertices.reserve(used.size());
  for (std::size_t i = 0; i < used.size(); ++i) {
    local_vertex_[std::size_t(used[i])] = Index(i);
    vertices.push_back(fine_.vertices()[std::size_t(used[i])]);
  }
  std::vector<typename SimplexMesh<Dim>::Cell> cells;
  std::vector<int> regions;
  cells.reserve(part.fine_cell.size());
  regions.reserve(part.fine_cell.size());
  for (const Index c : part.fine_cell) {
    typename SimplexMesh<Dim>::Cell cell = fine_.cell(c);
    for (Index& v : cell) v = local_vertex_[std::size_t(v)];
    cells.push_back(cell);
    regions.push_back(fine_.cell_region(c));
  }

  // Facets that bound the part: the fine boundary's keep their tags, the others are cut.
  std::vector<typename SimplexMesh<Dim>::TaggedFacet> boundary;
  for (const Index c : part.fine_cell)
    for (const Index f : fine_.cell_facets(c)) {
      const auto& neighbours = fine_.facet_cells(f);
      const Index other = neighbours[0] == c ? neighbours[1] : neighbours[0];
      if (other >= 0 && local_cell_[std::size_t(other)]) continue;
      typename SimplexMesh<Dim>::Facet vertices_of_facet = fine_.facet_vertices(f);
      for (Index& v : vertices_of_facet) v = local_vertex_[std::size_t(v)];
      boundary.push_back({vertices_of_facet, other < 0 ? fine_.facet_tag(f) : cut_tag_});
    }
  // The scratch back to its state between calls, at the cost of this part's cells.
  for (const Index c : part.fine_cell) local_cell_[std::size_t(c)] = 0;
  for (const Index v : used) local_vertex_[std::size_t(v)] = -1;
  part.mesh = std::make_shared<const SimplexMesh<Dim>>(
      std::move(vertices), std::move(cells), std::move(regions), std::move(boundary),
      MeshSource{fine_.source().name + " (rank " + std::to_string(rank) + "'s part)", {}});
  return part;
}

template <int Dim>
RankSubmesh<Dim> rank_submesh(const SimplexMesh<Dim>& fine, std::span<const Index> element_of_cell,
                              const MeshPartition& partition, int rank, int cut_tag) {
  return RankSubmeshes<Dim>(fine, element_of_cell, partition, cut_tag).part(rank);
}

template <int Dim>
int unused_boundary_tag(const SimplexMesh<Dim>& fine) {
  const std::vector<int> tags = fine.boundary_tag_values();  // ascending
  return 1 + (tags.empty() ? 0 : std::max(0, tags.back()));
}

template int unused_boundary_tag(const SimplexMesh<2>&);
template int unused_boundary_tag(const SimplexMesh<3>&);

template <int Dim>
CellPartition partition_cells(std::shared_ptr<const SimplexMesh<Dim>> fine, int parts,
                              int ghost_layers) {
  CellPartition cells;
  cells.element_of_cell.resize(std::size_t(fine->cell_count()));
  std::iota(cells.element_of_cell.begin(), cells.element_of_cell.end(), Index(0));
  cells.cut_tag = unused_boundary_tag(*fine);
  // Degree 1 everywhere: only the weights' ratios matter, and they are all equal.
  const PolytopicMesh<Dim> elements(std::move(fine), cells.element_of_cell, 1);
  cells.partition = partition_mesh(elements, parts);
  if (ghost_layers != 1)
    cells.partition = with_ghost_layers(cells.partition, elements, ghost_layers);
  return cells;
}

template CellPartition partition_cells(std::shared_ptr<const SimplexMesh<2>>, int, int);
template CellPartition partition_cells(std::shared_ptr<const SimplexMesh<3>>, int, int);
template class RankSubmeshes<2>;
template class RankSubmeshes<3>;
template RankSubmesh<2> rank_submesh(const SimplexMesh<2>&, std::span<const Index>,
                                     const MeshPartition&, int, int);
template RankSubmesh<3> rank_submesh(const SimplexMesh<3>&, std::span<const Index>,
                                     const MeshPartition&, int, int);

}  // namespace polydg
