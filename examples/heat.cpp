//                      libpolydg example: heat
//
// Compile:  part of the libpolydg build (./scripts/demo.sh builds and runs it).
//
// Sample runs:
//   build/bin/heat
//   build/bin/heat --p 3 --steps 40 --json heat.json --vtk heat_output
//   build/bin/heat --problem advection_diffusion --elements 2000 -ksp_monitor
//   build/bin/heat --mesh tests/data/gmsh/square_hole_v41.msh --elements 100 -ksp_type preonly
//   -pc_type lu
//   build/bin/heat --backend gpu --p 3 --cells-per-side 300 --elements 20000
//   mpiexec -n 2 build/bin/heat   (each rank assembles its part of the slab on its GPU, or its
//                                  CPU; rank 0 prints the same table)
//   mpiexec -n 2 build/bin/heat --vtk heat_output   (heat.pvd over .pvtu files, a piece per rank)
//   build/bin/heat --cells-per-side 400 --elements 50000 --write-parts parts --ranks 4
//   mpiexec -n 4 build/bin/heat --cells-per-side 400 --elements 50000 --read-parts parts
//                                  (each rank reads its part: no rank builds the whole mesh)
//
// Description: what a user of libpolydg does every time step (docs/theory.md, "Space-time
// slabs, as built"): the parabolic problem ∂t u − ∇·(a∇u) + w·∇u + c u = f on a polygonal mesh is
// solved slab by slab on space-time prisms κ × I_n with the P_p(κ × I_n) space-time DG method. The
// slab's pattern, quadrature mesh and PETSc matrix are built once; each step re-assembles the
// rhs (and the matrix only when a, w, c depend on time), adds the previous slab's solution
// as inflow data at t_{n−1}, and solves with the previous solution as the initial guess.
// Default: a = 1, w = 0, c = 1, u = sin(πx) sin(πy)(1 − t) on the
// oscillating-boundary domain agglomerated into ~1000 polygons, p = 2, 20 steps to T = 1.
// The assemblies run on the GPU (DeviceSlabSolver) where the library has CUDA and a device is
// present, else on the CPU (SlabSolver): one march loop for both, the same problem functors.
// Plain C++: on the GPU the functors are evaluated on the host at the slab's quadrature points
// each step and the library's precompiled kernels assemble (DeviceSlabSolver, SlabData::host).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <numbers>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "default_solver.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/penalty_scaling_names.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/io/pvd_writer.hpp"
#include "polydg/io/solution_vtu.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/mesh/rank_part_file.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/petsc/solution_pvtu.hpp"
#include "polydg/petsc/world.hpp"
#include "polydg/spacetime/slab_errors.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/spacetime/slab_trace.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"
#include "rank_part_options.hpp"
#if POLYDG_CUDA
#include "polydg/spacetime/device_slab_solver.hpp"
#endif

