#include <cmath>
#include <numbers>

#include "polydg/core/error.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/mesh/simplex_geometry.hpp"

namespace polydg {
namespace {

/// β(r) = cosh(a(r − ½)) / cosh(a/2), written with decaying exponentials so that it does not
/// overflow for many wiggles; β(0) = β(1) = 1 exactly.
double blend(double r, double a) {
  return (std::exp(-a * r) + std::exp(a * (r - 1))) / (1 + std::exp(-a));
}

/// sin(2πkr), reduced to one period first so that it is exactly 0 at r = 0 and r = 1.
double wave(int k, double r) {
  const double phase = k * r - std::floor(k * r);
  return std::sin(2 * std::numbers::pi * phase);
}

/// A uniform number in [0, 1) from (seed, index): SplitMix64, so that the mesh is the same on
/// every platform and standard library.
double hashed_uniform(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-53;
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
  return {{s + domain.amplitude * wave(k, t) * blend(s, a),
           t + domain.amplitude * wave(k, s) * blend(t, a)}};
}

double oscillating_domain_area(const OscillatingDomain& /*domain*/) { return 1.0; }

SimplexMesh<2> oscillating_domain_mesh(const OscillatingDomain& domain) {
  check(domain);
  const int n = domain.cells_per_side;
  const double h = 1.0 / n;
  const auto vertex = [n](int i, int j) { return Index(j * (n + 1) + i); };

  // Vertices: the reference grid (interior points perturbed in a disk of radius p·h), mapped.
  std::vector<Point<2>> vertices(std::size_t(n + 1) * (n + 1));
#pragma omp parallel for
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      Point<2> reference{{i * h, j * h}};
      // The sides stay exact: s = 1 and t = 1 are written as 1, not as n · (1/n).
      if (i == n) reference[0] = 1;
      if (j == n) reference[1] = 1;
      const Index v = vertex(i, j);
      if (domain.interior_perturbation > 0 && i > 0 && i < n && j > 0 && j < n) {
        const double radius = domain.interior_perturbation * h *
                              std::sqrt(hashed_uniform(domain.seed, 2 * std::uint64_t(v)));
        const double angle =
            2 * std::numbers::pi * hashed_uniform(domain.seed, 2 * std::uint64_t(v) + 1);
        reference[0] += radius * std::cos(angle);
        reference[1] += radius * std::sin(angle);
      }
      vertices[v] = oscillating_domain_map(domain, reference);
    }

  std::vector<SimplexMesh<2>::Cell> cells(2 * std::size_t(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const Index a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i + 1, j + 1),
                  d = vertex(i, j + 1);
      const std::size_t first = 2 * (std::size_t(j) * n + i);
      if ((i + j) % 2 == 0) {  // alternate the diagonals so the mesh has no preferred direction
        cells[first] = {a, b, c};
        cells[first + 1] = {a, c, d};
      } else {
        cells[first] = {a, b, d};
        cells[first + 1] = {b, c, d};
      }
    }

  // The map keeps counter-clockwise triangles counter-clockwise while det ∇F > 0 and the grid
  // resolves the waves; say which parameters failed rather than leave it to the constructor.
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const Point<2> corners[3] = {vertices[cells[c][0]], vertices[cells[c][1]],
                                 vertices[cells[c][2]]};
    require(simplex_signed_measure<2>(corners) > 0, "oscillating_domain_mesh: triangle ", c,
            " is inverted by the map (n = ", n, ", k = ", domain.wiggles_per_side,
            ", amplitude = ", domain.amplitude, "); use more cells or smaller waves");
  }

  std::vector<SimplexMesh<2>::TaggedFacet> tags;
  tags.reserve(4 * std::size_t(n));
  for (int i = 0; i < n; ++i) {
    tags.push_back({{vertex(i, 0), vertex(i + 1, 0)}, 1});
    tags.push_back({{vertex(n, i), vertex(n, i + 1)}, 2});
    tags.push_back({{vertex(i, n), vertex(i + 1, n)}, 3});
    tags.push_back({{vertex(0, i), vertex(0, i + 1)}, 4});
  }
  return SimplexMesh<2>(std::move(vertices), std::move(cells), {}, std::move(tags),
                        MeshSource{"oscillating_domain_mesh", {}});
}

}  // namespace polydg
