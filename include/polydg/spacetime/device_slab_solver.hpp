#pragma once
/// DeviceSlabSolver: SlabSolver's march (polydg/spacetime/slab_solver.hpp) with every assembly
/// on the GPU. The slab's geometry is uploaded once and mapped onto each new interval on the
/// device; the matrix (when a step needs it) and the rhs are assembled there, the coupling term
/// too — from u_0, or from the previous slab's solution, which stays on the device between
/// steps. The values go to PETSc's AIJ matrix from device memory (AijMatrix::update_from_device),
/// the rhs in one copy, and the KSP solves as SlabSolver's, configured from the options
/// database. With SlabSolverOptions::products = SlabProducts::dense_blocks the KSP's products
/// run on the GPU: a MATSHELL over a DeviceDenseBlockMatrix refreshed on the device after each
/// matrix assembly; the AIJ matrix builds the preconditioner.
///
/// Where PETSc has CUDA (polydg/petsc/placement.hpp) the whole step stays on the GPU: the
/// Vecs are VECCUDA and the AIJ matrix MATAIJCUSPARSE, the rhs goes from the assembler into the
/// Vec's device array and the solution back to the next slab's coupling term device to device,
/// the matrix values go in with MatSetValuesCOO() from device memory, and the shell uses the
/// Vecs' device arrays in place. -[prefix]vec_type and -[prefix]mat_type (prefix:
/// options.solver.options_prefix) choose other types, e.g. standard and aij for host Vecs and
/// a host preconditioner. With Debian's PETSc (no CUDA) the Vecs and the matrix are on the host.
/// -[prefix]pc_type mg builds the slab's agglomeration hierarchy (slab_hierarchy_options()) with
/// its coarse levels assembled on the GPU as the fine one (DeviceSlabLevelOperators).
///
///   auto data = polydg::space_time_coefficients(spatial_data);
///   polydg::DeviceSlabSolver solver(spatial_mesh, conditions, data);
///   solver.set_initial_condition(U0{}, 0.0);       // U0: double(const Point<2>&)
///   for (int n = 1; n <= steps; ++n) solver.step(n * tau);
///
/// Where the data is evaluated (SlabData):
///   * host (default; plain C++, no nvcc): each step evaluates the spatial data on the host at
///     the new slab's quadrature points (DevicePointCoefficients; A, b and c only where the
///     matrix is assembled) and u_0 at the first slab's bottom points, and assembles with the
///     kernels libpolydg compiled for SpaceTimePointCoefficients;
///   * device_functors: the data are __host__ __device__ callables evaluated in the kernels — no
///     host evaluation or upload per step; include polydg/cuda/device_slab_solver.cuh in a .cu
///     file (the template path).
/// The steps' results agree with SlabSolver's to the solver's tolerance (the assemblies agree to
/// ~1e-15). Under mpiexec each rank assembles its part of the slab on its GPU (petsc::Session
/// makes device local rank mod devices current) into its rows of an MPIAIJCUSPARSE, as
/// SlabSolver does on the CPU (slab_solver.hpp), also from a rank part read from its file
/// (SpatialPart).
#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <vector>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/device_assembler.hpp"
#include "polydg/dg/device_point_coefficients.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/device_dense_block_operator.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/petsc/world.hpp"
#include "polydg/spacetime/device_slab_level_operators.hpp"
#include "polydg/spacetime/previous_slab_values.hpp"
#include "polydg/spacetime/slab_march.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_shell_products.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"

namespace polydg {
/// Where DeviceSlabSolver evaluates the problem's data (see the file comment).
enum class SlabData { host, device_functors };

/// The coupling term's data on the first slab: u_0 at the bottom point's spatial coordinates.
template <class Initial>
struct InitialTrace {
  Initial initial;
  POLYDG_HD double operator()(Index, const Point<3>& x) const {
    return initial(Point<2>{{x[0], x[1]}});
  }
};

template <class Coefficients, class Initial, SlabData data_evaluation = SlabData::host>
class DeviceSlabSolver {
 public:
  DeviceSlabSolver(const PolytopicMesh<2>& spatial, const BoundaryConditions& spatial_conditions,
                   Coefficients coefficients, const SlabSolverOptions& options = {},
                   const DeviceAssemblyOptions& device_options = {})
      : DeviceSlabSolver(spatial, nullptr, spatial_conditions, coefficients, options,
                         device_options) {}
  /// Collective: one rank's part read from its file (SpatialPart, as SlabSolver's).
  DeviceSlabSolver(const SpatialPart& part, const BoundaryConditions& spatial_conditions,
                   Coefficients coefficients, const SlabSolverOptions& options = {},
                   const DeviceAssemblyOptions& device_options = {})
      : DeviceSlabSolver(part.mesh, &part, spatial_conditions, coefficients, options,
                         device_options) {}

