#pragma once
/// SlabSolver: marches a parabolic problem (docs/theory.md, "Space-time slabs, as built") slab by
/// slab, I_n = (t_{n−1}, t_n].
///
/// Built once: the slab mesh (κ × [0, 1] for every spatial element κ), the Assembler (its
/// QuadratureMesh, BlockPattern and scratch), the PETSc AIJ matrix (preallocated once), the
/// vectors and the KSP (configured from the options database). Each step() maps the slab onto
/// the next interval (geometry only), re-assembles the rhs — and the matrix only when the
/// coefficients depend on time or the time step changed —, adds the coupling term
/// (U⁻_{n−1}, W⁺_{n−1})_D from the previous slab's solution (u_0 on the first), and solves
/// with the previous slab's solution as the initial guess. With SlabSolverOptions::products =
/// SlabProducts::dense_blocks the KSP's products go to a MATSHELL over the dense block format,
/// and the AIJ matrix builds the preconditioner.
///
///   auto data = polydg::space_time_coefficients(spatial_data);      // see that header
///   polydg::SlabSolver solver(spatial_mesh, conditions, data);
///   solver.set_initial_condition([](const polydg::Point<2>& x) { return u0(x); }, 0.0);
///   for (int n = 1; n <= steps; ++n) solver.step(n * tau);
///
/// Under mpiexec (PETSC_COMM_WORLD of several ranks) each rank assembles its part of the slab
/// (partition_mesh; docs/user-guide.md, "Several MPI ranks") into its rows of an MPIAIJ, and
/// solution() holds the rank's owned elements' coefficients first (owned_dof_count() of them;
/// the ghosts' after them are not kept). The coupling term needs no exchange: an element's
/// bottom face reads its own element of the previous slab.
///
/// Where no rank can hold the whole spatial mesh, the constructor with a SpatialPart takes one
/// rank's part read from its file (rank_part_file.hpp): its slab, quadrature mesh and rows are
/// the part's (QuadratureMesh with a cut tag, part_block_pattern), the march is the same; the
/// agglomeration multigrid, which coarsens the whole mesh, is refused there.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/dg/partition_numbering.hpp"
#include "polydg/hyperbolic/element_halo.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/petsc/agglomeration_multigrid.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/dense_block_operator.hpp"
#include "polydg/petsc/linear_solver.hpp"
#include "polydg/petsc/part_block_pattern.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/petsc/world.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_level_operators.hpp"
#include "polydg/spacetime/slab_march.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_shell_products.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"

