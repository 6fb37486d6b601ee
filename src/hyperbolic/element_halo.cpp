#include "polydg/hyperbolic/element_halo.hpp"

#include <petscsys.h>

#include <utility>
#include <vector>

#include "polydg/core/error.hpp"

namespace polydg::hyperbolic {

ElementHalo::ElementHalo(const MeshPartition& partition, int rank) {
  int ranks = 0;
  require(MPI_Comm_size(PETSC_COMM_WORLD, &ranks) == MPI_SUCCESS,
          "ElementHalo: MPI_Comm_size failed");
  require(partition.part_count == ranks, "ElementHalo: the partition has ", partition.part_count,
          " parts, PETSC_COMM_WORLD ", ranks,
          " ranks: partition the mesh for the ranks it runs on");
  require(rank >= 0 && rank < partition.part_count, "ElementHalo: rank ", rank,
          " is not a part of the partition's ", partition.part_count);
  owned_ = partition.owned_count(rank);
  const auto& ghosts = partition.ghosts[std::size_t(rank)];
  local_ = owned_ + Index(ghosts.size());
  const Index begin = partition.part_begin[std::size_t(rank)],
              end = partition.part_begin[std::size_t(rank) + 1];
  for (int other = 0; other < partition.part_count; ++other) {
    if (other == rank) continue;
    Neighbour neighbour;
    neighbour.rank = other;
    const Index other_begin = partition.part_begin[std::size_t(other)],
                other_end = partition.part_begin[std::size_t(other) + 1];
    // Received: this rank's ghosts that `other` owns; sent: this rank's elements that are
    // ghosts of `other`. Both ascending in the new numbering, on either side.
    for (std::size_t g = 0; g < ghosts.size(); ++g)
      if (ghosts[g] >= other_begin && ghosts[g] < other_end)
        neighbour.received.push_back(owned_ + Index(g));
    for (const Index n : partition.ghosts[std::size_t(other)])
      if (n >= begin && n < end) neighbour.sent.push_back(n - begin);
    if (!neighbour.sent.empty() || !neighbour.received.empty())
      neighbours_.push_back(std::move(neighbour));
  }
}

void ElementHalo::exchange(std::span<double> u) const {
  if (local_ == 0) return;
  require(u.size() % std::size_t(local_) == 0, "ElementHalo::exchange: ", u.size(),
          " values are not a whole number per each of the ", local_, " local elements");
  const std::size_t per_element = u.size() / std::size_t(local_);
  std::size_t sent = 0, received = 0;
  for (const Neighbour& n : neighbours_) {
    sent += n.sent.size();
    received += n.received.size();
  }
  send_buffer_.resize(sent * per_element);
  receive_buffer_.resize(received * per_element);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * neighbours_.size());
  constexpr int tag = 7301;
  std::size_t send_at = 0, receive_at = 0;
  for (const Neighbour& n : neighbours_) {
    const std::size_t receive_count = n.received.size() * per_element;
    requests.emplace_back();
    require(MPI_Irecv(receive_buffer_.data() + receive_at, int(receive_count), MPI_DOUBLE, n.rank,
                      tag, PETSC_COMM_WORLD, &requests.back()) == MPI_SUCCESS,
            "ElementHalo::exchange: MPI_Irecv from rank ", n.rank, " failed");
    receive_at += receive_count;
  }
  for (const Neighbour& n : neighbours_) {
    double* packed = send_buffer_.data() + send_at;
    for (std::size_t j = 0; j < per_element; ++j)
      for (std::size_t k = 0; k < n.sent.size(); ++k)
        packed[j * n.sent.size() + k] = u[j * std::size_t(local_) + std::size_t(n.sent[k])];
    const std::size_t send_count = n.sent.size() * per_element;
    requests.emplace_back();
    require(MPI_Isend(packed, int(send_count), MPI_DOUBLE, n.rank, tag, PETSC_COMM_WORLD,
                      &requests.back()) == MPI_SUCCESS,
            "ElementHalo::exchange: MPI_Isend to rank ", n.rank, " failed");
    send_at += send_count;
  }
  require(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE) == MPI_SUCCESS,
          "ElementHalo::exchange: MPI_Waitall failed");
  receive_at = 0;
  for (const Neighbour& n : neighbours_) {
    const double* packed = receive_buffer_.data() + receive_at;
    for (std::size_t j = 0; j < per_element; ++j)
      for (std::size_t k = 0; k < n.received.size(); ++k)
        u[j * std::size_t(local_) + std::size_t(n.received[k])] = packed[j * n.received.size() + k];
    receive_at += n.received.size() * per_element;
  }
}

}  // namespace polydg::hyperbolic
