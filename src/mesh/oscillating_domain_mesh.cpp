#include <cmath>
#include <numbers>

#include "polydg/core/error.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/mesh/simplex_geometry.hpp"
#include "square_grid.hpp"

namespace polydg {
namespace {

/// β(r) = cosh(a(r − ½)) / cosh(a/2), written with decaying exponentials so that it does not
/// overflow for many wiggles; β(0) = β(1) = 1 exactly.
double blend(double r, double a) {
  return (std::exp(-a * r) + std::exp(a * (r - 1))) / (1 + std::exp(-a));
}

void check(const OscillatingDomain& domain) {
  const int n = domain.cells_per_side, k = domain.wiggles_per_side;
  const double slope = 2 * std::numbers::pi * k * domain.amplitude;
  require(n >= 1 && n <= 32000, "oscillating_domain_mesh: cells_per_side = ", n,
          "; need 1 <= n <= 32000 (2n² triangles must fit the 32-bit Index)");
  require(k >= 0, "oscillating_domain_mesh: wiggles_per_side = ", k, "; need k >= 0");
  require(n >= 4 * k, "oscillating_domain_mesh: ", n, " cells per side cannot resolve ", k,
          " waves; need cells_per_side >= 4 * wiggles_per_side = ", 4 * k);
  require(domain.amplitude >= 0, "oscillating_domain_mesh: amplitude ", domain.amplitude,
          " is negative");
  require(slope <= 0.8, "oscillating_domain_mesh: the waves' slope 2*pi*k*amplitude = ", slope,
          " exceeds 0.8 (the map folds near 1); use a smaller amplitude or fewer waves");
  require(domain.interior_perturbation >= 0 && domain.interior_perturbation <= 0.3,
          "oscillating_domain_mesh: interior_perturbation ", domain.interior_perturbation,
          " outside [0, 0.3] (larger offsets can invert triangles)");
}

}  // namespace

Point<2> oscillating_domain_map(const OscillatingDomain& domain, const Point<2>& reference) {
  const double a = 2 * std::numbers::pi * domain.wiggles_per_side;
  const double s = reference[0], t = reference[1];
  const int k = domain.wiggles_per_side;
  return {{s + domain.amplitude * detail::sine_wave(k, t) * blend(s, a),
           t + domain.amplitude * detail::sine_wave(k, s) * blend(t, a)}};
}

double oscillating_domain_area(const OscillatingDomain& /*domain*/) { return 1.0; }

SimplexMesh<2> oscillating_domain_mesh(const OscillatingDomain& domain) {
  check(domain);
  const int n = domain.cells_per_side;
  const double h = 1.0 / n;
  const detail::SquareGrid grid{n};

  // Vertices: the reference grid (interior points perturbed in a disk of radius p·h), mapped.
  std::vector<Point<2>> vertices(grid.vertex_count());
#pragma omp parallel for
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      Point<2> reference = grid.reference_point(i, j);
      const Index v = grid.vertex(i, j);
      if (domain.interior_perturbation > 0 && i > 0 && i < n && j > 0 && j < n) {
        const double radius = domain.interior_perturbation * h *
                              std::sqrt(detail::hashed_uniform(domain.seed, 2 * std::uint64_t(v)));
        const double angle =
            2 * std::numbers::pi * detail::hashed_uniform(domain.seed, 2 * std::uint64_t(v) + 1);
        reference[0] += radius * std::cos(angle);
        reference[1] += radius * std::sin(angle);
      }
      vertices[v] = oscillating_domain_map(domain, reference);
    }
  std::vector<SimplexMesh<2>::Cell> cells = grid.cells();

  // The map keeps counter-clockwise triangles counter-clockwise while det ∇F > 0 and the grid
  // resolves the waves; say which parameters failed rather than leave it to the constructor.
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const Point<2> corners[3] = {vertices[cells[c][0]], vertices[cells[c][1]],
                                 vertices[cells[c][2]]};
    require(simplex_signed_measure<2>(corners) > 0, "oscillating_domain_mesh: triangle ", c,
            " is inverted by the map (n = ", n, ", k = ", domain.wiggles_per_side,
            ", amplitude = ", domain.amplitude, "); use more cells or smaller waves");
  }

  return SimplexMesh<2>(std::move(vertices), std::move(cells), {}, grid.side_tags(),
                        MeshSource{"oscillating_domain_mesh", {}});
}

}  // namespace polydg
