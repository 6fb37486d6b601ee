// Benchmark of the agglomeration multigrid against PETSc's algebraic preconditioners on the same
// AIJ matrix, one rank, to rtol 1e-8 (docs/performance.md, "Agglomeration multigrid"):
//   * agglomeration MG: AgglomerationHierarchy + AgglomerationMultigrid through LinearSolver's
//     defaults (W-cycles, Chebyshev on the element blocks), with Galerkin levels PᵀAP and with
//     each level's system rediscretised on its mesh (rediscretised_level_operators(), whose
//     assembly the set-up time includes);
//   * GAMG (PETSc's smoothed aggregation) and, where PETSc has hypre, BoomerAMG, with their
//     defaults;
//   * ILU(0) as the preconditioner of GMRES(100) (what a user tries first);
// on two systems: SIPG Poisson on an agglomerated unit square (CG; symmetric) and the heat
// demo's 2D+1 slab on the oscillating domain (GMRES(100); nonsymmetric). Set-up (hierarchy +
// PCSetUp) and solve are timed apart; a solver that does not converge in --max-iterations is
// reported with its reason.
//
//   build/bin/bench_multigrid [--problem poisson,slab] [--p 1,2,3] [--cells-per-side 64]
//                             [--max-iterations 2000] [--json FILE] [PETSc options]
#include <petscksp.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_provenance.hpp"
#include "heat_slab_problem.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/petsc/agglomeration_multigrid.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/rediscretised_level_operators.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "wall_time.hpp"

