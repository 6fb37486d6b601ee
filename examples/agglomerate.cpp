//                      libpolydg example: agglomerate
//
// Compile:  part of the libpolydg build (./scripts/demo.sh builds and runs it).
//
// Sample runs:
//   build/bin/agglomerate
//   build/bin/agglomerate --elements 8000 --output oscillating_8k.vtu
//   build/bin/agglomerate --cells-per-side 100 --wiggles 8 --elements 200 --retriangulate
//   build/bin/agglomerate --mesh tests/data/gmsh/square_hole_v41.msh --elements 40
//   build/bin/agglomerate --elements 200 --json agglomerate.json
//
// Description: builds a fine triangle mesh — by default the square-like domain with an
// oscillating boundary of the paper's numerical examples (docs/theory.md, References
// [Dong2021]; about 504k triangles) — agglomerates it with METIS
// into about N connected polygons, prints the element quality table (box coverage |B_κ|/|κ|,
// faces, fine cells, roundness) and writes the polygons to a .vtu file with true polygon cells
// and the quality metrics as cell data. A 3D .msh file is agglomerated into polyhedra and
// summarised (VTU output of polyhedra comes later). --json FILE writes the same numbers for
// scripts (and the example's tests).
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/io/vtk_writer.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace {

struct Options {
  std::string mesh_file;  // empty: the built-in oscillating-boundary domain
  polydg::Index elements = 1000;
  std::string output = "agglomerated.vtu";
  std::string json_path;
  int degree = 2;
  bool retriangulate = false;
  polydg::AgglomerationOptions partition;
  polydg::OscillatingDomain domain;
};

void print_help() {
  std::cout <<
      R"(Usage: agglomerate [options]
  --mesh FILE.msh        Gmsh mesh (2.2 / 4.1) instead of the built-in oscillating domain
  --elements N           number of polytopic elements (default 1000; = cells: no agglomeration)
  --output FILE.vtu      where to write the polygons (default agglomerated.vtu; "" for none)
  --degree P             polynomial degree stored per element, 1..10 (default 2)
  --retriangulate        quadrature on ~one triangle per face instead of the fine triangles
  --partition METHOD     kway (METIS, default), recursive (METIS), greedy (no METIS: faster)
  --json FILE            write the numbers below as JSON: {"fine_cells", "fine_measure",
                         "partition", "requested", "elements", "empty_parts",
                         "disconnected_parts", "merged_pieces", "kept_pieces", "interfaces",
                         "simplices", "element_measure_sum", "quality": {metric: {"min",
                         "mean", "max"}}, "output"}
  --cells-per-side N     built-in domain: N x N squares, 2 N^2 triangles (default 502)
  --wiggles K            built-in domain: sine waves per side (default 16)
  --amplitude A          built-in domain: wave amplitude (default 0.005)
  --help                 this text
)";
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const auto value = [&]() -> std::string {
      polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      return argv[++i];
    };
    const auto integer = [&]() { return polydg::parse_integer(flag, value()); };
    if (flag == "--help" || flag == "-h") {
      print_help();
      std::exit(0);
    } else if (flag == "--mesh") {
      options.mesh_file = value();
    } else if (flag == "--elements") {
      options.elements = polydg::Index(integer());
    } else if (flag == "--output") {
      options.output = value();
    } else if (flag == "--json") {
      options.json_path = value();
    } else if (flag == "--degree") {
      options.degree = integer();
    } else if (flag == "--retriangulate") {
      options.retriangulate = true;
    } else if (flag == "--partition") {
      const std::string method = value();
      if (method == "kway")
        options.partition.method = polydg::PartitionMethod::kway;
      else if (method == "recursive")
        options.partition.method = polydg::PartitionMethod::recursive_bisection;
      else if (method == "greedy")
        options.partition.method = polydg::PartitionMethod::greedy_growth;
      else
        polydg::raise("option --partition: '", method, "' is not kway, recursive or greedy");
    } else if (flag == "--cells-per-side") {
      options.domain.cells_per_side = integer();
    } else if (flag == "--wiggles") {
      options.domain.wiggles_per_side = integer();
    } else if (flag == "--amplitude") {
      options.domain.amplitude = polydg::parse_number(flag, value());
    } else {
      polydg::raise("unknown option '", flag, "' (see --help)");
    }
  }
  return options;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

const char* partition_name(polydg::PartitionMethod method) {
  switch (method) {
    case polydg::PartitionMethod::kway:
      return "kway";
    case polydg::PartitionMethod::recursive_bisection:
      return "recursive";
    case polydg::PartitionMethod::greedy_growth:
      return "greedy";
  }
  return "unknown";
}

