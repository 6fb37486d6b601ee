// A steady advection–diffusion–reaction problem on polygons, from mesh to error norms: the
// program to copy when you start with libpolydg (docs/user-guide.md, "A first steady program"
// walks through it).
//
//   −∇·(A∇u) + b·∇u + c u = f in Ω,  u = g on ∂Ω,
//
// with an anisotropic, variable A and the exact solution u = sin(πx) sin(πy) + x y, so the
// errors can be printed. Ω is the unit square (default) or your Gmsh mesh (--mesh), all of
// whose boundary tags get the Dirichlet data.
//
//   poisson [--mesh FILE.msh | --cells-per-side N] [--elements N] [--p P] [--vtu FILE]
//           [PETSc options: -ksp_type, -pc_type, -ksp_rtol, -ksp_monitor, -ksp_view, ...]
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/error_norms.hpp"
#include "polydg/io/solution_vtu.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/session.hpp"

namespace {

using polydg::Point;
using polydg::Tensor;
constexpr double pi = std::numbers::pi;

// ---- the problem: coefficients and the exact solution ----------------------------------------
Tensor<2> diffusion(const Point<2>& x) {  // symmetric positive definite everywhere
  return {{{1 + x[0] * x[0], 0.5 * x[0] * x[1]}, {0.5 * x[0] * x[1], 1 + x[1] * x[1]}}};
}
Point<2> advection(const Point<2>& x) { return {{1.0, 0.5 * x[0]}}; }
double reaction(const Point<2>&) { return 1.0; }

double exact(const Point<2>& x) { return std::sin(pi * x[0]) * std::sin(pi * x[1]) + x[0] * x[1]; }
Point<2> exact_gradient(const Point<2>& x) {
  return {{pi * std::cos(pi * x[0]) * std::sin(pi * x[1]) + x[1],
           pi * std::sin(pi * x[0]) * std::cos(pi * x[1]) + x[0]}};
}
// f = −∇·(A∇u) + b·∇u + c u, with ∇·(A∇u) = Σ_ij (∂_i A_ij ∂_j u + A_ij ∂_ij u).
double source(const Point<2>& x) {
  const double sx = std::sin(pi * x[0]), cx = std::cos(pi * x[0]);
  const double sy = std::sin(pi * x[1]), cy = std::cos(pi * x[1]);
  const double hessian[2][2] = {{-pi * pi * sx * sy, pi * pi * cx * cy + 1},
                                {pi * pi * cx * cy + 1, -pi * pi * sx * sy}};
  // (Σ_i ∂_i A_i1, Σ_i ∂_i A_i2) for the A above: (2x + 0.5x, 0.5y + 2y).
  const Point<2> divergence_a{{2.5 * x[0], 2.5 * x[1]}};
  const Tensor<2> a = diffusion(x);
  const Point<2> grad = exact_gradient(x);
  double div_a_grad = divergence_a[0] * grad[0] + divergence_a[1] * grad[1];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) div_a_grad += a[i][j] * hessian[i][j];
  return -div_a_grad + polydg::dot(advection(x), grad) + reaction(x) * exact(x);
}

