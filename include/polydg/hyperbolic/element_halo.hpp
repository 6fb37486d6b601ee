#pragma once
/// ElementHalo: the exchange of a rank's ghost elements' coefficients with their owners, for the
/// explicit solvers on a partitioned mesh (DistributedExplicitDG): the rank's local elements are
/// its owned ones, then its ghosts (RankSubmesh, MeshPartition), and its vectors hold
/// values_per_element values per local element, element-fastest (value j of local element c at
/// j · local_count() + c: the solvers' coefficient layout).
///
///   const ElementHalo halo(partition, rank);   // from the partition alone: no message
///   halo.exchange(u);                          // the ghosts' entries from their owners
///
/// Each pair of neighbouring ranks exchanges one message each way per call (nonblocking MPI on
/// PETSC_COMM_WORLD, after a petsc::Session); both sides list the shared elements in the
/// partition's order, so no set-up message is needed.
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/mesh_partition.hpp"

namespace polydg::hyperbolic {

class ElementHalo {
 public:
  /// Throws polydg::Error for a partition of another rank count than PETSC_COMM_WORLD's, and
  /// for a rank outside it.
  ElementHalo(const MeshPartition& partition, int rank);

  /// Collective over the rank's neighbours: overwrites the ghosts' entries of `u` with their
  /// owners' and sends the owned entries that other ranks hold as ghosts. Throws polydg::Error
  /// when u.size() is not a multiple of local_count() or an MPI call fails.
  void exchange(std::span<double> u) const;

  Index owned_count() const { return owned_; }
  Index local_count() const { return local_; }
  /// The ranks this one exchanges with.
  int neighbour_count() const { return int(neighbours_.size()); }

 private:
  struct Neighbour {
    int rank = 0;
    std::vector<Index> sent, received;  // local elements, in the partition's order
  };
  Index owned_ = 0, local_ = 0;
  std::vector<Neighbour> neighbours_;
  mutable std::vector<double> send_buffer_, receive_buffer_;
};

}  // namespace polydg::hyperbolic
