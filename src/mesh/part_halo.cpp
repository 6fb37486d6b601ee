#include "polydg/mesh/part_halo.hpp"

#include <map>
#include <utility>

#include "../core/binary_file.hpp"
#include "polydg/core/error.hpp"

namespace polydg {

std::vector<PartHalo> part_halos(const MeshPartition& partition) {
  const std::size_t parts = std::size_t(partition.part_count);
  const std::uint64_t fingerprint = partition_fingerprint(partition);
  std::vector<PartHalo> halos(parts);
  std::vector<std::map<int, PartHalo::Neighbour>> neighbours(parts);
  for (std::size_t q = 0; q < parts; ++q) {
    PartHalo& halo = halos[q];
    halo.part_count = partition.part_count;
    halo.part = int(q);
    halo.ghost_layers = partition.ghost_layers;
    halo.owned_count = partition.owned_count(int(q));
    halo.local_count = halo.owned_count + partition.ghost_count(int(q));
    halo.partition_fingerprint = fingerprint;
  }
  // Ghost g of part q, element n of part p: q receives it as its local element owned + g, p
  // sends its local element n - part_begin[p]. q's ghosts ascend in n, so both lists of the
  // pair (p, q) are in the partition's order.
  for (std::size_t q = 0; q < parts; ++q) {
    const auto& ghosts = partition.ghosts[q];
    for (std::size_t g = 0; g < ghosts.size(); ++g) {
      const Index n = ghosts[g];
      const int p = partition.part_of_element[std::size_t(partition.old_from_new[std::size_t(n)])];
      neighbours[q][p].received.push_back(halos[q].owned_count + Index(g));
      neighbours[std::size_t(p)][int(q)].sent.push_back(n - partition.part_begin[std::size_t(p)]);
    }
  }
  for (std::size_t q = 0; q < parts; ++q)
    for (auto& [p, neighbour] : neighbours[q]) {
      neighbour.part = p;
      halos[q].neighbours.push_back(std::move(neighbour));
    }
  return halos;
}

std::uint64_t partition_fingerprint(const MeshPartition& partition) {
  detail::WordHash hash;
  hash.add(std::uint64_t(partition.part_count));
  hash.add(std::uint64_t(partition.ghost_layers));
  hash.add(std::uint64_t(partition.part_of_element.size()));
  for (const int part : partition.part_of_element) hash.add(std::uint64_t(part));
  return hash.value();
}

void check_part_halo(const PartHalo& halo, const std::string& where) {
  require(halo.part_count >= 1 && halo.part >= 0 && halo.part < halo.part_count, where, ": part ",
          halo.part, " of ", halo.part_count, " parts");
  require(halo.ghost_layers >= 1, where, ": ", halo.ghost_layers, " ghost layers");
  require(halo.owned_count >= 0 && halo.local_count >= halo.owned_count, where, ": ",
          halo.owned_count, " owned elements of ", halo.local_count, " local ones");
  std::vector<char> received(std::size_t(halo.local_count - halo.owned_count), 0);
  int previous = -1;
  for (const PartHalo::Neighbour& n : halo.neighbours) {
    require(n.part >= 0 && n.part < halo.part_count && n.part != halo.part, where,
            ": a neighbour part ", n.part, " (the part is ", halo.part, " of ", halo.part_count,
            ")");
    require(n.part > previous, where, ": neighbour part ", n.part, " after part ", previous,
            " (the neighbours go by ascending part, each once)");
    previous = n.part;
    for (const Index k : n.sent)
      require(k >= 0 && k < halo.owned_count, where, ": part ", n.part, " is sent local element ",
              k, ", not one of the ", halo.owned_count, " owned");
    for (const Index k : n.received) {
      require(k >= halo.owned_count && k < halo.local_count, where, ": part ", n.part,
              " sends local element ", k, ", not a ghost (ghosts are ", halo.owned_count, "..",
              halo.local_count - 1, ")");
      char& seen = received[std::size_t(k - halo.owned_count)];
      require(!seen, where, ": ghost ", k, " is received twice");
      seen = 1;
    }
  }
  for (std::size_t g = 0; g < received.size(); ++g)
    require(received[g], where, ": ghost ", halo.owned_count + Index(g),
            " is received from no neighbour");
}

}  // namespace polydg
