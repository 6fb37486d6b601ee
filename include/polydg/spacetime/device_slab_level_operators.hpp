#pragma once
/// DeviceSlabLevelOperators: SlabLevelOperators (slab_level_operators.hpp) with every level
/// assembled on the GPU — a DeviceAssembler per coarse level of the slab's agglomeration
/// hierarchy, its values copied into the level's AIJ matrix from device memory (MATAIJCUSPARSE
/// with MatSetValuesCOO() where the placement is the device, so a level's matrix never visits
/// the host). DeviceSlabSolver keeps them in step with the fine slab:
///
///   DeviceSlabLevelOperators levels(hierarchy, slab_conditions, options.assembly,
///                                   device_options, placement, options_prefix);
///   multigrid.set_level_operators(levels.mats());
///   // each step, as the fine assembler:
///   levels.map_last_coordinate(from_begin, from_end, t_begin, t_end);
///   if (matrix_step)
///     levels.assemble([&](DeviceAssembler<3>& level, DevicePointCoefficients<3, 2>& points) {
///       level.assemble_matrix(coefficients);  // or from `points` evaluated on the host
///     });
///
/// PCMG copies the levels' values at each set-up, which follows every new fine matrix.
#include <petscmat.h>

#include <memory>
#include <string>
#include <vector>

#include "polydg/dg/agglomeration_hierarchy.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/device_assembler.hpp"
#include "polydg/dg/device_point_coefficients.hpp"
#include "polydg/dg/level_partition.hpp"
#include "polydg/dg/partition_numbering.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/placement.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg {

class DeviceSlabLevelOperators {
 public:
  /// The levels 1 … level_count() − 1 of `hierarchy` (which must outlive this object), with
  /// `conditions` and the options as the fine slab's assembler has them; the AIJ matrices follow
  /// `placement` and -[options_prefix]mat_type as the fine one. Zero until the first assemble().
  /// With the slab's `partition` (several ranks), each rank assembles its rows of every level
  /// on its GPU, as SlabLevelOperators does on the CPU. Collective then.
  DeviceSlabLevelOperators(const AgglomerationHierarchy<3>& hierarchy,
                           const BoundaryConditions& conditions, const AssemblyOptions& options,
                           const DeviceAssemblyOptions& device_options, petsc::Placement placement,
                           const std::string& options_prefix,
                           const MeshPartition* partition = nullptr) {
    const std::vector<MeshPartition> parts =
        partition ? partition_hierarchy(hierarchy, *partition) : std::vector<MeshPartition>{};
    for (int level = 1; level < hierarchy.level_count(); ++level) {
      const PolytopicMesh<3>& mesh = hierarchy.mesh(level);
      if (!partition) {
        auto& added = levels_.emplace_back(std::make_unique<Level>(
            Level{DeviceAssembler<3>(mesh, conditions, options, device_options), {}, {}}));
        added->aij = petsc::AijMatrix(*added->assembler.host_pattern(), options_prefix, placement);
        continue;
      }
      const MeshPartition& level_parts = parts[std::size_t(level)];
      const int rank = petsc::world_rank();
      auto& added = levels_.emplace_back(std::make_unique<Level>(Level{
          DeviceAssembler<3>(QuadratureMesh<3>(mesh, conditions, options.pieces, level_parts, rank),
                             options, device_options),
          {},
          {}}));
      added->aij = petsc::AijMatrix(
          make_rank_block_pattern(added->assembler.host_pattern(), level_parts, rank,
                                  partition_dof_offsets(mesh, level_parts, options.space)),
          options_prefix, placement);
    }
  }

  /// Moves every level's slab in time as DeviceAssembler::map_last_coordinate moves the fine one.
  void map_last_coordinate(double from_begin, double from_end, double to_begin, double to_end) {
    for (auto& level : levels_)
      level->assembler.map_last_coordinate(from_begin, from_end, to_begin, to_end);
  }

  /// assemble_matrix(assembler, point_data) on every level — it assembles the level's matrix,
  /// `point_data` being that level's to fill where the data are evaluated on the host — then
  /// the values into the level's AIJ matrix, device to device where the placement allows.
  template <class AssembleMatrix>
  void assemble(AssembleMatrix&& assemble_matrix) {
    for (auto& level : levels_) {
      assemble_matrix(level->assembler, level->point_data);
      level->aij.update_from_device(level->assembler.values());
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
    DeviceAssembler<3> assembler;
    DevicePointCoefficients<3, 2> point_data;  ///< the data at its points (host evaluation)
    petsc::AijMatrix aij;
  };
  std::vector<std::unique_ptr<Level>> levels_;
};

}  // namespace polydg
