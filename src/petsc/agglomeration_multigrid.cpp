#include "polydg/petsc/agglomeration_multigrid.hpp"

#include <petscdmshell.h>
#include <petscksp.h>

#include <exception>
#include <iostream>
#include <limits>
#include <string>
#include <utility>

#include "destroy_context.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "single_rank.hpp"
#include "string_option.hpp"

namespace polydg::petsc {

/// What every DM of one hierarchy shares: the prolongations, each level's size and Vec type.
struct AgglomerationMultigrid::Levels {
  std::vector<Mat> prolongations;          ///< [ℓ]: level ℓ + 1 → level ℓ
  std::vector<PetscInt> dof_counts;        ///< [ℓ], 0 the finest
  std::vector<PetscInt> owned_dof_counts;  ///< [ℓ]: this rank's
  std::vector<Mat> operators;  ///< [ℓ], ℓ ≥ 1: set_level_operators(); empty: Galerkin
  std::string vec_type;
  std::string mat_type;

  ~Levels() {
    PetscBool finalized = PETSC_FALSE;
    PetscFinalized(&finalized);
    if (finalized) return;  // gone with the rest of PETSc's memory
    for (std::vector<Mat>* matrices : {&prolongations, &operators})
      for (Mat& m : *matrices)
        if (m != nullptr && MatDestroy(&m) != 0)
          std::cerr << "polydg::petsc::AgglomerationMultigrid: MatDestroy failed\n";
  }
};

namespace {

using Levels = AgglomerationMultigrid::Levels;

/// A DMShell's context: the shared levels and which one it is.
struct LevelContext {
  std::shared_ptr<Levels> levels;
  int level = 0;
};

/// Marks the hierarchy's DMs (PetscObjectComposeFunction(), PETSc's way to tag an object).
constexpr const char* marker_name = "polydg_agglomeration_multigrid_C";
PetscErrorCode marker() { return 0; }

template <class Body>
PetscErrorCode guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const std::exception& error) {
    return PetscError(PETSC_COMM_SELF, __LINE__, function, __FILE__, PETSC_ERR_ARG_OUTOFRANGE,
                      PETSC_ERROR_INITIAL, "%s", error.what());
  } catch (...) {
    return PetscError(PETSC_COMM_SELF, __LINE__, function, __FILE__, PETSC_ERR_LIB,
                      PETSC_ERROR_INITIAL, "polydg::petsc::AgglomerationMultigrid: unknown error");
  }
}

LevelContext& context_of(DM dm) {
  void* context = nullptr;
  POLYDG_PETSC_CALL(DMShellGetContext(dm, &context));
  require(context != nullptr, "polydg::petsc::AgglomerationMultigrid: a DMShell without context");
  return *static_cast<LevelContext*>(context);
}

PetscErrorCode create_global_vector(DM dm, Vec* vector) {
  return guarded("polydg::petsc::AgglomerationMultigrid DMCreateGlobalVector", [&] {
    const LevelContext& context = context_of(dm);
    const std::size_t level = std::size_t(context.level);
    POLYDG_PETSC_CALL(VecCreate(PetscObjectComm(reinterpret_cast<PetscObject>(dm)), vector));
    POLYDG_PETSC_CALL(VecSetSizes(*vector, context.levels->owned_dof_counts[level],
                                  context.levels->dof_counts[level]));
    POLYDG_PETSC_CALL(VecSetType(*vector, context.levels->vec_type.c_str()));
    POLYDG_PETSC_CALL(VecSetDM(*vector, dm));
  });
}

/// The operator set_level_operators() gave the DM's level; throws where there is none.
Mat level_operator(const LevelContext& context) {
  const std::vector<Mat>& operators = context.levels->operators;
  require(!operators.empty() && context.level > 0, "polydg::petsc::AgglomerationMultigrid: level ",
          context.level,
          " has no operator of its own: give the coarse levels theirs with "
          "set_level_operators(), or use Galerkin levels (-pc_mg_galerkin both)");
  return operators[std::size_t(context.level)];
}

PetscErrorCode create_matrix(DM dm, Mat* matrix) {
  return guarded("polydg::petsc::AgglomerationMultigrid DMCreateMatrix", [&] {
    POLYDG_PETSC_CALL(MatDuplicate(level_operator(context_of(dm)), MAT_COPY_VALUES, matrix));
  });
}

