#pragma once
/// PETSC_COMM_WORLD as the distributed pieces and programs use it (after a petsc::Session):
/// its rank count, this rank, and the sum and maximum of one double over the ranks
/// (collective). Throws polydg::Error where an MPI call fails.
///
/// Errors on some ranks only (a file one rank cannot write): a rank that throws while the
/// others go on to a collective call leaves them waiting there for ever. Work that can fail on
/// one rank runs through on_every_rank(), which makes every rank throw when any rank failed.
#include <petscsys.h>

#include <exception>
#include <span>
#include <string>

#include "polydg/core/error.hpp"

namespace polydg::petsc {

inline int world_rank_count() {
  int size = 1;
  require(MPI_Comm_size(PETSC_COMM_WORLD, &size) == MPI_SUCCESS, "MPI_Comm_size failed");
  return size;
}

inline int world_rank() {
  int rank = 0;
  require(MPI_Comm_rank(PETSC_COMM_WORLD, &rank) == MPI_SUCCESS, "MPI_Comm_rank failed");
  return rank;
}

inline double sum_over_ranks(double value) {
  double sum = 0;
  require(MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Allreduce failed");
  return sum;
}

inline double max_over_ranks(double value) {
  double largest = 0;
  require(MPI_Allreduce(&value, &largest, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Allreduce failed");
  return largest;
}

/// Each of `values` replaced by its largest over the ranks: one MPI_Allreduce for all of them
/// (a per-step reduction of several maxima pays one latency, not one each).
inline void max_over_ranks(std::span<double> values) {
  require(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MAX,
                        PETSC_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Allreduce failed");
}

/// throw_if_any_rank_failed - collective on PETSC_COMM_WORLD: every rank passes the message of
/// its error, or an empty string where it succeeded, and when any rank failed every rank
/// throws polydg::Error: a rank that failed with its own message, the others with "rank R
/// failed: " and the message of R, the lowest rank that failed. So no rank goes on to a later
/// collective call that another rank, having thrown, never makes.
inline void throw_if_any_rank_failed(const std::string& failure) {
  const int rank = world_rank(), ranks = world_rank_count();
  int mine = failure.empty() ? ranks : rank, first = ranks;
  require(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Allreduce failed");
  if (first == ranks) return;
  // Every rank takes part in the broadcasts, the failed ones too, before any throws.
  int length = rank == first ? int(failure.size()) : 0;
  require(MPI_Bcast(&length, 1, MPI_INT, first, PETSC_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Bcast failed");
  std::string message = rank == first ? failure : std::string(std::size_t(length), ' ');
  require(MPI_Bcast(message.data(), length, MPI_CHAR, first, PETSC_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Bcast failed");
  if (!failure.empty()) throw Error(failure);
  raise("rank ", first, " failed: ", message);
}

/// on_every_rank - collective on PETSC_COMM_WORLD: runs body() on this rank and then
/// throw_if_any_rank_failed() with the message of what body() threw (any std::exception),
/// so that a failure on one rank throws on all of them. Guard rank-only work inside body
/// (`if (world_rank() == 0) ...`); body must make no collective call itself.
template <class Body>
void on_every_rank(Body&& body) {
  std::string failure;
  try {
    body();
  } catch (const std::exception& error) {
    failure = error.what();
    if (failure.empty()) failure = "an error without a message";
  }
  throw_if_any_rank_failed(failure);
}

}  // namespace polydg::petsc
