#define BOOST_TEST_MODULE rank_part_file
// Rank part files (polydg/mesh/rank_part_file.hpp): every part read back is the one built from
// the whole mesh, bit for bit; the halo lists pair up across the parts on the elements' own
// ids; and every damaged or mismatched file is refused naming the file and what is wrong.
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/log.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/mesh/rank_part_file.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

constexpr int cut_tag = 99;

/// A folder of its own under the system's temporary one, removed at the end.
struct ScratchFolder {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("polydg_rank_parts_" + std::to_string(getpid()));
  ScratchFolder() { std::filesystem::remove_all(path); }
  ~ScratchFolder() { std::filesystem::remove_all(path); }
};

/// A fine mesh and its agglomeration.
template <int Dim>
struct Agglomerated {
  std::shared_ptr<const SimplexMesh<Dim>> fine;
  std::vector<Index> element_of_cell;
  PolytopicMesh<Dim> polytopes() const { return PolytopicMesh<Dim>(fine, element_of_cell, 1); }
};

Agglomerated<2> square(int n, Index elements) {
  auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 5));
  return {fine, agglomerate(*fine, elements).element_of_cell};
}

Agglomerated<3> cube(int n, Index elements) {
  const auto [vertices, cells] = testing::kuhn_unit_cube(n);
  const WarningHandler previous = set_warning_handler([](const std::string&) {});
  auto fine = std::make_shared<const SimplexMesh<3>>(vertices, cells);
  set_warning_handler(previous);
  return {fine, agglomerate(*fine, elements).element_of_cell};
}

/// The boundary facets of a mesh as (sorted vertex coordinates' bits, tag): comparable across
/// two meshes with the same vertices whatever their facet numbering.
template <int Dim>
std::set<std::pair<std::vector<double>, int>> tagged_boundary(const SimplexMesh<Dim>& mesh) {
  std::set<std::pair<std::vector<double>, int>> facets;
  for (Index f = 0; f < mesh.facet_count(); ++f) {
    if (!mesh.is_boundary_facet(f)) continue;
    std::vector<std::vector<double>> points;
    for (const Point<Dim>& x : mesh.facet_points(f)) {
      std::vector<double> coordinates;
      for (int d = 0; d < Dim; ++d) coordinates.push_back(x[d]);
      points.push_back(coordinates);
    }
    std::sort(points.begin(), points.end());
    std::vector<double> flat;
    for (const auto& x : points) flat.insert(flat.end(), x.begin(), x.end());
    facets.insert({flat, mesh.facet_tag(f)});
  }
  return facets;
}

template <int Dim>
void check_round_trip(const Agglomerated<Dim>& mesh, int parts, int ghost_layers) {
  const PolytopicMesh<Dim> polytopes = mesh.polytopes();
  MeshPartition partition = partition_mesh(polytopes, parts);
  if (ghost_layers > 1) partition = with_ghost_layers(partition, polytopes, ghost_layers);
  const ScratchFolder folder;
  write_rank_parts<Dim>(folder.path, *mesh.fine, mesh.element_of_cell, partition, cut_tag);
  std::vector<RankPart<Dim>> read;
  for (int rank = 0; rank < parts; ++rank) {
    read.push_back(read_rank_part<Dim>(folder.path, rank, parts));
    const RankPart<Dim>& got = read.back();
    const RankPart<Dim> built =
        make_rank_part(*mesh.fine, mesh.element_of_cell, partition, rank, cut_tag, {});
    BOOST_TEST_CONTEXT("rank " << rank << " of " << parts) {
      const SimplexMesh<Dim>&a = *got.submesh.mesh, &b = *built.submesh.mesh;
      BOOST_TEST(a.vertex_count() == b.vertex_count());
      BOOST_TEST(std::memcmp(a.vertices().data(), b.vertices().data(),
                             sizeof(Point<Dim>) * std::size_t(a.vertex_count())) == 0);
      BOOST_TEST((a.cells() == b.cells()));
      for (Index c = 0; c < a.cell_count(); ++c) BOOST_TEST(a.cell_region(c) == b.cell_region(c));
      BOOST_TEST((tagged_boundary(a) == tagged_boundary(b)));
      BOOST_TEST(got.submesh.element_of_cell == built.submesh.element_of_cell,
                 boost::test_tools::per_element());
      BOOST_TEST(got.submesh.fine_cell == built.submesh.fine_cell,
                 boost::test_tools::per_element());
      BOOST_TEST(got.submesh.element == built.submesh.element, boost::test_tools::per_element());
      BOOST_TEST(got.submesh.owned_count == partition.owned_count(rank));
      BOOST_TEST(got.partition_element == built.partition_element,
                 boost::test_tools::per_element());
      BOOST_TEST(got.partition_element[0] == partition.part_begin[std::size_t(rank)]);
      BOOST_TEST(got.element_count == polytopes.element_count());
      BOOST_TEST(got.cut_tag == cut_tag);
      BOOST_TEST(got.description == mesh.fine->source().name);
      BOOST_TEST(got.halo.ghost_layers == ghost_layers);
      BOOST_TEST(got.halo.partition_fingerprint == partition_fingerprint(partition));
      BOOST_TEST(got.halo.neighbours.size() == built.halo.neighbours.size());
    }
  }
  // The halos pair up on the elements themselves: what p sends q, as whole-mesh ids, is what q
  // receives from p, in the same order; and every ghost comes from the part that owns it.
  for (int p = 0; p < parts; ++p)
    for (const auto& to : read[std::size_t(p)].halo.neighbours) {
      const RankPart<Dim>& q = read[std::size_t(to.part)];
      const auto from = std::find_if(q.halo.neighbours.begin(), q.halo.neighbours.end(),
                                     [&](const auto& n) { return n.part == p; });
      BOOST_TEST_REQUIRE((from != q.halo.neighbours.end()));
      BOOST_TEST(from->received.size() == to.sent.size());
      for (std::size_t i = 0; i < std::min(to.sent.size(), from->received.size()); ++i)
        BOOST_TEST(read[std::size_t(p)].submesh.element[std::size_t(to.sent[i])] ==
                   q.submesh.element[std::size_t(from->received[i])]);
      for (const Index k : from->received)
        BOOST_TEST(partition.part_of_element[std::size_t(q.submesh.element[std::size_t(k)])] == p);
    }
}

