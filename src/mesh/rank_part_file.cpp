// Rank part files (include/polydg/mesh/rank_part_file.hpp): the layout in its comment.
#include "polydg/mesh/rank_part_file.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <set>
#include <system_error>
#include <utility>

#include "../core/binary_file.hpp"
#include "polydg/core/error.hpp"

namespace polydg {

namespace {

constexpr std::array<char, 8> part_magic = {'P', 'D', 'G', 'R', 'P', 'A', 'R', 'T'};
constexpr std::size_t header_words = 5;  // magic, version, dimension, payload words, checksum

std::uint64_t magic_word() {
  std::uint64_t word;
  std::memcpy(&word, part_magic.data(), sizeof word);
  return word;
}

/// The payload, word by word.
class WordWriter {
 public:
  void integer(std::int64_t value) { words_.push_back(std::uint64_t(value)); }
  void real(double value) { words_.push_back(std::bit_cast<std::uint64_t>(value)); }
  template <class Range>
  void integers(const Range& values) {
    for (const auto value : values) integer(std::int64_t(value));
  }
  void text(const std::string& value) {
    const std::size_t begin = words_.size();
    words_.resize(begin + (value.size() + 7) / 8, 0);
    std::memcpy(words_.data() + begin, value.data(), value.size());
  }
  const std::vector<std::uint64_t>& words() const { return words_; }

 private:
  std::vector<std::uint64_t> words_;
};

/// The payload read back: every take names what it reads, so a short payload says where.
class WordReader {
 public:
  WordReader(std::span<const std::uint64_t> words, std::string where)
      : words_(words), where_(std::move(where)) {}

  std::span<const std::uint64_t> take(std::uint64_t count, const char* what) {
    require(count <= words_.size() - at_, where_, ": truncated in the ", what, " (", count,
            " words, ", words_.size() - at_, " left)");
    const auto taken = words_.subspan(at_, std::size_t(count));
    at_ += std::size_t(count);
    return taken;
  }
  /// One integer in [low, high].
  std::int64_t integer(const char* what, std::int64_t low, std::int64_t high) {
    return checked(take(1, what)[0], what, low, high);
  }
  /// `count` integers in [low, high], as T.
  template <class T>
  std::vector<T> integers(std::uint64_t count, const char* what, std::int64_t low,
                          std::int64_t high) {
    std::vector<T> values;
    values.reserve(std::size_t(count));
    for (const std::uint64_t word : take(count, what))
      values.push_back(T(checked(word, what, low, high)));
    return values;
  }
  std::string text(std::uint64_t bytes, const char* what) {
    const auto words = take((bytes + 7) / 8, what);
    std::string value(std::size_t(bytes), '\0');
    std::memcpy(value.data(), words.data(), std::size_t(bytes));
    return value;
  }
  std::size_t left() const { return words_.size() - at_; }
  const std::string& where() const { return where_; }

 private:
  std::int64_t checked(std::uint64_t word, const char* what, std::int64_t low,
                       std::int64_t high) const {
    const auto value = std::int64_t(word);
    require(value >= low && value <= high, where_, ": ", what, " ", value, " is outside [", low,
            ", ", high, "]");
    return value;
  }

