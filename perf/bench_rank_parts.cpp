// What the distributed read saves a run under `mpiexec -n R` at set-up (docs/performance.md,
// "Reading rank parts"): the double Mach reflection's mesh (double_mach_reflection_mesh(12 ·
// 2^level), its triangles the elements, two ghost layers, as euler runs it), each rank's part
// got in one of two ways:
//  * --mode whole: every rank generates the whole mesh, partitions it (METIS) and builds its
//    part (make_rank_part) and halo, as euler does without --read-parts;
//  * --mode read: every rank reads its part file (read_rank_part) and builds its halo, as
//    euler --read-parts does; the files come from
//  * --mode write (one rank): the whole mesh generated, partitioned and written as --parts R
//    part files (write_rank_parts), once.
// Per phase the slowest rank's wall time, and each rank's peak resident memory (getrusage;
// a process's high-water mark, so one mode per run): the largest and the sum over the ranks.
//
//   build/bin/bench_rank_parts --mode write --parts 4 --folder /tmp/parts [--level 5]
//   mpiexec -n 4 build/bin/bench_rank_parts --mode whole [--level 5] [--json FILE]
//   mpiexec -n 4 build/bin/bench_rank_parts --mode read --folder /tmp/parts [--json FILE]
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_provenance.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/rank_part_file.hpp"
#include "polydg/mesh/rank_submesh.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/petsc/world.hpp"
#include "wall_time.hpp"

namespace {

using namespace polydg;
using bench::seconds_since;
using bench::WallClock;

const char* usage = R"(Usage: bench_rank_parts --mode whole|read|write [options]
  --mode M      whole: every rank builds the whole mesh and its part (under mpiexec -n R);
                read: every rank reads its part file from --folder (under mpiexec -n R);
                write: one rank writes --parts part files to --folder
  --level L     double Mach reflection mesh level, 0..7 (default 5: 1,179,648 triangles)
  --parts R     the part count --mode write writes
  --folder DIR  where the part files are (read) or go (write)
  --json FILE   the results with provenance (rank 0)
)";

struct Options {
  std::string mode, folder, json;
  int level = 5, parts = 0;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::cout << usage;
      std::exit(0);
    }
    require(i + 1 < argc, "bench_rank_parts: option ", flag, " needs a value");
    const std::string value = argv[++i];
    if (flag == "--mode")
      o.mode = value;
    else if (flag == "--level")
      o.level = parse_integer(flag, value);
    else if (flag == "--parts")
      o.parts = parse_integer(flag, value);
    else if (flag == "--folder")
      o.folder = value;
    else if (flag == "--json")
      o.json = value;
    else
      raise("bench_rank_parts: unknown option ", flag);
  }
  require(o.mode == "whole" || o.mode == "read" || o.mode == "write", "bench_rank_parts: --mode '",
          o.mode, "': use whole, read or write");
  require(o.level >= 0 && o.level <= 7, "bench_rank_parts: --level ", o.level, ": use 0..7");
  require(o.mode == "whole" || !o.folder.empty(), "bench_rank_parts: --mode ", o.mode,
          " needs --folder");
  require(o.mode != "write" || (o.parts >= 1 && petsc::world_rank_count() == 1),
          "bench_rank_parts: --mode write needs --parts R >= 1 and runs on one rank");
  return o;
}

/// The phases' times, in order.
struct Phases {
  std::vector<std::pair<std::string, double>> seconds;
  template <class Work>
  auto time(const std::string& name, Work&& work) {
    MPI_Barrier(PETSC_COMM_WORLD);
    const auto start = WallClock::now();
    auto result = work();
    seconds.emplace_back(name, petsc::max_over_ranks(seconds_since(start)));
    return result;
  }
};

