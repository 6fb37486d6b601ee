//                      libpolydg example: convergence
//
// Compile:  part of the libpolydg build (build/bin/convergence).
//
// Sample runs:
//   build/bin/convergence
//   build/bin/convergence --problem poisson --p 1,2,3 --levels 5 --json convergence.json
//   build/bin/convergence --problem pure_advection --p 2 -ksp_type gmres -pc_type ilu
//   build/bin/convergence --mesh tests/data/gmsh/square_hole_v41.msh --cells-per-element 4 --p 2
//   build/bin/convergence --mesh tests/data/gmsh/l_shape_v41.msh --levels 3 --p 2 --expect-rate 2.8
//   build/bin/convergence --dim 3 --p 2   (polyhedra in the unit cube; GMRES + multigrid)
//   build/bin/convergence --mesh tests/data/gmsh/box_v41.msh --levels 2 --p 2   (3D: the file's)
//   mpiexec -n 2 build/bin/convergence --p 2   (each rank assembles its part; the same table)
//   mpiexec -n 2 build/bin/convergence --p 2 --levels 2 --vtk out   (out/*.pvtu, a piece per rank)
//   mpiexec -n 2 build/bin/convergence --dim 3 --p 2   (the multigrid's levels over the ranks)
//
// Description: the numbers a user of polytopic DG checks first. For each manufactured problem
// (examples/manufactured_problems.hpp, and manufactured_problems_3d.hpp in 3D: (a) Poisson,
// (b) anisotropic advection-diffusion-reaction, (c) pure advection, (d) mixed Dirichlet/
// Neumann) and each degree p, refine a fine triangulation of the unit square (n = start ·
// 2^level cells per side), of the unit cube (--dim 3: tetrahedra, unit_cube_mesh) or of a Gmsh
// mesh (--mesh, 2D or 3D: level ℓ is the file's mesh refined uniformly ℓ times, 2^(dℓ) times
// its cells), agglomerate it into polytopes of a fixed number of fine cells (so h roughly halves),
// assemble the symmetric interior-penalty DG system on the CPU, solve it with PETSc, and print
// the L2 and DG-norm errors with their rates. PETSc options pass through (default: -ksp_type
// preonly -pc_type lu; in 3D -ksp_type gmres -pc_type mg). --expect-rate makes the study a check:
// the exit status is 1 when the last level's L2 rate falls below the given value.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "convergence_study.hpp"
#include "manufactured_problems.hpp"
#include "manufactured_problems_3d.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/penalty_scaling_names.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/refinement.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/petsc/world.hpp"