/// PCMG's level KSPs with -pc_mg_galerkin none compute their operators through their DM at
/// each set-up: the level's matrix, copied.
PetscErrorCode compute_operators(KSP ksp, Mat a, Mat b, void*) {
  return guarded("polydg::petsc::AgglomerationMultigrid KSPComputeOperators", [&] {
    DM dm = nullptr;
    POLYDG_PETSC_CALL(KSPGetDM(ksp, &dm));
    const Mat source = level_operator(context_of(dm));
    POLYDG_PETSC_CALL(MatCopy(source, b, SAME_NONZERO_PATTERN));
    if (a != b) POLYDG_PETSC_CALL(MatCopy(source, a, SAME_NONZERO_PATTERN));
  });
}

PetscErrorCode coarsen(DM fine, MPI_Comm, DM* coarse);
PetscErrorCode create_interpolation(DM coarse, DM fine, Mat* interpolation, Vec* scale);

/// The DMShell of `level`.
DM make_level_dm(MPI_Comm communicator, std::shared_ptr<Levels> levels, int level) {
  DM dm = nullptr;
  POLYDG_PETSC_CALL(DMShellCreate(communicator, &dm));
  try {
    auto context = std::make_unique<LevelContext>(LevelContext{std::move(levels), level});
    POLYDG_PETSC_CALL(DMShellSetContext(dm, context.get()));
    POLYDG_PETSC_CALL(DMShellSetDestroyContext(dm, detail::destroy_context<LevelContext>));
    const LevelContext& owned = *context.release();
    POLYDG_PETSC_CALL(DMShellSetCreateGlobalVector(dm, create_global_vector));
    POLYDG_PETSC_CALL(DMShellSetCoarsen(dm, coarsen));
    POLYDG_PETSC_CALL(DMShellSetCreateInterpolation(dm, create_interpolation));
    POLYDG_PETSC_CALL(DMShellSetCreateMatrix(dm, create_matrix));
    POLYDG_PETSC_CALL(DMKSPSetComputeOperators(dm, compute_operators, nullptr));
    POLYDG_PETSC_CALL(DMSetMatType(dm, owned.levels->mat_type.c_str()));
    POLYDG_PETSC_CALL(
        PetscObjectComposeFunction(reinterpret_cast<PetscObject>(dm), marker_name, marker));
    const std::string name = "polydg agglomeration level " + std::to_string(level);
    POLYDG_PETSC_CALL(PetscObjectSetName(reinterpret_cast<PetscObject>(dm), name.c_str()));
    POLYDG_PETSC_CALL(DMSetUp(dm));
  } catch (...) {
    DMDestroy(&dm);
    throw;
  }
  return dm;
}

PetscErrorCode coarsen(DM fine, MPI_Comm communicator, DM* coarse) {
  return guarded("polydg::petsc::AgglomerationMultigrid DMCoarsen", [&] {
    const LevelContext& context = context_of(fine);
    const int levels = int(context.levels->dof_counts.size());
    require(context.level + 1 < levels, "polydg::petsc::AgglomerationMultigrid: level ",
            context.level, " is the coarsest of the hierarchy's ", levels,
            " levels; ask PCMG for at most ", levels, " (-pc_mg_levels)");
    if (communicator == MPI_COMM_NULL)
      communicator = PetscObjectComm(reinterpret_cast<PetscObject>(fine));
    *coarse = make_level_dm(communicator, context.levels, context.level + 1);
  });
}

// DMCreateInterpolation(coarse, fine): PETSc asks the coarse DM.
PetscErrorCode create_interpolation(DM coarse, DM fine, Mat* interpolation, Vec* scale) {
  return guarded("polydg::petsc::AgglomerationMultigrid DMCreateInterpolation", [&] {
    const LevelContext& coarse_context = context_of(coarse);
    const LevelContext& fine_context = context_of(fine);
    require(coarse_context.levels == fine_context.levels &&
                coarse_context.level == fine_context.level + 1,
            "polydg::petsc::AgglomerationMultigrid: no interpolation from level ",
            coarse_context.level, " to level ", fine_context.level,
            " (only from one level to the next finer of the same hierarchy)");
    Mat p = coarse_context.levels->prolongations[std::size_t(fine_context.level)];
    POLYDG_PETSC_CALL(PetscObjectReference(reinterpret_cast<PetscObject>(p)));
    *interpolation = p;
    if (scale != nullptr) *scale = nullptr;  // PCMG restricts with Pᵀ, no rescaling
  });
}