namespace {

using namespace polydg;
using Clock = bench::WallClock;
using bench::seconds_since;

struct Row {
  std::string problem, solver, reason;
  int p = 0, levels = 0;
  long long dofs = 0;
  PetscInt iterations = 0;
  double setup_s = 0, solve_s = 0;
};

/// One assembled system: its AIJ matrix, rhs, and the mesh the hierarchy coarsens; `rediscretise`
/// assembles its problem on every coarse level of a hierarchy.
template <int Dim>
struct System {
  PolytopicMesh<Dim> mesh;
  petsc::AijMatrix aij;
  std::vector<double> rhs;
  std::function<std::vector<petsc::AijMatrix>(const AgglomerationHierarchy<Dim>&)> rediscretise;
};

auto poisson_coefficients() {
  const double pi = 3.14159265358979323846;
  return make_coefficients<2>()
      .with_diffusion(1.0)
      .with_source([pi](const Point<2>& x) {
        return 2 * pi * pi * std::sin(pi * x[0]) * std::sin(pi * x[1]);
      })
      .with_dirichlet(0.0);
}

System<2> poisson_system(int cells_per_side, int p) {
  const auto fine =
      std::make_shared<const SimplexMesh<2>>(unit_square_mesh(cells_per_side, 0.2, 3));
  System<2> system{PolytopicMesh<2>(fine, agglomerate_by_cell_count(*fine, 4).element_of_cell, p),
                   {},
                   {},
                   [](const AgglomerationHierarchy<2>& hierarchy) {
                     return petsc::rediscretised_level_operators(
                         hierarchy, BoundaryConditions::all_dirichlet(), poisson_coefficients());
                   }};
  Assembler<2> assembler(system.mesh, BoundaryConditions::all_dirichlet());
  BlockMatrix<double> matrix = assembler.make_matrix();
  system.rhs = assembler.make_vector();
  assembler.assemble(poisson_coefficients(), matrix, system.rhs);
  system.aij = petsc::AijMatrix(*assembler.pattern());
  system.aij.update(matrix);
  return system;
}

System<3> slab_system(int cells_per_side, int p) {
  OscillatingDomain domain;
  domain.cells_per_side = cells_per_side;
  const auto fine = std::make_shared<const SimplexMesh<2>>(oscillating_domain_mesh(domain));
  const PolytopicMesh<2> spatial(fine, agglomerate_by_cell_count(*fine, 3).element_of_cell, p);
  System<3> system{make_slab_mesh(spatial), {}, {}, [](const AgglomerationHierarchy<3>& hierarchy) {
                     return petsc::rediscretised_level_operators(
                         hierarchy, bench::heat_slab_conditions(), bench::heat_slab_coefficients());
                   }};
  Assembler<3> assembler(system.mesh, bench::heat_slab_conditions());
  BlockMatrix<double> matrix = assembler.make_matrix();
  system.rhs = assembler.make_vector();
  assembler.assemble(bench::heat_slab_coefficients(), matrix, system.rhs);
  system.aij = petsc::AijMatrix(*assembler.pattern());
  system.aij.update(matrix);
  return system;
}

/// The solvers compared, in the order of the table.
constexpr const char* galerkin_multigrid = "agglomeration MG";
constexpr const char* rediscretised_multigrid = "agglomeration MG, rediscretised";
// hypre's BoomerAMG where PETSc has hypre (Debian's does; the GPU machine's CUDA build does not).
const std::vector<const char*> solvers = {galerkin_multigrid, rediscretised_multigrid, "GAMG",
#if defined(PETSC_HAVE_HYPRE)
                                          "BoomerAMG",
#endif
                                          "ILU(0)"};

/// Solves `system` with one of `solvers`, Krylov `krylov`.
template <int Dim>
Row solve(const System<Dim>& system, const std::string& problem, int p, const std::string& solver,
          const char* krylov, int max_iterations) {
  Row row;
  row.problem = problem;
  row.solver = solver;
  row.p = p;
  row.dofs = (long long)system.rhs.size();
  const auto start = Clock::now();
  std::optional<AgglomerationHierarchy<Dim>> hierarchy;
  std::optional<petsc::AgglomerationMultigrid> multigrid;
  std::vector<petsc::AijMatrix> level_operators;
  petsc::SolverOptions options{.options_prefix = "bench_", .direct_solve_limit = 0};
  const std::string ksp_option = "-bench_ksp_type", pc_option = "-bench_pc_type";
  POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, ksp_option.c_str(), krylov));
  POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, "-bench_ksp_rtol", "1e-8"));
  POLYDG_PETSC_CALL(
      PetscOptionsSetValue(nullptr, "-bench_ksp_max_it", std::to_string(max_iterations).c_str()));
  POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, "-bench_ksp_gmres_restart", "100"));
  if (solver == galerkin_multigrid || solver == rediscretised_multigrid) {
    // A slab's hierarchy as the slab solvers build it (coarsened in space, no degree levels).
    hierarchy.emplace(system.mesh, Dim == 3 ? slab_hierarchy_options() : HierarchyOptions{});
    multigrid.emplace(*hierarchy);
    if (solver == rediscretised_multigrid) {
      level_operators = system.rediscretise(*hierarchy);
      multigrid->set_level_operators(petsc::mats_of(level_operators));
    }
    options.dm = multigrid->dm();
    row.levels = multigrid->level_count();
    POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, pc_option.c_str(), PCMG));
  } else {
    const char* type = solver == "GAMG" ? PCGAMG : solver == "BoomerAMG" ? PCHYPRE : PCILU;
    POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, pc_option.c_str(), type));
    if (solver == "BoomerAMG")
      POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, "-bench_pc_hypre_type", "boomeramg"));
  }
  options.on_divergence = petsc::DivergencePolicy::report;
  petsc::LinearSolver linear_solver(system.aij.mat(), options);
  petsc::Vector b(GlobalIndex(system.rhs.size())), x(GlobalIndex(system.rhs.size()));
  petsc::copy_to_vec(system.rhs, b.vec());
  POLYDG_PETSC_CALL(KSPSetUp(linear_solver.ksp()));
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(linear_solver.ksp(), &pc));
  POLYDG_PETSC_CALL(PCSetUp(pc));
  row.setup_s = seconds_since(start);
  const auto solve_start = Clock::now();
  const petsc::SolveResult result = linear_solver.solve(b.vec(), x.vec());
  row.solve_s = seconds_since(solve_start);
  row.iterations = result.iterations;
  row.reason = result.reason_text;
  for (const char* name : {"-bench_ksp_type", "-bench_pc_type", "-bench_ksp_rtol",
                           "-bench_ksp_max_it", "-bench_ksp_gmres_restart", "-bench_pc_hypre_type"})
    POLYDG_PETSC_CALL(PetscOptionsClearValue(nullptr, name));
  std::printf("%-6s %2d %10lld %-31s %6d %6d %9.3f %9.3f  %s\n", problem.c_str(), p, row.dofs,
              solver.c_str(), row.levels, int(row.iterations), row.setup_s, row.solve_s,
              row.reason.c_str());
  std::fflush(stdout);
  return row;
}