namespace {

constexpr double pi = std::numbers::pi;

struct Options : polydg::examples::RankPartOptions {
  std::string mesh_file;
  polydg::Index elements = 1000;
  int p = 2;
  std::string space = "P";
  int steps = 20;
  double final_time = 1;
  std::string problem = "heat";
  std::string vtk_directory;
  int vtk_every = 1;
  std::string json_path;
  std::string system_path;  ///< --save-system
  int cells_per_side = 80;  // built-in domain: 2·80² = 12,800 triangles
  std::string penalty = "element_trace";
  std::string products = "aij";
  std::string backend = "auto";
};

const char* help_text = R"(Usage: heat [options] [PETSc options]
  --problem NAME        heat (default: the pure heat equation, a = 1, w = 0, c = 1,
                        u = sin(pi x) sin(pi y)(1 - t)) or advection_diffusion (w = (1, 1/2),
                        a(x, t) = (1 + x^2 t) / 2, u = e^-t sin(pi x) sin(pi y) + x t)
  --mesh FILE.msh       Gmsh mesh instead of the oscillating-boundary domain (all tags Dirichlet)
  --cells-per-side N    built-in domain: N x N squares, 2 N^2 triangles (default 80)
  --elements N          polygons to agglomerate into (default 1000)
  --p P                 degree of the space-time elements (default 2)
  --space P|PQ          P_p(kappa x I_n), total degree p in (x, t) (default), or PQ_p:
                        total degree p in x times degree p in t
  --steps N             time steps (default 20)
  --T T                 final time (default 1)
  --vtk DIR             write DIR/heat.pvd and the solution at the top of each slab,
                        DIR/heat_<n>.vtu (DIR is created); under mpiexec -n R the series lists
                        DIR/heat_<n>.pvtu, each of the R pieces heat_<n>_<rank>.vtu beside it
                        (each rank's elements, cell field "rank"; "element_id" as on one rank)
  --vtk-every K         ... every K steps (default 1)
  --penalty element_trace|polytopic_cap|sub_simplex
                        the penalty's inverse-estimate factor: each element's own trace
                        constant (default; coercive on every agglomerate), the capped
                        min(|kappa|/|K_F|, p^(2d-2)) (not coercive for p = 1 on polygons of
                        many faces), or |kappa|/|K_F| (see docs/theory.md, Penalty)
  --products aij|dense_blocks
                        the matrix of the KSP's products: the AIJ (default) or a MATSHELL over
                        the dense block format, the AIJ building the preconditioner (an
                        iterative KSP only: a direct solve makes no products)
  --backend auto|cpu|gpu
                        where the assemblies run: the GPU (DeviceSlabSolver; the library built
                        with CUDA and a device present) or the CPU (SlabSolver); auto (default):
                        the GPU when there is one
  --save-system FILE    after the first step, write its matrix and rhs to FILE in PETSc's
                        binary format (MatView, then VecView: MatLoad and VecLoad read them
                        back, e.g. perf/solve_saved_system); one rank only
  --write-parts DIR     with --ranks R (one rank): agglomerate the mesh, partition it for R
                        ranks and write DIR/part_<r>_of_<R>.polydg, then stop
  --ranks R             the rank count --write-parts writes parts for
  --read-parts DIR      under mpiexec -n R: each rank reads its part from DIR (written with the
                        same --mesh or --cells-per-side, --elements and R, checked) instead of
                        building the whole mesh (--vtk: a .pvtu of the parts' pieces); not
                        with -pc_type mg
  --json FILE           {"steps": [{"n", "t", "assembly_s", "solve_s", "ksp_its",
                        "matrix_assembled"}, ...],
                        "l2_error_T", "l2l2_error", "dofs", "elements", "backend"}
  --help                this text (PETSc's: -help). Default solver, where neither
                        -ksp_type nor -pc_type is given: -ksp_type preonly -pc_type lu
                        (factored once while the matrix is reused). Naming one leaves the
                        other to the library's defaults (-pc_type ilu alone: GMRES(100));
                        iterative solvers start from the previous slab's solution
)";

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::cout << help_text;
      std::exit(0);
    }
    if (flag.rfind("--", 0) != 0) continue;  // PETSc's options
    polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
    const std::string value = argv[++i];
    const auto integer = [&] { return polydg::parse_integer(flag, value); };
    if (flag == "--mesh")
      o.mesh_file = value;
    else if (flag == "--elements")
      o.elements = integer();
    else if (flag == "--cells-per-side")
      o.cells_per_side = integer();
    else if (flag == "--p")
      o.p = integer();
    else if (flag == "--space")
      o.space = value;
    else if (flag == "--steps")
      o.steps = integer();
    else if (flag == "--T")
      o.final_time = polydg::parse_number(flag, value);
    else if (flag == "--problem")
      o.problem = value;
    else if (flag == "--vtk")
      o.vtk_directory = value;
    else if (flag == "--vtk-every")
      o.vtk_every = integer();
    else if (flag == "--json")
      o.json_path = value;
    else if (flag == "--save-system")
      o.system_path = value;
    else if (flag == "--penalty")
      o.penalty = value;
    else if (flag == "--products")
      o.products = value;
    else if (flag == "--backend")
      o.backend = value;
    else if (!o.take_rank_part_option(flag, value))
      polydg::raise("unknown option '", flag, "' (see --help)");
  }
  polydg::require(o.space == "P" || o.space == "PQ", "--space ", o.space, ": use P or PQ");
  polydg::penalty_scaling_from_name(o.penalty);  // throws for an unknown name
  polydg::require(o.products == "aij" || o.products == "dense_blocks", "--products ", o.products,
                  ": use aij or dense_blocks");
  polydg::require(o.backend == "auto" || o.backend == "cpu" || o.backend == "gpu", "--backend ",
                  o.backend, ": use auto, cpu or gpu");
  polydg::require(o.steps >= 1, "--steps ", o.steps, ": must be at least 1");
  polydg::require(o.final_time > 0, "--T ", o.final_time, ": must be positive");
  polydg::require(o.vtk_every >= 1, "--vtk-every ", o.vtk_every, ": must be at least 1");
  o.check_rank_part_options();
  return o;
}

