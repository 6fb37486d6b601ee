#include "polydg/io/solution_vtu.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <limits>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/dg/discrete_function.hpp"

namespace polydg {

namespace {

constexpr int vtk_triangle = 5;

// The sampled solution: points with their values, triangles with their element.
struct SampledSolution {
  std::vector<Point<2>> points;
  std::vector<double> u, exact;
  std::vector<Index> connectivity;  // three points per triangle
  std::vector<Index> element_ids;
  std::vector<int> degrees;
};

// Splits the triangle `vertices` into r² triangles and samples u_h (and u) at their vertices.
// Lattice point (i, j), i + j ≤ r, lies at v0 + (i/r)(v1 − v0) + (j/r)(v2 − v0).
void sample_sub_triangle(const std::array<Point<2>, 3>& vertices, int r, Index e, int p,
                         const Box<2>& box, const double* coefficients,
                         const SolutionVtuOptions& options, SampledSolution& out) {
  std::vector<Index> lattice((r + 1) * (r + 1), -1);
  for (int j = 0; j <= r; ++j)
    for (int i = 0; i + j <= r; ++i) {
      Point<2> x = vertices[0];
      x += (double(i) / r) * (vertices[1] - vertices[0]);
      x += (double(j) / r) * (vertices[2] - vertices[0]);
      lattice[j * (r + 1) + i] = Index(out.points.size());
      out.points.push_back(x);
      out.u.push_back(evaluate_dg_function(p, box, coefficients, x));
      if (options.exact_solution) out.exact.push_back(options.exact_solution(x));
    }
  const auto at = [&](int i, int j) { return lattice[j * (r + 1) + i]; };
  const auto add_triangle = [&](Index a, Index b, Index c) {
    out.connectivity.insert(out.connectivity.end(), {a, b, c});
    out.element_ids.push_back(e);
    out.degrees.push_back(p);
  };
  // Both kinds keep the orientation of the sub-triangle.
  for (int j = 0; j < r; ++j)
    for (int i = 0; i + j < r; ++i) {
      add_triangle(at(i, j), at(i + 1, j), at(i, j + 1));
      if (i + j + 1 < r) add_triangle(at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
    }
}

class SolutionVtuFile {
 public:
  explicit SolutionVtuFile(const std::filesystem::path& path) : path_(path), out_(path) {
    require(bool(out_), "solution VTU writer: cannot open '", path.string(), "' for writing");
    out_ << std::setprecision(std::numeric_limits<double>::max_digits10);
  }

  void write(const SampledSolution& sample) {
    const std::size_t n_cells = sample.element_ids.size();
    out_ << "<?xml version=\"1.0\"?>\n"
         << "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
            "header_type=\"UInt64\">\n"
         << "  <UnstructuredGrid>\n"
         << "    <Piece NumberOfPoints=\"" << sample.points.size() << "\" NumberOfCells=\""
         << n_cells << "\">\n";

    out_ << "      <Points>\n"
         << "        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" "
            "format=\"ascii\">\n";
    for (const Point<2>& x : sample.points) out_ << "          " << x[0] << ' ' << x[1] << " 0\n";
    out_ << "        </DataArray>\n      </Points>\n";

    out_ << "      <Cells>\n";
    array_begin("Int64", "connectivity");
    for (std::size_t k = 0; k < n_cells; ++k)
      out_ << "          " << sample.connectivity[3 * k] << ' ' << sample.connectivity[3 * k + 1]
           << ' ' << sample.connectivity[3 * k + 2] << '\n';
    array_end();
    std::vector<GlobalIndex> offsets(n_cells);
    for (std::size_t k = 0; k < n_cells; ++k) offsets[k] = 3 * GlobalIndex(k + 1);
    array("Int64", "offsets", offsets);
    array("UInt8", "types", std::vector<int>(n_cells, vtk_triangle));
    out_ << "      </Cells>\n";

    out_ << "      <PointData Scalars=\"u\">\n";
    array("Float64", "u", sample.u);
    if (!sample.exact.empty()) {
      std::vector<double> error(sample.u.size());
      for (std::size_t k = 0; k < error.size(); ++k) error[k] = sample.exact[k] - sample.u[k];
      array("Float64", "exact", sample.exact);
      array("Float64", "error", error);
    }
    out_ << "      </PointData>\n";

    out_ << "      <CellData>\n";
    array("Int32", "element_id", sample.element_ids);
    array("Int32", "degree", sample.degrees);
    out_ << "      </CellData>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
    out_.close();
    require(!out_.fail(), "solution VTU writer: writing '", path_.string(), "' failed");
  }

 private:
  void array_begin(const char* type, const char* name) {
    out_ << "        <DataArray type=\"" << type << "\" Name=\"" << name
         << "\" format=\"ascii\">\n";
  }
  void array_end() { out_ << "        </DataArray>\n"; }
  template <class T>
  void array(const char* type, const char* name, const std::vector<T>& values) {
    array_begin(type, name);
    for (std::size_t k = 0; k < values.size(); ++k)
      out_ << (k % 8 == 0 ? "          " : " ") << values[k] << (k % 8 == 7 ? "\n" : "");
    if (values.size() % 8 != 0) out_ << '\n';
    array_end();
  }

  std::filesystem::path path_;
  std::ofstream out_;
};

}  // namespace

void write_solution_vtu(const std::filesystem::path& path, const PolytopicMesh<2>& mesh,
                        std::span<const double> solution, const SolutionVtuOptions& options) {
  require(options.subdivisions >= 0 && options.subdivisions <= max_solution_vtu_subdivisions,
          "solution VTU writer: '", path.string(), "': subdivisions = ", options.subdivisions,
          " is outside 0..", max_solution_vtu_subdivisions);
  const std::vector<GlobalIndex> offsets = dg_coefficient_offsets<2>(mesh.degrees());
  require(GlobalIndex(solution.size()) == offsets.back(), "solution VTU writer: '", path.string(),
          "': the DG function has ", solution.size(),
          " coefficients, the mesh's elements and degrees need ", offsets.back());

  SampledSolution sample;
  for (Index e = 0; e < mesh.element_count(); ++e) {
    const int p = mesh.element_degree(e);
    const int r = options.subdivisions > 0 ? options.subdivisions : std::max(1, p);
    for (const auto& simplex : mesh.element_simplices(e))
      sample_sub_triangle(mesh.simplex_points(simplex), r, e, p, mesh.element_box(e),
                          solution.data() + offsets[e], options, sample);
  }
  SolutionVtuFile(path).write(sample);
}

}  // namespace polydg
