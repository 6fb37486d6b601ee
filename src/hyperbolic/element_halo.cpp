#include "polydg/hyperbolic/element_halo.hpp"

#include <petscsys.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../core/binary_file.hpp"
#include "polydg/core/error.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg::hyperbolic {

ElementHalo::ElementHalo(const MeshPartition& partition, int rank)
    : ElementHalo([&] {
        PartHalo halo;
        petsc::on_every_rank([&] {
          const int ranks = petsc::world_rank_count();
          require(partition.part_count == ranks, "ElementHalo: the partition has ",
                  partition.part_count, " parts, PETSC_COMM_WORLD ", ranks,
                  " ranks: partition the mesh for the ranks it runs on");
          require(rank >= 0 && rank < partition.part_count, "ElementHalo: rank ", rank,
                  " is not a part of the partition's ", partition.part_count);
          halo = std::move(part_halos(partition)[std::size_t(rank)]);
        });
        return halo;
      }()) {}

ElementHalo::ElementHalo(PartHalo halo) {
  const int ranks = petsc::world_rank_count(), rank = petsc::world_rank();
  petsc::on_every_rank([&] {
    require(halo.part_count == ranks, "ElementHalo: the halo is of a partition in ",
            halo.part_count, " parts, PETSC_COMM_WORLD has ", ranks,
            " ranks: partition the mesh for the ranks it runs on");
    require(halo.part == rank, "ElementHalo: rank ", rank, " was given part ", halo.part,
            "'s halo");
    check_part_halo(halo, "ElementHalo: rank " + std::to_string(rank) + "'s halo");
  });
  // Every rank's counts against its neighbours': what r sends here is what this rank receives
  // from r. One all-to-all of counts, so lists that do not pair up throw on every rank
  // instead of leaving a message unmatched.
  std::vector<long long> sends_to(std::size_t(ranks), 0), receives_from(std::size_t(ranks), 0),
      sent_here(std::size_t(ranks), 0);
  for (const Neighbour& n : halo.neighbours) {
    sends_to[std::size_t(n.part)] = (long long)n.sent.size();
    receives_from[std::size_t(n.part)] = (long long)n.received.size();
  }
  require(MPI_Alltoall(sends_to.data(), 1, MPI_LONG_LONG, sent_here.data(), 1, MPI_LONG_LONG,
                       PETSC_COMM_WORLD) == MPI_SUCCESS,
          "ElementHalo: MPI_Alltoall failed");
  std::uint64_t fingerprints[2] = {halo.partition_fingerprint, ~halo.partition_fingerprint},
                extremes[2] = {0, 0};
  require(MPI_Allreduce(fingerprints, extremes, 2, MPI_UINT64_T, MPI_MAX, PETSC_COMM_WORLD) ==
              MPI_SUCCESS,
          "ElementHalo: MPI_Allreduce failed");
  std::string failure;
  if (extremes[0] != ~extremes[1])
    failure = polydg::detail::concatenate(
        "ElementHalo: the ranks' halos come from different partitions (partition fingerprints ",
        polydg::detail::hexadecimal(~extremes[1]), " to ", polydg::detail::hexadecimal(extremes[0]),
        "; rank ", rank, "'s is ", polydg::detail::hexadecimal(halo.partition_fingerprint),
        "): parts written by different runs, or ranks that computed different partitions");
  for (int r = 0; r < ranks && failure.empty(); ++r)
    if (sent_here[std::size_t(r)] != receives_from[std::size_t(r)])
      failure = polydg::detail::concatenate(
          "ElementHalo: rank ", r, " sends ", sent_here[std::size_t(r)], " elements to rank ", rank,
          ", which expects ", receives_from[std::size_t(r)], ": the parts' halos do not pair up");
  petsc::throw_if_any_rank_failed(failure);

  owned_ = halo.owned_count;
  local_ = halo.local_count;
  ghost_layers_ = halo.ghost_layers;
  neighbours_ = std::move(halo.neighbours);
  for (const Neighbour& n : neighbours_) {
    sent_elements_ += n.sent.size();
    received_elements_ += n.received.size();
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
    require(MPI_Irecv(receive.data() + at, int(count), MPI_DOUBLE, n.part, tag, PETSC_COMM_WORLD,
                      &requests.back()) == MPI_SUCCESS,
            "ElementHalo: MPI_Irecv from rank ", n.part, " failed");
    at += count;
  }
  at = 0;
  for (const Neighbour& n : neighbours_) {
    const std::size_t count = n.sent.size() * values_per_element;
    requests.emplace_back();
    // MPI's C binding takes a non-const buffer before MPI-3; the buffer is only read.
    require(MPI_Isend(const_cast<double*>(send.data()) + at, int(count), MPI_DOUBLE, n.part, tag,
                      PETSC_COMM_WORLD, &requests.back()) == MPI_SUCCESS,
            "ElementHalo: MPI_Isend to rank ", n.part, " failed");
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