namespace {

/// The manufactured problems' names: --problem's choices, and the default (all of them).
const std::vector<std::string_view> problem_names = {
    polydg::examples::Poisson::name, polydg::examples::AdvectionDiffusionReaction::name,
    polydg::examples::PureAdvection::name, polydg::examples::MixedBoundary::name};

struct Options {
  std::vector<std::string> problems{problem_names.begin(), problem_names.end()};
  std::vector<int> degrees = {1, 2, 3, 4};
  int levels = 4;
  bool levels_given = false;
  int start = 8;  // cells per side of the coarsest fine mesh
  double cells_per_element = 8;
  bool cells_per_element_given = false;
  std::string mesh_file;
  std::vector<int> neumann_tags;
  std::string json_path;
  std::string vtk_directory;
  std::optional<double> expected_rate;
  polydg::PenaltyScaling penalty = polydg::PenaltyScaling::element_trace;
  int dim = 2;  // of the built-in mesh; a --mesh file's own otherwise
  bool dim_given = false, degrees_given = false, start_given = false;
};

const char* help_text = R"(Usage: convergence [options] [PETSc options]
  --problem NAME[,NAME]   poisson, advection_diffusion_reaction, pure_advection, mixed_boundary,
                          or all (default all)
  --dim D                 2: the unit square of triangles (default); 3: the unit cube of
                          tetrahedra (unit_cube_mesh, vertices perturbed by 0.1 h) agglomerated
                          into polyhedra
  --p P[,P...]            degrees (default 1,2,3,4; 1,2,3 in 3D)
  --levels L              refinement levels (default 4, 3 in 3D; 1 with --mesh)
  --start N               cells per side of the coarsest square / cube mesh (default 8; 4 in 3D)
  --cells-per-element K   fine cells per polytope at every level (default 8; 4 in 3D and with
                          --mesh)
  --mesh FILE.msh         a 2D or 3D Gmsh mesh as level 0; level l is it refined uniformly l
                          times (each cell into 2^dim); all its tags Dirichlet unless
  --neumann-tags T[,T]    these tags are Neumann (data g_N = n.A grad u)
  --expect-rate R         exit with status 1 unless every table's last L2 rate (between the
                          last two levels, against the mean element size sqrt(|Omega|/elements))
                          is at least R; needs --levels 2 or more
  --penalty NAME          the penalty's scaling: element_trace (default), polytopic_cap (seed
                          004's formula, not coercive for p = 1 on polygons of many facets) or
                          sub_simplex (docs/theory.md, Penalty)
  --json FILE             write {"runs": [{"problem", "dim", "p", "level", "elements", "dofs", "h",
                          "l2_error", "dg_error", "ksp_its"}, ...]}
  --vtk DIR               write each solution as DIR/<problem>_p<P>_level<L>.vtu (DIR must
                          exist); under mpiexec -n R as DIR/<problem>_p<P>_level<L>.pvtu, which
                          lists the R pieces <...>_level<L>_<rank>.vtu beside it (each rank's
                          elements, cell field "rank"; "element_id" as on one rank)
  --help                  this text (PETSc's options: -help)
)";

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::cout << help_text;
      std::exit(0);
    }
    if (flag.rfind("--", 0) != 0) {  // a PETSc option and its value: PETSc reads them
      continue;
    }
    polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
    const std::string value = argv[++i];
    if (flag == "--problem") {
      if (value != "all") options.problems = polydg::parse_choice_list(flag, value, problem_names);
    } else if (flag == "--dim") {
      options.dim = polydg::parse_integer(flag, value);
      options.dim_given = true;
    } else if (flag == "--p") {
      options.degrees = polydg::parse_integer_list(flag, value);
      options.degrees_given = true;
    } else if (flag == "--levels") {
      options.levels = polydg::parse_integer(flag, value);
      options.levels_given = true;
    } else if (flag == "--start") {
      options.start = polydg::parse_integer(flag, value);
      options.start_given = true;
    } else if (flag == "--cells-per-element") {
      options.cells_per_element = polydg::parse_number(flag, value);
      options.cells_per_element_given = true;
    } else if (flag == "--mesh") {
      options.mesh_file = value;
    } else if (flag == "--neumann-tags") {
      for (const int tag : polydg::parse_integer_list(flag, value))
        options.neumann_tags.push_back(tag);
    } else if (flag == "--penalty") {
      options.penalty = polydg::penalty_scaling_from_name(value);
    } else if (flag == "--json") {
      options.json_path = value;
    } else if (flag == "--vtk") {
      options.vtk_directory = value;
    } else if (flag == "--expect-rate") {
      options.expected_rate = polydg::parse_number(flag, value);
    } else {
      polydg::raise("unknown option '", flag, "' (see --help)");
    }
  }
  polydg::require(options.dim == 2 || options.dim == 3, "--dim ", options.dim, ": must be 2 or 3");
  if (!options.mesh_file.empty()) {
    const int file_dim = polydg::gmsh_mesh_dimension(options.mesh_file);
    polydg::require(!options.dim_given || options.dim == file_dim, "--dim ", options.dim, " but ",
                    options.mesh_file, " is a ", file_dim, "D mesh");
    options.dim = file_dim;
  }
  if (options.dim == 3) {
    if (!options.degrees_given) options.degrees = {1, 2, 3};
    if (!options.levels_given) options.levels = 3;
    if (!options.start_given) options.start = 4;
    if (!options.cells_per_element_given) options.cells_per_element = 4;
  }
  polydg::require(options.levels >= 1, "--levels ", options.levels, ": must be at least 1");
  polydg::require(options.start >= 1, "--start ", options.start, ": must be at least 1");
  for (int p : options.degrees)
    polydg::require(p >= polydg::min_element_degree && p <= polydg::max_element_degree, "--p ", p,
                    " is outside the supported degrees [", polydg::min_element_degree, ", ",
                    polydg::max_element_degree, "]");
  if (!options.mesh_file.empty()) {
    if (!options.levels_given) options.levels = 1;
    if (!options.cells_per_element_given) options.cells_per_element = 4;
  }
  polydg::require(!options.expected_rate || options.levels >= 2,
                  "--expect-rate needs --levels 2 or more (a rate compares two levels)");
  return options;
}