// ---- the problems: exact solution u(x, y, t), and the spatial data as functions of (x, y, t).
struct HeatSolution {
  double operator()(const polydg::Point<3>& x) const {
    return sin(pi * x[0]) * sin(pi * x[1]) * (1 - x[2]);
  }
};
struct HeatSource {  // u_t − Δu + u
  double operator()(const polydg::Point<3>& x) const {
    const double s = sin(pi * x[0]) * sin(pi * x[1]);
    return -s + (2 * pi * pi + 1) * s * (1 - x[2]);
  }
};
struct Heat {
  static constexpr bool coefficients_depend_on_time = false;
  using Solution = HeatSolution;
  static auto data() {
    return polydg::make_coefficients<2>()
        .with_diffusion(1.0)
        .with_reaction(1.0)
        .with_source(HeatSource{})
        .with_dirichlet(HeatSolution{});
  }
};

inline double varying_diffusion(const polydg::Point<3>& x) {
  return 0.5 * (1 + x[0] * x[0] * x[2]);
}
struct AdvectionDiffusionSolution {
  double operator()(const polydg::Point<3>& x) const {
    return exp(-x[2]) * sin(pi * x[0]) * sin(pi * x[1]) + x[0] * x[2];
  }
};
struct AdvectionDiffusionTensor {
  polydg::Tensor<2> operator()(const polydg::Point<3>& x) const {
    return polydg::Tensor<2>::identity(varying_diffusion(x));
  }
};
struct AdvectionDiffusionSource {  // u_t − ∇·(a∇u) + w·∇u, w = (1, 1/2)
  double operator()(const polydg::Point<3>& x) const {
    const double e = exp(-x[2]), sx = sin(pi * x[0]), sy = sin(pi * x[1]);
    const double cx = cos(pi * x[0]), cy = cos(pi * x[1]);
    const double u_t = -e * sx * sy + x[0];
    const double u_x = pi * e * cx * sy + x[2], u_y = pi * e * sx * cy;
    const double laplacian = -2 * pi * pi * e * sx * sy;
    const double a_x = x[0] * x[2];  // ∂a/∂x; ∂a/∂y = 0
    return u_t - (a_x * u_x + varying_diffusion(x) * laplacian) + 1.0 * u_x + 0.5 * u_y;
  }
};
struct AdvectionDiffusion {
  static constexpr bool coefficients_depend_on_time = true;
  using Solution = AdvectionDiffusionSolution;
  static auto data() {
    return polydg::make_coefficients<2>()
        .with_diffusion(AdvectionDiffusionTensor{})
        .with_advection(polydg::Point<2>{{1.0, 0.5}})
        .with_source(AdvectionDiffusionSource{})
        .with_dirichlet(AdvectionDiffusionSolution{});
  }
};

