// Benchmark of the linear solvers a DG user gets from PETSc on the library's own matrices: the
// direct solve (KSPPREONLY + PCLU, PETSc's own factorization) against Krylov methods with the
// preconditioners that apply to an AIJ DG matrix, on 2D manufactured problems (IP-DG, built-in
// unit-square meshes agglomerated into polygons of 8 triangles) at several sizes and degrees.
// It is the measurement behind LinearSolver's defaults (SolverOptions::direct_solve_limit and
// the Krylov default; docs/user-guide.md, "Solver defaults").
//
// For each case it prints the seconds of KSPSetUp (the factorization or the preconditioner; the
// block preconditioners factor their blocks in KSPSolve) and of KSPSolve, the iterations, the true
// relative residual ‖b − A x‖₂/‖b‖₂, the algebraic error ‖x − x_LU‖₂/‖x_LU‖₂ against the direct
// solution and the L2 error of x against the exact solution (the direct solution's L2 error is the
// discretisation error).
//
//   build/bin/bench_solver_defaults [--dofs 10000,50000,100000,200000] [--p 1,2,3]
//                                   [--problem poisson,advection_diffusion_reaction,...]
//                                   [--solvers lu,gmres30_ilu_1e-5,...] [--json FILE]
#include <petscksp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench_provenance.hpp"
#include "manufactured_problems.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/error_norms.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/session.hpp"
#include "wall_time.hpp"

