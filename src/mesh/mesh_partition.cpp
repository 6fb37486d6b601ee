#include "polydg/mesh/mesh_partition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "metis_partition.hpp"
#include "polydg/core/error.hpp"
#include "polydg/fem/quadrature_cache.hpp"
#include "polydg/mesh/agglomeration.hpp"

namespace polydg {

namespace {

// The element graph in CSR form: the neighbours across each element's interfaces (one per
// neighbouring element, ordered by neighbour, as PolytopicMesh lists them).
template <int Dim>
CellAdjacency element_graph(const PolytopicMesh<Dim>& mesh) {
  const Index n = mesh.element_count();
  CellAdjacency graph;
  graph.offsets.assign(std::size_t(n) + 1, 0);
  graph.neighbours.reserve(2 * std::size_t(mesh.interface_count()));
  for (Index e = 0; e < n; ++e) {
    for (Index i : mesh.element_interfaces(e)) graph.neighbours.push_back(mesh.neighbour(i, e));
    graph.offsets[e + 1] = Index(graph.neighbours.size());
  }
  return graph;
}

// Per label l: the number of connected pieces (through interfaces) of the elements labelled l,
// found breadth-first.
template <int Dim>
std::vector<Index> pieces_per_label(const PolytopicMesh<Dim>& mesh, std::span<const int> label,
                                    int label_count) {
  const Index n = mesh.element_count();
  std::vector<Index> pieces(std::size_t(label_count), 0);
  std::vector<char> seen(std::size_t(n), 0);
  std::vector<Index> queue;
  queue.reserve(std::size_t(n));
  for (Index seed = 0; seed < n; ++seed) {
    if (seen[seed]) continue;
    ++pieces[label[seed]];
    queue.assign(1, seed);
    seen[seed] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head)
      for (Index i : mesh.element_interfaces(queue[head])) {
        const Index next = mesh.neighbour(i, queue[head]);
        if (!seen[next] && label[next] == label[seed]) {
          seen[next] = 1;
          queue.push_back(next);
        }
      }
  }
  return pieces;
}

// METIS k-way on the element graph weighted by `weights` (metis_partition.hpp), contiguous
// parts where the graph is connected, the imbalance tolerance the header documents.
template <int Dim>
std::vector<int> metis_parts(const PolytopicMesh<Dim>& mesh, std::span<const GlobalIndex> weights,
                             int part_count, bool connected, int seed) {
  detail::MetisSettings metis;
  metis.caller = "partition_mesh";
  metis.contiguous = connected;
  metis.seed = seed;
  metis.vertex_weights = weights;
  // Explicit, so that the tolerance the header documents cannot drift with METIS's default.
  metis.imbalance_per_mille = int(std::lround((mesh_partition_imbalance_tolerance - 1) * 1000));
  const std::vector<Index> part = detail::metis_partition(element_graph(mesh), part_count, metis);
  return std::vector<int>(part.begin(), part.end());
}

}  // namespace

double MeshPartition::load_imbalance() const {
  GlobalIndex total = 0, largest = 0;
  for (GlobalIndex w : part_weights) {
    total += w;
    largest = std::max(largest, w);
  }
  return total == 0 ? 1.0 : double(largest) * double(part_count) / double(total);
}

template <int Dim>
GlobalIndex element_quadrature_cost(const PolytopicMesh<Dim>& mesh, Index e,
                                    const QuadratureDegrees& quadrature_degrees) {
  const int degree = quadrature_degrees.element(mesh.element_degree(e));
  return GlobalIndex(mesh.element_simplices(e).size()) *
         GlobalIndex(simplex_rule<Dim>(degree).size());
}

template <int Dim>
MeshPartition partition_from_parts(const PolytopicMesh<Dim>& mesh, std::vector<int> part_of_element,
                                   int parts, const MeshPartitionOptions& options) {
  const Index n = mesh.element_count();
  require(Index(part_of_element.size()) == n, "partition_from_parts: ", part_of_element.size(),
          " parts given for a mesh of ", n, " elements");
  require(parts >= 1, "partition_from_parts: ", parts, " parts; need at least 1");
  for (Index e = 0; e < n; ++e)
    require(part_of_element[e] >= 0 && part_of_element[e] < parts, "partition_from_parts: element ",
            e, " is given part ", part_of_element[e], " of ", parts);
  MeshPartition result;
  result.part_count = parts;
  result.part_of_element = std::move(part_of_element);
  result.element_weights.resize(std::size_t(n));
  for (Index e = 0; e < n; ++e)
    result.element_weights[e] = element_quadrature_cost(mesh, e, options.quadrature_degrees);

  // Counting sort by part, stable: within a part the old order (e.g. the Hilbert order) stays.
  result.part_begin.assign(std::size_t(parts) + 1, 0);
  for (Index e = 0; e < n; ++e) ++result.part_begin[result.part_of_element[e] + 1];
  for (int r = 0; r < parts; ++r) result.part_begin[r + 1] += result.part_begin[r];
  result.new_from_old.resize(std::size_t(n));
  result.old_from_new.resize(std::size_t(n));
  {
    std::vector<Index> next(result.part_begin.begin(), result.part_begin.end() - 1);
    for (Index e = 0; e < n; ++e) {
      const Index renumbered = next[result.part_of_element[e]]++;
      result.new_from_old[e] = renumbered;
      result.old_from_new[renumbered] = e;
    }
  }

  result.part_weights.assign(std::size_t(parts), 0);
  for (Index e = 0; e < n; ++e)
    result.part_weights[result.part_of_element[e]] += result.element_weights[e];

  // Ghosts and halo interfaces: every interface whose elements lie in different parts makes
  // each element a ghost of the other's part.
  result.ghosts.assign(std::size_t(parts), {});
  result.halo_interface_counts.assign(std::size_t(parts), 0);
  for (Index i = 0; i < mesh.interface_count(); ++i) {
    const auto [a, b] = mesh.interface_elements(i);
    const int part_a = result.part_of_element[a], part_b = result.part_of_element[b];
    if (part_a == part_b) continue;
    result.ghosts[part_a].push_back(result.new_from_old[b]);
    result.ghosts[part_b].push_back(result.new_from_old[a]);
    ++result.halo_interface_counts[part_a];
    ++result.halo_interface_counts[part_b];
  }
  for (std::vector<Index>& ghosts : result.ghosts) {
    std::sort(ghosts.begin(), ghosts.end());
    ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  }

  const std::vector<Index> pieces = pieces_per_label(mesh, result.part_of_element, parts);
  for (int r = 0; r < parts; ++r) {
    if (pieces[r] == 0) ++result.empty_part_count;
    if (pieces[r] > 1) ++result.disconnected_part_count;
  }
  return result;
}