/// u at t = 0 as a function of the spatial point: the march's initial condition.
template <class Solution>
struct InitialValue {
  double operator()(const polydg::Point<2>& x) const {
    return Solution{}(polydg::Point<3>{{x[0], x[1], 0.0}});
  }
};

// Under mpiexec every rank marches its part: rank 0 alone prints and writes the JSON.
bool printing_rank = true;

template <class... Arguments>
void print(const char* format, Arguments... arguments) {
  if (printing_rank) std::printf(format, arguments...);
}

/// The last step's matrix and rhs into `path`, PETSc's binary format (--save-system).
template <class Solver>
void save_system(const std::string& path, const Solver& solver) {
  PetscViewer viewer = nullptr;
  POLYDG_PETSC_CALL(
      PetscViewerBinaryOpen(PETSC_COMM_WORLD, path.c_str(), FILE_MODE_WRITE, &viewer));
  polydg::petsc::Vector rhs(solver.pattern());
  polydg::petsc::copy_to_vec(solver.rhs(), rhs.vec());
  const PetscErrorCode matrix = MatView(solver.aij_matrix().mat(), viewer);
  const PetscErrorCode vector = matrix == 0 ? VecView(rhs.vec(), viewer) : matrix;
  PetscViewerDestroy(&viewer);
  POLYDG_PETSC_CALL(vector);
  print("wrote the first slab's matrix and rhs to %s\n", path.c_str());
}

/// The whole mesh's polygons and triangles (on a rank part: summed over the ranks' own).
struct MeshCounts {
  long long polygons = 0, triangles = 0;
};

