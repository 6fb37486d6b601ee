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
  ghost_layers_ = partition.ghost_layers;
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
    sent_elements_ += neighbour.sent.size();
    received_elements_ += neighbour.received.size();
    if (!neighbour.sent.empty() || !neighbour.received.empty())
      neighbours_.push_back(std::move(neighbour));
  }
}

namespace {

/// The packed order: neighbour by neighbour, value j by value j, then the neighbour's `list` of
/// elements k, at j · local + k.
template <class Neighbours, class List>
std::vector<std::size_t> packed_positions(const Neighbours& neighbours, List list,
                                          std::size_t local, std::size_t values_per_element) {
  std::vector<std::size_t> positions;
  for (const auto& n : neighbours)
    for (std::size_t j = 0; j < values_per_element; ++j)
      for (const Index k : n.*list) positions.push_back(j * local + std::size_t(k));
  return positions;
}

}  // namespace

std::vector<std::size_t> ElementHalo::send_positions(std::size_t values_per_element) const {
  return packed_positions(neighbours_, &Neighbour::sent, std::size_t(local_), values_per_element);
}

std::vector<std::size_t> ElementHalo::receive_positions(std::size_t values_per_element) const {
  return packed_positions(neighbours_, &Neighbour::received, std::size_t(local_),
                          values_per_element);
}

void ElementHalo::exchange_packed(std::span<const double> send, std::span<double> receive,
                                  std::size_t values_per_element) const {
  require(send.size() == sent_elements_ * values_per_element &&
              receive.size() == received_elements_ * values_per_element,
          "ElementHalo::exchange_packed: buffers of ", send.size(), " and ", receive.size(),
          " values, expected ", sent_elements_ * values_per_element, " and ",
          received_elements_ * values_per_element, " (", values_per_element,
          " per element sent and received)");
  std::vector<MPI_Request> requests;
  requests.reserve(2 * neighbours_.size());
  constexpr int tag = 7301;
  std::size_t at = 0;
  for (const Neighbour& n : neighbours_) {
    const std::size_t count = n.received.size() * values_per_element;
    requests.emplace_back();
    require(MPI_Irecv(receive.data() + at, int(count), MPI_DOUBLE, n.rank, tag, PETSC_COMM_WORLD,
                      &requests.back()) == MPI_SUCCESS,
            "ElementHalo: MPI_Irecv from rank ", n.rank, " failed");
    at += count;
  }
  at = 0;
  for (const Neighbour& n : neighbours_) {
    const std::size_t count = n.sent.size() * values_per_element;
    requests.emplace_back();
    // MPI's C binding takes a non-const buffer before MPI-3; the buffer is only read.
    require(MPI_Isend(const_cast<double*>(send.data()) + at, int(count), MPI_DOUBLE, n.rank, tag,
                      PETSC_COMM_WORLD, &requests.back()) == MPI_SUCCESS,
            "ElementHalo: MPI_Isend to rank ", n.rank, " failed");
    at += count;
  }
  require(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE) == MPI_SUCCESS,
          "ElementHalo: MPI_Waitall failed");
}

void ElementHalo::exchange(std::span<double> u) const {
  if (local_ == 0) return;
  require(u.size() % std::size_t(local_) == 0, "ElementHalo::exchange: ", u.size(),
          " values are not a whole number per each of the ", local_, " local elements");
  const std::size_t per_element = u.size() / std::size_t(local_);
  send_buffer_.resize(sent_elements_ * per_element);
  receive_buffer_.resize(received_elements_ * per_element);
  // The packed order of send_positions / receive_positions, without building them.
  std::size_t at = 0;
  for (const Neighbour& n : neighbours_)
    for (std::size_t j = 0; j < per_element; ++j)
      for (const Index k : n.sent) send_buffer_[at++] = u[j * std::size_t(local_) + std::size_t(k)];
  exchange_packed(send_buffer_, receive_buffer_, per_element);
  at = 0;
  for (const Neighbour& n : neighbours_)
    for (std::size_t j = 0; j < per_element; ++j)
      for (const Index k : n.received)
        u[j * std::size_t(local_) + std::size_t(k)] = receive_buffer_[at++];
}

}  // namespace polydg::hyperbolic