double peak_resident_megabytes() {
  rusage resources{};
  getrusage(RUSAGE_SELF, &resources);
  return double(resources.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

}  // namespace

int main(int argc, char** argv) {
  try {
    petsc::Session session(argc, argv);
    const std::string started = bench::utc_now();
    const Options o = parse(argc, argv);
    const int rank = petsc::world_rank(), ranks = petsc::world_rank_count();
    const int resolution = 12 << o.level;
    Phases phases;
    GlobalIndex triangles = 0, local_triangles = 0;
    std::uintmax_t bytes = 0;
    if (o.mode == "read") {
      const RankPart<2> part = phases.time("read_rank_part", [&] {
        RankPart<2> read;
        petsc::on_every_rank([&] { read = read_rank_part<2>(o.folder, rank, ranks); });
        return read;
      });
      phases.time("element_halo", [&] { return hyperbolic::ElementHalo(part.halo).owned_count(); });
      triangles = part.element_count;
      local_triangles = part.submesh.mesh->cell_count();
      bytes = std::filesystem::file_size(rank_part_path(o.folder, rank, ranks));
    } else {
      const auto mesh = phases.time("mesh", [&] {
        return std::make_shared<const SimplexMesh<2>>(hyperbolic::double_mach_reflection_mesh(
            resolution, hyperbolic::DoubleMachReflection{}));
      });
      triangles = mesh->cell_count();
      const int parts = o.mode == "write" ? o.parts : ranks;
      const CellPartition t =
          phases.time("partition", [&] { return partition_cells(mesh, parts, 2); });
      if (o.mode == "write") {
        phases.time("write_rank_parts", [&] {
          write_rank_parts<2>(o.folder, *mesh, t.element_of_cell, t.partition, t.cut_tag);
          return 0;
        });
        for (int r = 0; r < parts; ++r)
          bytes += std::filesystem::file_size(rank_part_path(o.folder, r, parts));
        local_triangles = triangles;
      } else {
        const RankPart<2> part = phases.time("make_rank_part", [&] {
          return make_rank_part(*mesh, t.element_of_cell, t.partition, rank, t.cut_tag, {});
        });
        phases.time("element_halo",
                    [&] { return hyperbolic::ElementHalo(part.halo).owned_count(); });
        local_triangles = part.submesh.mesh->cell_count();
      }
    }
    double total = 0;
    for (const auto& [name, seconds] : phases.seconds) total += seconds;
    const double peak = peak_resident_megabytes();
    const double peak_max = petsc::max_over_ranks(peak), peak_sum = petsc::sum_over_ranks(peak);
    const double local_max = petsc::max_over_ranks(double(local_triangles));
    const double bytes_max = petsc::max_over_ranks(double(bytes));
    if (rank != 0) return 0;
    std::printf("%s, %d rank%s, %lld triangles (the largest rank %.0f):", o.mode.c_str(), ranks,
                ranks == 1 ? "" : "s", static_cast<long long>(triangles), local_max);
    for (const auto& [name, seconds] : phases.seconds)
      std::printf(" %s %.3f s,", name.c_str(), seconds);
    std::printf(" total %.3f s; peak memory per rank %.0f MB (sum %.0f MB)", total, peak_max,
                peak_sum);
    if (bytes > 0) std::printf("; part files %.1f MB (largest)", bytes_max / 1e6);
    std::printf("\n");
    if (!o.json.empty()) {
      std::ofstream json(o.json);
      require(bool(json), "bench_rank_parts: cannot write ", o.json);
      json << "{" << bench::provenance_json(argc, argv, started) << ", \"mode\": \"" << o.mode
           << "\", \"level\": " << o.level << ", \"ranks\": " << ranks
           << ", \"parts\": " << (o.mode == "write" ? o.parts : ranks)
           << ", \"triangles\": " << triangles << ", \"largest_rank_triangles\": " << local_max
           << ", \"seconds\": {";
      for (std::size_t k = 0; k < phases.seconds.size(); ++k)
        json << (k ? ", " : "") << '"' << phases.seconds[k].first
             << "\": " << phases.seconds[k].second;
      json << "}, \"total_seconds\": " << total << ", \"peak_resident_mb_max\": " << peak_max
           << ", \"peak_resident_mb_sum\": " << peak_sum
           << ", \"largest_file_bytes\": " << bytes_max << "}\n";
    }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << error.what() << '\n';
    return 1;
  }
}