/// Steps 4 and 5, the same for both backends: march, one line per step, then the summary.
/// `spatial` is the whole mesh, or (--read-parts) this rank's part, whose elements' whole-mesh
/// ids are `part_element_ids` (empty for the whole mesh).
template <class Problem, class Solver>
int march(const Options& o, const polydg::PolytopicMesh<2>& spatial, const MeshCounts& counts,
          std::span<const polydg::Index> part_element_ids, Solver& solver,
          const polydg::SlabSolverOptions& options, const char* backend,
          std::chrono::steady_clock::time_point start) {
  const double setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The unknowns of the whole slab: on several ranks the sum of each rank's own.
  double owned = double(solver.pattern().dof_count());
  if constexpr (requires { solver.owned_dofs(); }) owned = double(solver.owned_dofs());
  const long long dofs = (long long)polydg::petsc::sum_over_ranks(owned);
  print(
      "%s: %lld polygons (%lld triangles), %s_%d on slabs: %lld DoFs per slab, assembly on the "
      "%s, set-up %.2f s\n",
      o.problem.c_str(), counts.polygons, counts.triangles, o.space.c_str(), o.p, dofs, backend,
      setup_seconds);
  // --vtk: rank 0 alone creates the folder and writes the series (heat.pvd); every rank writes
  // its piece of each .pvtu (polydg/petsc/solution_pvtu.hpp). A failure on any rank throws on
  // all of them (petsc::on_every_rank), so none waits for a rank that gave up.
  const bool root = polydg::petsc::world_rank() == 0;
  const bool distributed = polydg::petsc::world_rank_count() > 1 || !part_element_ids.empty();
  std::unique_ptr<polydg::PvdWriter> pvd;
  if (!o.vtk_directory.empty()) {
    polydg::petsc::on_every_rank([&] {
      if (!root) return;
      std::error_code error;
      std::filesystem::create_directories(o.vtk_directory, error);
      polydg::require(!error, "--vtk: cannot create the folder '", o.vtk_directory,
                      "': ", error.message());
    });
    pvd = std::make_unique<polydg::PvdWriter>(std::filesystem::path(o.vtk_directory) / "heat.pvd");
  }

  // 4. March: one line per step.
  print("%5s %9s %11s %9s %6s %10s %12s\n", "step", "t", "assembly_s", "solve_s", "its", "matrix",
        "L2 error(t)");
  std::vector<polydg::SlabStep> steps;
  double l2l2_squared = 0, top_squared = 0;
  for (int n = 1; n <= o.steps; ++n) {
    const polydg::SlabStep step = solver.step(o.final_time * n / o.steps);
    // On several ranks each sums its own elements (compute_slab_errors): add the squares.
    polydg::SlabErrors errors =
        polydg::compute_slab_errors(solver.assembler().quadrature_mesh(), solver.pattern(),
                                    solver.solution(), typename Problem::Solution{});
    errors.slab_l2_squared = polydg::petsc::sum_over_ranks(errors.slab_l2_squared);
    errors.top_l2_squared = polydg::petsc::sum_over_ranks(errors.top_l2_squared);
    l2l2_squared += errors.slab_l2_squared;
    top_squared = errors.top_l2_squared;
    print("%5d %9.4f %11.4f %9.4f %6d %10s %12.4e\n", n, step.t_end, step.assembly_seconds,
          step.solve_seconds, int(step.iterations), step.matrix_assembled ? "assembled" : "reused",
          std::sqrt(errors.top_l2_squared));
    std::fflush(stdout);
    steps.push_back(step);
    if (n == 1 && !o.system_path.empty()) save_system(o.system_path, solver);
    if (pvd && (n % o.vtk_every == 0 || n == o.steps)) {
      const auto file = std::filesystem::path(o.vtk_directory) /
                        ("heat_" + std::to_string(n) + (distributed ? ".pvtu" : ".vtu"));
      if (distributed) {
        // This rank's elements, the first block rows of its slab pattern: its partition's of
        // the whole mesh, or its part's first ones, written with their whole-mesh ids.
        std::vector<polydg::Index> elements;
        polydg::SolutionVtuOptions<2> vtu;
        if (part_element_ids.empty()) {
          const auto mine = solver.partition()->owned_elements(polydg::petsc::world_rank());
          elements.assign(mine.begin(), mine.end());
        } else {
          elements.resize(std::size_t(solver.rank_rows().owned_block_rows()));
          std::iota(elements.begin(), elements.end(), polydg::Index(0));
          vtu.element_ids = part_element_ids;
        }
        polydg::petsc::write_solution_pvtu(
            file, spatial, elements,
            polydg::top_trace(spatial, solver.pattern(), solver.solution(), elements,
                              options.assembly.space),
            vtu);
      } else {
        polydg::write_solution_vtu(file, spatial,
                                   polydg::top_trace(spatial, solver.pattern(), solver.solution(),
                                                     options.assembly.space));
      }
      polydg::petsc::on_every_rank([&] {
        if (root) pvd->add(step.t_end, file);
      });
    }
  }

  // 5. Summary.
  const double l2_error_T = std::sqrt(top_squared), l2l2_error = std::sqrt(l2l2_squared);
  print(
      "\nerrors: L2 at T = %.4g: %.4e   L2(0,T; L2): %.4e   (%lld DoFs per slab, %d "
      "steps)\n",
      o.final_time, l2_error_T, l2l2_error, dofs, o.steps);
  if (pvd) print("wrote %s\n", pvd->path().string().c_str());
  if (!o.json_path.empty() && printing_rank) {
    std::ofstream json(o.json_path);
    polydg::require(bool(json), "cannot write ", o.json_path);
    json.precision(17);
    json << "{\"steps\": [";
    for (std::size_t i = 0; i < steps.size(); ++i)
      json << (i ? ",\n  " : "\n  ") << "{\"n\": " << steps[i].n << ", \"t\": " << steps[i].t_end
           << ", \"assembly_s\": " << steps[i].assembly_seconds
           << ", \"solve_s\": " << steps[i].solve_seconds
           << ", \"ksp_its\": " << steps[i].iterations
           << ", \"matrix_assembled\": " << (steps[i].matrix_assembled ? "true" : "false") << "}";
    json << "\n], \"l2_error_T\": " << l2_error_T << ", \"l2l2_error\": " << l2l2_error
         << ", \"dofs\": " << dofs << ", \"elements\": " << counts.polygons << ", \"backend\": \""
         << backend << "\"}\n";
  }
  return 0;
}