 private:
  DeviceSlabSolver(const PolytopicMesh<2>& spatial, const SpatialPart* part,
                   const BoundaryConditions& spatial_conditions, Coefficients coefficients,
                   const SlabSolverOptions& options, const DeviceAssemblyOptions& device_options)
      : coefficients_(coefficients),
        options_(options),
        slab_(options.degree > 0 ? make_slab_mesh(spatial, options.degree)
                                 : make_slab_mesh(spatial)),
        partition_(
            !part && petsc::world_rank_count() > 1
                ? std::optional<MeshPartition>(partition_mesh(slab_, petsc::world_rank_count()))
                : std::nullopt),
        distributed_(part != nullptr || partition_.has_value()),
        assembler_(slab_quadrature_mesh(slab_, slab_boundary_conditions(spatial_conditions),
                                        options.assembly, partition_, part),
                   options.assembly, device_options),
        rows_(slab_rank_rows(*assembler_.host_pattern(), assembler_.host_pattern(), slab_,
                             partition_, options.assembly, part)),
        previous_(std::size_t(assembler_.pattern().dof_count())),
        rhs_(previous_.size()),
        solution_(previous_.size()),
        aij_(distributed_ ? petsc::AijMatrix(rows_, options.solver.options_prefix, placement_)
                          : petsc::AijMatrix(*assembler_.host_pattern(),
                                             options.solver.options_prefix, placement_)),
        b_(rows_, placement_, options.solver.options_prefix),
        x_(rows_, placement_, options.solver.options_prefix) {
    // The dense blocks' layout from the pattern (zero values until the first step's assembly).
    if (options.products == SlabProducts::dense_blocks)
      shell_.emplace(DenseBlockMatrix<double>(assembler_.make_host_matrix()),
                     distributed_ ? &rows_ : nullptr, options.solver.options_prefix,
                     assembler_.host_pattern());
    const petsc::SolverOptions solver_options = with_multigrid(
        options, slab_, partition_, hierarchy_, multigrid_, placement_, part != nullptr);
    if (multigrid_) {
      // The coarse levels rediscretised on the GPU (-pc_mg_galerkin both: Galerkin ones), on
      // several ranks each rank its rows of them.
      level_operators_.emplace(*hierarchy_, slab_boundary_conditions(spatial_conditions),
                               options.assembly, device_options, placement_,
                               options.solver.options_prefix, partition_ ? &*partition_ : nullptr);
      multigrid_->set_level_operators(level_operators_->mats());
    }
    make_slab_linear_solver(solver_, shell_ ? shell_->mat() : aij_.mat(), aij_.mat(),
                            solver_options);
  }

 public:
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
    if (level_operators_) {
      level_operators_->map_last_coordinate(step.from_begin, step.from_end, step.t_begin,
                                            step.t_end);
      if (step.assemble_matrix) assemble_level_operators();
    }
    if constexpr (data_evaluation == SlabData::device_functors) {
      if (step.assemble_matrix)
        assembler_.assemble(coefficients_);
      else
        assembler_.assemble_rhs(coefficients_);
      if (step.first) assembler_.add_previous_slab_term(InitialTrace<Initial>{*initial_});
    } else {
      assemble_from_host_data(step);
    }
    if (!step.first)
      assembler_.add_previous_slab_term(previous_slab_values(
          assembler_, previous_.data(), march_.previous_begin(), march_.previous_end()));
    if (step.assemble_matrix) {
      aij_.update_from_device(assembler_.values());
      if (shell_) shell_->update_values(assembler_.values());
    }
    petsc::copy_device_array_to_vec(assembler_.rhs(), owned_dofs(), b_.vec());
    const SlabStep result = solve_slab_step(step, start, b_, x_, *solver_);
    petsc::copy_vec_to_device_array(x_.vec(), owned_dofs(), previous_.data());
    rhs_on_host_ = solution_on_host_ = false;
    march_.finish(step);
    return result;
  }

