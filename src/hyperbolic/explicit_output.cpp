// Output of the explicit DG solver (include/polydg/hyperbolic/explicit_output.hpp): the VTU
// sampler and the restart files.
#include "polydg/hyperbolic/explicit_output.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <system_error>
#include <utility>

#include "../core/binary_file.hpp"
#include "../io/triangle_lattice.hpp"
#include "../io/vtu_xml_writer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/hyperbolic/dubiner_basis.hpp"
#include "polydg/io/solution_vtu.hpp"

namespace polydg::hyperbolic {

// ---- VTU ------------------------------------------------------------------------------------

namespace detail {

void write_explicit_solution_vtu(const std::filesystem::path& path,
                                 const TriangleGeometry& geometry, int degree, int variables,
                                 std::span<const double> u,
                                 std::span<const std::string> variable_names, int subdivisions,
                                 std::span<const SampledPointField> derived_fields) {
  const std::string where = "explicit solution VTU writer: '" + path.string() + "'";
  require(subdivisions >= 0 && subdivisions <= max_solution_vtu_subdivisions, where,
          ": subdivisions = ", subdivisions, " is outside 0..", max_solution_vtu_subdivisions);
  require(degree >= 0 && degree <= max_dubiner_degree, where, ": degree p = ", degree,
          " is outside 0..", max_dubiner_degree);
  const int n = dubiner_basis_size(degree);
  const Index elements = geometry.element_count;
  const std::size_t coefficients = std::size_t(variables) * n * std::size_t(elements);
  require(u.size() == coefficients, where, ": ", u.size(), " coefficients, expected ", coefficients,
          " (", variables, " variables x ", n, " modes x ", elements, " elements)");
  require(variable_names.size() == std::size_t(variables), where, ": ", variable_names.size(),
          " variable names for ", variables, " variables");
  // VTK tells arrays apart by name, and the names go into XML attributes unescaped.
  std::set<std::string> names;
  const auto check_name = [&](const std::string& name) {
    require(!name.empty() && name.find_first_of("\"<>&") == std::string::npos, where,
            ": the array name '", name, "' is empty or holds one of \" < > &");
    require(names.insert(name).second, where, ": two point arrays are named '", name, "'");
  };
  for (const std::string& name : variable_names) check_name(name);
  for (const SampledPointField& field : derived_fields) {
    check_name(field.name);
    require(bool(field.value), where, ": the derived field '", field.name, "' has no function");
  }

  const io::TriangleLattice lattice =
      io::make_triangle_lattice(subdivisions > 0 ? subdivisions : std::max(1, degree));
  const std::size_t lattice_points = lattice.reference_points.size();
  const std::size_t point_count = std::size_t(elements) * lattice_points;
  const std::size_t cell_count = std::size_t(elements) * lattice.triangles.size();
  require(point_count <= std::size_t(std::numeric_limits<Index>::max()), where, ": ", point_count,
          " points do not fit the connectivity's ", sizeof(Index), "-byte indices");

  // φ_i at the lattice points, the same for every element: [k · n + i].
  std::vector<double> phi(lattice_points * n);
  for (std::size_t k = 0; k < lattice_points; ++k)
    evaluate_dubiner_basis(degree, lattice.reference_points[k], phi.data() + k * n);

  // Point p = c · lattice_points + k; array a (variables, then derived fields) at
  // [a · point_count + p].
  const std::size_t arrays = std::size_t(variables) + derived_fields.size();
  std::vector<Point<2>> points(point_count);
  std::vector<double> values(arrays * point_count);
  std::vector<Index> connectivity;
  connectivity.reserve(3 * cell_count);
  std::vector<Index> element_ids;
  element_ids.reserve(cell_count);
  std::vector<double> state(variables);
  const std::size_t e = std::size_t(elements);
  const double* origin = geometry.origin.data();
  const double* jacobian = geometry.jacobian.data();
  for (Index c = 0; c < elements; ++c) {
    const std::size_t first = std::size_t(c) * lattice_points;
    for (std::size_t k = 0; k < lattice_points; ++k) {
      const double r = lattice.reference_points[k][0], s = lattice.reference_points[k][1];
      points[first + k] = {origin[c] + jacobian[c] * r + jacobian[e + c] * s,
                           origin[e + c] + jacobian[2 * e + c] * r + jacobian[3 * e + c] * s};
      for (int v = 0; v < variables; ++v) {
        double sum = 0;
        for (int i = 0; i < n; ++i) sum += u[(std::size_t(v) * n + i) * e + c] * phi[k * n + i];
        state[v] = sum;
        values[v * point_count + first + k] = sum;
      }
      for (std::size_t d = 0; d < derived_fields.size(); ++d)
        values[(variables + d) * point_count + first + k] = derived_fields[d].value(state);
    }
    for (const auto& [a, b, t] : lattice.triangles) {
      connectivity.insert(connectivity.end(),
                          {Index(first) + a, Index(first) + b, Index(first) + t});
      element_ids.push_back(c);
    }
  }

  io::VtuXmlWriter file(path, "explicit solution VTU writer");
  file.begin(GlobalIndex(point_count), GlobalIndex(cell_count));
  file.points(points);
  file.triangles(connectivity);
  file.begin_point_data(variable_names.front().c_str());
  for (std::size_t a = 0; a < arrays; ++a)
    file.data_array(
        "Float64",
        (a < std::size_t(variables) ? variable_names[a] : derived_fields[a - variables].name)
            .c_str(),
        std::span<const double>(values).subspan(a * point_count, point_count));
  file.end_point_data();
  file.begin_cell_data();
  file.data_array("Int32", "element_id", element_ids);
  file.end_cell_data();
  file.finish();
}

}  // namespace detail

// ---- restart files --------------------------------------------------------------------------

namespace {

using polydg::detail::hexadecimal;
using polydg::detail::WordHash;

constexpr std::array<char, 8> restart_magic = {'P', 'D', 'G', 'E', 'X', 'R', 'S', 'T'};
// Byte offsets of the layout in the header's comment.
constexpr std::size_t version_offset = 8, variables_offset = 12, degree_offset = 16,
                      element_count_offset = 20, coefficient_count_offset = 28,
                      fingerprint_offset = 36, checksum_offset = 44, time_offset = 52,
                      step_offset = 60, data_offset = 68;

std::uint64_t data_checksum(double t, std::int64_t step, std::span<const double> u) {
  WordHash hash;
  hash.add(t);
  hash.add(std::uint64_t(step));
  hash.add(u);
  return hash.value();
}

template <class T>
void put(std::array<char, data_offset>& header, std::size_t offset, T value) {
  std::memcpy(header.data() + offset, &value, sizeof(T));
}
template <class T>
T get(const std::array<char, data_offset>& header, std::size_t offset) {
  T value;
  std::memcpy(&value, header.data() + offset, sizeof(T));
  return value;
}

void require_little_endian(const std::string& where) {
  polydg::detail::require_little_endian(where, "restart files");
}

/// The first non-finite coefficient, named by element, variable and mode; empty if none.
std::string first_non_finite(std::span<const double> u, const ExplicitSolverShape& shape) {
  const auto k = std::find_if(u.begin(), u.end(), [](double x) { return !std::isfinite(x); });
  if (k == u.end()) return {};
  const std::size_t index = std::size_t(k - u.begin());
  const std::size_t elements = std::size_t(shape.element_count);
  const std::size_t modes = shape.coefficient_count / (std::size_t(shape.variables) * elements);
  const std::size_t row = index / elements;
  return polydg::detail::concatenate("coefficient ", index, " (element ", index % elements,
                                     ", variable ", row / modes, ", mode ", row % modes, ") = ", *k,
                                     " is not finite");
}

}  // namespace

std::uint64_t triangle_mesh_fingerprint(const TriangleGeometry& geometry) {
  WordHash hash;
  hash.add(std::uint64_t(geometry.element_count));
  hash.add(geometry.origin);
  hash.add(geometry.jacobian);
  return hash.value();
}

void save_explicit_restart(const std::filesystem::path& path, const ExplicitSolverShape& shape,
                           std::span<const double> u, double t, long step) {
  const std::string where = "save_explicit_restart: '" + path.string() + "'";
  require_little_endian(where);
  require(u.size() == shape.coefficient_count, where, ": ", u.size(),
          " coefficients, the solver has ", shape.coefficient_count);
  require(std::isfinite(t), where, ": t = ", t, " is not finite");
  require(step >= 0, where, ": step ", step, " is negative");
  const std::string non_finite = first_non_finite(u, shape);
  require(non_finite.empty(), where, ": ", non_finite);

  std::array<char, data_offset> header{};
  std::memcpy(header.data(), restart_magic.data(), restart_magic.size());
  put(header, version_offset, explicit_restart_format_version);
  put(header, variables_offset, std::uint32_t(shape.variables));
  put(header, degree_offset, std::uint32_t(shape.degree));
  put(header, element_count_offset, std::uint64_t(shape.element_count));
  put(header, coefficient_count_offset, std::uint64_t(shape.coefficient_count));
  put(header, fingerprint_offset, shape.mesh_fingerprint);
  put(header, checksum_offset, data_checksum(t, step, u));
  put(header, time_offset, t);
  put(header, step_offset, std::int64_t(step));

  const std::span<const std::byte> pieces[] = {std::as_bytes(std::span(header)), std::as_bytes(u)};
  polydg::detail::write_file_atomically(path, pieces, where);
}

ExplicitRestart load_explicit_restart(const std::filesystem::path& path,
                                      const ExplicitSolverShape& shape) {
  const std::string where = "load_explicit_restart: '" + path.string() + "'";
  require_little_endian(where);
  std::ifstream in(path, std::ios::binary);
  require(bool(in), where, ": cannot open the file");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  require(!error, where, ": cannot read its size: ", error.message());
  require(size >= data_offset, where, ": truncated: ", size, " bytes, less than the ", data_offset,
          "-byte header");
  std::array<char, data_offset> header;
  in.read(header.data(), header.size());
  require(bool(in), where, ": reading the header failed");

  require(std::equal(restart_magic.begin(), restart_magic.end(), header.begin()), where,
          ": not a libpolydg explicit restart file (wrong magic number)");
  const auto version = get<std::uint32_t>(header, version_offset);
  require(version == explicit_restart_format_version, where, ": format version ", version,
          ", this library reads version ", explicit_restart_format_version);
  const auto variables = get<std::uint32_t>(header, variables_offset);
  require(variables == std::uint32_t(shape.variables), where, ": written for ", variables,
          " variables, the solver's law has ", shape.variables);
  const auto degree = get<std::uint32_t>(header, degree_offset);
  require(degree == std::uint32_t(shape.degree), where, ": written at degree p = ", degree,
          ", the solver's degree is p = ", shape.degree);
  const auto elements = get<std::uint64_t>(header, element_count_offset);
  require(elements == std::uint64_t(shape.element_count), where, ": written on a mesh of ",
          elements, " elements, the solver's mesh has ", shape.element_count);
  const auto count = get<std::uint64_t>(header, coefficient_count_offset);
  require(count == shape.coefficient_count, where, ": holds ", count,
          " coefficients, the solver has ", shape.coefficient_count);
  const auto fingerprint = get<std::uint64_t>(header, fingerprint_offset);
  require(fingerprint == shape.mesh_fingerprint, where,
          ": written on another mesh (its element geometry's fingerprint ",
          hexadecimal(fingerprint), " is not the solver's ", hexadecimal(shape.mesh_fingerprint),
          ")");
  const std::uintmax_t expected = data_offset + sizeof(double) * count;
  require(size >= expected, where, ": truncated: ", size, " bytes, its ", count,
          " coefficients need ", expected);
  require(size <= expected, where, ": ", size, " bytes, ", size - expected,
          " more than its header and ", count, " coefficients (trailing data)");

  ExplicitRestart restart;
  restart.t = get<double>(header, time_offset);
  const auto step = get<std::int64_t>(header, step_offset);
  restart.step = long(step);
  restart.u.resize(count);
  in.read(reinterpret_cast<char*>(restart.u.data()), std::streamsize(sizeof(double) * count));
  require(bool(in), where, ": reading the coefficients failed");
  require(std::isfinite(restart.t), where, ": t = ", restart.t, " is not finite");
  require(step >= 0, where, ": step ", step, " is negative");
  const std::string non_finite = first_non_finite(restart.u, shape);
  require(non_finite.empty(), where, ": ", non_finite);
  const auto checksum = get<std::uint64_t>(header, checksum_offset);
  require(checksum == data_checksum(restart.t, step, restart.u), where, ": the checksum ",
          hexadecimal(checksum), " does not match the data's ",
          hexadecimal(data_checksum(restart.t, step, restart.u)), ": the file is corrupted");
  return restart;
}

}  // namespace polydg::hyperbolic
