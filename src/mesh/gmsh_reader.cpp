// read_gmsh: opens the file, reads $MeshFormat, lets the MSH 2 or MSH 4 parser collect a
// RawMesh, and turns that into a SimplexMesh (renumbered vertices, cells, regions, tags).
#include "polydg/mesh/gmsh_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include "gmsh_input.hpp"
#include "gmsh_parsers.hpp"
#include "gmsh_raw_mesh.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"

namespace polydg {
namespace {

using gmsh::MeshFormat;
using gmsh::MshInput;
using gmsh::RawMesh;

MeshFormat read_mesh_format(MshInput& input) {
  std::string line;
  std::string_view text;
  while (text.empty()) {
    if (!input.read_line(line)) input.fail("empty file; a Gmsh mesh begins with $MeshFormat");
    text = gmsh::trimmed(line);
  }
  if (text != "$MeshFormat")
    input.fail("missing $MeshFormat: a Gmsh mesh file begins with it, this one with '",
               text.substr(0, 60), "'",
               text == "$NOD" ? " (an MSH 1 file: save it again as MSH 4.1 or 2.2)" : "");
  std::vector<std::string_view> fields;
  gmsh::split_fields(input.expect_line("MeshFormat", input.line_number()), fields);
  gmsh::require_field_count(input, fields, 3, "version file-type data-size");
  MeshFormat format;
  const std::string_view version = fields[0];
  if (version == "2.2" || version == "2.1" || version == "2" || version == "2.0")
    format.major_version = 2;
  else if (version == "4.1")
    format.major_version = 4;
  else
    input.fail("unsupported MSH version ", version,
               "; polydg reads MSH 2.2 (ASCII) and MSH 4.1 (ASCII or binary): save the mesh "
               "again in one of them (Gmsh: Mesh.MshFileVersion = 4.1)");
  const long long file_type = gmsh::parse_integer(input, fields[1], "file-type");
  if (file_type != 0 && file_type != 1)
    input.fail("file-type is ", file_type, "; it must be 0 (ASCII) or 1 (binary)");
  format.binary = file_type == 1;
  if (format.binary && format.major_version == 2)
    input.fail(
        "binary MSH 2 is not supported; save the mesh as MSH 4.1 (binary or ASCII) or "
        "as MSH 2.2 ASCII");
  const long long size_bytes = gmsh::parse_integer(input, fields[2], "data-size");
  if (format.binary) {
    if (size_bytes != 4 && size_bytes != 8)
      input.fail("data-size is ", size_bytes, "; binary files need 4 or 8 (bytes of a size_t)");
    format.size_bytes = int(size_bytes);
    // The writer stores the int 1 so that the reader can tell its byte order.
    input.begin_binary("MeshFormat", false, format.size_bytes);
    const int one = input.read_int();
    if (one == 1)
      format.swap_bytes = false;
    else if (one == 0x01000000)
      format.swap_bytes = true;
    else
      input.fail("the byte-order marker reads ", one, " (it must be the integer 1)");
    input.end_binary();
  }
  input.expect_section_end("MeshFormat", "the format line");
  return format;
}

RawMesh parse_gmsh(std::istream& in, const std::string& name, int wanted_dimension) {
  MshInput input(in, name);
  const MeshFormat format = read_mesh_format(input);
  RawMesh mesh(wanted_dimension);
  if (format.major_version == 2)
    gmsh::parse_msh2(input, mesh);
  else
    gmsh::parse_msh4(input, mesh, format);
  if (!mesh.has_nodes) input.fail("end of file without a $Nodes section");
  if (!mesh.has_elements) input.fail("end of file without an $Elements section");
  return mesh;
}

/// MSH 2 writes an element once per physical group it is in: drops the later copies of a cell
/// whose physical tag differs from the first copy's. (Copies with the same tag are a broken
/// file, left for the SimplexMesh constructor to report as overlapping cells.)
template <int Dim>
void drop_repeated_cells(RawMesh& mesh, const std::string& name) {
  using Key = std::array<Index, Dim + 1>;
  const std::size_t count = mesh.cell_physical_tags.size();
  std::vector<std::pair<Key, std::size_t>> keys(count);
  for (std::size_t c = 0; c < count; ++c) {
    std::copy_n(mesh.cell_nodes.begin() + c * (Dim + 1), Dim + 1, keys[c].first.begin());
    std::sort(keys[c].first.begin(), keys[c].first.end());
    keys[c].second = c;
  }
  std::sort(keys.begin(), keys.end());  // equal keys together, in file order
  std::vector<bool> drop(count, false);
  std::size_t dropped = 0;
  for (std::size_t begin = 0; begin < count;) {
    std::size_t end = begin + 1;
    while (end < count && keys[end].first == keys[begin].first) ++end;
    const int first_tag = mesh.cell_physical_tags[keys[begin].second];
    for (std::size_t i = begin + 1; i < end; ++i)
      if (mesh.cell_physical_tags[keys[i].second] != first_tag) {
        drop[keys[i].second] = true;
        ++dropped;
      }
    begin = end;
  }
  if (dropped == 0) return;
  std::size_t next = 0;
  for (std::size_t c = 0; c < count; ++c) {
    if (drop[c]) continue;
    std::copy_n(mesh.cell_nodes.begin() + c * (Dim + 1), Dim + 1,
                mesh.cell_nodes.begin() + next * (Dim + 1));
    mesh.cell_physical_tags[next] = mesh.cell_physical_tags[c];
    mesh.cell_lines[next] = mesh.cell_lines[c];
    ++next;
  }
  mesh.cell_nodes.resize(next * (Dim + 1));
  mesh.cell_physical_tags.resize(next);
  mesh.cell_lines.resize(next);
  warn(detail::concatenate(name, ": ", dropped, " elements repeat an earlier one with another ",
                           "physical tag (MSH 2 writes an element once per physical group); ",
                           "the first copy and its tag are kept"));
}

/// A 2D mesh lies in a plane z = constant (Gmsh writes z = 0): compares node `node`'s z with
/// that of node `first`, allowing rounding noise relative to the coordinates' size.
void check_flat(const RawMesh& mesh, const std::string& name, std::size_t first, std::size_t node) {
  const double z0 = mesh.node_coordinates[first][2];
  const auto& xyz = mesh.node_coordinates[node];
  const double scale =
      std::max({std::abs(xyz[0]), std::abs(xyz[1]), std::abs(xyz[2]), std::abs(z0)});
  if (std::abs(xyz[2] - z0) > 1e-10 * scale)
    raise(name, ":", mesh.node_lines[node], ": node ", mesh.node_tags[node], " has z = ", xyz[2],
          ", but node ", mesh.node_tags[first], " has z = ", z0,
          "; a 2-dimensional mesh must lie in a plane z = constant");
}

template <int Dim>
SimplexMesh<Dim> build_mesh(RawMesh mesh, const std::string& name) {
  if (mesh.cell_physical_tags.empty())
    raise(name, ": no ", Dim == 2 ? "triangles" : "tetrahedra", " (",
          mesh.highest_element_dimension < 0
              ? std::string("the file has no elements")
              : detail::concatenate("the file's elements are at most ",
                                    mesh.highest_element_dimension, "-dimensional"),
          "); if the .geo file defines physical groups, Gmsh saves only their elements: add a ",
          "physical ", Dim == 2 ? "surface" : "volume", " or set Mesh.SaveAll = 1");
  if (mesh.elements_repeat_per_physical_group) drop_repeated_cells<Dim>(mesh, name);

  // Vertices: the nodes that cells use, in file order.
  std::vector<Index> vertex_of_node(mesh.node_coordinates.size(), -1);
  for (const Index node : mesh.cell_nodes) vertex_of_node[node] = 0;
  std::vector<Point<Dim>> vertices;
  std::size_t first_vertex_node = 0;
  for (std::size_t node = 0; node < vertex_of_node.size(); ++node) {
    if (vertex_of_node[node] < 0) continue;
    if (vertices.empty()) first_vertex_node = node;
    if constexpr (Dim == 2) check_flat(mesh, name, first_vertex_node, node);
    vertex_of_node[node] = Index(vertices.size());
    Point<Dim> point;
    for (int i = 0; i < Dim; ++i) point[i] = mesh.node_coordinates[node][i];
    vertices.push_back(point);
  }

  const std::size_t cell_count = mesh.cell_physical_tags.size();
  std::vector<typename SimplexMesh<Dim>::Cell> cells(cell_count);
  for (std::size_t c = 0; c < cell_count; ++c)
    for (int i = 0; i <= Dim; ++i) cells[c][i] = vertex_of_node[mesh.cell_nodes[c * (Dim + 1) + i]];

  std::vector<typename SimplexMesh<Dim>::TaggedFacet> tagged_facets;
  std::size_t detached = 0;
  for (std::size_t f = 0; f < mesh.facet_physical_tags.size(); ++f) {
    typename SimplexMesh<Dim>::TaggedFacet facet{{}, mesh.facet_physical_tags[f]};
    bool on_cells = true;
    for (int i = 0; i < Dim; ++i) {
      facet.vertices[i] = vertex_of_node[mesh.facet_nodes[f * Dim + i]];
      on_cells = on_cells && facet.vertices[i] >= 0;
    }
    if (on_cells)
      tagged_facets.push_back(facet);
    else
      ++detached;
  }
  if (detached > 0)
    warn(detail::concatenate(name, ": ", detached, " tagged ", Dim == 2 ? "lines" : "triangles",
                             " use nodes of no cell; they are ignored"));

  // Binary files have no line per cell: the constructor's messages then give the cell index.
  const bool lines_known =
      std::none_of(mesh.cell_lines.begin(), mesh.cell_lines.end(), [](long l) { return l == 0; });
  MeshSource source{name, lines_known ? std::move(mesh.cell_lines) : std::vector<long>{}};
  return SimplexMesh<Dim>(std::move(vertices), std::move(cells), std::move(mesh.cell_physical_tags),
                          std::move(tagged_facets), std::move(source));
}

std::ifstream open_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) raise("cannot open Gmsh file '", path, "': ", std::strerror(errno));
  return file;
}

}  // namespace

template <int Dim>
SimplexMesh<Dim> read_gmsh(std::istream& in, const std::string& name) {
  return build_mesh<Dim>(parse_gmsh(in, name, Dim), name);
}

template <int Dim>
SimplexMesh<Dim> read_gmsh(const std::string& path) {
  std::ifstream file = open_file(path);
  return read_gmsh<Dim>(file, path);
}

int gmsh_mesh_dimension(std::istream& in, const std::string& name) {
  const RawMesh mesh = parse_gmsh(in, name, 0);
  require(mesh.highest_element_dimension >= 0, name, ": the file has no elements");
  return mesh.highest_element_dimension;
}

int gmsh_mesh_dimension(const std::string& path) {
  std::ifstream file = open_file(path);
  return gmsh_mesh_dimension(file, path);
}

template SimplexMesh<2> read_gmsh<2>(std::istream&, const std::string&);
template SimplexMesh<3> read_gmsh<3>(std::istream&, const std::string&);
template SimplexMesh<2> read_gmsh<2>(const std::string&);
template SimplexMesh<3> read_gmsh<3>(const std::string&);

}  // namespace polydg
