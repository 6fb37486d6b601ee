#include "polydg/petsc/part_block_pattern.hpp"

#include <mpi.h>
#include <petscsys.h>

#include <string>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/petsc/world.hpp"

namespace polydg::petsc {

RankBlockPattern part_block_pattern(std::shared_ptr<const BlockPattern> local,
                                    const hyperbolic::ElementHalo& halo) {
  petsc::on_every_rank([&] {
    require(local != nullptr, "part_block_pattern: no local pattern");
    require(local->block_row_count() == halo.local_count(), "part_block_pattern: the pattern has ",
            local->block_row_count(), " block rows, the part ", halo.local_count(),
            " elements (owned and ghosts): not the same part");
  });
  const Index owned = halo.owned_count(), elements = halo.local_count();
  long long owned_dofs = (long long)local->dof_offset(owned), first = 0, total = 0;
  require(
      MPI_Exscan(&owned_dofs, &first, 1, MPI_LONG_LONG, MPI_SUM, PETSC_COMM_WORLD) == MPI_SUCCESS &&
          MPI_Allreduce(&owned_dofs, &total, 1, MPI_LONG_LONG, MPI_SUM, PETSC_COMM_WORLD) ==
              MPI_SUCCESS,
      "part_block_pattern: MPI_Exscan or MPI_Allreduce failed");
  if (world_rank() == 0) first = 0;  // MPI_Exscan leaves rank 0's result undefined

  // Per local element, its first global unknown and its block size (values exactly held by
  // doubles up to 2^53 unknowns), in ElementHalo's layout: value j of element k at j · L + k.
  std::vector<double> numbering(2 * std::size_t(elements), -1.0);
  for (Index k = 0; k < owned; ++k) {
    numbering[std::size_t(k)] = double(first + local->dof_offset(k));
    numbering[std::size_t(elements + k)] = double(local->block_size(k));
  }
  halo.exchange(numbering);
  std::vector<GlobalIndex> first_dof(static_cast<std::size_t>(elements));
  std::string failure;
  for (Index k = 0; k < elements; ++k) {
    first_dof[std::size_t(k)] = GlobalIndex(numbering[std::size_t(k)]);
    const double size = numbering[std::size_t(elements + k)];
    if (failure.empty() && size != double(local->block_size(k)))
      failure = detail::concatenate("part_block_pattern: rank ", world_rank(), "'s ghost ", k,
                                    " has ", local->block_size(k), " unknowns here and ", size,
                                    " on its owner (another degree or space)");
  }
  throw_if_any_rank_failed(failure);
  return RankBlockPattern(std::move(local), owned, std::move(first_dof), GlobalIndex(total));
}

}  // namespace polydg::petsc