// Step 5: the numbers of steps 1-4 as JSON, for scripts.
template <int Dim>
void write_json(const Options& options, const polydg::SimplexMesh<Dim>& fine,
                const polydg::Agglomeration& agglomeration, const polydg::PolytopicMesh<Dim>& mesh,
                const polydg::QualitySummary& quality, bool wrote_output) {
  std::ofstream json(options.json_path);
  polydg::require(bool(json), "cannot write ", options.json_path);
  json.precision(17);
  double measure_sum = 0;
  for (polydg::Index e = 0; e < mesh.element_count(); ++e) measure_sum += mesh.element_measure(e);
  const auto statistic = [&](const char* name, const polydg::QualityStatistic& s) {
    json << "\"" << name << "\": {\"min\": " << s.min << ", \"mean\": " << s.mean
         << ", \"max\": " << s.max << "}";
  };
  json << "{\"dimension\": " << Dim << ", \"fine_cells\": " << fine.cell_count()
       << ", \"fine_measure\": " << fine.total_measure() << ",\n \"partition\": \""
       << partition_name(options.partition.method)
       << "\", \"requested\": " << agglomeration.requested_count
       << ", \"elements\": " << mesh.element_count()
       << ", \"empty_parts\": " << agglomeration.empty_parts
       << ", \"disconnected_parts\": " << agglomeration.disconnected_parts
       << ", \"merged_pieces\": " << agglomeration.merged_pieces
       << ", \"kept_pieces\": " << agglomeration.kept_pieces
       << ",\n \"interfaces\": " << mesh.interface_count()
       << ", \"simplices\": " << mesh.simplex_count()
       << ", \"element_measure_sum\": " << measure_sum << ",\n \"quality\": {";
  statistic("box_coverage", quality.box_coverage);
  json << ", ";
  statistic("faces", quality.faces);
  json << ", ";
  statistic("neighbours", quality.neighbours);
  json << ",\n  ";
  statistic("fine_cells", quality.fine_cells);
  json << ", ";
  statistic("simplices", quality.simplices);
  json << ", ";
  statistic("roundness", quality.roundness);
  json << "},\n \"output\": ";
  if (wrote_output) {
    json << '"';
    for (const char c : options.output) json << (c == '"' || c == '\\' ? "\\" : "") << c;
    json << "\"}\n";
  } else {
    json << "null}\n";
  }
  polydg::require(bool(json), "cannot write ", options.json_path);
}

// Steps 2-5 for a fine mesh of either dimension.
template <int Dim>
void agglomerate_and_report(std::shared_ptr<const polydg::SimplexMesh<Dim>> fine,
                            const Options& options) {
  // 2. Agglomerate into connected elements (METIS, or greedy growth).
  auto start = std::chrono::steady_clock::now();
  polydg::Index elements = options.elements;
  if (elements > fine->cell_count()) {
    std::cout << "note: " << elements << " elements asked for, but the mesh has only "
              << fine->cell_count() << " cells: no agglomeration\n";
    elements = fine->cell_count();
  }
  const polydg::Agglomeration agglomeration =
      polydg::agglomerate(*fine, elements, options.partition);
  std::cout << "agglomerated into " << agglomeration.element_count << " elements ("
            << agglomeration.requested_count << " asked for; " << agglomeration.disconnected_parts
            << " disconnected parts repaired) in " << seconds_since(start) << " s\n";

  // 3. The polytopic mesh: interfaces, boundary faces, boxes, quality.
  start = std::chrono::steady_clock::now();
  polydg::PolytopicMeshOptions mesh_options;
  mesh_options.retriangulate = options.retriangulate;
  const polydg::PolytopicMesh<Dim> mesh(fine, agglomeration.element_of_cell, options.degree,
                                        mesh_options);
  std::cout << "polytopic mesh: " << mesh.element_count() << " elements, " << mesh.interface_count()
            << " interfaces, " << mesh.simplex_count() << " quadrature simplices, built in "
            << seconds_since(start) << " s\n\n";
  const polydg::QualitySummary quality = polydg::summarize_quality(mesh);
  polydg::print_quality_summary(std::cout, quality);

  // 4. The polygons with their quality metrics, for ParaView.
  bool wrote_output = false;
  if constexpr (Dim == 2) {
    if (!options.output.empty()) {
      polydg::write_polytopic_mesh_vtu(options.output, mesh);
      wrote_output = true;
      std::cout << "\nwrote " << options.output << " (" << mesh.element_count() << " polygons)\n";
    }
  } else {
    std::cout << "\n(3D: VTU output of polyhedra is not available yet; nothing written)\n";
  }
  if (!options.json_path.empty())
    write_json(options, *fine, agglomeration, mesh, quality, wrote_output);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse_options(argc, argv);

    // 1. The fine mesh: a Gmsh file, or the built-in oscillating-boundary domain.
    const auto start = std::chrono::steady_clock::now();
    if (!options.mesh_file.empty() && polydg::gmsh_mesh_dimension(options.mesh_file) == 3) {
      auto fine =
          std::make_shared<const polydg::SimplexMesh<3>>(polydg::read_gmsh<3>(options.mesh_file));
      std::cout << "read " << options.mesh_file << ": " << fine->cell_count() << " tetrahedra in "
                << seconds_since(start) << " s\n";
      agglomerate_and_report<3>(fine, options);
      return 0;
    }
    auto fine = std::make_shared<const polydg::SimplexMesh<2>>(
        options.mesh_file.empty() ? polydg::oscillating_domain_mesh(options.domain)
                                  : polydg::read_gmsh<2>(options.mesh_file));
    std::cout << (options.mesh_file.empty() ? "oscillating-boundary domain" : options.mesh_file)
              << ": " << fine->cell_count() << " triangles, area " << fine->total_measure()
              << ", built in " << seconds_since(start) << " s\n";
    agglomerate_and_report<2>(fine, options);
  } catch (const polydg::Error& error) {
    std::cerr << "agglomerate: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