// Under mpiexec every rank computes the same table: rank 0 alone prints it and writes the JSON.
bool printing_rank = true;

template <class... Arguments>
void print(const char* format, Arguments... arguments) {
  if (printing_rank) std::printf(format, arguments...);
}

struct JsonRun {
  std::string problem;
  int dim, p, level;
  polydg::examples::LevelResult result;
};

template <int Dim>
using FineMesh = std::shared_ptr<const polydg::SimplexMesh<Dim>>;

// Step 2: the fine mesh of every level — the unit square or cube with start · 2^level cells per
// side, or the Gmsh mesh refined uniformly `level` times (2^(Dim·level) times its cells).
// solve_level agglomerates each into round(cells / cells_per_element) polytopes: the same
// number of cells per polytope at every level, so the polytopes are 2^Dim times as many and
// about half as wide from one level to the next, as the fine cells are.
template <int Dim>
std::vector<FineMesh<Dim>> fine_meshes(const Options& options) {
  std::vector<FineMesh<Dim>> meshes;
  for (int level = 0; level < options.levels; ++level) {
    const int n = options.start << level;
    if (!options.mesh_file.empty() && level == 0)
      meshes.push_back(std::make_shared<const polydg::SimplexMesh<Dim>>(
          polydg::read_gmsh<Dim>(options.mesh_file)));
    else if (!options.mesh_file.empty())
      meshes.push_back(
          std::make_shared<const polydg::SimplexMesh<Dim>>(polydg::refine(*meshes.back())));
    else if constexpr (Dim == 2)
      meshes.push_back(
          std::make_shared<const polydg::SimplexMesh<2>>(polydg::unit_square_mesh(n, 0.2, 7)));
    else
      meshes.push_back(
          std::make_shared<const polydg::SimplexMesh<3>>(polydg::unit_cube_mesh(n, 0.1, 7)));
  }
  return meshes;
}

// Step 3 for one problem: every degree, every level; prints the table, and with --expect-rate
// the check of its last L2 rate. Returns the number of failed checks.
template <class Problem>
int run_problem(const Options& options, const std::vector<FineMesh<Problem::dim>>& meshes,
                std::vector<JsonRun>& runs) {
  std::optional<polydg::BoundaryConditions> conditions;
  if (!options.mesh_file.empty()) {
    conditions = polydg::BoundaryConditions::all_dirichlet();
    for (int tag : options.neumann_tags) conditions->set(tag, polydg::BoundaryKind::neumann);
  }
  int failed_checks = 0;
  for (int p : options.degrees) {
    print("\n%s, p = %d\n%5s %9s %9s %10s %12s %6s %12s %6s %6s\n", Problem::name, p, "level",
          "elements", "DoFs", "h", "L2 error", "rate", "DG error", "rate", "its");
    polydg::examples::LevelResult previous;
    polydg::examples::LevelResult before_previous;
    for (int level = 0; level < options.levels; ++level) {
      const FineMesh<Problem::dim>& fine = meshes[level];
      // Several ranks: the .pvtu of the ranks' pieces (convergence_study.hpp).
      const char* extension = polydg::petsc::world_rank_count() > 1 ? ".pvtu" : ".vtu";
      const std::string vtu = options.vtk_directory.empty()
                                  ? ""
                                  : options.vtk_directory + "/" + Problem::name + "_p" +
                                        std::to_string(p) + "_level" + std::to_string(level) +
                                        extension;
      polydg::AssemblyOptions assembly;
      assembly.penalty_scaling = options.penalty;
      const auto result = polydg::examples::solve_level<Problem>(fine, options.cells_per_element, p,
                                                                 conditions, vtu, assembly);
      const auto rate = [&](double now, double before) {
        return level == 0 ? std::nan("") : std::log(before / now) / std::log(previous.h / result.h);
      };
      print("%5d %9d %9lld %10.4f %12.4e %6.2f %12.4e %6.2f %6d\n", level, int(result.elements),
            (long long)result.dofs, result.h, result.l2_error,
            rate(result.l2_error, previous.l2_error), result.dg_error,
            rate(result.dg_error, previous.dg_error), int(result.iterations));
      std::fflush(stdout);
      runs.push_back({Problem::name, Problem::dim, p, level, result});
      before_previous = previous;
      previous = result;
    }
    if (options.expected_rate) {
      // Against the mean element size (|Ω| / elements)^(1/dim), as the tests fit rates (the
      // table's h, the largest diameter, jumps with the agglomeration; docs/theory.md, "Error
      // norms"). |Ω| is the same at every level. A NaN rate fails.
      const double rate = Problem::dim * std::log(before_previous.l2_error / previous.l2_error) /
                          std::log(double(previous.elements) / double(before_previous.elements));
      const bool met = rate >= *options.expected_rate;
      print("last L2 rate against (|Omega|/elements)^(1/%d): %.2f; expected at least %.2f: %s\n",
            Problem::dim, rate, *options.expected_rate, met ? "ok" : "FAILED");
      if (!met) ++failed_checks;
    }
  }
  return failed_checks;
}