namespace {

using polydg::GlobalIndex;
using polydg::Point;

/// Advection-dominated: A = εI with ε = 1e-3, b = (1, 1/2), c = 0, u = sin(πx) sin(πy) — the
/// steady nonsymmetric advection-diffusion systems on which GMRES(30) + ILU(0) at rtol 1e-5
/// stalls or stops short of the discretisation error.
struct AdvectionDominated {
  static constexpr const char* name = "advection_dominated";
  static constexpr double epsilon = 1e-3;
  static Point<2> b(const Point<2>&) { return {{1.0, 0.5}}; }
  static double u(const Point<2>& x) { return polydg::examples::Poisson::u(x); }
  static Point<2> grad_u(const Point<2>& x) { return polydg::examples::Poisson::grad_u(x); }
  static auto coefficients() {
    return polydg::make_coefficients<2>()
        .with_diffusion(epsilon)
        .with_advection(Point<2>{{1.0, 0.5}})
        .with_source([](const Point<2>& x) {
          const double pi = polydg::examples::pi;
          return epsilon * 2 * pi * pi * u(x) + polydg::dot(b(x), grad_u(x));
        })
        .with_dirichlet([](const Point<2>& x) { return u(x); });
  }
  static polydg::BoundaryConditions boundary_conditions() {
    return polydg::BoundaryConditions::all_dirichlet();
  }
};

const std::vector<std::string_view> problem_names = {
    polydg::examples::Poisson::name, polydg::examples::AdvectionDiffusionReaction::name,
    AdvectionDominated::name, polydg::examples::PureAdvection::name};

/// One way to solve: a name, what it sets on a fresh KSP, and options (under the KSP's prefix
/// "bench_", e.g. for the sub-solvers of block Jacobi) set for its solve only.
struct SolverCase {
  std::string_view name;
  std::function<void(KSP, PetscInt max_iterations)> configure;
  std::vector<std::pair<std::string, std::string>> options = {};
};

void krylov(KSP ksp, KSPType type, PCType pc_type, PetscReal rtol, PetscInt max_iterations,
            PCSide side) {
  POLYDG_PETSC_CALL(KSPSetType(ksp, type));
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  POLYDG_PETSC_CALL(PCSetType(pc, pc_type));
  POLYDG_PETSC_CALL(KSPSetTolerances(ksp, rtol, PETSC_DEFAULT, PETSC_DEFAULT, max_iterations));
  POLYDG_PETSC_CALL(KSPSetPCSide(ksp, side));
}

void gmres(KSP ksp, PetscInt restart, PCType pc_type, PetscReal rtol, PetscInt max_iterations,
           PCSide side = PC_RIGHT) {
  krylov(ksp, KSPGMRES, pc_type, rtol, max_iterations, side);
  POLYDG_PETSC_CALL(KSPGMRESSetRestart(ksp, restart));
}

/// Sets PCBJACOBI or PCASM (`type`) with one block per `block_rows` rows (at least one).
void blocks(KSP ksp, PCType type, PetscInt block_rows, PetscInt max_iterations) {
  gmres(ksp, 100, type, 1e-10, max_iterations);
  Mat a = nullptr;
  POLYDG_PETSC_CALL(KSPGetOperators(ksp, &a, nullptr));
  PetscInt rows = 0;
  POLYDG_PETSC_CALL(MatGetSize(a, &rows, nullptr));
  const PetscInt count = std::max<PetscInt>(1, rows / block_rows);
  PC pc = nullptr;
  POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
  if (std::string_view(type) == PCBJACOBI)
    POLYDG_PETSC_CALL(PCBJacobiSetTotalBlocks(pc, count, nullptr));
  else
    POLYDG_PETSC_CALL(PCASMSetLocalSubdomains(pc, count, nullptr, nullptr));
}

const std::vector<SolverCase> solver_cases = {
    {"lu",
     [](KSP ksp, PetscInt) {
       POLYDG_PETSC_CALL(KSPSetType(ksp, KSPPREONLY));
       PC pc = nullptr;
       POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
       POLYDG_PETSC_CALL(PCSetType(pc, PCLU));
     }},
    // PETSc's defaults on one rank: GMRES(30), left ILU(0), rtol 1e-5.
    {"gmres30_ilu_1e-5", [](KSP ksp, PetscInt it) { gmres(ksp, 30, PCILU, 1e-5, it, PC_LEFT); }},
    {"gmres30_ilu", [](KSP ksp, PetscInt it) { gmres(ksp, 30, PCILU, 1e-10, it); }},
    {"gmres100_ilu", [](KSP ksp, PetscInt it) { gmres(ksp, 100, PCILU, 1e-10, it); }},
    {"gmres100_bjacobi8_ilu",
     [](KSP ksp, PetscInt it) {
       gmres(ksp, 100, PCBJACOBI, 1e-10, it);
       PC pc = nullptr;
       POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
       POLYDG_PETSC_CALL(PCBJacobiSetTotalBlocks(pc, 8, nullptr));
     }},
    {"gmres100_vpbjacobi", [](KSP ksp, PetscInt it) { gmres(ksp, 100, PCVPBJACOBI, 1e-10, it); }},
    {"gmres100_ilu_rcm",
     [](KSP ksp, PetscInt it) {
       gmres(ksp, 100, PCILU, 1e-10, it);
       PC pc = nullptr;
       POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
       POLYDG_PETSC_CALL(PCFactorSetMatOrderingType(pc, MATORDERINGRCM));
     }},
    {"gmres100_ilu1",
     [](KSP ksp, PetscInt it) {
       gmres(ksp, 100, PCILU, 1e-10, it);
       PC pc = nullptr;
       POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
       POLYDG_PETSC_CALL(PCFactorSetLevels(pc, 1));
     }},
    // Block Jacobi and additive Schwarz (overlap 1) with an LU of each block of ~10000 rows.
    {"gmres100_bjacobi_lu",
     [](KSP ksp, PetscInt it) { blocks(ksp, PCBJACOBI, 10000, it); },
     {{"-bench_sub_pc_type", "lu"}}},
    {"gmres100_asm_lu",
     [](KSP ksp, PetscInt it) { blocks(ksp, PCASM, 10000, it); },
     {{"-bench_sub_pc_type", "lu"}}},
    {"gmres100_gamg", [](KSP ksp, PetscInt it) { gmres(ksp, 100, PCGAMG, 1e-10, it); }},
#if defined(PETSC_HAVE_HYPRE)
    {"gmres100_hypre", [](KSP ksp, PetscInt it) { gmres(ksp, 100, PCHYPRE, 1e-10, it); }},
#endif
    {"bcgs_ilu", [](KSP ksp, PetscInt it) { krylov(ksp, KSPBCGS, PCILU, 1e-10, it, PC_RIGHT); }},
};

/// The --solvers names: the cases above and the library's own Krylov default.
std::vector<std::string_view> solver_names() {
  std::vector<std::string_view> names;
  for (const SolverCase& solver : solver_cases) names.push_back(solver.name);
  names.push_back("krylov_default");
  return names;
}

struct Row {
  std::string problem, solver, reason;
  int p = 0;
  GlobalIndex dofs = 0, nonzeros = 0;
  double setup_seconds = 0, solve_seconds = 0;
  PetscInt iterations = 0;
  double residual = 0, algebraic_error = 0, l2_error = 0, direct_l2_error = 0;
};

using polydg::bench::seconds_since;

double norm2(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x * x;
  return std::sqrt(sum);
}

template <class Problem>
void run_problem(int p, GlobalIndex target_dofs, const std::vector<std::string>& solvers,
                 PetscInt max_iterations, const std::string& lu_package, std::vector<Row>& rows) {
  using namespace polydg;
  constexpr double cells_per_element = 8;
  const int basis_size = (p + 1) * (p + 2) / 2;
  // 2 n² triangles in polygons of 8: n² basis_size / 4 unknowns.
  const int n = std::max(
      2, int(std::lround(std::sqrt(double(target_dofs) * cells_per_element / (2.0 * basis_size)))));
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n));
  const Agglomeration parts = agglomerate_by_cell_count(*fine, cells_per_element);
  const PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
  const auto coefficients = Problem::coefficients();
  Assembler<2> assembler(mesh, Problem::boundary_conditions());
  BlockMatrix<double> matrix = assembler.make_matrix();
  std::vector<double> rhs = assembler.make_vector();
  assembler.assemble(coefficients, matrix, rhs);
  const BlockPattern& pattern = *assembler.pattern();

  petsc::AijMatrix aij(pattern);
  aij.update(matrix);
  {
    // Element blocks for -pc_type vpbjacobi.
    std::vector<PetscInt> sizes(std::size_t(pattern.block_row_count()));
    for (Index e = 0; e < pattern.block_row_count(); ++e)
      sizes[std::size_t(e)] = pattern.block_size(e);
    POLYDG_PETSC_CALL(MatSetVariableBlockSizes(aij.mat(), PetscInt(sizes.size()), sizes.data()));
  }
  petsc::Vector b(pattern), x(pattern);
  petsc::copy_to_vec(rhs, b.vec());

  const auto l2_error = [&](const std::vector<double>& solution) {
    return compute_error_norms(
               assembler.quadrature_mesh(), coefficients, std::span<const double>(solution),
               [](const Point<2>& point) { return Problem::u(point); },
               [](const Point<2>& point) { return Problem::grad_u(point); })
        .l2;
  };

  std::vector<double> direct;
  double direct_l2 = 0;
  const auto record = [&](Row row) {
    std::vector<double> solution(rhs.size()), product(rhs.size()), difference(rhs.size());
    petsc::copy_from_vec(x.vec(), solution);
    matrix.multiply(solution, product);
    for (std::size_t i = 0; i < rhs.size(); ++i) product[i] = rhs[i] - product[i];
    row.residual = norm2(product) / norm2(rhs);
    row.l2_error = l2_error(solution);
    if (row.solver == "lu") {
      direct = solution;
      direct_l2 = row.l2_error;
    }
    for (std::size_t i = 0; i < rhs.size(); ++i) difference[i] = solution[i] - direct[i];
    row.algebraic_error = norm2(difference) / norm2(direct);
    row.direct_l2_error = direct_l2;
    std::printf("%-28s %d %8lld %9lld %-22s %8.3f %8.3f %6d %-16s %8.1e %8.1e %8.1e %8.1e\n",
                row.problem.c_str(), row.p, static_cast<long long>(row.dofs),
                static_cast<long long>(row.nonzeros), row.solver.c_str(), row.setup_seconds,
                row.solve_seconds, int(row.iterations), row.reason.c_str(), row.residual,
                row.algebraic_error, row.l2_error, row.direct_l2_error);
    std::fflush(stdout);
    rows.push_back(row);
  };
  for (const SolverCase& solver : solver_cases) {
    if (solver.name != "lu" &&
        std::find(solvers.begin(), solvers.end(), solver.name) == solvers.end())
      continue;
    KSP ksp = nullptr;
    POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
    POLYDG_PETSC_CALL(KSPSetOperators(ksp, aij.mat(), aij.mat()));
    solver.configure(ksp, max_iterations);
    if (solver.name == "lu" && !lu_package.empty()) {
      PC pc = nullptr;
      POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
      POLYDG_PETSC_CALL(PCFactorSetMatSolverType(pc, lu_package.c_str()));
    }
    POLYDG_PETSC_CALL(KSPSetOptionsPrefix(ksp, "bench_"));
    for (const auto& [name, value] : solver.options)
      POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, name.c_str(), value.c_str()));
    POLYDG_PETSC_CALL(KSPSetFromOptions(ksp));
    POLYDG_PETSC_CALL(VecSet(x.vec(), 0.0));
    Row row;
    row.problem = Problem::name;
    row.solver = solver.name;
    row.p = p;
    row.dofs = pattern.dof_count();
    row.nonzeros = pattern.value_count();
    auto start = std::chrono::steady_clock::now();
    POLYDG_PETSC_CALL(KSPSetUp(ksp));
    row.setup_seconds = seconds_since(start);
    start = std::chrono::steady_clock::now();
    POLYDG_PETSC_CALL(KSPSolve(ksp, b.vec(), x.vec()));
    row.solve_seconds = seconds_since(start);
    KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
    POLYDG_PETSC_CALL(KSPGetConvergedReason(ksp, &reason));
    POLYDG_PETSC_CALL(KSPGetIterationNumber(ksp, &row.iterations));
    row.reason = KSPConvergedReasons[reason];
    POLYDG_PETSC_CALL(KSPDestroy(&ksp));
    for (const auto& [name, value] : solver.options)
      POLYDG_PETSC_CALL(PetscOptionsClearValue(nullptr, name.c_str()));

    record(row);
  }
  // The library's Krylov default: LinearSolver above its direct_solve_limit (setup = the
  // constructor, solve = LinearSolver::solve, which factors the subdomains at its first call).
  if (std::find(solvers.begin(), solvers.end(), "krylov_default") != solvers.end()) {
    POLYDG_PETSC_CALL(VecSet(x.vec(), 0.0));
    Row row;
    row.problem = Problem::name;
    row.solver = "krylov_default";
    row.p = p;
    row.dofs = pattern.dof_count();
    row.nonzeros = pattern.value_count();
    petsc::SolverOptions options;
    options.options_prefix = "default_";
    options.direct_solve_limit = 0;
    options.on_divergence = petsc::DivergencePolicy::report;
    auto start = std::chrono::steady_clock::now();
    petsc::LinearSolver solver(aij.mat(), options);
    POLYDG_PETSC_CALL(KSPSetTolerances(solver.ksp(), PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT,
                                       max_iterations));
    row.setup_seconds = seconds_since(start);
    start = std::chrono::steady_clock::now();
    const petsc::SolveResult result = solver.solve(b.vec(), x.vec());
    row.solve_seconds = seconds_since(start);
    row.iterations = result.iterations;
    row.reason = result.reason_text;
    record(row);
  }
}