constexpr const char* usage = R"(Usage: bench_multigrid [options] [PETSc options]
The agglomeration multigrid (Galerkin and rediscretised levels) against GAMG, BoomerAMG (where
PETSc has hypre) and ILU(0) on the
same AIJ matrix, rtol 1e-8, one rank:
SIPG Poisson (CG) on an agglomerated unit square and the heat slab (GMRES(100)).
  --problem LIST        poisson, slab or both (default poisson,slab)
  --p LIST              degrees (default 1,2,3)
  --cells-per-side N    squares per side of the mesh (default 64; the slab: the oscillating
                        domain's cells per side)
  --max-iterations N    per solve (default 2000)
  --json FILE           also write the rows as JSON
  --help                this text
)";

}  // namespace

int main(int argc, char** argv) {
  const std::string started = bench::utc_now();
  std::vector<std::string> problems = {"poisson", "slab"};
  std::vector<int> degrees = {1, 2, 3};
  int cells = 64, max_iterations = 2000;
  std::string json_path;
  std::vector<char*> petsc_arguments = {argv[0]};
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help") {
        std::fputs(usage, stdout);
        return 0;
      }
      if (flag.rfind("--", 0) != 0) {
        petsc_arguments.push_back(argv[i]);
        continue;
      }
      require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[++i];
      if (flag == "--problem") {
        problems = parse_choice_list(flag, value, {"poisson", "slab"});
      } else if (flag == "--p") {
        degrees = parse_integer_list(flag, value);
      } else if (flag == "--cells-per-side") {
        cells = parse_integer(flag, value);
      } else if (flag == "--max-iterations") {
        max_iterations = parse_integer(flag, value);
      } else if (flag == "--json") {
        json_path = value;
      } else {
        raise("unknown option ", flag, " (see --help)");
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "bench_multigrid: " << error.what() << '\n';
    return 1;
  }
  petsc_arguments.push_back(nullptr);
  int petsc_argc = int(petsc_arguments.size()) - 1;
  char** petsc_argv = petsc_arguments.data();
  petsc::Session session(petsc_argc, petsc_argv);
  std::vector<Row> rows;
  try {
    std::printf("%-6s %2s %10s %-31s %6s %6s %9s %9s  %s\n", "system", "p", "DoFs", "solver",
                "levels", "its", "setup_s", "solve_s", "reason");
    for (const std::string& problem : problems)
      for (const int p : degrees) {
        if (problem == "poisson") {
          const System<2> system = poisson_system(cells, p);
          for (const char* solver : solvers)
            rows.push_back(solve(system, problem, p, solver, KSPCG, max_iterations));
        } else {
          const System<3> system = slab_system(cells, p);
          for (const char* solver : solvers)
            rows.push_back(solve(system, problem, p, solver, KSPGMRES, max_iterations));
        }
      }
    if (!json_path.empty()) {
      std::ofstream json(json_path);
      require(bool(json), "bench_multigrid: cannot write ", json_path);
      json << "{" << bench::provenance_json(argc, argv, started) << ", \"rtol\": 1e-8, \"rows\": [";
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        json << (i ? ", " : "") << "{\"problem\": \"" << r.problem << "\", \"p\": " << r.p
             << ", \"dofs\": " << r.dofs << ", \"solver\": \"" << r.solver
             << "\", \"levels\": " << r.levels << ", \"iterations\": " << r.iterations
             << ", \"setup_s\": " << r.setup_s << ", \"solve_s\": " << r.solve_s
             << ", \"reason\": \"" << r.reason << "\"}";
      }
      json << "]}\n";
    }
  } catch (const std::exception& error) {
    std::cerr << "bench_multigrid: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
