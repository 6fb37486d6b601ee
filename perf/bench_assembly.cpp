// Benchmark of the CPU reference assembly (the baseline the GPU backend will be measured
// against): for p = 1..5 on one agglomerated oscillating-boundary mesh (seed 004 Table 2's
// setting: about 3 triangles per polygon), the time of the pattern (QuadratureMesh +
// BlockPattern + scratch), of the matrix values, and of the rhs, in seconds and DoFs/s.
// The problem is the convergence study's advection-diffusion-reaction problem (b): full
// anisotropic A(x), b(x), c(x), f(x). With --spacetime, the 2D+1 slab of seed 004 Table 2
// instead: prisms κ × I_n, a = I, w = (1, 1/2), c = 1 (the heat demo's slab system).
//
//   build/bin/bench_assembly [--cells-per-side 274] [--cells-per-element 3] [--p 1,2,3,4,5]
//                            [--spacetime] [--repeats 3] [--json perf/results/assembly_cpu.json]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../examples/manufactured_problems.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <class Work>
double median_seconds(int repeats, Work&& work) {
  std::vector<double> times(std::size_t(std::max(repeats, 1)));
  for (double& time : times) {
    const auto start = Clock::now();
    work();
    time = seconds(start);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Times pattern (Assembler construction), values and rhs on `mesh` for `problem`.
template <int Dim, class Problem>
void time_assembly(const polydg::PolytopicMesh<Dim>& mesh, const polydg::BoundaryConditions& bc,
                   const Problem& problem, int repeats, double& pattern_s, double& values_s,
                   double& rhs_s, long long& dofs, long long& nonzeros) {
  pattern_s = median_seconds(repeats, [&] { polydg::Assembler<Dim> probe(mesh, bc); });
  polydg::Assembler<Dim> assembler(mesh, bc);
  auto matrix = assembler.make_matrix();
  auto rhs = assembler.make_vector();
  assembler.assemble_matrix(problem, matrix);  // warm-up (rule cache, thread pool)
  values_s = median_seconds(repeats, [&] { assembler.assemble_matrix(problem, matrix); });
  rhs_s = median_seconds(repeats, [&] { assembler.assemble_rhs(problem, rhs); });
  dofs = assembler.pattern()->dof_count();
  nonzeros = assembler.pattern()->value_count();
}

struct Row {
  int p;
  long long elements, dofs, nonzeros;
  double pattern_s, values_s, rhs_s;
};

}  // namespace

int main(int argc, char** argv) {
  polydg::OscillatingDomain domain;
  domain.cells_per_side = 274;
  double cells_per_element = 3;
  std::vector<int> degrees = {1, 2, 3, 4, 5};
  int repeats = 3;
  std::string json_path;
  bool spacetime = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--spacetime") {
        spacetime = true;
        continue;
      }
      polydg::require(i + 1 < argc, "bench_assembly: option ", flag, " needs a value");
      const std::string value = argv[++i];
      if (flag == "--cells-per-side")
        domain.cells_per_side = std::stoi(value);
      else if (flag == "--cells-per-element")
        cells_per_element = std::stod(value);
      else if (flag == "--repeats")
        repeats = std::stoi(value);
      else if (flag == "--json")
        json_path = value;
      else if (flag == "--p") {
        degrees.clear();
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');) degrees.push_back(std::stoi(item));
      } else {
        polydg::raise("bench_assembly: unknown option ", flag);
      }
    }

    const auto fine =
        std::make_shared<const polydg::SimplexMesh<2>>(polydg::oscillating_domain_mesh(domain));
    const polydg::Agglomeration parts = polydg::agglomerate_by_cell_count(*fine, cells_per_element);
    std::vector<Row> rows;
    for (int p : degrees) {
      const polydg::PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
      Row row{p, mesh.element_count(), 0, 0, 0, 0, 0};
      if (spacetime) {
        const polydg::PolytopicMesh<3> slab = polydg::make_slab_mesh(mesh);
        const auto heat = polydg::space_time_coefficients(
            polydg::make_coefficients<2>()
                .with_diffusion(1.0)
                .with_advection(polydg::Point<2>{{1.0, 0.5}})
                .with_reaction(1.0)
                .with_source([](const polydg::Point<3>& x) { return std::sin(x[0] + x[2]); }));
        time_assembly(
            slab, polydg::slab_boundary_conditions(polydg::BoundaryConditions::all_dirichlet()),
            heat, repeats, row.pattern_s, row.values_s, row.rhs_s, row.dofs, row.nonzeros);
      } else {
        time_assembly(mesh, polydg::examples::AdvectionDiffusionReaction::boundary_conditions(),
                      polydg::examples::AdvectionDiffusionReaction::coefficients(), repeats,
                      row.pattern_s, row.values_s, row.rhs_s, row.dofs, row.nonzeros);
      }
      rows.push_back(row);
    }

    std::printf(
        "CPU reference assembly, %s: %d fine triangles, %d polygons (%.1f triangles each), "
        "%d OpenMP threads, median of %d\n",
        spacetime ? "2D+1 slab (prisms)" : "2D steady", int(fine->cell_count()),
        int(parts.element_count), double(fine->cell_count()) / parts.element_count,
        omp_get_max_threads(), repeats);
    std::printf("%2s %10s %10s %12s %10s %10s %10s %12s %14s\n", "p", "elements", "DoFs",
                "nonzeros", "pattern_s", "values_s", "rhs_s", "values s/MDoF", "values DoFs/s");
    for (const Row& r : rows)
      std::printf("%2d %10lld %10lld %12lld %10.3f %10.3f %10.3f %12.3f %14.3e\n", r.p, r.elements,
                  r.dofs, r.nonzeros, r.pattern_s, r.values_s, r.rhs_s,
                  r.values_s / (r.dofs * 1e-6), r.dofs / r.values_s);
    if (!json_path.empty()) {
      std::ofstream json(json_path);
      polydg::require(bool(json), "bench_assembly: cannot write ", json_path);
      json << "{\"backend\": \"cpu\", \"problem\": \"" << (spacetime ? "spacetime" : "steady_2d")
           << "\", \"threads\": " << omp_get_max_threads()
           << ", \"fine_cells\": " << fine->cell_count() << ", \"runs\": [";
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        json << (i ? ", " : "") << "{\"p\": " << r.p << ", \"elements\": " << r.elements
             << ", \"dofs\": " << r.dofs << ", \"nonzeros\": " << r.nonzeros
             << ", \"pattern_s\": " << r.pattern_s << ", \"values_s\": " << r.values_s
             << ", \"rhs_s\": " << r.rhs_s << "}";
      }
      json << "]}\n";
    }
  } catch (const polydg::Error& error) {
    std::cerr << "bench_assembly: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
