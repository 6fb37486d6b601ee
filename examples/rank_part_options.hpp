#pragma once
// The rank part files of the example programs (heat, euler): the options --write-parts DIR,
// --ranks R and --read-parts DIR, their checks, and the read of this rank's part
// (polydg/mesh/rank_part_file.hpp).
#include <string>

#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/mesh/rank_part_file.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg::examples {

struct RankPartOptions {
  std::string write_parts;    ///< a folder: write the mesh's rank parts there and stop
  int write_parts_ranks = 0;  ///< --ranks: how many parts --write-parts writes
  std::string read_parts;     ///< a folder: each rank reads its part from there

  /// Takes `flag` and its `value` when the flag is one of the three; false otherwise.
  bool take_rank_part_option(const std::string& flag, const std::string& value) {
    if (flag == "--write-parts")
      write_parts = value;
    else if (flag == "--ranks")
      write_parts_ranks = parse_integer(flag, value);
    else if (flag == "--read-parts")
      read_parts = value;
    else
      return false;
    return true;
  }

  /// Throws polydg::Error for --ranks without --write-parts or the reverse, fewer than one
  /// rank, --write-parts with --read-parts, and --write-parts on several ranks.
  void check_rank_part_options() const {
    require(write_parts.empty() == (write_parts_ranks == 0),
            write_parts.empty()
                ? "--ranks: only with --write-parts DIR"
                : "--write-parts: needs --ranks R, the rank count of the runs that read them");
    require(write_parts.empty() || write_parts_ranks >= 1, "--ranks ", write_parts_ranks,
            ": must be at least 1");
    require(write_parts.empty() || read_parts.empty(),
            "--write-parts and --read-parts: one or the other");
    require(write_parts.empty() || petsc::world_rank_count() == 1,
            "--write-parts: runs on one rank (it writes every rank's part)");
  }
};

/// Collective: this rank's part from `folder`, whose parts must have been written as
/// `description` (the program's case); a failure on any rank throws on all.
inline RankPart<2> read_this_ranks_part(const std::string& folder, const std::string& description) {
  RankPart<2> part;
  petsc::on_every_rank([&] {
    part = read_rank_part<2>(folder, petsc::world_rank(), petsc::world_rank_count());
    require(part.description == description, "--read-parts ", folder, ": holds parts of '",
            part.description, "', not of '", description, "'");
  });
  return part;
}

}  // namespace polydg::examples
