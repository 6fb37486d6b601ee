#pragma once
/// VTK output of a 2D or 3D DG solution as an ASCII XML UnstructuredGrid file (.vtu) for
/// ParaView / VisIt.
///
/// u_h is discontinuous and of degree p inside each element, so it is sampled, not
/// interpolated: every quadrature sub-simplex of every element (PolytopicMesh::
/// element_simplices: a triangle in 2D, a fine tetrahedron in 3D) is split uniformly into r²
/// triangles or r³ tetrahedra (r = SolutionVtuOptions::subdivisions, or max(1, p_κ) per
/// element by default), and u_h of that element is evaluated at the lattice points. Points are
/// not shared between sub-simplices (each has its own (r+1)(r+2)/2 or (r+1)(r+2)(r+3)/6
/// points), so jumps between elements show. Cells are VTK_TRIANGLE (5) or VTK_TETRA (10).
///
/// Point data: "u" (u_h), and when an exact solution is given, "exact" (u) and "error"
/// (u − u_h). Cell data: "element_id", "degree". Values and coordinates are written with 17
/// significant digits (exact round trip of doubles). The solution is laid out as in
/// dg/discrete_function.hpp.
///
/// Throws polydg::Error naming the path when the file cannot be opened or written, for a
/// solution of the wrong length, for subdivisions < 0 or > max_solution_vtu_subdivisions.
///
/// Several MPI ranks (petsc/solution_pvtu.hpp, which calls the two functions below): each
/// rank writes the piece of the elements it owns, <stem>_<rank>.vtu, by the same sampling and
/// with the same arrays, plus the cell field "rank"; rank 0 writes <stem>.pvtu, the
/// PUnstructuredGrid that lists the pieces, next to them. "element_id" is the element's id in
/// the whole mesh either way, so a piece's cells compare with a one-rank run's.
#include <filesystem>
#include <functional>
#include <span>

#include "polydg/core/types.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

inline constexpr int max_solution_vtu_subdivisions = 64;

/// The options of the writers. `SolutionVtuOptions options;` (no <>) is the 2D one
/// (SolutionVtuOptions<2>, deduced from the default); write SolutionVtuOptions<3> in 3D.
template <int Dim = 2>
struct SolutionVtuOptions {
  /// r: each quadrature sub-simplex becomes r^Dim simplices; 0 means max(1, p_κ) per element.
  int subdivisions = 0;
  /// u(x); when set, "exact" and "error" = u − u_h are written too.
  std::function<double(const Point<Dim>&)> exact_solution;
  /// Per element of the mesh, the id written as "element_id"; empty: the mesh's own. A rank
  /// part's mesh (rank_part_file.hpp) writes its elements' whole-mesh ids
  /// (RankPart::submesh.element), so its pieces are the whole mesh's, cell for cell.
  std::span<const Index> element_ids;
};

void write_solution_vtu(const std::filesystem::path& path, const PolytopicMesh<2>& mesh,
                        std::span<const double> solution,
                        const SolutionVtuOptions<2>& options = {});

void write_solution_vtu(const std::filesystem::path& path, const PolytopicMesh<3>& mesh,
                        std::span<const double> solution,
                        const SolutionVtuOptions<3>& options = {});

/// One rank's piece: the elements `elements` of `mesh` (ids in the mesh), whose coefficients
/// lie one after another in `coefficients` in that order (basis_size(Dim, p_e) each, the layout
/// of dg/discrete_function.hpp restricted to these elements), written as write_solution_vtu
/// writes a whole mesh, with the cell field "rank" = `rank` besides. The same errors, and for
/// an element id outside the mesh.
void write_solution_vtu_piece(const std::filesystem::path& path, const PolytopicMesh<2>& mesh,
                              std::span<const Index> elements, std::span<const double> coefficients,
                              int rank, const SolutionVtuOptions<2>& options = {});
void write_solution_vtu_piece(const std::filesystem::path& path, const PolytopicMesh<3>& mesh,
                              std::span<const Index> elements, std::span<const double> coefficients,
                              int rank, const SolutionVtuOptions<3>& options = {});

/// Where piece `rank` of the data set `pvtu` goes: <stem>_<rank>.vtu in the .pvtu's folder
/// (out/heat_4.pvtu: out/heat_4_0.vtu, out/heat_4_1.vtu, ...).
std::filesystem::path solution_vtu_piece_path(const std::filesystem::path& pvtu, int rank);

/// The .pvtu `pvtu` that lists pieces 0 .. piece_count − 1 (solution_vtu_piece_path, written
/// relative to its folder) and declares the arrays that write_solution_vtu_piece writes
/// ("exact" and "error" when `with_exact_solution`; the same arrays in 2D and 3D). Throws
/// polydg::Error naming the path when it cannot be written, and for piece_count < 1.
void write_solution_pvtu_file(const std::filesystem::path& pvtu, int piece_count,
                              bool with_exact_solution);

}  // namespace polydg