namespace polydg {

/// Which matrix the KSP's products (MatMult) use. The AIJ matrix builds the preconditioner
/// either way, so every -pc_type applies.
enum class SlabProducts {
  aij,           ///< the AIJ matrix
  dense_blocks,  ///< a ShellMatrix over the matrix in the dense block format, refreshed after
                 ///< each matrix assembly: on the GPU for DeviceSlabSolver
                 ///< (DeviceDenseBlockOperator: host Vecs are staged, device Vecs used in
                 ///< place), on the CPU for SlabSolver (DenseBlockOperator). It holds a second
                 ///< copy of the values (with the format's padding).
};

struct SlabSolverOptions {
  /// False when A, b and c do not depend on t: then the matrix of a step with the same time
  /// step as the previous one is reused (f and g_D may still depend on t).
  bool coefficients_depend_on_time = true;
  /// Degree of every space-time element; 0 takes the spatial mesh's degrees.
  int degree = 0;
  AssemblyOptions assembly = slab_assembly_options();
  /// KSP options prefix etc.; the previous slab's solution is always the initial guess.
  petsc::SolverOptions solver;
  SlabProducts products = SlabProducts::aij;
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

/// The end of a slab step, shared by SlabSolver and DeviceSlabSolver: the solve of `b` (which
/// holds the step's rhs) into `x`, and the step's SlabStep — assembly timed from `start` until
/// the solve begins, the solve after.
inline SlabStep solve_slab_step(const SlabMarch::Step& step,
                                std::chrono::steady_clock::time_point start, petsc::Vector& b,
                                petsc::Vector& x, petsc::LinearSolver& solver) {
  using Clock = std::chrono::steady_clock;
  const auto assembled = Clock::now();
  const petsc::SolveResult solve = solver.solve(b.vec(), x.vec());
  SlabStep result;
  result.n = step.n;
  result.t_begin = step.t_begin;
  result.t_end = step.t_end;
  result.matrix_assembled = step.assemble_matrix;
  result.iterations = solve.iterations;
  result.assembly_seconds = std::chrono::duration<double>(assembled - start).count();
  result.solve_seconds = std::chrono::duration<double>(Clock::now() - assembled).count();
  return result;
}

/// The agglomeration hierarchy of a slab: coarsened in space, 4 elements per coarse element as
/// in 2D, and no degree levels — lowering p drops (t − t_n)^p, whose coefficient is constant on
/// each element: error smooth across elements that the block smoother hardly damps and a lower
/// degree cannot hold (docs/theory.md, "Agglomeration multigrid").
inline HierarchyOptions slab_hierarchy_options() {
  HierarchyOptions levels;
  levels.coarsening_factor = 4;
  levels.degree_levels = false;
  return levels;
}

/// One rank's part of the spatial mesh read from its file (rank_part_file.hpp), for a slab
/// march in which no rank holds the whole mesh: the part's PolytopicMesh (owned elements
/// first: PolytopicMesh(part.submesh.mesh, part.submesh.element_of_cell, degrees)), its owned
/// count and cut tag, and its halo, which numbers the unknowns (part_block_pattern). The
/// referenced objects must outlive the solver's constructor.
struct SpatialPart {
  const PolytopicMesh<2>& mesh;
  Index owned_elements;
  int cut_tag;
  const hyperbolic::ElementHalo& halo;
};

/// The slab solvers' SolverOptions: options.solver, with the DM of an agglomeration hierarchy
/// of `slab` (built into `hierarchy` and `multigrid`) where -[prefix]pc_type mg asks for PCMG.
/// The slab's elements span the whole slab in time, so the hierarchy coarsens in space only.
/// With the slab's `partition` (several ranks) the levels are distributed over the ranks.
/// Throws polydg::Error for PQ slabs (BasisSpace::total_degree_times_last): the prolongation
/// is built for total-degree bases; and on a SpatialPart (`from_part`), whose rank cannot
/// coarsen the whole mesh.
inline petsc::SolverOptions with_multigrid(const SlabSolverOptions& options,
                                           const PolytopicMesh<3>& slab,
                                           const std::optional<MeshPartition>& partition,
                                           std::optional<AgglomerationHierarchy<3>>& hierarchy,
                                           std::optional<petsc::AgglomerationMultigrid>& multigrid,
                                           petsc::Placement placement = petsc::Placement::host,
                                           bool from_part = false) {
  petsc::SolverOptions solver = options.solver;
  if (!petsc::multigrid_requested(solver.options_prefix)) return solver;
  require(!from_part, "-", solver.options_prefix,
          "pc_type mg: the agglomeration multigrid coarsens the whole mesh, which a slab solver "
          "on a rank part read from its file does not have; choose another preconditioner");
  require(options.assembly.space == BasisSpace::total_degree, "-", solver.options_prefix,
          "pc_type mg: the agglomeration multigrid of a slab needs the P_p(κ × I_n) space "
          "(BasisSpace::total_degree); PQ slabs have no prolongation yet");
  hierarchy.emplace(slab, slab_hierarchy_options());
  if (partition)
    multigrid.emplace(*hierarchy, *partition, placement);
  else
    multigrid.emplace(*hierarchy, placement);
  solver.dm = multigrid->dm();
  return solver;
}

/// The KSP of a slab march, its products on `matrix` and its preconditioner from
/// `preconditioner_matrix`: LinearSolver's defaults, then the options database
/// (options.options_prefix), and the previous slab's solution as the initial guess of an
/// iterative solve (a direct one — the default up to options.direct_solve_limit unknowns —
/// takes none). The direct default factors the matrix at the first step and again only after
/// a step that re-assembles it (SlabSolverOptions::coefficients_depend_on_time, a new time
/// step); the other steps reuse the factors.
inline void make_slab_linear_solver(std::optional<petsc::LinearSolver>& solver, Mat matrix,
                                    Mat preconditioner_matrix, petsc::SolverOptions options) {
  options.nonzero_initial_guess = true;
  solver.emplace(matrix, preconditioner_matrix, options);
}

/// The quadrature mesh of a slab solver: the whole slab, this rank's part of `partition`, or
/// the slab of a SpatialPart (`part`).
inline QuadratureMesh<3> slab_quadrature_mesh(const PolytopicMesh<3>& slab,
                                              const BoundaryConditions& conditions,
                                              const AssemblyOptions& options,
                                              const std::optional<MeshPartition>& partition,
                                              const SpatialPart* part = nullptr) {
  if (part)
    return QuadratureMesh<3>(slab, conditions, options.pieces, part->owned_elements, part->cut_tag);
  if (!partition) return QuadratureMesh<3>(slab, conditions, options.pieces);
  return QuadratureMesh<3>(slab, conditions, options.pieces, *partition, petsc::world_rank());
}

/// A slab solver's rows in the global system (`pattern` = *shared): this rank's of
/// `partition` or of a SpatialPart (`part`: collective), or on one rank the whole pattern in
/// its own numbering.
inline RankBlockPattern slab_rank_rows(const BlockPattern& pattern,
                                       std::shared_ptr<const BlockPattern> shared,
                                       const PolytopicMesh<3>& slab,
                                       const std::optional<MeshPartition>& partition,
                                       const AssemblyOptions& options,
                                       const SpatialPart* part = nullptr) {
  if (part) return petsc::part_block_pattern(std::move(shared), part->halo);
  if (!partition) {
    std::vector<GlobalIndex> first(std::size_t(pattern.block_row_count()));
    for (Index e = 0; e < pattern.block_row_count(); ++e) first[e] = pattern.dof_offset(e);
    return RankBlockPattern(std::move(shared), pattern.block_row_count(), std::move(first),
                            pattern.dof_count());
  }
  return make_rank_block_pattern(std::move(shared), *partition, petsc::world_rank(),
                                 partition_dof_offsets(slab, *partition, options.space));
}

template <class Coefficients>
class SlabSolver {
 public:
  SlabSolver(const PolytopicMesh<2>& spatial, const BoundaryConditions& spatial_conditions,
             Coefficients coefficients, const SlabSolverOptions& options = {})
      : SlabSolver(spatial, nullptr, spatial_conditions, coefficients, options) {}
  /// Collective: one rank's part read from its file (SpatialPart; the file comment).
  SlabSolver(const SpatialPart& part, const BoundaryConditions& spatial_conditions,
             Coefficients coefficients, const SlabSolverOptions& options = {})
      : SlabSolver(part.mesh, &part, spatial_conditions, coefficients, options) {}

