#pragma once
/// SlabSolver: marches a parabolic problem (SPEC §5) slab by slab, I_n = (t_{n−1}, t_n].
///
/// Built once: the slab mesh (κ × [0, 1] for every spatial element κ), the Assembler (its
/// QuadratureMesh, BlockPattern and scratch), the PETSc AIJ matrix (preallocated once), the
/// vectors and the KSP (configured from the options database). Each step() maps the slab onto
/// the next interval (geometry only), re-assembles the rhs — and the matrix only when the
/// coefficients depend on time or the time step changed —, adds the coupling term
/// (U⁻_{n−1}, W⁺_{n−1})_D from the previous slab's solution (u_0 on the first), and solves
/// with the previous slab's solution as the initial guess.
///
///   auto data = polydg::space_time_coefficients(spatial_data);      // see that header
///   polydg::SlabSolver solver(spatial_mesh, conditions, data);
///   solver.set_initial_condition([](const polydg::Point<2>& x) { return u0(x); }, 0.0);
///   for (int n = 1; n <= steps; ++n) solver.step(n * tau);
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_mesh.hpp"

namespace polydg {

struct SlabSolverOptions {
  /// False when A, b and c do not depend on t: then the matrix of a step with the same time
  /// step as the previous one is reused (f and g_D may still depend on t).
  bool coefficients_depend_on_time = true;
  /// Degree of every space-time element; 0 takes the spatial mesh's degrees.
  int degree = 0;
  AssemblyOptions assembly = slab_assembly_options();
  /// KSP options prefix etc.; the previous slab's solution is always the initial guess.
  petsc::SolverOptions solver;
};

/// What one step did and cost.
struct SlabStep {
  int n = 0;
  double t_begin = 0, t_end = 0;
  double assembly_seconds = 0;  ///< rhs (+ matrix and its PETSc update when re-assembled)
  double solve_seconds = 0;
  PetscInt iterations = 0;
  bool matrix_assembled = false;
};

/// The spatial conditions plus the slab's bottom (previous_slab: inflow data from the previous
/// slab) and top (outflow: b·n = 1, nᵀAn = 0, so no term; any kind will do).
inline BoundaryConditions slab_boundary_conditions(BoundaryConditions conditions) {
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  return conditions;
}

template <class Coefficients>
class SlabSolver {
 public:
  SlabSolver(const PolytopicMesh<2>& spatial, const BoundaryConditions& spatial_conditions,
             Coefficients coefficients, const SlabSolverOptions& options = {})
      : coefficients_(coefficients),
        options_(options),
        slab_(options.degree > 0 ? make_slab_mesh(spatial, options.degree)
                                 : make_slab_mesh(spatial)),
        assembler_(slab_, slab_boundary_conditions(spatial_conditions), options.assembly),
        matrix_(assembler_.make_matrix()),
        rhs_(assembler_.make_vector()),
        solution_(assembler_.make_vector()),
        previous_(assembler_.make_vector()),
        aij_(*assembler_.pattern()),
        b_(*assembler_.pattern()),
        x_(*assembler_.pattern()) {
    petsc::SolverOptions solver_options = options.solver;
    solver_options.nonzero_initial_guess = true;
    solver_.emplace(aij_.mat(), solver_options);
    // A direct solve (-ksp_type preonly) takes no initial guess; PETSc refuses one.
    KSPType type = nullptr;
    POLYDG_PETSC_CALL(KSPGetType(solver_->ksp(), &type));
    if (type && std::string(type) == KSPPREONLY)
      POLYDG_PETSC_CALL(KSPSetInitialGuessNonzero(solver_->ksp(), PETSC_FALSE));
  }

  /// u_0 as a function of the spatial point; the march starts at t0.
  void set_initial_condition(std::function<double(const Point<2>&)> initial, double t0 = 0) {
    initial_ = std::move(initial);
    time_ = t0;
    step_count_ = 0;
  }

