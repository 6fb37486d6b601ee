#pragma once
/// Assembler: the CPU reference backend of the IP-DG assembly (docs/theory.md, "The IP-DG
/// system, as assembled"; "Assembly: two approaches", Approach 2).
///
/// Built once per mesh and boundary conditions: the QuadratureMesh, the BlockPattern
/// (elements × (self + neighbours)), and the scratch the kernels need. Every assemble call then
/// only recomputes values — a second assembly allocates nothing — and gives the same bits on
/// every run and any number of OpenMP threads (see assembly_kernels.hpp).
///
///   polydg::Assembler<2> assembler(mesh, polydg::BoundaryConditions::all_dirichlet());
///   auto matrix = assembler.make_matrix();
///   auto rhs = assembler.make_vector();
///   assembler.assemble(coefficients, matrix, rhs);   // coefficients: see coefficients.hpp
///
/// Throws polydg::Error for a boundary tag without a condition (at construction), a matrix of
/// another pattern or a vector of the wrong size, a non-positive penalty constant, and a
/// coefficient that is not finite at a quadrature point (naming it, the point and the element).
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "polydg/dg/assembly_kernels.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/diffusion_ranges.hpp"
#include "polydg/dg/element_trace_constants.hpp"
#include "polydg/dg/error_norms.hpp"
#include "polydg/dg/interface_scratch_layout.hpp"
#include "polydg/dg/quadrature_degree.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/sparse/block_matrix.hpp"

namespace polydg {

struct AssemblyOptions {
  /// C_σ of the penalty (docs/theory.md, "Penalty").
  double penalty_constant = 10;
  QuadratureDegrees quadrature;
  /// P_p (total degree) or, on space-time slabs, PQ_p (see fem/basis_space.hpp).
  BasisSpace space = BasisSpace::total_degree;
  /// The penalty's inverse-estimate factor: each element's own trace constant (default,
  /// coercive on every agglomerate), or [Dong2021]'s polytopic_cap, or sub_simplex (penalty.hpp).
  PenaltyScaling penalty_scaling = PenaltyScaling::element_trace;
  /// The quadrature pieces: the fine simplices, or on space-time slabs (make_slab_mesh) the
  /// prisms K × I_n — a third of the element points (see quadrature_mesh.hpp).
  QuadraturePieces pieces = QuadraturePieces::simplices;
  /// The rules on slab_prisms pieces: total-degree symmetric rules (fewer points, exact for the
  /// same P_p integrands), or tensor rules (exact in space and time separately; always for
  /// PQ_p). See quadrature_mesh.hpp, slab_rules_for.
  SlabRules slab_rules = SlabRules::total_degree;
};

/// Puts on `mesh` what `options` decide of its integrals — the space, the slab rules it takes
/// (slab_rules_for) and the penalty scaling with its element constants — as Assembler and
/// DeviceAssembler do to theirs.
template <int Dim>
void apply_assembly_options(QuadratureMesh<Dim>& mesh, const AssemblyOptions& options) {
  mesh.space = options.space;
  mesh.slab_rules = slab_rules_for(options.space, options.slab_rules);
  set_penalty_scaling(mesh, options.penalty_scaling);
}

/// The ErrorNormOptions whose DG norm uses the penalty of an assembly with `options` (its C_σ,
/// scaling and quadrature degrees), e.g.
///   compute_error_norms(assembler.quadrature_mesh(), coefficients, u_h, u, grad_u,
///                       error_norm_options(assembler.options()));
inline ErrorNormOptions error_norm_options(const AssemblyOptions& options) {
  ErrorNormOptions result;
  result.penalty_constant = options.penalty_constant;
  result.penalty_scaling = options.penalty_scaling;
  result.assembly_degrees = options.quadrature;
  return result;
}

template <int Dim>
class Assembler {
 public:
  Assembler(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
            const AssemblyOptions& options = {});
  /// From a quadrature mesh the caller built, QuadratureMesh(mesh, conditions, options.pieces)
  /// or a rank's part of a distributed mesh (the constructor with a MeshPartition: the pattern
  /// then has the owned block rows first, then the ghosts' rows, which get only the halo
  /// interfaces' blocks). Its space and penalty scaling are set from `options`. Throws
  /// polydg::Error when its pieces are not options.pieces.
  explicit Assembler(QuadratureMesh<Dim> quadrature_mesh, const AssemblyOptions& options = {});

