#pragma once
/// AgglomerationMultigrid: an AgglomerationHierarchy as PETSc sees a multigrid hierarchy — a
/// DMShell per level whose DMCoarsen() gives the next coarser level and whose
/// DMCreateInterpolation() gives the exact prolongation (an AIJ matrix, fine unknowns × coarse
/// unknowns, one block per fine element) — so PCMG works from the options database:
///
///   polydg::AgglomerationHierarchy<2> hierarchy(mesh);
///   polydg::petsc::AgglomerationMultigrid multigrid(hierarchy);
///   polydg::petsc::LinearSolver solver(aij.mat(), {.options_prefix = "flow_",
///                                                 .dm = multigrid.dm()});
///   solver.solve(b.vec(), x.vec());   // -flow_ksp_type cg -flow_pc_type mg (the default)
///                                     // -flow_mg_levels_ksp_type chebyshev
///                                     // -flow_mg_levels_pc_type pbjacobi -flow_pc_mg_type full
///
/// The finest DM's refinement level is level_count() − 1 (DMSetRefineLevel()), so -pc_type mg
/// uses every level unless -pc_mg_levels asks for fewer; asking for more is refused when PCMG
/// coarsens past the coarsest level. The coarse levels' operators are Galerkin products PᵀAP
/// (PCMGSetGalerkin(), which LinearSolver sets for a DM of this class), or, after
/// set_level_operators(), the matrices given: each level's DG system rediscretised on its own
/// agglomerated mesh (rediscretised_level_operators.hpp), with the penalty of its elements;
/// -pc_mg_galerkin both / none overrides the choice. Every level's vectors and prolongation
/// follow `placement`
/// (VECCUDA and MATAIJCUSPARSE for Placement::device where possible), so PCMG runs where the
/// fine level's Vecs are.
#include <petscdm.h>
#include <petscmat.h>

#include <memory>
#include <string>
#include <vector>

#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/level_partition.hpp"
#include "polydg/dg/prolongation.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/petsc/placement.hpp"

namespace polydg::petsc {

class AgglomerationMultigrid {
 public:
  /// AgglomerationMultigrid - the levels of `prolongations` (prolongations[ℓ]: level ℓ + 1 to
  /// level ℓ, finest first, as AgglomerationHierarchy::prolongations()).
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Notes:
  ///   The prolongation matrices are built here (MatSetPreallocationCOO / MatSetValuesCOO) and
  ///   shared by every DM of the hierarchy; DMCreateInterpolation() hands out references. The
  ///   DMs PCMG makes by DMCoarsen() keep the levels alive after this object is gone. Throws
  ///   polydg::Error when consecutive prolongations do not match (level ℓ's coarse unknowns
  ///   against level ℓ + 1's fine ones), on more than one rank (the constructor with a
  ///   MeshPartition distributes the levels), and for any failing PETSc call.
  explicit AgglomerationMultigrid(const std::vector<Prolongation>& prolongations,
                                  Placement placement = Placement::host);
  /// AgglomerationMultigrid - the levels of `hierarchy` (which may have only one: PCMG then
  /// solves on it with its coarse solver). As the constructor above otherwise.
  template <int Dim>
  explicit AgglomerationMultigrid(const AgglomerationHierarchy<Dim>& hierarchy,
                                  Placement placement = Placement::host);
  /// AgglomerationMultigrid - the levels of `hierarchy` over the ranks of PETSC_COMM_WORLD:
  /// level 0's rows are `partition`'s (the hierarchy's finest mesh partitioned as the
  /// operator's RankBlockPattern: partition_mesh, partition_dof_offsets), each coarser
  /// element goes to the rank owning most of its children (partition_levels,
  /// polydg/dg/level_partition.hpp). Every rank passes the same hierarchy and partition.
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Notes:
  ///   Each rank builds the rows of the prolongations of its own fine elements (MPIAIJ, their
  ///   columns may be other ranks'); PCMG's Galerkin products PᵀAP and its restrictions
  ///   communicate through PETSc. Coarse operators given by set_level_operators() must have
  ///   each level's rows on the ranks its partition says. Works on one rank too. Throws
  ///   polydg::Error when the partition's part count is not the rank count or it is not of
  ///   the finest mesh.
  template <int Dim>
  AgglomerationMultigrid(const AgglomerationHierarchy<Dim>& hierarchy,
                         const MeshPartition& partition, Placement placement = Placement::host);
  ~AgglomerationMultigrid();
  AgglomerationMultigrid(const AgglomerationMultigrid&) = delete;
  AgglomerationMultigrid& operator=(const AgglomerationMultigrid&) = delete;

  /// The finest level's DM: SolverOptions::dm, or KSPSetDM() with KSPSetDMActive(ksp,
  /// PETSC_FALSE) on a KSP whose operators are set.
  DM dm() const { return dm_; }
  int level_count() const;
  /// The prolongation from level + 1 to level (0 is the finest), owned by this object.
  Mat prolongation(int level) const;

  /// set_level_operators - the coarse levels' own operators (rediscretised): operators[ℓ] is
  /// level ℓ's matrix for ℓ = 1 … level_count() − 1, of that level's size; operators[0] is
  /// ignored (the finest level's operator is the KSP's) and may be null.
  ///
  /// Notes:
  ///   The matrices are referenced, not copied: PCMG copies their values into its level
  ///   operators at each set-up (DMKSPSetComputeOperators()), so new values set into them before
  ///   the next solve's set-up are used. LinearSolver then sets -pc_mg_galerkin none unless the
  ///   options database says otherwise. Throws polydg::Error for a wrong count, a null or a
  ///   wrongly sized matrix, naming the level.
  void set_level_operators(const std::vector<Mat>& operators);
  /// Whether set_level_operators() gave the coarse levels their own operators.
  bool has_level_operators() const;

  /// Whether `dm` is one of this class's DMs (any level): what LinearSolver asks before it
  /// makes PCMG's level operators Galerkin products.
  static bool is_agglomeration_dm(DM dm);
  /// Whether `dm` is one of this class's DMs whose hierarchy has level operators.
  static bool provides_level_operators(DM dm);

  struct Levels;  ///< shared by the DMs of one hierarchy (defined in the .cpp)

 private:
  void build(const std::vector<Prolongation>& prolongations,
             const std::vector<LevelPartition>& partitions, Placement placement);
  std::shared_ptr<Levels> levels_;
  DM dm_ = nullptr;
};

/// Whether the options database holds -[options_prefix]pc_type mg: what makes the library's
/// solvers (convergence, SlabSolver, DeviceSlabSolver) build an AgglomerationMultigrid for their
/// KSP.
bool multigrid_requested(const std::string& options_prefix);

}  // namespace polydg::petsc
