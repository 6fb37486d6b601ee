#pragma once
/// Output of the explicit DG solver on triangles (explicit_dg.hpp): VTU samples of u_h for
/// ParaView / VisIt, and binary restart files to stop a march and resume it.
///
///   using namespace polydg::hyperbolic;
///   write_explicit_solution_vtu("hill.vtu", dg, u, {"u"});
///   write_explicit_solution_vtu("gas.vtu", gas_dg, w, {"density", "momentum_x", "momentum_y",
///                               "energy"}, 0, {{"pressure", [&](const State<4>& s) {
///                                 return gas.pressure(s); }}});
///   save_explicit_restart("run.restart", dg, u, t, step);
///   auto [u, t, step] = load_explicit_restart("run.restart", dg);
///
/// VTU (ASCII XML UnstructuredGrid, as io/solution_vtu.hpp writes for the implicit path): u_h is
/// discontinuous and of degree p in each triangle, so it is sampled, not interpolated: every
/// triangle is split uniformly into r² triangles (r = subdivisions, or max(1, p) for 0), and
/// u_h of every variable is evaluated with the Dubiner basis at the lattice points. Points are
/// not shared between elements (each has its own (r+1)(r+2)/2), so jumps show. Point data: one
/// Float64 array per variable, named by variable_names, then one per derived field. Cell data:
/// element_id. Values and coordinates with 17 significant digits (exact round trip).
///
/// Derived fields (e.g. Euler's pressure) are callbacks value(u_h(x)) evaluated at the same
/// points from the same sampled state, rather than a switch on the law inside the writer: the
/// writer knows no law (a user's law asks for its own quantities, LinearAdvection for none),
/// the law's parameters (γ) come with the caller's closure, and a derived value is exactly that
/// of the written conserved values, not of another interpolation.
///
/// Restart files: binary, in the host's native byte order, which must be little-endian (x86-64,
/// AArch64; a big-endian host is refused). Layout, without padding:
///   offset  0  char[8]     magic "PDGEXRST" (libpolydg explicit restart)
///           8  uint32      format version (explicit_restart_format_version)
///          12  uint32      variables m
///          16  uint32      degree p
///          20  uint64      element count
///          28  uint64      coefficient count n = m · (p+1)(p+2)/2 · element count
///          36  uint64      mesh fingerprint (triangle_mesh_fingerprint)
///          44  uint64      checksum of everything after it: t, step and the coefficients
///          52  float64     t
///          60  int64       step
///          68  float64[n]  the coefficients, in the solver's layout (coefficient_index)
/// 68 + 8 n bytes in all. The fingerprint and the checksum are FNV-1a over 64-bit words: cheap
/// guards against a file from another mesh and against corruption, not cryptographic hashes.
///
/// save_explicit_restart writes path + ".tmp", flushes it to the disk (fsync), then renames it
/// over `path`; a rename within one directory is atomic (POSIX), so `path` is always either the
/// previous file or the whole new one, never half of one, whenever the writer is interrupted.
///
/// Errors (polydg::Error naming the file): the VTU writer's for wrong sizes, names, subdivisions
/// or a file that cannot be written; save's for non-finite data or a file that cannot be
/// written; load's for every mismatch with the solver (variables, degree, element count,
/// coefficient count, mesh), a wrong magic or version, a truncated or overlong file, non-finite
/// t or coefficients (naming the element, variable and mode), a negative step, and a checksum
/// that does not match.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/types.hpp"
#include "polydg/hyperbolic/conservation_law.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/triangle_geometry.hpp"