template <int Dim>
MeshPartition partition_mesh(const PolytopicMesh<Dim>& mesh, int parts,
                             const MeshPartitionOptions& options) {
  const Index n = mesh.element_count();
  require(parts >= 1, "partition_mesh: ", parts, " parts requested for a mesh of ", n,
          " elements; need at least 1 part");
  require(parts <= n, "partition_mesh: ", parts, " parts requested for a mesh of only ", n,
          " elements; a part (an MPI rank) would own no element: use at most ", n, " parts");

  std::vector<GlobalIndex> weights(static_cast<std::size_t>(n));
  for (Index e = 0; e < n; ++e)
    weights[e] = element_quadrature_cost(mesh, e, options.quadrature_degrees);

  // One piece for the whole mesh when it is connected; then contiguous parts can be asked for.
  const std::vector<int> no_labels(std::size_t(n), 0);
  const bool connected = pieces_per_label(mesh, no_labels, 1)[0] == 1;
  return partition_from_parts(
      mesh, parts == 1 ? no_labels : metis_parts(mesh, weights, parts, connected, options.seed),
      parts, options);
}

template <int Dim>
MeshPartition with_ghost_layers(const MeshPartition& partition, const PolytopicMesh<Dim>& mesh,
                                int layers) {
  const Index n = mesh.element_count();
  require(layers >= 1, "with_ghost_layers: ", layers, " ghost layers; need at least 1");
  require(Index(partition.part_of_element.size()) == n && partition.ghost_layers == 1,
          "with_ghost_layers: a partition of ", partition.part_of_element.size(), " elements with ",
          partition.ghost_layers, " ghost layer(s), for a mesh of ", n,
          " elements: widen the one-layer partition of this mesh");
  MeshPartition result = partition;
  result.ghost_layers = layers;
  // Breadth first from the first layer, per part, in old indices; `in_layers` marks what a part
  // holds already (its own elements are recognised by part_of_element) and is cleared after.
  std::vector<char> in_layers(std::size_t(n), 0);
  for (int part = 0; part < partition.part_count; ++part) {
    std::vector<Index> held, layer;
    for (const Index ghost : partition.ghosts[std::size_t(part)]) {
      const Index e = partition.old_from_new[std::size_t(ghost)];
      in_layers[std::size_t(e)] = 1;
      layer.push_back(e);
    }
    held = layer;
    for (int depth = 2; depth <= layers && !layer.empty(); ++depth) {
      std::vector<Index> next;
      for (const Index e : layer)
        for (const Index i : mesh.element_interfaces(e)) {
          const Index neighbour = mesh.neighbour(i, e);
          if (neighbour < 0 || in_layers[std::size_t(neighbour)] ||
              partition.part_of_element[std::size_t(neighbour)] == part)
            continue;
          in_layers[std::size_t(neighbour)] = 1;
          next.push_back(neighbour);
        }
      held.insert(held.end(), next.begin(), next.end());
      layer = std::move(next);
    }
    std::vector<Index>& ghosts = result.ghosts[std::size_t(part)];
    ghosts.clear();
    for (const Index e : held) {
      ghosts.push_back(partition.new_from_old[std::size_t(e)]);
      in_layers[std::size_t(e)] = 0;
    }
    std::sort(ghosts.begin(), ghosts.end());
  }
  return result;
}

template GlobalIndex element_quadrature_cost(const PolytopicMesh<2>&, Index,
                                             const QuadratureDegrees&);
template GlobalIndex element_quadrature_cost(const PolytopicMesh<3>&, Index,
                                             const QuadratureDegrees&);
template MeshPartition partition_from_parts(const PolytopicMesh<2>&, std::vector<int>, int,
                                            const MeshPartitionOptions&);
template MeshPartition partition_from_parts(const PolytopicMesh<3>&, std::vector<int>, int,
                                            const MeshPartitionOptions&);
template MeshPartition partition_mesh(const PolytopicMesh<2>&, int, const MeshPartitionOptions&);
template MeshPartition partition_mesh(const PolytopicMesh<3>&, int, const MeshPartitionOptions&);
template MeshPartition with_ghost_layers(const MeshPartition&, const PolytopicMesh<2>&, int);
template MeshPartition with_ghost_layers(const MeshPartition&, const PolytopicMesh<3>&, int);

}  // namespace polydg