/// Step 1's mesh: the Gmsh file or the oscillating-boundary domain.
std::shared_ptr<const polydg::SimplexMesh<2>> fine_mesh(const Options& o) {
  polydg::OscillatingDomain domain;
  domain.cells_per_side = o.cells_per_side;
  domain.wiggles_per_side = std::max(1, std::min(16, o.cells_per_side / 5));
  return std::make_shared<const polydg::SimplexMesh<2>>(
      o.mesh_file.empty() ? polydg::oscillating_domain_mesh(domain)
                          : polydg::read_gmsh<2>(o.mesh_file));
}

/// What rank parts written by --write-parts say they are, checked by --read-parts.
std::string parts_description(const Options& o) {
  return "heat " +
         (o.mesh_file.empty() ? "--cells-per-side " + std::to_string(o.cells_per_side)
                              : "--mesh " + o.mesh_file) +
         " --elements " + std::to_string(o.elements);
}

/// Step 2: the fine mesh agglomerated into o.elements polygons (their element of each cell).
std::vector<polydg::Index> agglomerated(const Options& o, const polydg::SimplexMesh<2>& fine) {
  const polydg::Index elements = std::min<polydg::Index>(o.elements, fine.cell_count());
  if (elements < o.elements)  // a polygon needs at least one fine triangle
    std::cerr << "heat: warning: --elements " << o.elements << " is more than the mesh's "
              << fine.cell_count() << " triangles; using " << elements << " (no agglomeration)\n";
  return polydg::agglomerate(fine, elements).element_of_cell;
}

/// --write-parts: the polygons partitioned for --ranks ranks and written as rank part files.
int write_parts(const Options& o) {
  const auto fine = fine_mesh(o);
  const std::vector<polydg::Index> element_of_cell = agglomerated(o, *fine);
  const polydg::PolytopicMesh<2> spatial(fine, element_of_cell, o.p);
  const polydg::MeshPartition partition = polydg::partition_mesh(spatial, o.write_parts_ranks);
  const int cut_tag = polydg::unused_boundary_tag(*fine);
  polydg::write_rank_parts<2>(o.write_parts, *fine, element_of_cell, partition, cut_tag,
                              parts_description(o));
  print("%s: %d polygons (%d triangles) in %d rank parts written to %s\n",
        parts_description(o).c_str(), int(spatial.element_count()), int(fine->cell_count()),
        o.write_parts_ranks, o.write_parts.c_str());
  return 0;
}

/// --read-parts: this rank's part of the polygons, read from its file, its halo and its
/// polygons of degree --p, for SlabSolver's and DeviceSlabSolver's SpatialPart constructors.
struct PartOfMesh {
  polydg::RankPart<2> part;
  std::unique_ptr<polydg::hyperbolic::ElementHalo> halo;
  std::unique_ptr<polydg::PolytopicMesh<2>> mesh;
  MeshCounts counts;
  polydg::SpatialPart spatial() const {
    return {*mesh, part.submesh.owned_count, part.cut_tag, *halo};
  }
};

PartOfMesh read_part(const Options& o) {
  PartOfMesh r;
  r.part = polydg::examples::read_this_ranks_part(o.read_parts, parts_description(o));
  r.halo = std::make_unique<polydg::hyperbolic::ElementHalo>(r.part.halo);
  r.mesh = std::make_unique<polydg::PolytopicMesh<2>>(r.part.submesh.mesh,
                                                      r.part.submesh.element_of_cell, o.p);
  double owned_cells = 0;
  for (const polydg::Index k : r.part.submesh.element_of_cell)
    owned_cells += k < r.part.submesh.owned_count;
  r.counts = {r.part.element_count, (long long)polydg::petsc::sum_over_ranks(owned_cells)};
  return r;
}

