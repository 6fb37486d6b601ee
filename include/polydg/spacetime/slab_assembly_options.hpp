#pragma once
/// The AssemblyOptions a space-time slab (make_slab_mesh) is assembled with by default: the
/// library's defaults, with the slab integrated over its prisms K × I_n instead of their three
/// tetrahedra (QuadraturePieces::slab_prisms: a third of the element points, half of the
/// interface points, the same discretisation; see dg/quadrature_mesh.hpp), with the default
/// SlabRules: total-degree symmetric rules for P_p (1.6–1.8× fewer prism points again).
///
///   polydg::Assembler<3> assembler(slab, conditions, polydg::slab_assembly_options());
#include "polydg/dg/assembler.hpp"

namespace polydg {

inline AssemblyOptions slab_assembly_options() {
  AssemblyOptions options;
  options.pieces = QuadraturePieces::slab_prisms;
  return options;
}

}  // namespace polydg
