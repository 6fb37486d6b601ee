// MSH 4.1 ASCII: every entity, block header, node tag, node coordinate triple and element is
// one line, so each line is checked for its exact number of fields.
#include <string>
#include <vector>

#include "gmsh_msh4.hpp"

namespace polydg::gmsh {
namespace {

constexpr std::string_view entity_kinds[4] = {"points", "curves", "surfaces", "volumes"};

/// Reads the four-number header line of $Nodes or $Elements.
std::array<std::uint64_t, 4> read_block_section_header(MshInput& input, std::string_view section,
                                                       long section_line, std::string_view layout) {
  std::vector<std::string_view> fields;
  split_fields(input.expect_line(section, section_line), fields);
  require_field_count(input, fields, 4, layout);
  std::array<std::uint64_t, 4> header;
  for (int i = 0; i < 4; ++i) header[i] = parse_count(input, fields[i], layout);
  return header;
}

}  // namespace

void read_entities_ascii(MshInput& input, Msh4Entities& entities) {
  const long section_line = input.line_number();
  std::vector<std::string_view> fields;
  split_fields(input.expect_line("Entities", section_line), fields);
  const long header_line = input.line_number();
  require_field_count(input, fields, 4, "numPoints numCurves numSurfaces numVolumes");
  std::uint64_t counts[4];
  for (int d = 0; d < 4; ++d) counts[d] = parse_count(input, fields[d], "number of entities");
  std::vector<long long> physical_tags;
  for (int d = 0; d < 4; ++d)
    for (std::uint64_t i = 0; i < counts[d]; ++i) {
      split_fields(
          input.expect_entry("Entities", section_line, header_line, counts[d], i, entity_kinds[d]),
          fields);
      // tag, a point (3 numbers) or a bounding box (6), then the physical tags, then (not for
      // points) the bounding entities.
      const std::uint64_t physical_count_field = d == 0 ? 4 : 7;
      if (fields.size() <= physical_count_field)
        input.fail("expected an entity (tag, ", d == 0 ? "x y z" : "bounding box",
                   ", physical tags", d == 0 ? "" : ", bounding entities", "), found ",
                   fields.size(), " fields");
      const int tag = parse_int(input, fields[0], "entity tag");
      for (std::uint64_t k = 1; k < physical_count_field; ++k)
        parse_double(input, fields[k], "entity coordinate");
      const std::uint64_t physical_count =
          parse_count(input, fields[physical_count_field], "number of physical tags");
      const std::uint64_t first_physical = physical_count_field + 1;
      const std::uint64_t needed = first_physical + physical_count + (d == 0 ? 0 : 1);
      if (fields.size() < needed)
        input.fail("expected at least ", needed, " fields in this entity (", physical_count,
                   " physical tags", d == 0 ? "" : ", then the bounding entities", "), found ",
                   fields.size());
      physical_tags.clear();
      for (std::uint64_t k = 0; k < physical_count; ++k)
        physical_tags.push_back(parse_integer(input, fields[first_physical + k], "physical tag"));
      std::uint64_t expected = first_physical + physical_count;
      if (d > 0) {
        const std::uint64_t bounding_count =
            parse_count(input, fields[expected], "number of bounding entities");
        for (std::uint64_t k = 0; k < bounding_count && expected + 1 + k < fields.size(); ++k)
          parse_int(input, fields[expected + 1 + k], "bounding entity tag");
        expected += 1 + bounding_count;
      }
      if (fields.size() != expected)
        input.fail("expected ", expected, " fields in this entity, found ", fields.size());
      entities.add(input, d, tag, physical_tags.data(), physical_count);
    }
  input.expect_section_end("Entities", "the entities it declares");
}

void read_nodes_ascii(MshInput& input, RawMesh& mesh) {
  const long section_line = input.line_number();
  const auto [block_count, node_count, min_tag, max_tag] = read_block_section_header(
      input, "Nodes", section_line, "numEntityBlocks numNodes minNodeTag maxNodeTag");
  const long header_line = input.line_number();
  std::vector<std::string_view> fields;
  std::vector<std::uint64_t> tags;
  std::uint64_t read = 0;
  for (std::uint64_t block = 0; block < block_count; ++block) {
    split_fields(
        input.expect_entry("Nodes", section_line, header_line, block_count, block, "node blocks"),
        fields);
    const long block_line = input.line_number();
    require_field_count(input, fields, 4, "entityDim entityTag parametric numNodesInBlock");
    const long long dimension = parse_integer(input, fields[0], "entity dimension");
    check_entity_dimension(input, dimension);
    parse_int(input, fields[1], "entity tag");
    const long long parametric = parse_integer(input, fields[2], "parametric flag");
    if (parametric != 0 && parametric != 1)
      input.fail("parametric flag is ", parametric, "; it must be 0 or 1");
    const std::uint64_t count = parse_count(input, fields[3], "number of nodes in the block");
    // Parametric nodes carry their entity's dimension of parameters (u, v, w) after x y z.
    const std::size_t coordinate_count = 3 + std::size_t(parametric ? dimension : 0);
    tags.clear();
    for (std::uint64_t i = 0; i < count; ++i) {
      split_fields(input.expect_entry("Nodes", section_line, block_line, count, i, "node tags"),
                   fields);
      require_field_count(input, fields, 1, "nodeTag");
      tags.push_back(parse_count(input, fields[0], "node tag"));
    }
    for (std::uint64_t i = 0; i < count; ++i) {
      split_fields(
          input.expect_entry("Nodes", section_line, block_line, count, i, "node coordinates"),
          fields);
      require_field_count(input, fields, coordinate_count, parametric ? "x y z u..." : "x y z");
      mesh.add_node(input, tags[i],
                    {parse_double(input, fields[0], "x"), parse_double(input, fields[1], "y"),
                     parse_double(input, fields[2], "z")});
    }
    read += count;
  }
  if (read != node_count)
    input.fail("$Nodes (line ", section_line, ") declares ", node_count, " nodes, but its ",
               block_count, " blocks hold ", read);
  input.expect_section_end(
      "Nodes",
      detail::concatenate("the ", block_count, " node blocks declared at line ", header_line));
}

void read_elements_ascii(MshInput& input, RawMesh& mesh, const Msh4Entities& entities) {
  const long section_line = input.line_number();
  const auto [block_count, element_count, min_tag, max_tag] = read_block_section_header(
      input, "Elements", section_line, "numEntityBlocks numElements minElementTag maxElementTag");
  const long header_line = input.line_number();
  std::vector<std::string_view> fields;
  std::vector<Index> nodes;
  std::uint64_t read = 0;
  for (std::uint64_t block = 0; block < block_count; ++block) {
    split_fields(input.expect_entry("Elements", section_line, header_line, block_count, block,
                                    "element blocks"),
                 fields);
    const long block_line = input.line_number();
    require_field_count(input, fields, 4, "entityDim entityTag elementType numElementsInBlock");
    const int dimension = parse_int(input, fields[0], "entity dimension");
    const int entity_tag = parse_int(input, fields[1], "entity tag");
    const int type_id = parse_int(input, fields[2], "element type");
    const std::uint64_t count = parse_count(input, fields[3], "number of elements in the block");
    const Msh4ElementBlock element_block =
        begin_element_block(input, mesh, entities, dimension, entity_tag, type_id);
    const std::size_t node_count = std::size_t(element_block.type->node_count);
    for (std::uint64_t i = 0; i < count; ++i) {
      split_fields(input.expect_entry("Elements", section_line, block_line, count, i, "elements"),
                   fields);
      if (fields.size() != 1 + node_count)
        input.fail("expected ", 1 + node_count, " fields (elementTag and the ", node_count,
                   " node tags of a ", element_block.type->name, "), found ", fields.size());
      parse_count(input, fields[0], "element tag");
      if (!element_block.wanted()) continue;
      nodes.clear();
      for (std::size_t k = 0; k < node_count; ++k)
        nodes.push_back(mesh.node(input, parse_count(input, fields[1 + k], "node tag")));
      mesh.add_element(input, element_block.use, element_block.physical_tag, nodes);
    }
    read += count;
  }
  if (read != element_count)
    input.fail("$Elements (line ", section_line, ") declares ", element_count,
               " elements, but its ", block_count, " blocks hold ", read);
  input.expect_section_end(
      "Elements",
      detail::concatenate("the ", block_count, " element blocks declared at line ", header_line));
}

}  // namespace polydg::gmsh