template <class Problem>
int run(const Options& o) {
  // 1.-2. The spatial polygons: the whole mesh's, or (--read-parts) this rank's part.
  std::shared_ptr<const polydg::SimplexMesh<2>> fine;
  std::unique_ptr<polydg::PolytopicMesh<2>> whole;
  PartOfMesh part;
  MeshCounts counts;
  if (o.read_parts.empty()) {
    fine = fine_mesh(o);
    whole = std::make_unique<polydg::PolytopicMesh<2>>(fine, agglomerated(o, *fine), o.p);
    counts = {whole->element_count(), fine->cell_count()};
  } else {
    part = read_part(o);
    counts = part.counts;
  }
  const polydg::PolytopicMesh<2>& spatial = whole ? *whole : *part.mesh;
  const std::span<const polydg::Index> part_ids =
      whole ? std::span<const polydg::Index>()
            : std::span<const polydg::Index>(part.part.submesh.element);

  // 3. The slab solver: pattern, quadrature mesh, PETSc matrix and KSP, once.
  const auto start = std::chrono::steady_clock::now();
  polydg::SlabSolverOptions options;
  options.coefficients_depend_on_time = Problem::coefficients_depend_on_time;
  options.products =
      o.products == "dense_blocks" ? polydg::SlabProducts::dense_blocks : polydg::SlabProducts::aij;
  options.assembly.penalty_scaling = polydg::penalty_scaling_from_name(o.penalty);
  options.assembly.space = o.space == "PQ" ? polydg::BasisSpace::total_degree_times_last
                                           : polydg::BasisSpace::total_degree;
  const auto data = polydg::space_time_coefficients(Problem::data());
  using Initial = InitialValue<typename Problem::Solution>;
  // Several ranks: each marches its part of the slab (one GPU each where there are GPUs);
  // no saved system yet.
  polydg::require(polydg::petsc::world_rank_count() == 1 || o.system_path.empty(),
                  "under mpiexec (", polydg::petsc::world_rank_count(),
                  " ranks) heat writes no saved system yet: drop --save-system, or run on one "
                  "rank");
  const auto conditions = polydg::BoundaryConditions::all_dirichlet();
  const bool gpu =
      o.backend == "gpu" || (o.backend == "auto" && polydg::device::device_count() > 0);
#if POLYDG_CUDA
  if (gpu) {
    polydg::require(polydg::device::device_count() > 0,
                    "--backend gpu: no CUDA device is visible to this process");
    using DeviceSolver = polydg::DeviceSlabSolver<decltype(data), Initial>;
    DeviceSolver solver = whole ? DeviceSolver(spatial, conditions, data, options)
                                : DeviceSolver(part.spatial(), conditions, data, options);
    solver.set_initial_condition(Initial{}, 0.0);
    return march<Problem>(o, spatial, counts, part_ids, solver, options, "GPU", start);
  }
#else
  polydg::require(
      !gpu || o.backend == "auto",
      "--backend gpu: this heat was built without the CUDA backend (no nvcc was found)");
#endif
  using Solver = polydg::SlabSolver<decltype(data)>;
  Solver solver = whole ? Solver(spatial, conditions, data, options)
                        : Solver(part.spatial(), conditions, data, options);
  solver.set_initial_condition(Initial{}, 0.0);
  return march<Problem>(o, spatial, counts, part_ids, solver, options, "CPU", start);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    // 1. PETSc, our options, the fine mesh.
    polydg::petsc::Session session(argc, argv);
    const Options o = parse_options(argc, argv);
    printing_rank = polydg::petsc::world_rank() == 0;
    if (!o.write_parts.empty()) return write_parts(o);
    polydg::examples::default_to_direct_solver_unless_chosen();
    if (o.problem == "heat") return run<Heat>(o);
    if (o.problem == "advection_diffusion") return run<AdvectionDiffusion>(o);
    polydg::raise("unknown problem '", o.problem, "' (see --help)");
  } catch (const polydg::Error& error) {
    std::cerr << "heat: " << error.what() << '\n';
    return 1;
  }
}
