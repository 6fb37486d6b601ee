#include "polydg/io/solution_vtu.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "tetrahedron_lattice.hpp"
#include "triangle_lattice.hpp"
#include "vtu_xml_writer.hpp"

namespace polydg {

namespace {

// The sampled solution: points with their values, simplices with their element.
template <int Dim>
struct SampledSolution {
  std::vector<Point<Dim>> points;
  std::vector<double> u, exact;
  std::vector<Index> connectivity;  // Dim + 1 points per simplex
  std::vector<Index> element_ids;
  std::vector<int> degrees;
};

// The uniform split of a triangle (r² triangles) or a tetrahedron (r³ tetrahedra), with its
// reference points and sub-simplices under one pair of names.
template <int Dim>
struct SimplexLattice {
  std::vector<Point<Dim>> reference_points;
  std::vector<std::array<Index, Dim + 1>> simplices;
};

template <int Dim>
SimplexLattice<Dim> make_simplex_lattice(int r) {
  if constexpr (Dim == 2) {
    io::TriangleLattice lattice = io::make_triangle_lattice(r);
    return {std::move(lattice.reference_points), std::move(lattice.triangles)};
  } else {
    io::TetrahedronLattice lattice = io::make_tetrahedron_lattice(r);
    return {std::move(lattice.reference_points), std::move(lattice.tetrahedra)};
  }
}

// Samples u_h (and u) of element e at the lattice points of the sub-simplex `vertices`
// (triangle_lattice.hpp, tetrahedron_lattice.hpp) and adds its r^Dim simplices.
template <int Dim>
void sample_sub_simplex(const std::array<Point<Dim>, Dim + 1>& vertices,
                        const SimplexLattice<Dim>& lattice, Index e, int p, const Box<Dim>& box,
                        const double* coefficients, const SolutionVtuOptions<Dim>& options,
                        SampledSolution<Dim>& out) {
  const Index first = Index(out.points.size());
  for (const Point<Dim>& reference : lattice.reference_points) {
    Point<Dim> x = vertices[0];
    for (int d = 0; d < Dim; ++d) x += reference[d] * (vertices[d + 1] - vertices[0]);
    out.points.push_back(x);
    out.u.push_back(evaluate_dg_function(p, box, coefficients, x));
    if (options.exact_solution) out.exact.push_back(options.exact_solution(x));
  }
  for (const auto& simplex : lattice.simplices) {
    for (Index v : simplex) out.connectivity.push_back(first + v);
    out.element_ids.push_back(options.element_ids.empty() ? e : options.element_ids[e]);
    out.degrees.push_back(p);
  }
}

// The arrays of a solution file, in file order: write_sample writes them, the .pvtu declares
// them (one list, so the pieces and their .pvtu cannot disagree).
struct SolutionArrays {
  std::vector<io::DataArrayDeclaration> point, cell;
};

SolutionArrays solution_arrays(bool exact, bool rank) {
  SolutionArrays arrays;
  arrays.point.push_back({"Float64", "u"});
  if (exact) {
    arrays.point.push_back({"Float64", "exact"});
    arrays.point.push_back({"Float64", "error"});
  }
  arrays.cell.push_back({"Int32", "element_id"});
  arrays.cell.push_back({"Int32", "degree"});
  if (rank) arrays.cell.push_back({"Int32", "rank"});
  return arrays;
}

const char* const solution_scalars = "u";

// The sampled solution as a .vtu; `rank` >= 0 adds the cell field "rank".
template <int Dim>
void write_sample(const std::filesystem::path& path, const SampledSolution<Dim>& sample, int rank) {
  const SolutionArrays arrays = solution_arrays(!sample.exact.empty(), rank >= 0);
  io::VtuXmlWriter file(path, "solution VTU writer");
  file.begin(GlobalIndex(sample.points.size()), GlobalIndex(sample.element_ids.size()));
  file.points(std::span<const Point<Dim>>(sample.points));
  if constexpr (Dim == 2)
    file.triangles(sample.connectivity);
  else
    file.tetrahedra(sample.connectivity);

  file.begin_point_data(solution_scalars);
  for (const io::DataArrayDeclaration& array : arrays.point) {
    const std::string_view name = array.name;
    if (name == "u") {
      file.data_array(array, sample.u);
    } else if (name == "exact") {
      file.data_array(array, sample.exact);
    } else {  // "error"
      std::vector<double> error(sample.u.size());
      for (std::size_t k = 0; k < error.size(); ++k) error[k] = sample.exact[k] - sample.u[k];
      file.data_array(array, error);
    }
  }
  file.end_point_data();

  file.begin_cell_data();
  for (const io::DataArrayDeclaration& array : arrays.cell) {
    const std::string_view name = array.name;
    if (name == "element_id")
      file.data_array(array, sample.element_ids);
    else if (name == "degree")
      file.data_array(array, sample.degrees);
    else  // "rank"
      file.data_array(array, std::vector<int>(sample.element_ids.size(), rank));
  }
  file.end_cell_data();
  file.finish();
}

// Samples the elements `elements` of the mesh, whose coefficients lie one after another in
// `coefficients` (basis_size(Dim, p_e) each), and writes them; one path for the whole mesh and
// for a rank's piece.
template <int Dim>
void write_elements(const std::filesystem::path& path, const PolytopicMesh<Dim>& mesh,
                    std::span<const Index> elements, std::span<const double> coefficients, int rank,
                    const SolutionVtuOptions<Dim>& options) {
  require(options.subdivisions >= 0 && options.subdivisions <= max_solution_vtu_subdivisions,
          "solution VTU writer: '", path.string(), "': subdivisions = ", options.subdivisions,
          " is outside 0..", max_solution_vtu_subdivisions);
  std::vector<GlobalIndex> offsets(elements.size() + 1, 0);
  for (std::size_t k = 0; k < elements.size(); ++k) {
    require(elements[k] >= 0 && elements[k] < mesh.element_count(), "solution VTU writer: '",
            path.string(), "': element ", elements[k], " is not one of the mesh's ",
            mesh.element_count());
    offsets[k + 1] = offsets[k] + basis_size(Dim, mesh.element_degree(elements[k]));
  }
  require(GlobalIndex(coefficients.size()) == offsets.back(), "solution VTU writer: '",
          path.string(), "': the DG function has ", coefficients.size(),
          " coefficients, the mesh's elements and degrees need ", offsets.back());
  require(options.element_ids.empty() || Index(options.element_ids.size()) == mesh.element_count(),
          "solution VTU writer: '", path.string(), "': ", options.element_ids.size(),
          " element ids for the mesh's ", mesh.element_count(), " elements");

  // One lattice per r in use (r = p by default), built at its first element.
  static_assert(max_element_degree <= max_solution_vtu_subdivisions);
  std::vector<SimplexLattice<Dim>> lattices(max_solution_vtu_subdivisions + 1);
  SampledSolution<Dim> sample;
  for (std::size_t k = 0; k < elements.size(); ++k) {
    const Index e = elements[k];
    const int p = mesh.element_degree(e);
    const int r = options.subdivisions > 0 ? options.subdivisions : std::max(1, p);
    SimplexLattice<Dim>& lattice = lattices[r];
    if (lattice.simplices.empty()) lattice = make_simplex_lattice<Dim>(r);
    for (const auto& simplex : mesh.element_simplices(e))
      sample_sub_simplex(mesh.simplex_points(simplex), lattice, e, p, mesh.element_box(e),
                         coefficients.data() + offsets[k], options, sample);
  }
  write_sample(path, sample, rank);
}

template <int Dim>
void write_whole_mesh(const std::filesystem::path& path, const PolytopicMesh<Dim>& mesh,
                      std::span<const double> solution, const SolutionVtuOptions<Dim>& options) {
  std::vector<Index> elements(std::size_t(mesh.element_count()));
  std::iota(elements.begin(), elements.end(), Index(0));
  write_elements(path, mesh, elements, solution, -1, options);
}

}  // namespace

void write_solution_vtu(const std::filesystem::path& path, const PolytopicMesh<2>& mesh,
                        std::span<const double> solution, const SolutionVtuOptions<2>& options) {
  write_whole_mesh(path, mesh, solution, options);
}

void write_solution_vtu(const std::filesystem::path& path, const PolytopicMesh<3>& mesh,
                        std::span<const double> solution, const SolutionVtuOptions<3>& options) {
  write_whole_mesh(path, mesh, solution, options);
}

void write_solution_vtu_piece(const std::filesystem::path& path, const PolytopicMesh<2>& mesh,
                              std::span<const Index> elements, std::span<const double> coefficients,
                              int rank, const SolutionVtuOptions<2>& options) {
  require(rank >= 0, "solution VTU writer: '", path.string(), "': rank ", rank, " is negative");
  write_elements(path, mesh, elements, coefficients, rank, options);
}

void write_solution_vtu_piece(const std::filesystem::path& path, const PolytopicMesh<3>& mesh,
                              std::span<const Index> elements, std::span<const double> coefficients,
                              int rank, const SolutionVtuOptions<3>& options) {
  require(rank >= 0, "solution VTU writer: '", path.string(), "': rank ", rank, " is negative");
  write_elements(path, mesh, elements, coefficients, rank, options);
}

std::filesystem::path solution_vtu_piece_path(const std::filesystem::path& pvtu, int rank) {
  return pvtu.parent_path() / (pvtu.stem().string() + "_" + std::to_string(rank) + ".vtu");
}

void write_solution_pvtu_file(const std::filesystem::path& pvtu, int piece_count,
                              bool with_exact_solution) {
  require(piece_count >= 1, "solution PVTU writer: '", pvtu.string(), "': ", piece_count,
          " pieces (at least 1)");
  std::vector<std::string> sources;
  for (int rank = 0; rank < piece_count; ++rank)
    sources.push_back(solution_vtu_piece_path(pvtu, rank).filename().string());
  const SolutionArrays arrays = solution_arrays(with_exact_solution, true);
  io::write_pvtu(pvtu, "solution PVTU writer", solution_scalars, arrays.point, arrays.cell,
                 sources);
}

}  // namespace polydg
