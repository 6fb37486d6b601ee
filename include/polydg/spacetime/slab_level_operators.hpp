#pragma once
/// SlabLevelOperators: the coarse levels of a slab's agglomeration hierarchy with operators of
/// their own — the slab problem assembled on each coarse level's mesh (its elements' penalty and
/// faces; docs/theory.md, "Agglomeration multigrid"), kept in step with the fine slab as the
/// march moves it in time, for AgglomerationMultigrid::set_level_operators():
///
///   SlabLevelOperators levels(hierarchy, slab_conditions, options.assembly);
///   multigrid.set_level_operators(levels.mats());
///   // each step, as the fine assembler:
///   levels.map_last_coordinate(from_begin, from_end, t_begin, t_end);
///   if (matrix_step) levels.assemble(coefficients);
///
/// PCMG copies the levels' values at each set-up, which follows every new fine matrix.
/// Assembled on the CPU.
#include <petscmat.h>

#include <memory>
#include <vector>

#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/level_partition.hpp"
#include "polydg/dg/partition_numbering.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg {

class SlabLevelOperators {
 public:
  /// The levels 1 … level_count() − 1 of `hierarchy` (which must outlive this object), with
  /// `conditions` and `options` as the fine slab's assembler has them. Their matrices are zero
  /// until the first assemble(). With the slab's `partition` (several ranks; that of an
  /// AgglomerationMultigrid(hierarchy, partition)), each rank assembles its rows of every
  /// level (partition_hierarchy) into that level's MPIAIJ. Collective then.
  SlabLevelOperators(const AgglomerationHierarchy<3>& hierarchy,
                     const BoundaryConditions& conditions, const AssemblyOptions& options,
                     const MeshPartition* partition = nullptr) {
    const std::vector<MeshPartition> parts =
        partition ? partition_hierarchy(hierarchy, *partition) : std::vector<MeshPartition>{};
    for (int level = 1; level < hierarchy.level_count(); ++level) {
      const PolytopicMesh<3>& mesh = hierarchy.mesh(level);
      if (!partition) {
        auto& added = levels_.emplace_back(
            std::make_unique<Level>(Level{Assembler<3>(mesh, conditions, options), {}, {}}));
        added->matrix = added->assembler.make_matrix();
        added->aij = petsc::AijMatrix(*added->assembler.pattern());
        continue;
      }
      const MeshPartition& level_parts = parts[std::size_t(level)];
      const int rank = petsc::world_rank();
      auto& added = levels_.emplace_back(std::make_unique<Level>(
          Level{Assembler<3>(QuadratureMesh<3>(mesh, conditions, options.pieces, level_parts, rank),
                             options),
                {},
                {}}));
      added->matrix = added->assembler.make_matrix();
      added->aij = petsc::AijMatrix(
          make_rank_block_pattern(added->assembler.pattern(), level_parts, rank,
                                  partition_dof_offsets(mesh, level_parts, options.space)));
    }
  }

  /// Moves every level's slab in time as Assembler::map_last_coordinate moves the fine one.
  void map_last_coordinate(double from_begin, double from_end, double to_begin, double to_end) {
    for (auto& level : levels_)
      level->assembler.map_last_coordinate(from_begin, from_end, to_begin, to_end);
  }

  /// Assembles every level's matrix of `coefficients` into its AIJ matrix.
  template <class Coefficients>
  void assemble(const Coefficients& coefficients) {
    for (auto& level : levels_) {
      level->assembler.assemble_matrix(coefficients, level->matrix);
      level->aij.update(level->matrix);
    }
  }

  /// For set_level_operators(): null for the finest level, then each coarse level's Mat.
  std::vector<Mat> mats() const {
    std::vector<Mat> result{nullptr};
    for (const auto& level : levels_) result.push_back(level->aij.mat());
    return result;
  }

 private:
  struct Level {
    Assembler<3> assembler;
    BlockMatrix<double> matrix;
    petsc::AijMatrix aij;
  };
  std::vector<std::unique_ptr<Level>> levels_;
};

}  // namespace polydg
