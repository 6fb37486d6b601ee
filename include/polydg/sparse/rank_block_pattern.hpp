#pragma once
/// RankBlockPattern: one rank's share of a block pattern distributed over MPI ranks — its local
/// BlockPattern (the block rows it owns first, then its ghosts' rows, as an Assembler on a
/// rank's QuadratureMesh builds it) and where that pattern sits in the global system.
///
/// Global numbering: every element has its first global unknown (global_first_dof); rank r
/// owns the contiguous unknowns [global_dof_begin, global_dof_begin + owned_dof_count), which
/// are its owned elements' in local order — the layout of a PETSc MPIAIJ matrix and MPI Vec.
/// The owned rows are a prefix of the local pattern: their values are the first
/// owned_value_count() values of a BlockMatrix on it, their unknowns the first
/// owned_dof_count() entries of a local vector, so a rank hands PETSc its values as they are.
/// A local vector's entries past owned_dof_count() are the ghosts' unknowns, in local order,
/// global indices ghost_global_dofs().
#include <memory>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg {

class RankBlockPattern {
 public:
  RankBlockPattern() = default;
  /// `global_first_dof[k]`: the global first unknown of local element k (owned and ghosts);
  /// the owned ones must be contiguous from global_first_dof[0] and within [0,
  /// global_dof_count). Throws polydg::Error for sizes that do not match the pattern, owned
  /// unknowns that are not contiguous, or indices outside the global system.
  RankBlockPattern(std::shared_ptr<const BlockPattern> local, Index owned_block_rows,
                   std::vector<GlobalIndex> global_first_dof, GlobalIndex global_dof_count);

  const BlockPattern& local() const { return *local_; }
  const std::shared_ptr<const BlockPattern>& shared_local() const { return local_; }
  Index owned_block_rows() const { return owned_block_rows_; }
  GlobalIndex owned_dof_count() const { return local_->dof_offset(owned_block_rows_); }
  /// The values of the owned rows: a prefix of the local values.
  GlobalIndex owned_value_count() const { return owned_value_count_; }
  GlobalIndex global_dof_begin() const { return global_dof_begin_; }
  GlobalIndex global_dof_count() const { return global_dof_count_; }
  GlobalIndex global_first_dof(Index local_element) const {
    return global_first_dof_[local_element];
  }
  /// The global index of every ghost unknown (local unknowns past owned_dof_count()), in order.
  std::vector<GlobalIndex> ghost_global_dofs() const;

  /// Global (row, column) of every owned value, in values order: MatSetPreallocationCOO's
  /// arrays for an MPIAIJ matrix, which then reads the owned values as they are.
  void coo_indices(std::span<GlobalIndex> rows, std::span<GlobalIndex> columns) const;

 private:
  std::shared_ptr<const BlockPattern> local_;
  Index owned_block_rows_ = 0;
  std::vector<GlobalIndex> global_first_dof_;
  GlobalIndex global_dof_begin_ = 0, global_dof_count_ = 0, owned_value_count_ = 0;
};

}  // namespace polydg
