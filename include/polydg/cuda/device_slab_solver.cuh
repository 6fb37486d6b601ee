#pragma once
/// DeviceSlabSolver: SlabSolver's march (polydg/spacetime/slab_solver.hpp) with every assembly
/// on the GPU. The slab's geometry is uploaded once and mapped onto each new interval on the
/// device; the matrix (when a step needs it) and the rhs are assembled there, the coupling term
/// too — from u_0, or from the previous slab's solution, which stays on the device between
/// steps. The values go to PETSc's AIJ matrix from device memory (AijMatrix::update_from_device:
/// in place for a device Mat type, -mat_type aijcusparse with a PETSc built with CUDA; one
/// staged copy otherwise), the rhs in one copy, and the KSP solves as SlabSolver's, configured
/// from the options database. With SlabSolverOptions::products = SlabProducts::dense_blocks the
/// KSP's products run on the GPU: a MATSHELL over a DeviceDenseBlockMatrix, whose values are
/// refreshed on the device from the assembler's after each matrix assembly (one pass); the AIJ
/// matrix builds the preconditioner.
///
///   auto data = polydg::space_time_coefficients(spatial_data);   // __host__ __device__ callables
///   polydg::DeviceSlabSolver solver(spatial_mesh, conditions, data);
///   solver.set_initial_condition(U0{}, 0.0);       // U0: double(const Point<2>&), device-callable
///   for (int n = 1; n <= steps; ++n) solver.step(n * tau);
///
/// In a .cu file compiled with --extended-lambda (as DeviceAssembler). The steps' results agree
/// with SlabSolver's to the solver's tolerance (the two assemblies agree to ~1e-15).
#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <vector>

#include "polydg/cuda/device_assembler.cuh"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/device_dense_block_operator.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/spacetime/slab_march.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_shell_products.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"

namespace polydg {
namespace device::detail {

/// The coupling term's data on the first slab: u_0 at the bottom point's spatial coordinates.
template <class Initial>
struct InitialTrace {
  Initial initial;
  __device__ double operator()(Index, const Point<3>& x) const {
    return initial(Point<2>{{x[0], x[1]}});
  }
};

/// The coupling term's data after: the previous slab's solution on the same element, evaluated
/// on its own box (the element's spatial box × the previous interval) at the bottom point.
struct PreviousSlabTrace {
  DeviceQuadratureMeshView<3> mesh;
  const GlobalIndex* dof_offsets;  ///< the pattern's, device memory
  const double* coefficients;      ///< the previous solution, device memory
  double begin, end;               ///< the previous slab's interval
  __device__ double operator()(Index e, const Point<3>& x) const {
    Box<3> box = mesh.boxes[e];
    box.lower[2] = begin;
    box.upper[2] = end;
    return evaluate_dg_function<3>(mesh.space, mesh.degrees[e], box, coefficients + dof_offsets[e],
                                   x);
  }
};

}  // namespace device::detail

template <class Coefficients, class Initial>
class DeviceSlabSolver {
 public:
  DeviceSlabSolver(const PolytopicMesh<2>& spatial, const BoundaryConditions& spatial_conditions,
                   Coefficients coefficients, const SlabSolverOptions& options = {},
                   const DeviceAssemblyOptions& device_options = {})
      : coefficients_(coefficients),
        options_(options),
        slab_(options.degree > 0 ? make_slab_mesh(spatial, options.degree)
                                 : make_slab_mesh(spatial)),
        assembler_(slab_, slab_boundary_conditions(spatial_conditions), options.assembly,
                   device_options),
        rhs_(std::size_t(assembler_.pattern().dof_count())),
        solution_(rhs_.size()),
        previous_(rhs_.size()),
        aij_(*assembler_.host_pattern()),
        b_(*assembler_.host_pattern()),
        x_(*assembler_.host_pattern()) {
    // The dense blocks' layout from the pattern (zero values until the first step's assembly).
    if (options.products == SlabProducts::dense_blocks)
      shell_.emplace(DenseBlockMatrix<double>(assembler_.make_host_matrix()),
                     options.solver.options_prefix, assembler_.host_pattern());
    make_slab_linear_solver(solver_, shell_ ? shell_->mat() : aij_.mat(), aij_.mat(),
                            options.solver);
  }

  /// u_0 as a device-callable function of the spatial point; the march starts at t0.
  void set_initial_condition(Initial initial, double t0 = 0) {
    initial_.emplace(initial);
    march_.start(t0);
  }

  /// Solves the slab (time(), t_end].
  SlabStep step(double t_end) {
    require(initial_.has_value(),
            "DeviceSlabSolver::step: no initial condition (set_initial_condition)");
    const auto start = std::chrono::steady_clock::now();
    const SlabMarch::Step step = march_.next(t_end, options_.coefficients_depend_on_time);
    assembler_.map_last_coordinate(step.from_begin, step.from_end, step.t_begin, step.t_end);
    if (step.assemble_matrix)
      assembler_.assemble(coefficients_);
    else
      assembler_.assemble_rhs(coefficients_);
    if (step.first)
      assembler_.add_previous_slab_term(device::detail::InitialTrace<Initial>{*initial_});
    else
      assembler_.add_previous_slab_term(device::detail::PreviousSlabTrace{
          assembler_.device_mesh().view(), assembler_.pattern().view().dof_offsets,
          previous_.data(), march_.previous_begin(), march_.previous_end()});
    if (step.assemble_matrix) {
      aij_.update_from_device(assembler_.values());
      if (shell_) shell_->update_values(assembler_.values());
    }
    assembler_.copy_rhs_to_host(rhs_);
    const SlabStep result = solve_slab_step(step, start, rhs_, b_, x_, *solver_, solution_);
    previous_.assign(std::span<const double>(solution_));
    march_.finish(step);
    return result;
  }

  double time() const { return march_.time(); }
  /// The coefficients of the last slab's solution (pattern layout of assembler()).
  std::span<const double> solution() const { return solution_; }
  /// The slab's pattern, its host copy: solution()'s layout (as SlabSolver::pattern()).
  const BlockPattern& pattern() const { return *assembler_.host_pattern(); }
  const PolytopicMesh<3>& slab_mesh() const { return slab_; }
  /// The device assembler; its quadrature_mesh() and host_pattern() are the host copies (e.g.
  /// for compute_slab_errors).
  const DeviceAssembler<3>& assembler() const { return assembler_; }
  /// The PETSc matrix of the last assembly (its values are also assembler().values()).
  const petsc::AijMatrix& aij_matrix() const { return aij_; }
  std::span<const double> rhs() const { return rhs_; }
  const Coefficients& coefficients() const { return coefficients_; }

 private:
  Coefficients coefficients_;
  SlabSolverOptions options_;
  PolytopicMesh<3> slab_;
  DeviceAssembler<3> assembler_;
  std::vector<double> rhs_, solution_;
  device::DeviceBuffer<double> previous_;
  petsc::AijMatrix aij_;
  // SlabProducts::dense_blocks: the KSP's operator. Declared before solver_, so its KSP, which
  // holds the shell's Mat, is destroyed before the operator the Mat calls.
  std::optional<SlabShellProducts<DeviceDenseBlockMatrix<double>, petsc::DeviceDenseBlockOperator>>
      shell_;
  petsc::Vector b_, x_;
  std::optional<petsc::LinearSolver> solver_;
  std::optional<Initial> initial_;
  SlabMarch march_;
};

}  // namespace polydg