struct Options {
  std::string mesh;  // empty: the unit square
  int cells_per_side = 64;
  int elements = 500;
  int p = 2;
  std::string vtu;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::printf(
          "Usage: poisson [options] [PETSc options]\n"
          "  --mesh FILE.msh       a 2D Gmsh mesh (all boundary tags Dirichlet); default: the\n"
          "                        perturbed unit square\n"
          "  --cells-per-side N    the unit square's N x N x 2 triangles (default 64)\n"
          "  --elements N          polygons to agglomerate into (default 500)\n"
          "  --p P                 polynomial degree (default 2)\n"
          "  --vtu FILE            write the solution and its error (VTU)\n"
          "PETSc options (-ksp_type, -pc_type, -ksp_rtol, -ksp_monitor, -ksp_view) choose the\n"
          "solver; see the user guide for the defaults.\n");
      std::exit(0);
    }
    if (flag.rfind("-", 0) == 0 && flag.rfind("--", 0) != 0) {  // a PETSc option
      if (i + 1 < argc && argv[i + 1][0] != '-') ++i;
      continue;
    }
    polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
    const std::string value = argv[++i];
    if (flag == "--mesh")
      o.mesh = value;
    else if (flag == "--cells-per-side")
      o.cells_per_side = polydg::parse_integer(flag, value);
    else if (flag == "--elements")
      o.elements = polydg::parse_integer(flag, value);
    else if (flag == "--p")
      o.p = polydg::parse_integer(flag, value);
    else if (flag == "--vtu")
      o.vtu = value;
    else
      polydg::raise("unknown option '", flag, "' (see --help)");
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) try {
  polydg::petsc::Session session(argc, argv);  // PETSc, MPI and the options database
  const Options o = parse(argc, argv);

  // 1. The fine triangle mesh, then polygons: METIS groups its triangles into o.elements parts.
  const auto fine = std::make_shared<const polydg::SimplexMesh<2>>(
      o.mesh.empty() ? polydg::unit_square_mesh(o.cells_per_side, 0.2)
                     : polydg::read_gmsh<2>(o.mesh));
  const polydg::Agglomeration parts = polydg::agglomerate(*fine, o.elements);
  const polydg::PolytopicMesh<2> mesh(fine, parts.element_of_cell, o.p);

  // 2. The data: callables of x (lambdas, functions or polydg::Constant).
  const auto data = polydg::make_coefficients<2>()
                        .with_diffusion(diffusion)
                        .with_advection(advection)
                        .with_reaction(reaction)
                        .with_source(source)
                        .with_dirichlet(exact);

  // 3. Assembly: the Assembler builds the block pattern and quadrature mesh once; assemble()
  //    fills the values (call it again with new data: values only, no allocation).
  polydg::Assembler<2> assembler(mesh, polydg::BoundaryConditions::all_dirichlet());
  polydg::BlockMatrix<double> matrix = assembler.make_matrix();
  std::vector<double> rhs = assembler.make_vector();
  assembler.assemble(data, matrix, rhs);

  // 4. Solve with PETSc: the AIJ export, and a KSP configured from the options database.
  polydg::petsc::AijMatrix aij(*assembler.pattern());
  aij.update(matrix);
  polydg::petsc::Vector b(*assembler.pattern()), x(*assembler.pattern());
  polydg::petsc::copy_to_vec(rhs, b.vec());
  polydg::petsc::LinearSolver solver(aij.mat());
  const polydg::petsc::SolveResult result = solver.solve(b.vec(), x.vec());

  // 5. Back to the library's layout (one block of coefficients per element), then the errors
  //    with the assembler's own penalty in the DG norm.
  std::vector<double> solution = assembler.make_vector();
  polydg::petsc::copy_from_vec(x.vec(), solution);
  const polydg::ErrorNorms errors = polydg::compute_error_norms(
      assembler.quadrature_mesh(), data, std::span<const double>(solution), exact, exact_gradient,
      polydg::error_norm_options(assembler.options()));

  KSPType ksp_type;
  PCType pc_type;
  PC pc;
  KSPGetType(solver.ksp(), &ksp_type);
  KSPGetPC(solver.ksp(), &pc);
  PCGetType(pc, &pc_type);
  std::cout << (o.mesh.empty() ? "unit square" : o.mesh) << ": " << fine->cell_count()
            << " triangles, " << mesh.element_count() << " polygons, p = " << o.p << ", "
            << assembler.pattern()->dof_count() << " DoFs\n"
            << "solver: " << ksp_type << " + " << pc_type << ", " << result.iterations
            << " iterations, " << result.reason_text << "\n"
            << "errors: L2 " << errors.l2 << ", H1 seminorm " << errors.h1_seminorm << ", DG "
            << errors.dg << "\n";

  // 6. The solution (and its error against u) on the polygons, for ParaView.
  if (!o.vtu.empty()) {
    polydg::SolutionVtuOptions vtu_options;
    vtu_options.exact_solution = exact;
    polydg::write_solution_vtu(o.vtu, mesh, solution, vtu_options);
    std::cout << "wrote " << o.vtu << "\n";
  }
  return 0;
} catch (const polydg::Error& error) {
  std::cerr << "poisson: " << error.what() << "\n";
  return 1;
}
