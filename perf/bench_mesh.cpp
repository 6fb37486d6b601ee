// Benchmark of the mesh stage on the CPU: building the oscillating-boundary mesh of the paper's
// examples (~504k triangles; docs/theory.md, References [Dong2021]), agglomerating it as in the
// paper's Table 5 (~8k and ~126k elements, and
// unagglomerated), building the PolytopicMesh (with and without re-triangulation), and its 2D+1
// slab (make_slab_mesh).
// Prints a table of median seconds over --repeats runs; --json FILE writes the same numbers.
//
//   build/bin/bench_mesh [--repeats 3] [--cells-per-side 502] [--json perf/results/mesh.json]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_provenance.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "wall_time.hpp"

namespace {

using polydg::bench::median_seconds;

struct Row {
  std::string step;
  long long elements;
  double seconds;
};

}  // namespace

/// What --help prints.
constexpr const char* usage = R"(Usage: bench_mesh [options]
The mesh stage on the CPU (docs/performance.md, "Mesh stage"): the oscillating-boundary mesh,
its agglomerations (~8k, ~126k elements, none) and PolytopicMesh / slab construction; median
seconds per step.
  --repeats N            runs per step (default 3)
  --cells-per-side N     the oscillating domain's cells per side (default 502: ~504k triangles)
  --json FILE            also write the numbers as JSON
  --help                 this text
)";

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  int repeats = 3;
  polydg::OscillatingDomain domain;
  std::string json_path;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        std::fputs(usage, stdout);
        return 0;
      }
      polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[++i];
      if (flag == "--repeats")
        repeats = polydg::parse_integer(flag, value);
      else if (flag == "--cells-per-side")
        domain.cells_per_side = polydg::parse_integer(flag, value);
      else if (flag == "--json")
        json_path = value;
      else
        polydg::raise("unknown option ", flag, " (see --help)");
    }
    polydg::require(repeats >= 1, "--repeats must be >= 1 (got ", repeats, ")");
  } catch (const std::exception& error) {
    std::cerr << "bench_mesh: " << error.what() << '\n';
    return 1;
  }
  try {
    std::vector<Row> rows;
    std::shared_ptr<const polydg::SimplexMesh<2>> fine;
    rows.push_back({"oscillating_domain_mesh", 2LL * domain.cells_per_side * domain.cells_per_side,
                    median_seconds(repeats, [&] {
                      fine = std::make_shared<const polydg::SimplexMesh<2>>(
                          polydg::oscillating_domain_mesh(domain));
                    })});
    const polydg::Index cells = fine->cell_count();
    for (polydg::Index target : {cells / 63, cells / 4, cells}) {  // ~8k, ~126k, none
      if (target < cells) {  // greedy growth beside METIS, for the set-up time
        polydg::AgglomerationOptions greedy;
        greedy.method = polydg::PartitionMethod::greedy_growth;
        polydg::Agglomeration grown;
        const double seconds =
            median_seconds(repeats, [&] { grown = polydg::agglomerate(*fine, target, greedy); });
        rows.push_back({"agglomerate, greedy growth (" + std::to_string(target) + " asked)",
                        grown.element_count, seconds});
      }
      polydg::Agglomeration agglomeration;
      const double seconds =
          median_seconds(repeats, [&] { agglomeration = polydg::agglomerate(*fine, target); });
      rows.push_back({"agglomerate (" + std::to_string(target) + " asked)",
                      agglomeration.element_count, seconds});
      for (bool retriangulate : {false, true}) {
        polydg::PolytopicMeshOptions options;
        options.retriangulate = retriangulate;
        rows.push_back({retriangulate ? "PolytopicMesh (retriangulated)" : "PolytopicMesh",
                        agglomeration.element_count, median_seconds(repeats, [&] {
                          polydg::PolytopicMesh<2> mesh(fine, agglomeration.element_of_cell, 2,
                                                        options);
                        })});
      }
      // The 2D+1 slab of the polygons (the space-time benchmarks' mesh): the fine prisms'
      // tetrahedra, their facets and the polytopic prisms.
      const polydg::PolytopicMesh<2> polygons(fine, agglomeration.element_of_cell, 2);
      rows.push_back({"make_slab_mesh", agglomeration.element_count, median_seconds(repeats, [&] {
                        const polydg::PolytopicMesh<3> slab = polydg::make_slab_mesh(polygons);
                      })});
    }

    std::printf("mesh stage, %d fine triangles, %u hardware threads, median of %d runs\n",
                int(cells), std::thread::hardware_concurrency(), repeats);
    std::printf("%-48s %12s %12s\n", "step", "elements", "seconds");
    for (const Row& row : rows)
      std::printf("%-48s %12lld %12.3f\n", row.step.c_str(), row.elements, row.seconds);
    if (!json_path.empty()) {
      std::ofstream json(json_path);
      polydg::require(bool(json), "bench_mesh: cannot write ", json_path);
      json << "{" << polydg::bench::provenance_json(argc, argv, started)
           << ", \"fine_cells\": " << cells << ", \"repeats\": " << repeats << ", \"rows\": [";
      for (std::size_t i = 0; i < rows.size(); ++i)
        json << (i ? ", " : "") << "{\"step\": \"" << rows[i].step
             << "\", \"elements\": " << rows[i].elements << ", \"seconds\": " << rows[i].seconds
             << "}";
      json << "]}\n";
    }
  } catch (const polydg::Error& error) {
    std::cerr << "bench_mesh: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