 private:
  SlabSolver(const PolytopicMesh<2>& spatial, const SpatialPart* part,
             const BoundaryConditions& spatial_conditions, Coefficients coefficients,
             const SlabSolverOptions& options)
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
                   options.assembly),
        rows_(slab_rank_rows(*assembler_.pattern(), assembler_.pattern(), slab_, partition_,
                             options.assembly, part)),
        matrix_(assembler_.make_matrix()),
        rhs_(assembler_.make_vector()),
        previous_(assembler_.make_vector()),
        aij_(distributed_ ? petsc::AijMatrix(rows_, options.solver.options_prefix)
                          : petsc::AijMatrix(*assembler_.pattern(), options.solver.options_prefix)),
        b_(rows_, petsc::Placement::host, options.solver.options_prefix),
        x_(rows_, petsc::Placement::host, options.solver.options_prefix) {
    if (options.products == SlabProducts::dense_blocks)
      shell_.emplace(matrix_, distributed_ ? &rows_ : nullptr, options.solver.options_prefix);
    const petsc::SolverOptions solver_options =
        with_multigrid(options, slab_, partition_, hierarchy_, multigrid_, petsc::Placement::host,
                       part != nullptr);
    if (multigrid_) {
      // The coarse levels rediscretised (-pc_mg_galerkin both: Galerkin ones instead), on
      // several ranks each rank its rows of them.
      level_operators_.emplace(*hierarchy_, slab_boundary_conditions(spatial_conditions),
                               options.assembly, partition_ ? &*partition_ : nullptr);
      multigrid_->set_level_operators(level_operators_->mats());
    }
    make_slab_linear_solver(solver_, shell_ ? shell_->mat() : aij_.mat(), aij_.mat(),
                            solver_options);
  }

 public:
  /// u_0 as a function of the spatial point; the march starts at t0.
  void set_initial_condition(std::function<double(const Point<2>&)> initial, double t0 = 0) {
    initial_ = std::move(initial);
    march_.start(t0);
  }

