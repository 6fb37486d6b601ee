#pragma once
/// Rank part files: a partitioned mesh written once as one file per rank, so that a run under
/// `mpiexec -n R` reads on each rank its own part and no rank ever holds the whole mesh — the
/// distributed read for meshes too large for one host's memory (or one rank's time to read).
///
///   // Once, where the whole mesh fits (a large-memory host, or the machine that generated it):
///   const MeshPartition partition = partition_mesh(polygons, R);
///   write_rank_parts<2>("parts", fine, element_of_cell, partition, cut_tag);
///   // Then on every rank of every run on R ranks:
///   RankPart<2> part;
///   petsc::on_every_rank([&] { part = read_rank_part<2>("parts", rank, R); });
///   const ElementHalo halo(part.halo);               // checks the parts pair up
///   ExplicitPolygonDG local(PolytopicMesh<2>(part.submesh.mesh, part.submesh.element_of_cell,
///                                            p), p, law);
///   DistributedExplicitDG dg(local, halo, part.cut_tag);
///
/// A RankPart is what rank_submesh and part_halos give from the whole mesh and partition, bit for
/// bit (the same vertices, cells and their order: the same geometry and basis), plus the whole
/// mesh's element count and each local element's index in the partition's numbering (owned
/// elements contiguous from the part's first: where the rank's elements stand among all, e.g.
/// to order output; the unknowns' numbering needs none of it: petsc::part_block_pattern).
///
/// File `<directory>/part_<rank>_of_<R>.polydg` (rank_part_path), binary in the host's byte
/// order, which must be little-endian. Every value is a 64-bit word (an integer as int64, a
/// coordinate as float64, a string's bytes padded with zeros to whole words), no padding:
///   magic "PDGRPART", version (rank_part_format_version), dimension, payload word count n,
///   checksum (FNV-1a over the payload's words), then the n payload words:
///     part count R, rank, ghost layers, cut tag, whole mesh's element count, owned count,
///     local element count L, vertex count V, cell count C, boundary facet count B,
///     neighbour count N, description length in bytes, partition fingerprint;
///     V·Dim coordinates; C·(Dim+1) cell vertices; C regions; C local elements of cells;
///     C fine cells; L elements (the whole mesh's ids); L partition elements (new numbering);
///     B·(Dim+1) facet vertices and tag; per neighbour: its rank, sent count s, received count
///     r, s sent local elements, r received local elements; the description's words.
/// write_rank_parts writes each file atomically (temporary file, fsync, rename), so a file is
/// always a whole one.
///
/// read_rank_part throws polydg::Error naming the file for: no such file (saying which part
/// counts the directory holds parts for), a wrong magic, version or dimension, a truncated or
/// overlong file, a checksum mismatch, a part of another rank or part count, and contents that
/// are not a part (the SimplexMesh's own checks, counts and indices out of range, an element
/// with no cell, an inconsistent halo: check_part_halo). It is local to the rank: wrap it in
/// petsc::on_every_rank so that a failure on one rank throws on all. Parts of different writes
/// mixed in one directory are caught by ElementHalo (partition fingerprints).
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/part_halo.hpp"
#include "polydg/mesh/rank_submesh.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg {

inline constexpr std::uint32_t rank_part_format_version = 1;

template <int Dim>
struct RankPart {
  RankSubmesh<Dim> submesh;
  PartHalo halo;
  int cut_tag = 0;
  /// The whole mesh's element count.
  GlobalIndex element_count = 0;
  /// Per local element: its index in the partition's new numbering.
  std::vector<Index> partition_element;
  /// The writer's description of the mesh (by default the fine mesh's source name), which a
  /// program can check against the case it runs.
  std::string description;
};

/// Rank `rank`'s RankPart, from the whole fine mesh and partition (what its file holds).
/// Throws as rank_submesh.
template <int Dim>
RankPart<Dim> make_rank_part(const SimplexMesh<Dim>& fine, std::span<const Index> element_of_cell,
                             const MeshPartition& partition, int rank, int cut_tag,
                             const std::string& description);

/// `<directory>/part_<rank>_of_<part_count>.polydg`.
std::filesystem::path rank_part_path(const std::filesystem::path& directory, int rank,
                                     int part_count);

/// Writes every part's file into `directory` (created if missing), one part in memory at a
/// time (RankSubmeshes). `description` empty: the fine mesh's source name. Throws as
/// rank_submesh, and polydg::Error naming the file when one cannot be written.
template <int Dim>
void write_rank_parts(const std::filesystem::path& directory, const SimplexMesh<Dim>& fine,
                      std::span<const Index> element_of_cell, const MeshPartition& partition,
                      int cut_tag, const std::string& description = {});

/// Reads part `rank` of `part_count` from `directory` (see the file comment for its errors).
template <int Dim>
RankPart<Dim> read_rank_part(const std::filesystem::path& directory, int rank, int part_count);

}  // namespace polydg