  /// Solves the slab (time(), t_end].
  SlabStep step(double t_end) {
    require(bool(initial_), "SlabSolver::step: no initial condition (set_initial_condition)");
    require(t_end > time_, "SlabSolver::step: t_end = ", t_end, " is not after t = ", time_);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    SlabStep result;
    result.n = ++step_count_;
    result.t_begin = time_;
    result.t_end = t_end;
    const double tau = t_end - time_;
    previous_box_begin_ = mapped_begin_;
    previous_box_end_ = mapped_end_;
    assembler_.map_last_coordinate(mapped_begin_, mapped_end_, time_, t_end);
    mapped_begin_ = time_;
    mapped_end_ = t_end;

    // Steps computed as t_n = n·T/N differ by a few ulps; that is the same time step.
    const bool same_step = std::abs(tau - last_tau_) <= 1e-12 * tau;
    result.matrix_assembled =
        step_count_ == 1 || options_.coefficients_depend_on_time || !same_step;
    if (result.matrix_assembled) {
      assembler_.assemble(coefficients_, matrix_, rhs_);
      aij_.update(matrix_);
    } else {
      assembler_.assemble_rhs(coefficients_, rhs_);
    }
    if (result.matrix_assembled) last_tau_ = tau;
    add_coupling_term(step_count_ == 1);
    petsc::copy_to_vec(rhs_, b_.vec());
    const auto assembled = Clock::now();
    const petsc::SolveResult solve = solver_->solve(b_.vec(), x_.vec());
    petsc::copy_from_vec(x_.vec(), solution_);
    result.assembly_seconds = std::chrono::duration<double>(assembled - start).count();
    result.solve_seconds = std::chrono::duration<double>(Clock::now() - assembled).count();
    result.iterations = solve.iterations;
    std::copy(solution_.begin(), solution_.end(), previous_.begin());
    time_ = t_end;
    return result;
  }

  double time() const { return time_; }
  /// The coefficients of the last slab's solution (pattern layout of assembler()).
  std::span<const double> solution() const { return previous_; }
  const PolytopicMesh<3>& slab_mesh() const { return slab_; }
  const Assembler<3>& assembler() const { return assembler_; }
  const BlockMatrix<double>& matrix() const { return matrix_; }
  std::span<const double> rhs() const { return rhs_; }
  const Coefficients& coefficients() const { return coefficients_; }

 private:
  // (U⁻_{n−1}, W⁺_{n−1})_D: u_0 on the first slab, else the previous slab's solution on the
  // same element, evaluated on its own box B_κ × I_{n−1} at the bottom point.
  void add_coupling_term(bool first) {
    const QuadratureMesh<3>& mesh = assembler_.quadrature_mesh();
    const BlockPattern& pattern = *assembler_.pattern();
    if (first) {
      assembler_.add_previous_slab_term(
          [this](Index, const Point<3>& x) {
            return initial_(Point<2>{{x[0], x[1]}});
          },
          rhs_);
      return;
    }
    assembler_.add_previous_slab_term(
        [&](Index e, const Point<3>& x) {
          Box<3> box = mesh.element_boxes[e];
          box.lower[2] = previous_box_begin_;
          box.upper[2] = previous_box_end_;
          return evaluate_dg_function<3>(mesh.space, mesh.element_degrees[e], box,
                                         previous_.data() + pattern.dof_offset(e), x);
        },
        rhs_);
  }

  Coefficients coefficients_;
  SlabSolverOptions options_;
  PolytopicMesh<3> slab_;
  Assembler<3> assembler_;
  BlockMatrix<double> matrix_;
  std::vector<double> rhs_, solution_, previous_;
  petsc::AijMatrix aij_;
  petsc::Vector b_, x_;
  std::optional<petsc::LinearSolver> solver_;
  std::function<double(const Point<2>&)> initial_;
  double time_ = 0, last_tau_ = 0;
  double mapped_begin_ = 0, mapped_end_ = 1;  // the interval the quadrature mesh is on now
  double previous_box_begin_ = 0, previous_box_end_ = 1;
  int step_count_ = 0;
};

}  // namespace polydg
