// MSH 2.2 ASCII: "$Nodes / count / tag x y z ..." and
// "$Elements / count / tag type ntags tags... nodes...", one entry per line.
#include <limits>
#include <string>
#include <vector>

#include "gmsh_parsers.hpp"

namespace polydg::gmsh {
namespace {

void read_nodes(MshInput& input, RawMesh& mesh) {
  const long section_line = input.line_number();
  if (mesh.has_nodes) input.fail("a second $Nodes section");
  std::vector<std::string_view> fields;
  split_fields(input.expect_line("Nodes", section_line), fields);
  const long header_line = input.line_number();
  require_field_count(input, fields, 1, "number-of-nodes");
  const std::uint64_t count = parse_count(input, fields[0], "number of nodes");
  for (std::uint64_t i = 0; i < count; ++i) {
    split_fields(input.expect_entry("Nodes", section_line, header_line, count, i, "nodes"), fields);
    require_field_count(input, fields, 4, "node-number x y z");
    const std::uint64_t tag = parse_count(input, fields[0], "node number");
    mesh.add_node(input, tag,
                  {parse_double(input, fields[1], "x"), parse_double(input, fields[2], "y"),
                   parse_double(input, fields[3], "z")});
  }
  input.expect_section_end(
      "Nodes", detail::concatenate("the ", count, " nodes declared at line ", header_line));
  mesh.finish_nodes();
  mesh.has_nodes = true;
}

void read_elements(MshInput& input, RawMesh& mesh) {
  const long section_line = input.line_number();
  if (mesh.has_elements) input.fail("a second $Elements section");
  if (!mesh.has_nodes) input.fail("$Elements before $Nodes; the reader needs the nodes first");
  std::vector<std::string_view> fields;
  split_fields(input.expect_line("Elements", section_line), fields);
  const long header_line = input.line_number();
  require_field_count(input, fields, 1, "number-of-elements");
  const std::uint64_t count = parse_count(input, fields[0], "number of elements");
  std::vector<Index> nodes;
  for (std::uint64_t i = 0; i < count; ++i) {
    split_fields(input.expect_entry("Elements", section_line, header_line, count, i, "elements"),
                 fields);
    if (fields.size() < 3)
      input.fail("expected an element (elm-number elm-type number-of-tags tags... nodes...), ",
                 "found ", fields.size(), " fields");
    parse_count(input, fields[0], "element number");
    const int type_id = parse_int(input, fields[1], "element type");
    const ElementType* type = find_element_type(type_id);
    if (!type) input.fail("unknown element type ", type_id);
    const std::uint64_t tag_count = parse_count(input, fields[2], "number of tags");
    const std::uint64_t first_node = 3 + tag_count;
    if (fields.size() != first_node + type->node_count)
      input.fail("expected ", first_node + type->node_count, " fields (elm-number elm-type ",
                 "number-of-tags, ", tag_count, " tags, ", type->node_count, " nodes of a ",
                 type->name, "), found ", fields.size());
    long long physical = 0;
    if (tag_count > 0) physical = parse_integer(input, fields[3], "physical tag");
    RawMesh::check_physical_tag(input, physical);
    if (physical > std::numeric_limits<int>::max())
      input.fail("physical tag ", physical, " is out of range");
    const ElementUse use = mesh.classify(input, *type);
    if (use == ElementUse::ignore || (use == ElementUse::facet && physical == 0)) continue;
    nodes.clear();
    for (int k = 0; k < type->node_count; ++k)
      nodes.push_back(mesh.node(input, parse_count(input, fields[first_node + k], "node number")));
    mesh.add_element(input, use, int(physical), nodes);
  }
  input.expect_section_end(
      "Elements", detail::concatenate("the ", count, " elements declared at line ", header_line));
  mesh.has_elements = true;
}

}  // namespace

void parse_msh2(MshInput& input, RawMesh& mesh) {
  mesh.elements_repeat_per_physical_group = true;
  std::string line;
  while (input.read_line(line)) {
    const std::string_view text = trimmed(line);
    if (text.empty()) continue;
    if (text == "$Nodes")
      read_nodes(input, mesh);
    else if (text == "$Elements")
      read_elements(input, mesh);
    else if (text.starts_with("$End") || text == "$MeshFormat")
      input.fail("unexpected '", text, "' outside the section it belongs to");
    else if (text.starts_with("$"))
      input.skip_section(std::string(text.substr(1)), input.line_number());
    else
      input.fail("unexpected text outside a section: '", text.substr(0, 60), "'");
  }
}

}  // namespace polydg::gmsh