std::vector<char> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::filesystem::path& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

/// Sets payload word `index` to `value` and the header's checksum to the payload's (FNV-1a
/// over 64-bit words, as the file comment specifies): a file that passes the checksum but
/// says something impossible.
void rewrite_payload_word(const std::filesystem::path& path, std::size_t index,
                          std::int64_t value) {
  std::vector<char> bytes = file_bytes(path);
  std::vector<std::uint64_t> words(bytes.size() / 8);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  words[5 + index] = std::uint64_t(value);
  std::uint64_t hash = 14695981039346656037ull;
  for (std::size_t i = 5; i < words.size(); ++i) hash = (hash ^ words[i]) * 1099511628211ull;
  words[4] = hash;
  std::memcpy(bytes.data(), words.data(), bytes.size());
  write_bytes(path, bytes);
}

}  // namespace

BOOST_AUTO_TEST_CASE(polygon_parts_read_back_are_the_rank_submeshes_bit_for_bit) {
  check_round_trip(square(20, 90), 3, 1);
  check_round_trip(square(20, 90), 4, 2);
}

BOOST_AUTO_TEST_CASE(a_parts_slab_splits_its_prisms_as_the_whole_meshs_slab) {
  // extrude_to_slab picks each prism's diagonals by vertex number: a part numbers its vertices
  // in the fine mesh's order, so its tetrahedra are the whole slab's (the same corners).
  const Agglomerated<2> mesh = square(16, 60);
  const MeshPartition partition = partition_mesh(mesh.polytopes(), 3);
  const SimplexMesh<3> whole = extrude_to_slab(*mesh.fine);
  for (int rank = 0; rank < 3; ++rank) {
    const RankPart<2> part =
        make_rank_part(*mesh.fine, mesh.element_of_cell, partition, rank, cut_tag, {});
    const SimplexMesh<3> slab = extrude_to_slab(*part.submesh.mesh);
    for (Index c = 0; c < part.submesh.mesh->cell_count(); ++c)
      for (Index j = 0; j < 3; ++j) {
        const auto a = slab.cell_points(3 * c + j);
        const auto b = whole.cell_points(3 * part.submesh.fine_cell[std::size_t(c)] + j);
        BOOST_TEST(std::memcmp(a.data(), b.data(), sizeof a) == 0,
                   "rank " << rank << ", cell " << c << ", tetrahedron " << j);
      }
  }
}

