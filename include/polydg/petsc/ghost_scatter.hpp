#pragma once
/// GhostScatter: a rank's local vector — its owned entries of a distributed Vec, then its
/// ghosts' entries (RankBlockPattern: the layout of a vector on rows.local()) — from an MPI Vec
/// of the same rows. The ghosts' values come from their owners through a VecScatter set up once.
///
///   polydg::petsc::GhostScatter ghosts(rows);
///   std::vector<double> local(rows.local().dof_count());
///   ghosts.gather(x.vec(), local);   // collective
#include <petscvec.h>

#include <span>

#include "polydg/petsc/placement.hpp"
#include "polydg/sparse/rank_block_pattern.hpp"

namespace polydg::petsc {

class GhostScatter {
 public:
  /// Collective on PETSC_COMM_WORLD. The ghosts' Vec is sequential, of `placement`'s type
  /// (VECSEQCUDA for Placement::device). Throws polydg::Error for a failing PETSc call.
  explicit GhostScatter(const RankBlockPattern& rows, Placement placement = Placement::host);
  ~GhostScatter();
  GhostScatter(const GhostScatter&) = delete;
  GhostScatter& operator=(const GhostScatter&) = delete;

  /// Collective. `vec` has the rows' layout (Vector(rows)); `local` has
  /// rows.local().dof_count() entries: the owned ones copied, the ghosts' gathered. Throws
  /// polydg::Error for sizes that do not match.
  void gather(Vec vec, std::span<double> local) const;

  /// The same in two halves, for work in between (VecScatterBegin / VecScatterEnd): after
  /// end(vec), ghosts() holds the ghosts' entries of `vec`, in local order. Collective.
  void begin(Vec vec) const;
  void end(Vec vec) const;
  Vec ghosts() const { return ghosts_; }
  GlobalIndex owned_count() const { return owned_; }
  GlobalIndex ghost_count() const { return local_ - owned_; }

 private:
  GlobalIndex owned_ = 0, local_ = 0;
  Vec ghosts_ = nullptr;
  VecScatter scatter_ = nullptr;
};

}  // namespace polydg::petsc
