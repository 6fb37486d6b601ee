#include "polydg/dg/boundary_conditions.hpp"

#include "polydg/core/error.hpp"

namespace polydg {

BoundaryKind BoundaryConditions::kind(int tag) const {
  const auto it = kinds_.find(tag);
  if (it != kinds_.end()) return it->second;
  if (!has_fallback_)
    raise("boundary tag ", tag, " has no boundary condition (set it with BoundaryConditions::set",
          tag == 0 ? "; tag 0 is the mesh's untagged boundary" : "", ")");
  return fallback_;
}

void BoundaryConditions::require_all(std::span<const int> tags,
                                     const std::string& mesh_name) const {
  for (int tag : tags) {
    if (kinds_.count(tag) || has_fallback_) continue;
    raise(mesh_name, ": boundary tag ", tag,
          " has no boundary condition (set it with BoundaryConditions::set",
          tag == 0 ? "; tag 0 is the mesh's untagged boundary" : "", ")");
  }
}

}  // namespace polydg
