#pragma once
/// VTK output of a 2D DG solution distributed over the ranks of PETSC_COMM_WORLD: one .vtu per
/// rank with the elements it owns, and the .pvtu that lists them (ParaView and VisIt open the
/// .pvtu as one data set). The sampling and the arrays are io/solution_vtu.hpp's.
#include <filesystem>
#include <span>

#include "polydg/core/types.hpp"
#include "polydg/io/solution_vtu.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg::petsc {

/// write_solution_pvtu - writes this rank's piece of a distributed solution and, once every
/// piece is written, rank 0 writes the .pvtu that lists them.
///
/// Collective on PETSC_COMM_WORLD.
///
/// Input parameters:
///   pvtu         - the data set's path, <folder>/<stem>.pvtu; rank r writes
///                  <folder>/<stem>_<r>.vtu (solution_vtu_piece_path). The folder must exist.
///   mesh         - the whole mesh (2D or 3D), the same on every rank
///   elements     - the ids in `mesh` of the elements this rank owns, in the order of
///                  `coefficients` (MeshPartition::owned_elements(rank) for a partitioned
///                  mesh)
///   coefficients - their coefficients one after another, basis_size(Dim, p_e) each: the owned
///                  prefix of a rank's solution (RankBlockPattern::owned_dof_count())
///   options      - as write_solution_vtu's, the same on every rank
///
/// Level: intermediate
///
/// Example (examples/convergence_study.hpp):
///   petsc::write_solution_pvtu("out/u.pvtu", mesh, partition.owned_elements(rank),
///                              std::span<const double>(solution).first(owned), options);
///
/// Notes:
///   Each piece holds the arrays of write_solution_vtu ("u"; "exact" and "error" with an
///   exact solution; "element_id", "degree") and the cell field "rank". "element_id" is the
///   id in `mesh`, so the union of the pieces' cells is a one-rank run's .vtu, cell for cell
///   (in another order). Only rank 0 writes the .pvtu, and only after every piece is written.
///   Throws polydg::Error on every rank when a piece or the .pvtu cannot be written (or the
///   input is wrong) on any rank: the rank that failed with its message naming the path, the
///   others with "rank R failed: " and that message (petsc::on_every_rank), so no rank is
///   left waiting in a later collective call. On one rank: one piece and the .pvtu.
///
/// See also: write_solution_vtu(), write_solution_vtu_piece(), PvdWriter (a time series of
///   .pvtu files)
void write_solution_pvtu(const std::filesystem::path& pvtu, const PolytopicMesh<2>& mesh,
                         std::span<const Index> elements, std::span<const double> coefficients,
                         const SolutionVtuOptions<2>& options = {});
void write_solution_pvtu(const std::filesystem::path& pvtu, const PolytopicMesh<3>& mesh,
                         std::span<const Index> elements, std::span<const double> coefficients,
                         const SolutionVtuOptions<3>& options = {});

}  // namespace polydg::petsc