/// This rank's rows of the AIJ matrix of one Prolongation: rows the fine unknowns, columns the
/// coarse ones, both in their level's global numbering (`fine`, `coarse`); the rows of the fine
/// elements the rank owns, whose columns may be another rank's.
Mat make_prolongation_matrix(const Prolongation& prolongation, const LevelPartition& fine,
                             const LevelPartition& coarse, int rank, const char* mat_type) {
  const GlobalIndex rows = prolongation.fine_dof_count(), columns = prolongation.coarse_dof_count();
  require(rows <= GlobalIndex(std::numeric_limits<PetscInt>::max()),
          "polydg::petsc::AgglomerationMultigrid: ", rows,
          " unknowns, more than PetscInt can index");
  std::vector<PetscInt> row_index, column_index;
  std::vector<PetscScalar> values;
  const Index fine_elements = Index(prolongation.coarse_of_fine.size());
  // The common block size of either side, or 0 where they differ (hp): over all elements, so
  // every rank sets the same.
  GlobalIndex fine_block = -1, coarse_block = -1;
  const auto common = [](GlobalIndex& block, GlobalIndex size) {
    block = block < 0 || block == size ? size : 0;
  };
  for (std::size_t k = 0; k + 1 < prolongation.coarse_offsets.size(); ++k)
    common(coarse_block, prolongation.coarse_offsets[k + 1] - prolongation.coarse_offsets[k]);
  for (Index e = 0; e < fine_elements; ++e) {
    const Index parent = prolongation.coarse_of_fine[std::size_t(e)];
    const GlobalIndex n = prolongation.fine_offsets[e + 1] - prolongation.fine_offsets[e];
    const GlobalIndex m =
        prolongation.coarse_offsets[parent + 1] - prolongation.coarse_offsets[parent];
    common(fine_block, n);
    const std::size_t block = prolongation.block_offsets[e];
    require(prolongation.block_offsets[e + 1] - block == std::size_t(n * m),
            "polydg::petsc::AgglomerationMultigrid: the prolongation block of fine element ", e,
            " is not its ", n, " x ", m, " unknowns");
    if (fine.owner[std::size_t(e)] != rank) continue;
    for (GlobalIndex i = 0; i < n; ++i)
      for (GlobalIndex j = 0; j < m; ++j) {
        row_index.push_back(PetscInt(fine.first_dof[std::size_t(e)] + i));
        column_index.push_back(PetscInt(coarse.first_dof[std::size_t(parent)] + j));
        values.push_back(prolongation.values[block + std::size_t(i * m + j)]);
      }
  }
  Mat p = nullptr;
  POLYDG_PETSC_CALL(MatCreate(PETSC_COMM_WORLD, &p));
  try {
    POLYDG_PETSC_CALL(MatSetSizes(p, PetscInt(fine.owned_dof_count(rank)),
                                  PetscInt(coarse.owned_dof_count(rank)), PetscInt(rows),
                                  PetscInt(columns)));
    POLYDG_PETSC_CALL(MatSetType(p, mat_type));
    // Equal blocks on either side: the Mat's block sizes, which PCMG's PᵀAP passes on to the
    // coarse operators (for -mg_levels_pc_type pbjacobi).
    if (fine_block > 0 && coarse_block > 0)
      POLYDG_PETSC_CALL(MatSetBlockSizes(p, PetscInt(fine_block), PetscInt(coarse_block)));
    POLYDG_PETSC_CALL(MatSetPreallocationCOO(p, PetscCount(row_index.size()), row_index.data(),
                                             column_index.data()));
    POLYDG_PETSC_CALL(MatSetValuesCOO(p, values.data(), INSERT_VALUES));
  } catch (...) {
    MatDestroy(&p);
    throw;
  }
  return p;
}

