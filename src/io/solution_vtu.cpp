#include "polydg/io/solution_vtu.hpp"

#include <algorithm>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "triangle_lattice.hpp"
#include "vtu_xml_writer.hpp"

namespace polydg {

namespace {

// The sampled solution: points with their values, triangles with their element.
struct SampledSolution {
  std::vector<Point<2>> points;
  std::vector<double> u, exact;
  std::vector<Index> connectivity;  // three points per triangle
  std::vector<Index> element_ids;
  std::vector<int> degrees;
};

// Samples u_h (and u) of element e at the lattice points of the sub-triangle `vertices`
// (triangle_lattice.hpp) and adds its r² triangles.
void sample_sub_triangle(const std::array<Point<2>, 3>& vertices,
                         const io::TriangleLattice& lattice, Index e, int p, const Box<2>& box,
                         const double* coefficients, const SolutionVtuOptions& options,
                         SampledSolution& out) {
  const Index first = Index(out.points.size());
  for (const Point<2>& reference : lattice.reference_points) {
    Point<2> x = vertices[0];
    x += reference[0] * (vertices[1] - vertices[0]);
    x += reference[1] * (vertices[2] - vertices[0]);
    out.points.push_back(x);
    out.u.push_back(evaluate_dg_function(p, box, coefficients, x));
    if (options.exact_solution) out.exact.push_back(options.exact_solution(x));
  }
  for (const auto& [a, b, c] : lattice.triangles) {
    out.connectivity.insert(out.connectivity.end(), {first + a, first + b, first + c});
    out.element_ids.push_back(e);
    out.degrees.push_back(p);
  }
}

void write_sample(const std::filesystem::path& path, const SampledSolution& sample) {
  io::VtuXmlWriter file(path, "solution VTU writer");
  file.begin(GlobalIndex(sample.points.size()), GlobalIndex(sample.element_ids.size()));
  file.points(sample.points);
  file.triangles(sample.connectivity);

  file.begin_point_data("u");
  file.data_array("Float64", "u", sample.u);
  if (!sample.exact.empty()) {
    std::vector<double> error(sample.u.size());
    for (std::size_t k = 0; k < error.size(); ++k) error[k] = sample.exact[k] - sample.u[k];
    file.data_array("Float64", "exact", sample.exact);
    file.data_array("Float64", "error", error);
  }
  file.end_point_data();

  file.begin_cell_data();
  file.data_array("Int32", "element_id", sample.element_ids);
  file.data_array("Int32", "degree", sample.degrees);
  file.end_cell_data();
  file.finish();
}

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
    const io::TriangleLattice lattice =
        io::make_triangle_lattice(options.subdivisions > 0 ? options.subdivisions : std::max(1, p));
    for (const auto& simplex : mesh.element_simplices(e))
      sample_sub_triangle(mesh.simplex_points(simplex), lattice, e, p, mesh.element_box(e),
                          solution.data() + offsets[e], options, sample);
  }
  write_sample(path, sample);
}

}  // namespace polydg