  double time() const { return march_.time(); }
  /// This rank's rows in the global system (on one rank: all of them; SlabSolver's).
  const RankBlockPattern& rank_rows() const { return rows_; }
  /// The leading entries of solution() and rhs() that are this rank's (all on one rank).
  std::size_t owned_dofs() const { return std::size_t(rows_.owned_dof_count()); }
  /// Several ranks: the partition of the slab's elements (slab element e is κ_e × I_n, so
  /// partition()->owned_elements(rank) are this rank's spatial elements in solution()'s order);
  /// none on one rank.
  const std::optional<MeshPartition>& partition() const { return partition_; }
  /// The coefficients of the last slab's solution (pattern layout of assembler()), copied to
  /// the host on the first call after a step.
  std::span<const double> solution() const {
    if (!solution_on_host_)
      device::copy_device_to_host(solution_.data(), previous_.data(),
                                  solution_.size() * sizeof(double));
    solution_on_host_ = true;
    return solution_;
  }
  /// The slab's pattern, its host copy: solution()'s layout (as SlabSolver::pattern()).
  const BlockPattern& pattern() const { return *assembler_.host_pattern(); }
  const PolytopicMesh<3>& slab_mesh() const { return slab_; }
  /// The device assembler; its quadrature_mesh() and host_pattern() are the host copies (e.g.
  /// for compute_slab_errors).
  const DeviceAssembler<3>& assembler() const { return assembler_; }
  /// The PETSc matrix of the last assembly (its values are also assembler().values()).
  const petsc::AijMatrix& aij_matrix() const { return aij_; }
  /// The last slab's rhs, copied to the host on the first call after a step.
  std::span<const double> rhs() const {
    if (!rhs_on_host_) assembler_.copy_rhs_to_host(rhs_);
    rhs_on_host_ = true;
    return rhs_;
  }
  const Coefficients& coefficients() const { return coefficients_; }
  /// The KSP's LinearSolver (its solver_default(), ksp() for KSPGetPC(), KSPView(), ...).
  const petsc::LinearSolver& linear_solver() const { return *solver_; }

 private:
  // SlabData::host: the spatial data at the new slab's points (A, b, c only where the matrix
  // is assembled, or on the first step), then the precompiled assembly; u_0 on the first step.
  void assemble_from_host_data(const SlabMarch::Step& step) {
    point_data_.update_points(assembler_);
    // The spatial members of coefficients_, as callables of the space-time point.
    const auto spatial = spatial_coefficients(coefficients_);
    if (step.assemble_matrix || step.first) point_data_.set_matrix_data(spatial);
    point_data_.set_rhs_data(spatial);
    const SpaceTimePointCoefficients data = space_time_coefficients(point_data_.view());
    if (step.assemble_matrix)
      assembler_.assemble(data);
    else
      assembler_.assemble_rhs(data);
    if (step.first) {
      const Initial initial = *initial_;
      assembler_.add_previous_slab_term(point_data_.boundary_values(
          [&](const Point<3>& x) {
            return initial(Point<2>{{x[0], x[1]}});
          },
          initial_values_));
    }
  }
  // The coarse levels' matrices, from the same data as the fine one.
  void assemble_level_operators() {
    level_operators_->assemble(
        [&](DeviceAssembler<3>& level, DevicePointCoefficients<3, 2>& point_data) {
          if constexpr (data_evaluation == SlabData::device_functors) {
            level.assemble_matrix(coefficients_);
          } else {
            point_data.update_points(level);
            point_data.set_matrix_data(spatial_coefficients(coefficients_));
            level.assemble_matrix(space_time_coefficients(point_data.view()));
          }
        });
  }

  Coefficients coefficients_;
  SlabSolverOptions options_;
  PolytopicMesh<3> slab_;
  std::optional<MeshPartition> partition_;  // several ranks, from the whole mesh
  bool distributed_ = false;                // partition_, or a SpatialPart's rows
  DeviceAssembler<3> assembler_;
  RankBlockPattern rows_;
  device::DeviceBuffer<double> previous_;  ///< the last slab's solution
  // Host copies of the last step's rhs and solution, made on the first call that asks (a step
  // leaves both on the device); zero before the first step.
  mutable std::vector<double> rhs_, solution_;
  mutable bool rhs_on_host_ = true, solution_on_host_ = true;
  /// Where the PETSc objects live: the device where PETSc has CUDA (placement.hpp).
  const petsc::Placement placement_ = petsc::available(petsc::Placement::device);
  petsc::AijMatrix aij_;
  // SlabProducts::dense_blocks: the KSP's operator. Declared before solver_, so its KSP, which
  // holds the shell's Mat, is destroyed before the operator the Mat calls.
  std::optional<SlabShellProducts<DeviceDenseBlockMatrix<double>, petsc::DeviceDenseBlockOperator>>
      shell_;
  // -[prefix]pc_type mg: the slab's agglomeration hierarchy (before solver_, which uses it).
  std::optional<AgglomerationHierarchy<3>> hierarchy_;
  std::optional<petsc::AgglomerationMultigrid> multigrid_;
  std::optional<DeviceSlabLevelOperators> level_operators_;  // its Mats referenced by multigrid_
  petsc::Vector b_, x_;
  std::optional<petsc::LinearSolver> solver_;
  std::optional<Initial> initial_;
  SlabMarch march_;
  DevicePointCoefficients<3, 2> point_data_;     ///< SlabData::host
  device::DeviceBuffer<double> initial_values_;  ///< u_0 at the boundary points (SlabData::host)
};

}  // namespace polydg
