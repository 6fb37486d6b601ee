#pragma once
/// ElementHalo: the exchange of a rank's ghost elements' coefficients with their owners, for the
/// explicit solvers on a partitioned mesh (DistributedExplicitDG): the rank's local elements are
/// its owned ones, then its ghosts (RankSubmesh, MeshPartition), and its vectors hold
/// values_per_element values per local element, element-fastest (value j of local element c at
/// j · local_count() + c: the solvers' coefficient layout).
///
///   const ElementHalo halo(partition, rank);   // from the partition
///   halo.exchange(u);                          // the ghosts' entries from their owners
///
/// or from a PartHalo read with the rank's part from its file (rank_part_file.hpp), where no
/// rank holds the whole partition. Each pair of neighbouring ranks exchanges one message each
/// way per call (nonblocking MPI on PETSC_COMM_WORLD, after a petsc::Session); both sides list
/// the shared elements in the partition's order (PartHalo), so no set-up message is needed.
/// The constructor is collective: it checks that every rank's lists pair up with its
/// neighbours' (counts and partition_fingerprint), so halos of different partitions throw on
/// every rank rather than hang or mix.
///
/// Where the vector lives elsewhere (DeviceElementHalo: device memory), the exchange goes by
/// packed buffers: value i of the send buffer is u[send_positions()[i]], value i of the receive
/// buffer goes to u[receive_positions()[i]], and exchange_packed sends and receives them.
#include <cstddef>
#include <span>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/part_halo.hpp"

namespace polydg::hyperbolic {

class ElementHalo {
 public:
  /// Collective on PETSC_COMM_WORLD. Throws polydg::Error, on every rank, for a partition of
  /// another rank count than PETSC_COMM_WORLD's, and for a rank outside it.
  ElementHalo(const MeshPartition& partition, int rank);
  /// Collective on PETSC_COMM_WORLD: this rank's halo, `halo.part` being its rank. Throws
  /// polydg::Error, on every rank, when one rank's halo is inconsistent (check_part_halo), is
  /// not of its rank or of PETSC_COMM_WORLD's rank count, or does not pair up with its
  /// neighbours' (another partition: other fingerprints or counts).
  explicit ElementHalo(PartHalo halo);

  /// Collective over the rank's neighbours: overwrites the ghosts' entries of `u` with their
  /// owners' and sends the owned entries that other ranks hold as ghosts. Throws polydg::Error
  /// when u.size() is not a multiple of local_count() or an MPI call fails.
  void exchange(std::span<double> u) const;

  /// The positions in u (values_per_element values per local element) of the packed send and
  /// receive buffers' values: neighbour by neighbour, then value by value, then element.
  std::vector<std::size_t> send_positions(std::size_t values_per_element) const;
  std::vector<std::size_t> receive_positions(std::size_t values_per_element) const;
  /// Collective over the rank's neighbours: sends `send` (packed as send_positions) and fills
  /// `receive` (packed as receive_positions). Throws polydg::Error for buffers of other sizes
  /// and when an MPI call fails.
  void exchange_packed(std::span<const double> send, std::span<double> receive,
                       std::size_t values_per_element) const;

  Index owned_count() const { return owned_; }
  Index local_count() const { return local_; }
  /// The ranks this one exchanges with.
  int neighbour_count() const { return int(neighbours_.size()); }
  /// The partition's ghost layers (MeshPartition::ghost_layers, with_ghost_layers).
  int ghost_layers() const { return ghost_layers_; }

 private:
  using Neighbour = PartHalo::Neighbour;
  Index owned_ = 0, local_ = 0;
  int ghost_layers_ = 1;
  std::vector<Neighbour> neighbours_;
  std::size_t sent_elements_ = 0, received_elements_ = 0;  // over the neighbours
  mutable std::vector<double> send_buffer_, receive_buffer_;
};

}  // namespace polydg::hyperbolic