  /// Solves the slab (time(), t_end].
  SlabStep step(double t_end) {
    require(bool(initial_), "SlabSolver::step: no initial condition (set_initial_condition)");
    const auto start = std::chrono::steady_clock::now();
    const SlabMarch::Step step = march_.next(t_end, options_.coefficients_depend_on_time);
    assembler_.map_last_coordinate(step.from_begin, step.from_end, step.t_begin, step.t_end);
    if (level_operators_)
      level_operators_->map_last_coordinate(step.from_begin, step.from_end, step.t_begin,
                                            step.t_end);
    if (step.assemble_matrix) {
      assembler_.assemble(coefficients_, matrix_, rhs_);
      aij_.update(matrix_);
      if (shell_) shell_->update_values(matrix_);
      if (level_operators_) level_operators_->assemble(coefficients_);
    } else {
      assembler_.assemble_rhs(coefficients_, rhs_);
    }
    add_coupling_term(step.first);
    petsc::copy_to_vec(std::span<const double>(rhs_).first(owned_dofs()), b_.vec());
    const SlabStep result = solve_slab_step(step, start, b_, x_, *solver_);
    petsc::copy_from_vec(x_.vec(), std::span<double>(previous_).first(owned_dofs()));
    march_.finish(step);
    return result;
  }

  double time() const { return march_.time(); }
  /// This rank's rows in the global system (on one rank: all of them).
  const RankBlockPattern& rank_rows() const { return rows_; }
  /// The leading entries of solution() and rhs() that are this rank's (all on one rank).
  std::size_t owned_dofs() const { return std::size_t(rows_.owned_dof_count()); }
  /// Several ranks: the partition of the slab's elements (slab element e is κ_e × I_n, so
  /// partition()->owned_elements(rank) are this rank's spatial elements in solution()'s order);
  /// none on one rank.
  const std::optional<MeshPartition>& partition() const { return partition_; }
  /// The coefficients of the last slab's solution (pattern layout of assembler()).
  std::span<const double> solution() const { return previous_; }
  /// The slab's pattern: solution()'s layout (DeviceSlabSolver::pattern() is the same).
  const BlockPattern& pattern() const { return *assembler_.pattern(); }
  const PolytopicMesh<3>& slab_mesh() const { return slab_; }
  const Assembler<3>& assembler() const { return assembler_; }
  const BlockMatrix<double>& matrix() const { return matrix_; }
  /// The PETSc matrix of the last assembly (the values of matrix()).
  const petsc::AijMatrix& aij_matrix() const { return aij_; }
  std::span<const double> rhs() const { return rhs_; }
  const Coefficients& coefficients() const { return coefficients_; }
  /// The KSP's LinearSolver (its solver_default(), ksp() for KSPGetPC(), KSPView(), ...).
  const petsc::LinearSolver& linear_solver() const { return *solver_; }

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
          box.lower[2] = march_.previous_begin();
          box.upper[2] = march_.previous_end();
          return evaluate_dg_function<3>(mesh.space, mesh.element_degrees[e], box,
                                         previous_.data() + pattern.dof_offset(e), x);
        },
        rhs_);
  }

  Coefficients coefficients_;
  SlabSolverOptions options_;
  PolytopicMesh<3> slab_;
  std::optional<MeshPartition> partition_;  // several ranks, from the whole mesh
  bool distributed_ = false;                // partition_, or a SpatialPart's rows
  Assembler<3> assembler_;
  RankBlockPattern rows_;
  BlockMatrix<double> matrix_;
  std::vector<double> rhs_, previous_;
  petsc::AijMatrix aij_;
  // SlabProducts::dense_blocks: the KSP's operator. Declared before solver_, so its KSP, which
  // holds the shell's Mat, is destroyed before the operator the Mat calls.
  std::optional<SlabShellProducts<DenseBlockMatrix<double>, petsc::DenseBlockOperator>> shell_;
  // -[prefix]pc_type mg: the slab's agglomeration hierarchy (before solver_, which uses it).
  std::optional<AgglomerationHierarchy<3>> hierarchy_;
  std::optional<SlabLevelOperators> level_operators_;  // its Mats referenced by multigrid_
  std::optional<petsc::AgglomerationMultigrid> multigrid_;
  petsc::Vector b_, x_;
  std::optional<petsc::LinearSolver> solver_;
  std::function<double(const Point<2>&)> initial_;
  SlabMarch march_;
};

}  // namespace polydg