  const QuadratureMesh<Dim>& quadrature_mesh() const { return mesh_; }
  const std::shared_ptr<const BlockPattern>& pattern() const { return pattern_; }
  const AssemblyOptions& options() const { return options_; }
  /// A zero matrix on this assembler's pattern.
  BlockMatrix<double> make_matrix() const { return BlockMatrix<double>(pattern_); }
  /// A zero vector of dof_count() entries.
  std::vector<double> make_vector() const {
    return std::vector<double>(std::size_t(pattern_->dof_count()), 0.0);
  }

  /// Overwrites the matrix values and the rhs.
  template <class Coefficients>
  void assemble(const Coefficients& coefficients, BlockMatrix<double>& matrix,
                std::span<double> rhs) {
    run(coefficients, {true, true}, matrix.values(), rhs, &matrix);
  }
  /// Overwrites the matrix values only.
  template <class Coefficients>
  void assemble_matrix(const Coefficients& coefficients, BlockMatrix<double>& matrix) {
    run(coefficients, {true, false}, matrix.values(), {}, &matrix);
  }
  /// Adds the data term of the previous_slab boundary faces to the rhs (after assemble or
  /// assemble_rhs, which overwrite it): see assemble_previous_slab_faces. value(e, x) → double.
  template <class Value>
  void add_previous_slab_term(const Value& value, std::span<double> rhs) {
    check_targets({false, true}, nullptr, rhs);
    const AssemblyData<Dim> data{mesh_,
                                 *pattern_,
                                 diffusion_ranges_,
                                 options_.quadrature,
                                 options_.penalty_constant,
                                 {false, true},
                                 {},
                                 rhs};
    assemble_previous_slab_faces(data, value);
  }
  /// Maps the last coordinate of the quadrature mesh from [from_begin, from_end] onto
  /// [to_begin, to_end] (a space-time slab onto another time interval): geometry only, the
  /// pattern and all index arrays stay. See map_last_coordinate in quadrature_mesh.hpp.
  void map_last_coordinate(double from_begin, double from_end, double to_begin, double to_end) {
    polydg::map_last_coordinate(mesh_, from_begin, from_end, to_begin, to_end);
  }

  /// Overwrites the rhs only.
  template <class Coefficients>
  void assemble_rhs(const Coefficients& coefficients, std::span<double> rhs) {
    run(coefficients, {false, true}, {}, rhs, nullptr);
  }

 private:
  template <class Coefficients>
  void run(const Coefficients& coefficients, AssemblyTargets targets, std::span<double> values,
           std::span<double> rhs, const BlockMatrix<double>* matrix) {
    check_targets(targets, matrix, rhs);
    if (targets.matrix) std::fill(values.begin(), values.end(), 0.0);
    if (targets.rhs) std::fill(rhs.begin(), rhs.end(), 0.0);
    compute_diffusion_ranges(mesh_, coefficients, options_.quadrature,
                             std::span<DiffusionRange<Dim>>(diffusion_ranges_));
    const AssemblyData<Dim> data{mesh_,
                                 *pattern_,
                                 diffusion_ranges_,
                                 options_.quadrature,
                                 options_.penalty_constant,
                                 targets,
                                 values,
                                 rhs};
    assemble_elements(data, coefficients);
    assemble_interior_faces(data, coefficients, interface_blocks_, scratch_.offsets,
                            diagonal_scratch_, scratch_.element_interface_offsets,
                            scratch_.element_interfaces);
    assemble_boundary_faces(data, coefficients);
  }
  void check_targets(AssemblyTargets targets, const BlockMatrix<double>* matrix,
                     std::span<double> rhs) const;

  QuadratureMesh<Dim> mesh_;
  std::shared_ptr<const BlockPattern> pattern_;
  AssemblyOptions options_;
  std::vector<DiffusionRange<Dim>> diffusion_ranges_;
  /// Per interface: blocks (a,a), (a,b), (b,a), (b,b).
  std::vector<std::array<Index, 4>> interface_blocks_;
  InterfaceScratchLayout scratch_;
  std::vector<double> diagonal_scratch_;
};

extern template class Assembler<2>;
extern template class Assembler<3>;

}  // namespace polydg
