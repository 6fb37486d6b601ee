#include "polydg/petsc/ghost_scatter.hpp"

#include <petscis.h>

#include <iostream>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/petsc/petsc_error.hpp"

namespace polydg::petsc {

GhostScatter::GhostScatter(const RankBlockPattern& rows, Placement placement)
    : owned_(rows.owned_dof_count()), local_(rows.local().dof_count()) {
  const std::vector<GlobalIndex> dofs = rows.ghost_global_dofs();
  std::vector<PetscInt> indices(dofs.begin(), dofs.end());
  IS from = nullptr;
  Vec layout = nullptr;
  try {
    POLYDG_PETSC_CALL(VecCreate(PETSC_COMM_SELF, &ghosts_));
    POLYDG_PETSC_CALL(VecSetSizes(ghosts_, PetscInt(indices.size()), PetscInt(indices.size())));
    POLYDG_PETSC_CALL(VecSetType(ghosts_, default_vec_type(placement)));
    POLYDG_PETSC_CALL(ISCreateGeneral(PETSC_COMM_SELF, PetscInt(indices.size()), indices.data(),
                                      PETSC_COPY_VALUES, &from));
    // A Vec of the rows' layout, for VecScatterCreate's source (no values).
    POLYDG_PETSC_CALL(VecCreateMPIWithArray(PETSC_COMM_WORLD, 1, PetscInt(owned_),
                                            PetscInt(rows.global_dof_count()), nullptr, &layout));
    POLYDG_PETSC_CALL(VecScatterCreate(layout, from, ghosts_, nullptr, &scatter_));
    POLYDG_PETSC_CALL(ISDestroy(&from));
    POLYDG_PETSC_CALL(VecDestroy(&layout));
  } catch (...) {
    ISDestroy(&from);
    VecDestroy(&layout);
    VecScatterDestroy(&scatter_);
    VecDestroy(&ghosts_);
    throw;
  }
}

GhostScatter::~GhostScatter() {
  PetscBool finalized = PETSC_FALSE;
  PetscFinalized(&finalized);
  if (finalized) return;
  if (VecScatterDestroy(&scatter_) != 0 || VecDestroy(&ghosts_) != 0)
    std::cerr << "polydg::petsc::GhostScatter: destroying the scatter failed\n";
}

void GhostScatter::gather(Vec vec, std::span<double> local) const {
  require(GlobalIndex(local.size()) == local_,
          "polydg::petsc::GhostScatter::gather: ", local.size(), " local entries, the rows have ",
          local_);
  PetscInt owned = 0;
  POLYDG_PETSC_CALL(VecGetLocalSize(vec, &owned));
  require(GlobalIndex(owned) == owned_, "polydg::petsc::GhostScatter::gather: the Vec has ", owned,
          " local entries, the rows own ", owned_);
  begin(vec);
  const PetscScalar* array = nullptr;
  POLYDG_PETSC_CALL(VecGetArrayRead(vec, &array));
  for (GlobalIndex i = 0; i < owned_; ++i) local[std::size_t(i)] = double(array[i]);
  POLYDG_PETSC_CALL(VecRestoreArrayRead(vec, &array));
  end(vec);
  POLYDG_PETSC_CALL(VecGetArrayRead(ghosts_, &array));
  for (GlobalIndex i = owned_; i < local_; ++i) local[std::size_t(i)] = double(array[i - owned_]);
  POLYDG_PETSC_CALL(VecRestoreArrayRead(ghosts_, &array));
}

void GhostScatter::begin(Vec vec) const {
  POLYDG_PETSC_CALL(VecScatterBegin(scatter_, vec, ghosts_, INSERT_VALUES, SCATTER_FORWARD));
}

void GhostScatter::end(Vec vec) const {
  POLYDG_PETSC_CALL(VecScatterEnd(scatter_, vec, ghosts_, INSERT_VALUES, SCATTER_FORWARD));
}

}  // namespace polydg::petsc