/// One rank's levels: every element owned by rank 0, in its level's own numbering.
std::vector<LevelPartition> single_rank_levels(const std::vector<Prolongation>& prolongations,
                                               GlobalIndex finest_dof_count) {
  const auto level = [](const std::vector<GlobalIndex>& offsets) {
    LevelPartition partition;
    partition.owner.assign(offsets.size() - 1, 0);
    partition.first_dof.assign(offsets.begin(), offsets.end() - 1);
    partition.rank_dof_begin = {0, offsets.back()};
    return partition;
  };
  std::vector<LevelPartition> levels;
  if (prolongations.empty()) {
    LevelPartition finest;
    finest.rank_dof_begin = {0, finest_dof_count};
    levels.push_back(std::move(finest));
    return levels;
  }
  levels.push_back(level(prolongations.front().fine_offsets));
  for (const Prolongation& p : prolongations) levels.push_back(level(p.coarse_offsets));
  return levels;
}

}  // namespace

AgglomerationMultigrid::AgglomerationMultigrid(const std::vector<Prolongation>& prolongations,
                                               Placement placement) {
  require(!prolongations.empty(),
          "polydg::petsc::AgglomerationMultigrid: no prolongations (a hierarchy of one level: "
          "construct from the AgglomerationHierarchy)");
  detail::require_single_rank("polydg::petsc::AgglomerationMultigrid",
                              "; give it the finest level's MeshPartition on several ranks");
  build(prolongations, single_rank_levels(prolongations, prolongations.front().fine_dof_count()),
        placement);
}

template <int Dim>
AgglomerationMultigrid::AgglomerationMultigrid(const AgglomerationHierarchy<Dim>& hierarchy,
                                               Placement placement) {
  detail::require_single_rank("polydg::petsc::AgglomerationMultigrid",
                              "; give it the finest level's MeshPartition on several ranks");
  build(hierarchy.prolongations(),
        single_rank_levels(hierarchy.prolongations(), hierarchy.dof_count(0)), placement);
}

template <int Dim>
AgglomerationMultigrid::AgglomerationMultigrid(const AgglomerationHierarchy<Dim>& hierarchy,
                                               const MeshPartition& partition,
                                               Placement placement) {
  PetscMPIInt ranks = 0;
  POLYDG_PETSC_CALL(MPI_Comm_size(PETSC_COMM_WORLD, &ranks));
  require(partition.part_count == ranks,
          "polydg::petsc::AgglomerationMultigrid: the partition has ", partition.part_count,
          " parts, PETSC_COMM_WORLD ", ranks, " ranks");
  const std::vector<GlobalIndex> finest_offsets =
      dg_coefficient_offsets<Dim>(hierarchy.mesh(0).degrees());
  build(hierarchy.prolongations(),
        partition_levels(hierarchy.prolongations(), finest_offsets, partition), placement);
}

template AgglomerationMultigrid::AgglomerationMultigrid(const AgglomerationHierarchy<2>&,
                                                        Placement);
template AgglomerationMultigrid::AgglomerationMultigrid(const AgglomerationHierarchy<3>&,
                                                        Placement);
template AgglomerationMultigrid::AgglomerationMultigrid(const AgglomerationHierarchy<2>&,
                                                        const MeshPartition&, Placement);
template AgglomerationMultigrid::AgglomerationMultigrid(const AgglomerationHierarchy<3>&,
                                                        const MeshPartition&, Placement);

