// Element quality of a polytopic mesh: per-metric min / mean / max and a printed table.
#include <algorithm>
#include <iomanip>
#include <ostream>

#include "polydg/mesh/polytopic_mesh.hpp"

namespace polydg {

namespace {

// Running min / sum / max of one metric.
struct Accumulator {
  double min = 1e300, sum = 0, max = -1e300;
  Index count = 0;
  void add(double value) {
    min = std::min(min, value);
    max = std::max(max, value);
    sum += value;
    ++count;
  }
  QualityStatistic statistic() const {
    if (count == 0) return {};
    return {min, sum / count, max};
  }
};

}  // namespace

template <int Dim>
QualitySummary summarize_quality(const PolytopicMesh<Dim>& mesh) {
  Accumulator box_coverage, faces, fine_cells, simplices, roundness, neighbours;
  for (Index e = 0; e < mesh.element_count(); ++e) {
    box_coverage.add(mesh.element_box_coverage(e));
    faces.add(mesh.element_face_count(e));
    fine_cells.add(mesh.element_fine_cell_count(e));
    simplices.add(double(mesh.element_simplices(e).size()));
    roundness.add(mesh.element_roundness(e));
    neighbours.add(double(mesh.element_interfaces(e).size()));
  }
  QualitySummary summary;
  summary.dimension = Dim;
  summary.element_count = mesh.element_count();
  summary.fine_cell_count = mesh.fine_mesh().cell_count();
  summary.simplex_count = mesh.simplex_count();
  summary.interface_count = mesh.interface_count();
  summary.box_coverage = box_coverage.statistic();
  summary.faces = faces.statistic();
  summary.fine_cells = fine_cells.statistic();
  summary.simplices = simplices.statistic();
  summary.roundness = roundness.statistic();
  summary.neighbours = neighbours.statistic();
  return summary;
}

void print_quality_summary(std::ostream& out, const QualitySummary& summary) {
  const auto flags = out.flags();
  const auto precision = out.precision();
  out << summary.dimension << "D polytopic mesh: " << summary.element_count << " elements from "
      << summary.fine_cell_count << " fine cells, " << summary.interface_count << " interfaces, "
      << summary.simplex_count << " quadrature simplices\n";
  out << std::left << std::setw(34) << "metric" << std::right << std::setw(12) << "min"
      << std::setw(12) << "mean" << std::setw(12) << "max" << '\n';
  const auto row = [&](const char* name, const QualityStatistic& s) {
    out << std::left << std::setw(34) << name << std::right << std::fixed << std::setprecision(3)
        << std::setw(12) << s.min << std::setw(12) << s.mean << std::setw(12) << s.max << '\n';
  };
  row("box coverage |B_K|/|K|", summary.box_coverage);
  row("faces per element", summary.faces);
  row("neighbours per element", summary.neighbours);
  row("fine cells per element", summary.fine_cells);
  row("quadrature simplices per element", summary.simplices);
  row(summary.dimension == 2 ? "roundness 4pi|K|/|dK|^2" : "roundness 36pi|K|^2/|dK|^3",
      summary.roundness);
  out.flags(flags);
  out.precision(precision);
}

template QualitySummary summarize_quality(const PolytopicMesh<2>&);
template QualitySummary summarize_quality(const PolytopicMesh<3>&);

}  // namespace polydg