// The manufactured problem of name `name` in Dim dimensions, passed to `run` as a type.
template <int Dim, class Run>
int with_problem(const std::string& name, Run run) {
  using namespace polydg::examples;
  using Problems2D = std::tuple<Poisson, AdvectionDiffusionReaction, PureAdvection, MixedBoundary>;
  using Problems3D =
      std::tuple<Poisson3D, AdvectionDiffusionReaction3D, PureAdvection3D, MixedBoundary3D>;
  using Problems = std::conditional_t<Dim == 2, Problems2D, Problems3D>;
  int result = -1;
  std::apply(
      [&](auto... problems) {
        ((name == decltype(problems)::name ? (result = run(problems), 0) : 0), ...);
      },
      Problems{});
  polydg::require(result >= 0, "unknown problem '", name, "' (see --help)");
  return result;
}

// Steps 2 and 3 in Dim dimensions; returns the number of failed checks.
template <int Dim>
int run_study(const Options& options, std::vector<JsonRun>& runs) {
  const std::vector<FineMesh<Dim>> meshes = fine_meshes<Dim>(options);
  if (!options.mesh_file.empty())
    print("%s: %d cells at level 0, %d^level times as many at level l; %g per polytope\n",
          options.mesh_file.c_str(), int(meshes.front()->cell_count()), 1 << Dim,
          options.cells_per_element);
  int failed_checks = 0;
  for (const std::string& problem : options.problems)
    failed_checks += with_problem<Dim>(
        problem, [&](auto type) { return run_problem<decltype(type)>(options, meshes, runs); });
  return failed_checks;
}

void write_json(const std::string& path, const std::vector<JsonRun>& runs) {
  std::ofstream json(path);
  polydg::require(bool(json), "cannot write ", path);
  json.precision(17);
  json << "{\"runs\": [";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    json << (i ? ",\n  " : "\n  ") << "{\"problem\": \"" << r.problem << "\", \"dim\": " << r.dim
         << ", \"p\": " << r.p << ", \"level\": " << r.level
         << ", \"elements\": " << r.result.elements << ", \"dofs\": " << r.result.dofs
         << ", \"h\": " << r.result.h << ", \"l2_error\": " << r.result.l2_error
         << ", \"dg_error\": " << r.result.dg_error << ", \"ksp_its\": " << r.result.iterations
         << "}";
  }
  json << "\n]}\n";
  polydg::require(bool(json), "cannot write ", path);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // 1. PETSc (its options pass through) and ours.
    polydg::petsc::Session session(argc, argv);
    const Options options = parse_options(argc, argv);
    polydg::examples::default_to_direct_solver_unless_chosen(options.dim);
    printing_rank = polydg::petsc::world_rank() == 0;

    // 2. and 3.: the fine meshes of the levels, then every problem, degree and level.
    std::vector<JsonRun> runs;
    const int failed_checks =
        options.dim == 2 ? run_study<2>(options, runs) : run_study<3>(options, runs);
    // 4. The JSON for plots and regression checks.
    if (!options.json_path.empty() && printing_rank) write_json(options.json_path, runs);
    if (failed_checks > 0) {
      std::cerr << "convergence: " << failed_checks << " of "
                << options.problems.size() * options.degrees.size()
                << " last L2 rates below --expect-rate " << *options.expected_rate << '\n';
      return 1;
    }
  } catch (const polydg::Error& error) {
    std::cerr << "convergence: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
