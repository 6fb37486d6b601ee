#pragma once
/// Which boundary condition each mesh boundary tag carries (docs/theory.md, "The model
/// problem").
///
/// A tag is Dirichlet or Neumann. Whether a boundary quadrature point is diffusive (nᵀAn > 0),
/// hyperbolic inflow (nᵀAn = 0, b·n < 0) or outflow (nᵀAn = 0, b·n ≥ 0) is decided per point
/// from A, b and n during assembly; the tag only says what to impose where the point is
/// diffusive. Inflow points use the Dirichlet data g_D whatever their tag.
#include <map>
#include <span>
#include <string>

namespace polydg {

/// dirichlet / neumann: docs/theory.md, "The model problem". previous_slab: a space-time slab's
/// bottom face, hyperbolic inflow whose data is the previous slab's solution — the boundary kernel
/// adds only the matrix term there, the rhs comes from assemble_previous_slab_faces
/// (dg/assembly_kernels.hpp).
enum class BoundaryKind { dirichlet, neumann, previous_slab };

class BoundaryConditions {
 public:
  /// Every tag Dirichlet.
  static BoundaryConditions all_dirichlet() { return BoundaryConditions(BoundaryKind::dirichlet); }

  BoundaryConditions() = default;
  /// `fallback` applies to tags not set explicitly.
  explicit BoundaryConditions(BoundaryKind fallback) : fallback_(fallback), has_fallback_(true) {}

  BoundaryConditions& set(int tag, BoundaryKind kind) {
    kinds_[tag] = kind;
    return *this;
  }
  /// The kind of `tag`; throws polydg::Error naming the tag when it has none and there is no
  /// fallback.
  BoundaryKind kind(int tag) const;
  /// Throws polydg::Error naming the first tag in `tags` without a condition.
  void require_all(std::span<const int> tags, const std::string& mesh_name) const;

 private:
  std::map<int, BoundaryKind> kinds_;
  BoundaryKind fallback_ = BoundaryKind::dirichlet;
  bool has_fallback_ = false;
};

}  // namespace polydg