void AgglomerationMultigrid::build(const std::vector<Prolongation>& prolongations,
                                   const std::vector<LevelPartition>& partitions,
                                   Placement placement) {
  const GlobalIndex finest_dof_count = partitions.front().dof_count();
  require(finest_dof_count <= GlobalIndex(std::numeric_limits<PetscInt>::max()),
          "polydg::petsc::AgglomerationMultigrid: ", finest_dof_count,
          " unknowns, more than PetscInt can index");
  PetscMPIInt rank = 0;
  POLYDG_PETSC_CALL(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  levels_ = std::make_shared<Levels>();
  levels_->vec_type = default_vec_type(placement);
  levels_->mat_type = default_aij_type(placement);
  levels_->dof_counts.push_back(PetscInt(finest_dof_count));
  levels_->owned_dof_counts.push_back(PetscInt(partitions.front().owned_dof_count(rank)));
  for (std::size_t l = 0; l < prolongations.size(); ++l) {
    require(prolongations[l].fine_dof_count() == GlobalIndex(levels_->dof_counts.back()),
            "polydg::petsc::AgglomerationMultigrid: prolongation ", l, " starts from ",
            prolongations[l].fine_dof_count(), " unknowns, level ", l, " has ",
            levels_->dof_counts.back());
    levels_->prolongations.push_back(make_prolongation_matrix(
        prolongations[l], partitions[l], partitions[l + 1], rank, levels_->mat_type.c_str()));
    levels_->dof_counts.push_back(PetscInt(prolongations[l].coarse_dof_count()));
    levels_->owned_dof_counts.push_back(PetscInt(partitions[l + 1].owned_dof_count(rank)));
  }
  dm_ = make_level_dm(PETSC_COMM_WORLD, levels_, 0);
  // PCMG takes its number of levels from the DM's refinement level when -pc_mg_levels is not
  // given: the finest level is level_count() − 1 refinements above the coarsest.
  POLYDG_PETSC_CALL(DMSetRefineLevel(dm_, PetscInt(levels_->dof_counts.size()) - 1));
}

AgglomerationMultigrid::~AgglomerationMultigrid() {
  PetscBool finalized = PETSC_FALSE;
  PetscFinalized(&finalized);
  if (!finalized && dm_ != nullptr && DMDestroy(&dm_) != 0)
    std::cerr << "polydg::petsc::AgglomerationMultigrid: DMDestroy failed\n";
}

int AgglomerationMultigrid::level_count() const { return int(levels_->dof_counts.size()); }

Mat AgglomerationMultigrid::prolongation(int level) const {
  require(level >= 0 && level + 1 < level_count(),
          "polydg::petsc::AgglomerationMultigrid: no "
          "prolongation to level ",
          level, " (", level_count(), " levels)");
  return levels_->prolongations[std::size_t(level)];
}

void AgglomerationMultigrid::set_level_operators(const std::vector<Mat>& operators) {
  const std::size_t levels = levels_->dof_counts.size();
  require(operators.size() == levels,
          "polydg::petsc::AgglomerationMultigrid::set_level_operators: ", operators.size(),
          " operators for ", levels, " levels (operators[0], the finest, is ignored)");
  std::vector<Mat> referenced(levels, nullptr);
  try {
    for (std::size_t l = 1; l < levels; ++l) {
      require(operators[l] != nullptr,
              "polydg::petsc::AgglomerationMultigrid::set_level_operators: level ", l,
              " has no operator");
      PetscInt rows = 0, columns = 0, owned_rows = 0, owned_columns = 0;
      POLYDG_PETSC_CALL(MatGetSize(operators[l], &rows, &columns));
      POLYDG_PETSC_CALL(MatGetLocalSize(operators[l], &owned_rows, &owned_columns));
      require(rows == levels_->dof_counts[l] && columns == rows,
              "polydg::petsc::AgglomerationMultigrid::set_level_operators: level ", l,
              "'s operator is ", rows, " x ", columns, ", the level has ", levels_->dof_counts[l],
              " unknowns");
      require(owned_rows == levels_->owned_dof_counts[l] && owned_columns == owned_rows,
              "polydg::petsc::AgglomerationMultigrid::set_level_operators: level ", l,
              "'s operator has ", owned_rows, " x ", owned_columns,
              " rows x columns on this rank, the level's partition gives it ",
              levels_->owned_dof_counts[l], " unknowns");
      POLYDG_PETSC_CALL(PetscObjectReference(reinterpret_cast<PetscObject>(operators[l])));
      referenced[l] = operators[l];
    }
  } catch (...) {
    for (Mat& m : referenced) MatDestroy(&m);
    throw;
  }
  for (Mat& m : levels_->operators) MatDestroy(&m);
  levels_->operators = std::move(referenced);
}

bool AgglomerationMultigrid::has_level_operators() const { return !levels_->operators.empty(); }

bool AgglomerationMultigrid::provides_level_operators(DM dm) {
  return is_agglomeration_dm(dm) && !context_of(dm).levels->operators.empty();
}

bool multigrid_requested(const std::string& options_prefix) {
  return detail::string_option(options_prefix.c_str(), "-pc_type") == std::string(PCMG);
}

bool AgglomerationMultigrid::is_agglomeration_dm(DM dm) {
  if (dm == nullptr) return false;
  void (*function)(void) = nullptr;
  POLYDG_PETSC_CALL(
      PetscObjectQueryFunction(reinterpret_cast<PetscObject>(dm), marker_name, &function));
  return function != nullptr;
}

}  // namespace polydg::petsc
