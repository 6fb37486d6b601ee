#pragma once
/// RawMesh: what the MSH 2 and MSH 4 parsers hand to the mesh builder (private to the reader) —
/// the nodes in file order and the elements the caller asked for, with node tags already
/// resolved to node indices. The element-type checks that need the caller's dimension happen
/// here, while the parser still knows the file line; nodes keep their tag and line for the
/// builder's check that a 2D mesh is flat.
#include <array>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "gmsh_element_types.hpp"
#include "gmsh_input.hpp"
#include "polydg/core/types.hpp"

namespace polydg::gmsh {

/// What the reader does with an element of a given type.
enum class ElementUse { ignore, cell, facet };

struct RawMesh {
  /// 2 or 3: the dimension of the cells to collect; 0: collect nothing, only note the highest
  /// element dimension (gmsh_mesh_dimension).
  explicit RawMesh(int wanted) : wanted_dimension(wanted) {}

  int wanted_dimension;
  int highest_element_dimension = -1;
  bool has_nodes = false;
  bool has_elements = false;
  /// MSH 2 writes an element once per physical group it belongs to; the builder keeps the first.
  bool elements_repeat_per_physical_group = false;

  std::vector<std::array<double, 3>> node_coordinates;
  std::vector<std::uint64_t> node_tags;
  std::vector<long> node_lines;  ///< in binary files, the line of the $Nodes header
  std::unordered_map<std::uint64_t, Index> node_index;  ///< node tag → index, while reading
  /// node tag → index (−1: none) once $Nodes is read, when the tags are dense enough (Gmsh
  /// numbers nodes 1..N): a vector lookup instead of a hash lookup per element node.
  std::vector<Index> dense_node_index;

  std::vector<Index> cell_nodes;  ///< wanted_dimension + 1 per cell
  std::vector<int> cell_physical_tags;
  std::vector<long> cell_lines;    ///< 0 where the cell came from a binary section
  std::vector<Index> facet_nodes;  ///< wanted_dimension per tagged facet
  std::vector<int> facet_physical_tags;

  /// Stores a node; fails on a repeated tag or a non-finite coordinate.
  void add_node(const MshInput& input, std::uint64_t tag, const std::array<double, 3>& xyz);
  /// Decides what to do with elements of `type`; fails for types that cannot be read into the
  /// wanted mesh (higher dimension, not a first-order simplex).
  ElementUse classify(const MshInput& input, const ElementType& type);
  /// Called at the end of $Nodes: builds dense_node_index where it pays.
  void finish_nodes();
  /// The index of node `tag`; fails if $Nodes did not define it.
  Index node(const MshInput& input, std::uint64_t tag) const;
  /// Fails for a negative physical tag (0 is "none"; 0 and −1 mean untagged and interior).
  static void check_physical_tag(const MshInput& input, long long tag);
  /// Stores a cell or tagged facet (facets with physical tag 0 are dropped).
  void add_element(const MshInput& input, ElementUse use, int physical_tag,
                   std::span<const Index> nodes);
};

}  // namespace polydg::gmsh
