#pragma once
/// PETSC_COMM_WORLD as the distributed pieces and programs use it (after a petsc::Session):
/// its rank count, this rank, and the sum and maximum of one double over the ranks
/// (collective). Throws polydg::Error where an MPI call fails.
#include <petscsys.h>

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

}  // namespace polydg::petsc