/// Every (problem, p, size) case, the table on stdout and, with a path, the JSON (provenance:
/// its "provenance" member, polydg::bench::provenance_json).
void run_all(const std::vector<std::string>& problems, const std::vector<int>& degrees,
             const std::vector<int>& dofs, const std::vector<std::string>& solvers,
             PetscInt max_iterations, const std::string& lu_package, const std::string& json_path,
             const std::string& provenance) {
  std::printf("%-28s %s %8s %9s %-22s %8s %8s %6s %-16s %8s %8s %8s %8s\n", "problem", "p", "dofs",
              "nonzeros", "solver", "setup_s", "solve_s", "its", "reason", "resid", "alg_err",
              "l2_err", "l2_LU");
  std::vector<Row> rows;
  for (const std::string& problem : problems)
    for (int p : degrees)
      for (int target : dofs) {
        if (problem == polydg::examples::Poisson::name)
          run_problem<polydg::examples::Poisson>(p, target, solvers, max_iterations, lu_package,
                                                 rows);
        else if (problem == polydg::examples::AdvectionDiffusionReaction::name)
          run_problem<polydg::examples::AdvectionDiffusionReaction>(
              p, target, solvers, max_iterations, lu_package, rows);
        else if (problem == AdvectionDominated::name)
          run_problem<AdvectionDominated>(p, target, solvers, max_iterations, lu_package, rows);
        else
          run_problem<polydg::examples::PureAdvection>(p, target, solvers, max_iterations,
                                                       lu_package, rows);
      }
  if (!json_path.empty()) {
    std::ofstream json(json_path);
    polydg::require(bool(json), "cannot write ", json_path);
    json << "{" << provenance << ",\n\"runs\": [\n";
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Row& r = rows[k];
      json << "  {\"problem\": \"" << r.problem << "\", \"p\": " << r.p << ", \"dofs\": " << r.dofs
           << ", \"nonzeros\": " << r.nonzeros << ", \"solver\": \"" << r.solver
           << "\", \"setup_seconds\": " << r.setup_seconds
           << ", \"solve_seconds\": " << r.solve_seconds << ", \"iterations\": " << r.iterations
           << ", \"reason\": \"" << r.reason << "\", \"relative_residual\": " << r.residual
           << ", \"algebraic_error\": " << r.algebraic_error << ", \"l2_error\": " << r.l2_error
           << ", \"direct_l2_error\": " << r.direct_l2_error << "}"
           << (k + 1 < rows.size() ? ",\n" : "\n");
    }
    json << "]}\n";
  }
}