BOOST_AUTO_TEST_CASE(a_cell_partition_makes_every_cell_an_element) {
  const auto fine = square(12, 30).fine;
  const CellPartition cells = partition_cells(fine, 3, 2);
  BOOST_TEST_REQUIRE(Index(cells.element_of_cell.size()) == fine->cell_count());
  for (Index c = 0; c < fine->cell_count(); ++c)
    BOOST_TEST(cells.element_of_cell[std::size_t(c)] == c);
  BOOST_TEST(cells.partition.part_count == 3);
  BOOST_TEST(Index(cells.partition.part_of_element.size()) == fine->cell_count());
  BOOST_TEST(cells.partition.ghost_layers == 2);
  // Equal weights: METIS's balance, up to one element over the mean (mesh_partition.hpp).
  BOOST_TEST(cells.partition.load_imbalance() <=
             mesh_partition_imbalance_tolerance + 3.0 / double(fine->cell_count()));
  const std::vector<int> tags = fine->boundary_tag_values();
  BOOST_TEST(cells.cut_tag > tags.back());
  BOOST_TEST(error_names([&] { partition_cells(fine, 3, 0); }, {"with_ghost_layers", "0 ghost"}));
}

BOOST_AUTO_TEST_CASE(polyhedron_parts_read_back_are_the_rank_submeshes_bit_for_bit) {
  check_round_trip(cube(5, 40), 3, 1);
}

BOOST_AUTO_TEST_CASE(damaged_or_mismatched_files_are_refused_naming_the_file) {
  const Agglomerated<2> mesh = square(12, 30);
  const MeshPartition partition = partition_mesh(mesh.polytopes(), 3);
  const ScratchFolder folder;
  BOOST_TEST(error_names([&] { read_rank_part<2>(folder.path, 0, 3); },
                         {"part_0_of_3.polydg", "no such file", "holds no parts"}));
  write_rank_parts<2>(folder.path, *mesh.fine, mesh.element_of_cell, partition, cut_tag, "a test");
  const std::filesystem::path first = rank_part_path(folder.path, 0, 3);
  BOOST_TEST(read_rank_part<2>(folder.path, 0, 3).description == "a test");
  BOOST_TEST(error_names([&] { read_rank_part<2>(folder.path, 1, 2); },
                         {"part_1_of_2.polydg", "holds parts for 3 ranks, not 2"}));
  BOOST_TEST(error_names([&] { read_rank_part<3>(folder.path, 0, 3); },
                         {"part_0_of_3.polydg", "2-dimensional mesh, read as 3-dimensional"}));

  const std::vector<char> good = file_bytes(first);
  const auto damaged = [&](auto change, std::initializer_list<std::string> parts) {
    std::vector<char> bytes = good;
    change(bytes);
    write_bytes(first, bytes);
    BOOST_TEST(error_names([&] { read_rank_part<2>(folder.path, 0, 3); }, parts));
    write_bytes(first, good);
  };
  damaged([](std::vector<char>& b) { b.resize(b.size() - 8); }, {"part_0_of_3", "truncated"});
  damaged([](std::vector<char>& b) { b.resize(20); }, {"truncated", "40-byte header"});
  damaged([](std::vector<char>& b) { b.insert(b.end(), 8, '\0'); }, {"trailing data"});
  damaged([](std::vector<char>& b) { b[b.size() / 2] ^= 1; },
          {"part_0_of_3", "checksum", "corrupted"});
  damaged([](std::vector<char>& b) { b[0] = 'X'; }, {"not a libpolydg rank part file"});
  damaged([](std::vector<char>& b) { b[8] = 9; }, {"format version 9"});

  // Checksummed but impossible: caught by the contents' own checks.
  const auto impossible = [&](std::size_t word, std::int64_t value,
                              std::initializer_list<std::string> parts) {
    rewrite_payload_word(first, word, value);
    BOOST_TEST(error_names([&] { read_rank_part<2>(folder.path, 0, 3); }, parts));
    write_bytes(first, good);
  };
  impossible(1, 2, {"holds rank 2's part, read as rank 0's"});
  impossible(5, 0, {"owned element count 0 is outside"});
  impossible(7, 1 << 30, {"truncated in the vertex coordinates"});
  BOOST_TEST(read_rank_part<2>(folder.path, 0, 3).halo.part == 0);  // the good file again

  // A part file copied under another rank's name.
  std::filesystem::copy_file(rank_part_path(folder.path, 1, 3), first,
                             std::filesystem::copy_options::overwrite_existing);
  BOOST_TEST(error_names([&] { read_rank_part<2>(folder.path, 0, 3); },
                         {"part_0_of_3", "holds rank 1's part, read as rank 0's"}));
}