namespace polydg::hyperbolic {

/// A point field computed from the sampled state u_h(x) of all variables.
template <int M>
struct DerivedPointField {
  std::string name;
  std::function<double(const State<M>&)> value;
};

namespace detail {

/// DerivedPointField with the state as a span of its m values: what the non-template writer
/// takes.
struct SampledPointField {
  std::string name;
  std::function<double(std::span<const double>)> value;
};

/// The writer behind write_explicit_solution_vtu, for any law: u in the layout of
/// ExplicitTriangleDG::coefficient_index with `variables` variables at `degree` on `geometry`.
void write_explicit_solution_vtu(const std::filesystem::path& path,
                                 const TriangleGeometry& geometry, int degree, int variables,
                                 std::span<const double> u,
                                 std::span<const std::string> variable_names, int subdivisions,
                                 std::span<const SampledPointField> derived_fields);

}  // namespace detail

/// Writes u_h of `dg`'s coefficients `u` to `path` (file comment). variable_names: one
/// non-empty name per variable; derived_fields: extra point arrays; all names distinct and free
/// of the XML characters " < > &. subdivisions: r in 1..max_solution_vtu_subdivisions
/// (io/solution_vtu.hpp), or 0 for max(1, p).
template <ConservationLaw Law>
void write_explicit_solution_vtu(
    const std::filesystem::path& path, const ExplicitTriangleDG<Law>& dg, std::span<const double> u,
    const std::vector<std::string>& variable_names, int subdivisions = 0,
    const std::vector<DerivedPointField<Law::variables>>& derived_fields = {}) {
  constexpr int m = Law::variables;
  std::vector<detail::SampledPointField> sampled;
  for (const DerivedPointField<m>& field : derived_fields)
    sampled.push_back({field.name, [value = field.value](std::span<const double> w) {
                         State<m> s;
                         for (int v = 0; v < m; ++v) s[v] = w[v];
                         return value(s);
                       }});
  detail::write_explicit_solution_vtu(path, dg.geometry(), dg.degree(), m, u, variable_names,
                                      subdivisions, sampled);
}

inline constexpr std::uint32_t explicit_restart_format_version = 1;

/// What a restart file must match: the solver's shape and its mesh.
struct ExplicitSolverShape {
  int variables = 0;
  int degree = 0;
  Index element_count = 0;
  std::size_t coefficient_count = 0;
  std::uint64_t mesh_fingerprint = 0;
};

/// FNV-1a over the 64-bit words of the elements' origins and Jacobians: the same for the same
/// triangles in the same order (bit for bit), different, but for a 2^-64 chance, otherwise.
std::uint64_t triangle_mesh_fingerprint(const TriangleGeometry& geometry);

template <ConservationLaw Law>
ExplicitSolverShape explicit_solver_shape(const ExplicitTriangleDG<Law>& dg) {
  return {Law::variables, dg.degree(), dg.element_count(), dg.coefficient_count(),
          triangle_mesh_fingerprint(dg.geometry())};
}

/// The state read back by load_explicit_restart.
struct ExplicitRestart {
  std::vector<double> u;
  double t = 0;
  long step = 0;
};

/// Writes (u, t, step) atomically to `path` (file comment). Throws polydg::Error naming the
/// file for a u that is not `shape`'s size, a non-finite t or coefficient, a negative step, or
/// a file that cannot be written.
void save_explicit_restart(const std::filesystem::path& path, const ExplicitSolverShape& shape,
                           std::span<const double> u, double t, long step);

/// Reads `path`, checking it against `shape` (file comment).
ExplicitRestart load_explicit_restart(const std::filesystem::path& path,
                                      const ExplicitSolverShape& shape);

template <ConservationLaw Law>
void save_explicit_restart(const std::filesystem::path& path, const ExplicitTriangleDG<Law>& dg,
                           std::span<const double> u, double t, long step) {
  save_explicit_restart(path, explicit_solver_shape(dg), u, t, step);
}

template <ConservationLaw Law>
ExplicitRestart load_explicit_restart(const std::filesystem::path& path,
                                      const ExplicitTriangleDG<Law>& dg) {
  return load_explicit_restart(path, explicit_solver_shape(dg));
}

}  // namespace polydg::hyperbolic
