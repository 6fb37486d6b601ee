#pragma once
/// The sections of MSH 4.1 (private to the reader), each in its ASCII and its binary form.
/// The layouts are those of the Gmsh manual, "MSH file format version 4.1".
#include <unordered_map>

#include "gmsh_parsers.hpp"

namespace polydg::gmsh {

/// $Entities, reduced to what the reader needs: each entity's first physical tag.
struct Msh4Entities {
  bool present = false;
  std::unordered_map<int, int> physical_tag[4];  ///< per dimension: entity tag → physical tag

  /// Records entity (dimension, tag) with its physical tags (the first is kept, 0 if none);
  /// fails on a repeated entity.
  void add(const MshInput& input, int dimension, int tag, const long long* physical_tags,
           std::size_t physical_count);
  /// The physical tag of the elements of entity (dimension, tag): 0 when the file has no
  /// $Entities; fails when it has one that lacks this entity.
  int physical_tag_of(const MshInput& input, int dimension, int tag) const;
};

/// One element block of $Elements: its type, what to do with its elements, their physical tag.
struct Msh4ElementBlock {
  const ElementType* type;
  ElementUse use;
  int physical_tag;
  /// False when the block's elements are not needed (ignored types, untagged facets).
  bool wanted() const {
    return use == ElementUse::cell || (use == ElementUse::facet && physical_tag != 0);
  }
};
/// Checks a block header (known type, type of the entity's dimension) and classifies it.
Msh4ElementBlock begin_element_block(const MshInput& input, RawMesh& mesh,
                                     const Msh4Entities& entities, int entity_dimension,
                                     int entity_tag, int type_id);
/// Fails unless 0 ≤ dimension ≤ 3.
void check_entity_dimension(const MshInput& input, long long dimension);

void read_entities_ascii(MshInput& input, Msh4Entities& entities);
void read_nodes_ascii(MshInput& input, RawMesh& mesh);
void read_elements_ascii(MshInput& input, RawMesh& mesh, const Msh4Entities& entities);

void read_entities_binary(MshInput& input, Msh4Entities& entities);
void read_nodes_binary(MshInput& input, RawMesh& mesh);
void read_elements_binary(MshInput& input, RawMesh& mesh, const Msh4Entities& entities);

}  // namespace polydg::gmsh