  std::span<const std::uint64_t> words_;
  std::size_t at_ = 0;
  std::string where_;
};

constexpr std::int64_t index_max = std::numeric_limits<Index>::max();
constexpr std::int64_t int_min = std::numeric_limits<int>::min(),
                       int_max = std::numeric_limits<int>::max();

template <int Dim>
std::vector<std::uint64_t> payload(const RankPart<Dim>& part) {
  const RankSubmesh<Dim>& sub = part.submesh;
  const SimplexMesh<Dim>& mesh = *sub.mesh;
  // The bounding facets as the submesh holds them: its boundary, each with its tag.
  std::vector<Index> boundary_facets;
  for (Index f = 0; f < mesh.facet_count(); ++f)
    if (mesh.is_boundary_facet(f)) boundary_facets.push_back(f);
  WordWriter out;
  out.integer(part.halo.part_count);
  out.integer(part.halo.part);
  out.integer(part.halo.ghost_layers);
  out.integer(part.cut_tag);
  out.integer(part.element_count);
  out.integer(sub.owned_count);
  out.integer(sub.element_count());
  out.integer(mesh.vertex_count());
  out.integer(mesh.cell_count());
  out.integer(std::int64_t(boundary_facets.size()));
  out.integer(std::int64_t(part.halo.neighbours.size()));
  out.integer(std::int64_t(part.description.size()));
  out.integer(std::int64_t(part.halo.partition_fingerprint));
  for (const Point<Dim>& x : mesh.vertices())
    for (int d = 0; d < Dim; ++d) out.real(x[d]);
  for (const auto& cell : mesh.cells()) out.integers(cell);
  for (Index c = 0; c < mesh.cell_count(); ++c) out.integer(mesh.cell_region(c));
  out.integers(sub.element_of_cell);
  out.integers(sub.fine_cell);
  out.integers(sub.element);
  out.integers(part.partition_element);
  for (const Index f : boundary_facets) {
    out.integers(mesh.facet_vertices(f));
    out.integer(mesh.facet_tag(f));
  }
  for (const PartHalo::Neighbour& n : part.halo.neighbours) {
    out.integer(n.part);
    out.integer(std::int64_t(n.sent.size()));
    out.integer(std::int64_t(n.received.size()));
    out.integers(n.sent);
    out.integers(n.received);
  }
  out.text(part.description);
  return out.words();
}

/// The RankPart of a part's submesh and halo.
template <int Dim>
RankPart<Dim> rank_part_of(RankSubmesh<Dim> submesh, PartHalo halo, const MeshPartition& partition,
                           int cut_tag, const std::string& description) {
  RankPart<Dim> part;
  part.submesh = std::move(submesh);
  part.halo = std::move(halo);
  part.cut_tag = cut_tag;
  part.element_count = GlobalIndex(partition.part_of_element.size());
  for (const Index e : part.submesh.element)
    part.partition_element.push_back(partition.new_from_old[std::size_t(e)]);
  part.description = description;
  return part;
}

}  // namespace

template <int Dim>
RankPart<Dim> make_rank_part(const SimplexMesh<Dim>& fine, std::span<const Index> element_of_cell,
                             const MeshPartition& partition, int rank, int cut_tag,
                             const std::string& description) {
  return rank_part_of(rank_submesh(fine, element_of_cell, partition, rank, cut_tag),
                      std::move(part_halos(partition)[std::size_t(rank)]), partition, cut_tag,
                      description.empty() ? fine.source().name : description);
}

std::filesystem::path rank_part_path(const std::filesystem::path& directory, int rank,
                                     int part_count) {
  return directory /
         ("part_" + std::to_string(rank) + "_of_" + std::to_string(part_count) + ".polydg");
}

template <int Dim>
void write_rank_parts(const std::filesystem::path& directory, const SimplexMesh<Dim>& fine,
                      std::span<const Index> element_of_cell, const MeshPartition& partition,
                      int cut_tag, const std::string& description) {
  const std::string where = "write_rank_parts: '" + directory.string() + "'";
  detail::require_little_endian(where, "rank part files");
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  require(!error, where, ": cannot create the folder: ", error.message());
  RankSubmeshes<Dim> submeshes(fine, element_of_cell, partition, cut_tag);
  std::vector<PartHalo> halos = part_halos(partition);
  const std::string name = description.empty() ? fine.source().name : description;
  for (int rank = 0; rank < partition.part_count; ++rank) {
    const RankPart<Dim> part = rank_part_of(
        submeshes.part(rank), std::move(halos[std::size_t(rank)]), partition, cut_tag, name);
    const std::vector<std::uint64_t> words = payload(part);
    detail::WordHash checksum;
    checksum.add(std::span<const std::uint64_t>(words));
    const std::array<std::uint64_t, header_words> header = {
        magic_word(), rank_part_format_version, std::uint64_t(Dim), words.size(), checksum.value()};
    const std::span<const std::byte> pieces[] = {std::as_bytes(std::span(header)),
                                                 std::as_bytes(std::span(words))};
    const std::filesystem::path path = rank_part_path(directory, rank, partition.part_count);
    detail::write_file_atomically(path, pieces, "write_rank_parts: '" + path.string() + "'");
  }
}

namespace {

/// "no such file", with the part counts the directory does hold parts for.
std::string missing_part_message(const std::filesystem::path& directory, int part_count) {
  std::set<int> counts;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    const auto of = name.find("_of_");
    if (name.rfind("part_", 0) != 0 || of == std::string::npos) continue;
    try {
      counts.insert(std::stoi(name.substr(of + 4)));
    } catch (const std::exception&) {
    }
  }
  if (counts.empty())
    return detail::concatenate(
        "no such file (the folder holds no parts: write them with "
        "write_rank_parts for ",
        part_count, " ranks)");
  std::string listed;
  for (const int count : counts) listed += (listed.empty() ? "" : ", ") + std::to_string(count);
  return detail::concatenate("no such file: the folder holds parts for ", listed, " ranks, not ",
                             part_count, " (run on as many ranks, or write parts for ", part_count,
                             ")");
}

}  // namespace

