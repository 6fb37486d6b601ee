#pragma once
// A scratch folder that every MPI rank names alike (for files one rank writes and all read):
// under the system's temporary folder, named by a prefix and rank 0's process id. Collective on
// PETSC_COMM_WORLD when made and when destroyed, where rank 0 removes it once every rank is done.
#include <mpi.h>
#include <petscsys.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace polydg::testing {

class RanksScratchFolder {
 public:
  explicit RanksScratchFolder(const std::string& prefix) {
    long id = long(getpid());
    if (MPI_Bcast(&id, 1, MPI_LONG, 0, PETSC_COMM_WORLD) != MPI_SUCCESS)
      throw std::runtime_error("RanksScratchFolder: MPI_Bcast failed");
    path_ = std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(id));
  }
  RanksScratchFolder(const RanksScratchFolder&) = delete;
  RanksScratchFolder& operator=(const RanksScratchFolder&) = delete;
  ~RanksScratchFolder() {
    MPI_Barrier(PETSC_COMM_WORLD);
    int rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    std::error_code ignored;
    if (rank == 0) std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace polydg::testing
