// MSH 4.1: the section loop, $Entities lookup and element-block classification shared by the
// ASCII and binary forms (gmsh_reader_msh4_ascii.cpp, gmsh_reader_msh4_binary.cpp).
#include <limits>
#include <string>

#include "gmsh_msh4.hpp"

namespace polydg::gmsh {

void Msh4Entities::add(const MshInput& input, int dimension, int tag,
                       const long long* physical_tags, std::size_t physical_count) {
  for (std::size_t i = 0; i < physical_count; ++i)
    RawMesh::check_physical_tag(input, physical_tags[i]);
  // Several physical groups on one entity: its elements get the first (documented in
  // gmsh_reader.hpp; MSH 2 files make the same choice by keeping an element's first copy).
  const long long first = physical_count > 0 ? physical_tags[0] : 0;
  if (first > std::numeric_limits<int>::max())
    input.fail("physical tag ", first, " is out of range");
  if (!physical_tag[dimension].emplace(tag, int(first)).second)
    input.fail("entity (dimension ", dimension, ", tag ", tag, ") is defined twice");
}

int Msh4Entities::physical_tag_of(const MshInput& input, int dimension, int tag) const {
  if (!present) return 0;
  const auto position = physical_tag[dimension].find(tag);
  if (position == physical_tag[dimension].end())
    input.fail("element block of entity (dimension ", dimension, ", tag ", tag,
               "), which $Entities does not define");
  return position->second;
}

void check_entity_dimension(const MshInput& input, long long dimension) {
  if (dimension < 0 || dimension > 3)
    input.fail("entity dimension ", dimension, " is not 0, 1, 2 or 3");
}

Msh4ElementBlock begin_element_block(const MshInput& input, RawMesh& mesh,
                                     const Msh4Entities& entities, int entity_dimension,
                                     int entity_tag, int type_id) {
  check_entity_dimension(input, entity_dimension);
  const ElementType* type = find_element_type(type_id);
  if (!type) input.fail("unknown element type ", type_id);
  if (type->dimension != entity_dimension)
    input.fail("element type ", type_id, " (", type->name, ") is ", type->dimension,
               "-dimensional, but its block belongs to an entity of dimension ", entity_dimension);
  const ElementUse use = mesh.classify(input, *type);
  const int physical_tag =
      use == ElementUse::ignore ? 0 : entities.physical_tag_of(input, entity_dimension, entity_tag);
  return {type, use, physical_tag};
}

void parse_msh4(MshInput& input, RawMesh& mesh, const MeshFormat& format) {
  Msh4Entities entities;
  // Binary sections: the data follows the header line; "$End..." follows the data.
  const auto read_section = [&](std::string_view section, auto read_ascii, auto read_binary) {
    if (!format.binary) return read_ascii();
    input.begin_binary(section, format.swap_bytes, format.size_bytes);
    read_binary();
    input.end_binary();
    input.expect_section_end(section, detail::concatenate("the binary data of $", section));
  };
  std::string line;
  while (input.read_line(line)) {
    const std::string_view text = trimmed(line);
    if (text.empty()) continue;
    if (text == "$Entities") {
      if (entities.present) input.fail("a second $Entities section");
      if (mesh.has_elements)
        input.fail("$Entities after $Elements; the reader needs the entities first");
      read_section(
          "Entities", [&] { read_entities_ascii(input, entities); },
          [&] { read_entities_binary(input, entities); });
      entities.present = true;
    } else if (text == "$Nodes") {
      if (mesh.has_nodes) input.fail("a second $Nodes section");
      read_section(
          "Nodes", [&] { read_nodes_ascii(input, mesh); }, [&] { read_nodes_binary(input, mesh); });
      mesh.finish_nodes();
      mesh.has_nodes = true;
    } else if (text == "$Elements") {
      if (mesh.has_elements) input.fail("a second $Elements section");
      if (!mesh.has_nodes) input.fail("$Elements before $Nodes; the reader needs the nodes first");
      read_section(
          "Elements", [&] { read_elements_ascii(input, mesh, entities); },
          [&] { read_elements_binary(input, mesh, entities); });
      mesh.has_elements = true;
    } else if (text == "$PartitionedEntities") {
      input.fail("partitioned meshes are not supported; save the mesh unpartitioned");
    } else if (text.starts_with("$End") || text == "$MeshFormat") {
      input.fail("unexpected '", text, "' outside the section it belongs to");
    } else if (text.starts_with("$")) {
      input.skip_section(std::string(text.substr(1)), input.line_number());
    } else {
      input.fail("unexpected text outside a section: '", text.substr(0, 60), "'");
    }
  }
}

}  // namespace polydg::gmsh
