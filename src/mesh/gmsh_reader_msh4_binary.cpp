// MSH 4.1 binary: the same fields as the ASCII form, as raw int (4 bytes), size_t (the
// data-size of $MeshFormat) and double (8 bytes) values in the writer's byte order. Counts are
// never trusted for allocation: everything is read value by value, so a corrupt count ends in
// "unexpected end of file", not in a huge allocation.
#include <vector>

#include "gmsh_msh4.hpp"

namespace polydg::gmsh {

void read_entities_binary(MshInput& input, Msh4Entities& entities) {
  std::uint64_t counts[4];
  for (std::uint64_t& count : counts) count = input.read_size();
  std::vector<long long> physical_tags;
  double coordinates[6];
  for (int d = 0; d < 4; ++d)
    for (std::uint64_t i = 0; i < counts[d]; ++i) {
      const int tag = input.read_int();
      input.read_doubles(coordinates, d == 0 ? 3 : 6);  // a point, or a bounding box
      const std::uint64_t physical_count = input.read_size();
      physical_tags.clear();
      for (std::uint64_t k = 0; k < physical_count; ++k) physical_tags.push_back(input.read_int());
      if (d > 0) {
        const std::uint64_t bounding_count = input.read_size();
        for (std::uint64_t k = 0; k < bounding_count; ++k) input.read_int();
      }
      entities.add(input, d, tag, physical_tags.data(), physical_count);
    }
}

void read_nodes_binary(MshInput& input, RawMesh& mesh) {
  const std::uint64_t block_count = input.read_size();
  const std::uint64_t node_count = input.read_size();
  input.read_size();  // minNodeTag
  input.read_size();  // maxNodeTag
  std::vector<std::uint64_t> tags;
  std::uint64_t read = 0;
  for (std::uint64_t block = 0; block < block_count; ++block) {
    const int dimension = input.read_int();
    check_entity_dimension(input, dimension);
    input.read_int();  // entityTag
    const int parametric = input.read_int();
    if (parametric != 0 && parametric != 1)
      input.fail("parametric flag is ", parametric, "; it must be 0 or 1");
    const std::uint64_t count = input.read_size();
    tags.clear();
    for (std::uint64_t i = 0; i < count; ++i) tags.push_back(input.read_size());
    // Parametric nodes carry their entity's dimension of parameters (u, v, w) after x y z.
    const std::size_t coordinate_count = 3 + std::size_t(parametric ? dimension : 0);
    double coordinates[6];
    for (std::uint64_t i = 0; i < count; ++i) {
      input.read_doubles(coordinates, coordinate_count);
      mesh.add_node(input, tags[i], {coordinates[0], coordinates[1], coordinates[2]});
    }
    read += count;
  }
  if (read != node_count)
    input.fail("$Nodes declares ", node_count, " nodes, but its ", block_count, " blocks hold ",
               read);
}

void read_elements_binary(MshInput& input, RawMesh& mesh, const Msh4Entities& entities) {
  const std::uint64_t block_count = input.read_size();
  const std::uint64_t element_count = input.read_size();
  input.read_size();  // minElementTag
  input.read_size();  // maxElementTag
  std::vector<std::uint64_t> tags;
  std::vector<Index> nodes;
  std::uint64_t read = 0;
  for (std::uint64_t block = 0; block < block_count; ++block) {
    const int dimension = input.read_int();
    const int entity_tag = input.read_int();
    const int type_id = input.read_int();
    const std::uint64_t count = input.read_size();
    const Msh4ElementBlock element_block =
        begin_element_block(input, mesh, entities, dimension, entity_tag, type_id);
    const std::size_t node_count = std::size_t(element_block.type->node_count);
    tags.resize(1 + node_count);
    for (std::uint64_t i = 0; i < count; ++i) {
      input.read_sizes(tags.data(), tags.size());  // elementTag, then the node tags
      if (!element_block.wanted()) continue;
      nodes.clear();
      for (std::size_t k = 0; k < node_count; ++k) nodes.push_back(mesh.node(input, tags[1 + k]));
      mesh.add_element(input, element_block.use, element_block.physical_tag, nodes);
    }
    read += count;
  }
  if (read != element_count)
    input.fail("$Elements declares ", element_count, " elements, but its ", block_count,
               " blocks hold ", read);
}

}  // namespace polydg::gmsh