template <int Dim>
RankPart<Dim> read_rank_part(const std::filesystem::path& directory, int rank, int part_count) {
  const std::filesystem::path path = rank_part_path(directory, rank, part_count);
  const std::string where = "read_rank_part: '" + path.string() + "'";
  require(part_count >= 1 && rank >= 0 && rank < part_count, "read_rank_part: rank ", rank, " of ",
          part_count, " ranks");
  detail::require_little_endian(where, "rank part files");
  std::error_code error;
  require(std::filesystem::exists(path, error), where, ": ",
          missing_part_message(directory, part_count));
  const detail::FileWords file = detail::read_file_words(path, where);
  const std::uint64_t bytes = file.bytes;

  require(bytes >= header_words * 8, where, ": truncated: ", bytes, " bytes, less than the ",
          header_words * 8, "-byte header");
  const std::span<const std::uint64_t> header = std::span(file.words).first(header_words);
  require(header[0] == magic_word(), where,
          ": not a libpolydg rank part file (wrong magic number)");
  require(header[1] == rank_part_format_version, where, ": format version ", header[1],
          ", this library reads version ", rank_part_format_version);
  require(header[2] == std::uint64_t(Dim), where, ": a part of a ", header[2],
          "-dimensional mesh, read as ", Dim, "-dimensional");
  const std::uint64_t expected_bytes = (header_words + header[3]) * 8;
  require(header[3] <= bytes / 8 && bytes >= expected_bytes, where, ": truncated: ", bytes,
          " bytes, its ", header[3], " payload words need ",
          (header_words + std::min<std::uint64_t>(header[3], bytes)) * 8);
  require(bytes == expected_bytes, where, ": ", bytes, " bytes, ", bytes - expected_bytes,
          " more than its header and payload (trailing data)");
  const std::span<const std::uint64_t> words =
      std::span(file.words).subspan(header_words, static_cast<std::size_t>(header[3]));
  detail::WordHash checksum;
  checksum.add(words);
  require(checksum.value() == header[4], where, ": the checksum ", detail::hexadecimal(header[4]),
          " does not match the data's ", detail::hexadecimal(checksum.value()),
          ": the file is corrupted");

  WordReader in(words, where);
  RankPart<Dim> part;
  PartHalo& halo = part.halo;
  halo.part_count = int(in.integer("part count", 1, int_max));
  require(halo.part_count == part_count, where, ": holds a part of ", halo.part_count,
          " parts, read as one of ", part_count);
  halo.part = int(in.integer("rank", 0, int_max));
  require(halo.part == rank, where, ": holds rank ", halo.part, "'s part, read as rank ", rank,
          "'s");
  halo.ghost_layers = int(in.integer("ghost layer count", 1, int_max));
  part.cut_tag = int(in.integer("cut tag", int_min, int_max));
  part.element_count = in.integer("element count", 1, index_max);
  const Index owned = Index(in.integer("owned element count", 1, part.element_count));
  const Index local = Index(in.integer("local element count", owned, part.element_count));
  const std::int64_t vertices = in.integer("vertex count", Dim + 1, index_max),
                     cells = in.integer("cell count", local, index_max),
                     facets = in.integer("boundary facet count", 0, index_max),
                     neighbours = in.integer("neighbour count", 0, halo.part_count - 1),
                     description_bytes = in.integer("description length", 0, index_max);
  halo.partition_fingerprint = in.take(1, "partition fingerprint")[0];
  halo.owned_count = owned;
  halo.local_count = local;

  // Every count is checked against the words left before anything of its size is allocated.
  const auto coordinates = in.take(std::uint64_t(vertices) * Dim, "vertex coordinates");
  std::vector<Point<Dim>> points(static_cast<std::size_t>(vertices));
  for (std::size_t v = 0; v < points.size(); ++v)
    for (int d = 0; d < Dim; ++d) points[v][d] = std::bit_cast<double>(coordinates[v * Dim + d]);
  const auto cell_vertices =
      in.integers<Index>(std::uint64_t(cells) * (Dim + 1), "cell vertex", 0, vertices - 1);
  std::vector<typename SimplexMesh<Dim>::Cell> cell_list(static_cast<std::size_t>(cells));
  for (std::size_t c = 0; c < cell_list.size(); ++c)
    std::copy_n(cell_vertices.begin() + std::ptrdiff_t(c * (Dim + 1)), Dim + 1,
                cell_list[c].begin());
  auto regions = in.integers<int>(std::uint64_t(cells), "cell region", int_min, int_max);
  RankSubmesh<Dim>& sub = part.submesh;
  sub.owned_count = owned;
  sub.element_of_cell =
      in.integers<Index>(std::uint64_t(cells), "local element of a cell", 0, local - 1);
  sub.fine_cell = in.integers<Index>(std::uint64_t(cells), "fine cell", 0, index_max);
  sub.element = in.integers<Index>(std::uint64_t(local), "element id", 0, part.element_count - 1);
  part.partition_element =
      in.integers<Index>(std::uint64_t(local), "partition element", 0, part.element_count - 1);
  // Cells by local element, every element with one at least (RankSubmesh's layout): the local
  // elements of the cells go 0, then each the one before or the next, up to local - 1.
  for (std::size_t c = 0; c < sub.element_of_cell.size(); ++c) {
    const Index before = c == 0 ? -1 : sub.element_of_cell[c - 1];
    require((c > 0 && sub.element_of_cell[c] == before) || sub.element_of_cell[c] == before + 1,
            where, ": cell ", c, " is in local element ", sub.element_of_cell[c],
            ", the cell before in ", before,
            " (the cells go by local element, each element with one at least)");
  }
  require(sub.element_of_cell.back() == local - 1, where, ": ", local, " local elements, cells in ",
          sub.element_of_cell.back() + 1, " of them");
  for (Index k = 1; k < owned; ++k)
    require(part.partition_element[std::size_t(k)] == part.partition_element[0] + k, where,
            ": owned element ", k, " is element ", part.partition_element[std::size_t(k)],
            " of the partition's numbering, not ", part.partition_element[0] + k,
            " (a part owns a contiguous range)");
  require(std::uint64_t(facets) * (Dim + 1) <= in.left(), where,
          ": truncated in the boundary facets (", facets, " of ", Dim + 1, " words, ", in.left(),
          " left)");
  std::vector<typename SimplexMesh<Dim>::TaggedFacet> boundary(static_cast<std::size_t>(facets));
  for (auto& facet : boundary) {
    const auto facet_vertices = in.integers<Index>(Dim, "boundary facet vertex", 0, vertices - 1);
    std::copy(facet_vertices.begin(), facet_vertices.end(), facet.vertices.begin());
    facet.tag = int(in.integer("boundary facet tag", int_min, int_max));
  }
  for (std::int64_t i = 0; i < neighbours; ++i) {
    PartHalo::Neighbour n;
    n.part = int(in.integer("neighbour rank", 0, halo.part_count - 1));
    const std::int64_t sent = in.integer("sent count", 0, owned),
                       received = in.integer("received count", 0, local - owned);
    n.sent = in.integers<Index>(std::uint64_t(sent), "sent element", 0, local - 1);
    n.received = in.integers<Index>(std::uint64_t(received), "received element", 0, local - 1);
    halo.neighbours.push_back(std::move(n));
  }
  part.description = in.text(std::uint64_t(description_bytes), "description");
  require(in.left() == 0, where, ": ", in.left(), " payload words after the description");
  check_part_halo(halo, where);
  sub.mesh = std::make_shared<const SimplexMesh<Dim>>(
      std::move(points), std::move(cell_list), std::move(regions), std::move(boundary),
      MeshSource{"'" + path.string() + "' (rank " + std::to_string(rank) + "'s part of " +
                     part.description + ")",
                 {}});
  return part;
}

template RankPart<2> make_rank_part(const SimplexMesh<2>&, std::span<const Index>,
                                    const MeshPartition&, int, int, const std::string&);
template RankPart<3> make_rank_part(const SimplexMesh<3>&, std::span<const Index>,
                                    const MeshPartition&, int, int, const std::string&);
template void write_rank_parts(const std::filesystem::path&, const SimplexMesh<2>&,
                               std::span<const Index>, const MeshPartition&, int,
                               const std::string&);
template void write_rank_parts(const std::filesystem::path&, const SimplexMesh<3>&,
                               std::span<const Index>, const MeshPartition&, int,
                               const std::string&);
template RankPart<2> read_rank_part(const std::filesystem::path&, int, int);
template RankPart<3> read_rank_part(const std::filesystem::path&, int, int);

}  // namespace polydg