constexpr const char* usage = R"(Usage: bench_solver_defaults [options] [PETSc options]
Direct (PCLU) against Krylov solves of IP-DG systems on the unit square (8 triangles per
polygon): setup and solve seconds, iterations, true relative residual, algebraic error against
the LU solution, L2 error against the exact solution.
  --dofs N[,N...]        target unknowns (default 10000,50000,100000,200000)
  --p P[,P...]           degrees (default 1,2,3)
  --problem NAME[,NAME]  poisson, advection_diffusion_reaction, advection_dominated,
                         pure_advection (default poisson,advection_dominated)
  --solvers NAME[,NAME]  besides lu (always run: the reference), with rtol 1e-10 and right
                         preconditioning unless said: gmres30_ilu_1e-5 (PETSc's defaults: left,
                         rtol 1e-5), gmres30_ilu, gmres100_ilu, gmres100_bjacobi8_ilu,
                         gmres100_vpbjacobi, gmres100_ilu_rcm, gmres100_ilu1,
                         gmres100_bjacobi_lu, gmres100_asm_lu (LU of blocks of ~10000 rows),
                         gmres100_gamg, gmres100_hypre (a PETSc with hypre), bcgs_ilu,
                         krylov_default (LinearSolver's Krylov default, its own rtol)
                         (default all)
  --max-it N             Krylov iteration limit (default 3000)
  --lu-package NAME      MatSolverType of the lu case (default PETSc's choice: petsc),
                         e.g. mumps, umfpack
  --json FILE            also write the rows as JSON
  --help                 this text
Options -bench_ksp_... / -bench_pc_... apply to every KSP (e.g. -bench_pc_factor_mat_solver_type
mumps).
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> dofs = {10000, 50000, 100000, 200000};
  std::vector<int> degrees = {1, 2, 3};
  std::vector<std::string> problems = {"poisson", "advection_dominated"};
  const std::vector<std::string_view> names = solver_names();
  std::vector<std::string> solvers(names.begin(), names.end());
  int max_iterations = 3000;
  std::string json_path, lu_package;
  const std::string provenance =
      polydg::bench::provenance_json(argc, argv, polydg::bench::utc_now());
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help") {
        std::cout << usage;
        return 0;
      }
      if (flag.rfind("--", 0) != 0) continue;  // a PETSc option or its value
      polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[++i];
      if (flag == "--dofs")
        dofs = polydg::parse_integer_list(flag, value);
      else if (flag == "--p")
        degrees = polydg::parse_integer_list(flag, value);
      else if (flag == "--problem")
        problems = polydg::parse_choice_list(flag, value, problem_names);
      else if (flag == "--solvers")
        solvers = polydg::parse_choice_list(flag, value, names);
      else if (flag == "--max-it")
        max_iterations = polydg::parse_integer(flag, value);
      else if (flag == "--json")
        json_path = value;
      else if (flag == "--lu-package")
        lu_package = value;
      else
        polydg::raise("unknown option ", flag, " (see --help)");
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_solver_defaults: " << e.what() << '\n';
    return 1;
  }

  try {
    polydg::petsc::Session session(argc, argv);
    run_all(problems, degrees, dofs, solvers, max_iterations, lu_package, json_path, provenance);
  } catch (const std::exception& e) {
    std::cerr << "bench_solver_defaults: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
