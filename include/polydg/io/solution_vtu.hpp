#pragma once
/// VTK output of a 2D DG solution as an ASCII XML UnstructuredGrid file (.vtu) for ParaView /
/// VisIt.
///
/// u_h is discontinuous and of degree p inside each element, so it is sampled, not
/// interpolated: every quadrature sub-triangle of every element is split uniformly into r²
/// triangles (r = SolutionVtuOptions::subdivisions, or max(1, p_κ) per element by default),
/// and u_h of that element is evaluated at the lattice points. Points are not shared between
/// sub-triangles (each has its own (r+1)(r+2)/2 points), so jumps between elements show.
///
/// Point data: "u" (u_h), and when an exact solution is given, "exact" (u) and "error"
/// (u − u_h). Cell data: "element_id", "degree". Values and coordinates are written with 17
/// significant digits (exact round trip of doubles). The solution is laid out as in
/// dg/discrete_function.hpp.
///
/// Throws polydg::Error naming the path when the file cannot be opened or written, for a
/// solution of the wrong length, for subdivisions < 0 or > max_solution_vtu_subdivisions.
#include <filesystem>
#include <functional>
#include <span>

#include "polydg/core/types.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

inline constexpr int max_solution_vtu_subdivisions = 64;

struct SolutionVtuOptions {
  /// r: each quadrature sub-triangle becomes r² triangles; 0 means max(1, p_κ) per element.
  int subdivisions = 0;
  /// u(x); when set, "exact" and "error" = u − u_h are written too.
  std::function<double(const Point<2>&)> exact_solution;
};

void write_solution_vtu(const std::filesystem::path& path, const PolytopicMesh<2>& mesh,
                        std::span<const double> solution, const SolutionVtuOptions& options = {});

}  // namespace polydg
