#include "polydg/dg/assembler.hpp"

#include <utility>

#include "polydg/core/error.hpp"
#include "polydg/fem/basis_indexing.hpp"

namespace polydg {

template <int Dim>
Assembler<Dim>::Assembler(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                          const AssemblyOptions& options)
    : Assembler(QuadratureMesh<Dim>(mesh, conditions, options.pieces), options) {}

template <int Dim>
Assembler<Dim>::Assembler(QuadratureMesh<Dim> quadrature_mesh, const AssemblyOptions& options)
    : mesh_(std::move(quadrature_mesh)), options_(options) {
  require(mesh_.pieces == options.pieces,
          "Assembler: the quadrature mesh's pieces are not options.pieces");
  require(options.penalty_constant > 0,
          "Assembler: penalty constant C_sigma = ", options.penalty_constant, " must be positive");
  require(options.quadrature.extra >= 0, "Assembler: extra quadrature degree ",
          options.quadrature.extra, " must be >= 0");
  apply_assembly_options(mesh_, options);
  const Index elements = mesh_.element_count();
  std::vector<Index> block_sizes(elements);
  for (Index e = 0; e < elements; ++e)
    block_sizes[e] = space_basis_size(options.space, Dim, mesh_.element_degrees[e]);
  pattern_ = std::make_shared<const BlockPattern>(block_sizes, mesh_.interface_elements);
  diffusion_ranges_.resize(elements);

  // Per interface: its four blocks; the diagonal scratch and its gather order (shared with
  // the GPU backend, interface_scratch_layout.hpp).
  const Index interfaces = mesh_.interface_count();
  interface_blocks_.resize(interfaces);
  for (Index i = 0; i < interfaces; ++i) {
    const auto [a, b] = mesh_.interface_elements[i];
    interface_blocks_[i] = {pattern_->diagonal_block(a), pattern_->find_block(a, b),
                            pattern_->find_block(b, a), pattern_->diagonal_block(b)};
  }
  scratch_ = InterfaceScratchLayout(mesh_.interface_elements, block_sizes);
  diagonal_scratch_.resize(std::size_t(scratch_.offsets.back()));
}

template <int Dim>
void Assembler<Dim>::check_targets(AssemblyTargets targets, const BlockMatrix<double>* matrix,
                                   std::span<double> rhs) const {
  if (targets.matrix)
    require(matrix && &matrix->pattern() == pattern_.get(),
            "Assembler: the matrix was not made on this assembler's pattern (use make_matrix)");
  if (targets.rhs)
    require(GlobalIndex(rhs.size()) == pattern_->dof_count(), "Assembler: rhs of ", rhs.size(),
            " entries for ", pattern_->dof_count(), " unknowns");
}

template class Assembler<2>;
template class Assembler<3>;

}  // namespace polydg
