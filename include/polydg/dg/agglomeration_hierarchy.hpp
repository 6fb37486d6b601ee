#pragma once
/// AgglomerationHierarchy: nested DG spaces for multigrid, finest first. First the degree
/// levels (degree_levels): the finest mesh with its highest degree lowered by one per level,
/// down to 1. Then the agglomeration levels: level ℓ + 1 groups level ℓ's elements into
/// connected unions (coarsen_agglomeration, about coarsening_factor of them per coarse
/// element), so every level agglomerates the same fine simplex mesh and the spaces are nested;
/// the prolongation from level ℓ + 1 to ℓ is exact (make_prolongation). Levels are added until
/// one has at most coarsest_dofs unknowns (a direct solve's size), max_levels is reached or
/// coarsening stalls.
///
///   polydg::AgglomerationHierarchy<2> hierarchy(mesh);        // mesh: PolytopicMesh<2>
///   hierarchy.level_count();                                   // e.g. 5
///   polydg::petsc::AgglomerationMultigrid multigrid(hierarchy); // PCMG from the options
///
/// A coarse element's degree is the lowest degree of the fine elements inside it (so its
/// polynomials are in their spaces, hp meshes included). Total-degree bases.
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/dg/prolongation.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

struct HierarchyOptions {
  /// Fine elements per coarse element; 0: 4 in 2D, 8 in 3D (as in a refinement hierarchy).
  double coarsening_factor = 0;
  /// The coarsest level has at most this many unknowns, unless max_levels stops earlier.
  GlobalIndex coarsest_dofs = 2000;
  /// At most this many levels, the finest included (≥ 1).
  int max_levels = 12;
  /// How each level's element graph is cut (METIS k-way by default).
  AgglomerationOptions agglomeration;
  /// Degree levels p, p − 1, …, 1 on the finest mesh before the agglomeration levels: high
  /// degrees are smoothed on their own mesh, which keeps the iteration count of a p = 3 solve
  /// near p = 1's (docs/theory.md, "Agglomeration multigrid").
  bool degree_levels = true;
};

template <int Dim>
class AgglomerationHierarchy {
 public:
  /// Builds the levels under `finest` (which is copied as level 0). Throws polydg::Error for a
  /// coarsening_factor that is neither 0 nor > 1, or max_levels < 1.
  explicit AgglomerationHierarchy(const PolytopicMesh<Dim>& finest,
                                  const HierarchyOptions& options = {});

  int level_count() const { return int(meshes_.size()); }
  /// Level 0 is the finest, level_count() − 1 the coarsest.
  const PolytopicMesh<Dim>& mesh(int level) const { return meshes_.at(std::size_t(level)); }
  /// The prolongation from level + 1 to level, for level < level_count() − 1.
  const Prolongation& prolongation(int level) const {
    return prolongations_.at(std::size_t(level));
  }
  const std::vector<Prolongation>& prolongations() const { return prolongations_; }
  /// The unknowns of a level's DG space.
  GlobalIndex dof_count(int level) const;

 private:
  std::vector<PolytopicMesh<Dim>> meshes_;
  std::vector<Prolongation> prolongations_;
};

}  // namespace polydg
