#define BOOST_TEST_MODULE oscillating_domain
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "polydg/core/error.hpp"
#include "polydg/mesh/oscillating_domain.hpp"

using namespace polydg;
using polydg::testing::error_names;

namespace {

// ε for k waves of largest slope 2πkε = slope.
double amplitude_for_slope(int k, double slope) { return slope / (2 * std::numbers::pi * k); }

// The boundary curve of side `tag` (1 bottom, 2 right, 3 top, 4 left) through point p:
// how far p is from it, measured across the side.
double distance_from_side(const OscillatingDomain& domain, int tag, const Point<2>& p) {
  const double k = domain.wiggles_per_side, e = domain.amplitude, pi = std::numbers::pi;
  switch (tag) {
    case 1:
      return p[1] - e * std::sin(2 * pi * k * p[0]);
    case 2:
      return p[0] - 1 - e * std::sin(2 * pi * k * p[1]);
    case 3:
      return p[1] - 1 - e * std::sin(2 * pi * k * p[0]);
    default:
      return p[0] - e * std::sin(2 * pi * k * p[1]);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(area_tags_and_boundary_curves) {
  OscillatingDomain domain;
  domain.cells_per_side = 64;
  domain.wiggles_per_side = 4;
  domain.amplitude = amplitude_for_slope(4, 0.5);
  const SimplexMesh<2> mesh = oscillating_domain_mesh(domain);
  BOOST_TEST(mesh.cell_count() == 2 * 64 * 64);
  BOOST_TEST(oscillating_domain_area(domain) == 1.0);
  BOOST_TEST(std::abs(mesh.total_measure() - oscillating_domain_area(domain)) < 1e-12);
  BOOST_TEST((mesh.boundary_tag_values() == std::vector<int>{1, 2, 3, 4}));
  // Every boundary vertex lies on its side's sine curve, and the waves reach their amplitude.
  double largest_offset = 0;
  for (Index f = 0; f < mesh.facet_count(); ++f) {
    if (!mesh.is_boundary_facet(f)) continue;
    for (const Point<2>& p : mesh.facet_points(f)) {
      BOOST_TEST(std::abs(distance_from_side(domain, mesh.facet_tag(f), p)) < 1e-14);
      const double across = mesh.facet_tag(f) % 2 == 1 ? p[1] : p[0];
      largest_offset = std::max(largest_offset, std::abs(across - std::round(across)));
    }
  }
  BOOST_TEST(largest_offset > 0.99 * domain.amplitude);
  BOOST_TEST(largest_offset <= domain.amplitude);
}

BOOST_AUTO_TEST_CASE(the_map_leaves_the_interior_almost_untouched) {
  const OscillatingDomain domain;  // 16 waves: the displacement decays within ~1/16
  const Point<2> centre = oscillating_domain_map(domain, {{0.5, 0.5}});
  BOOST_TEST(std::abs(centre[0] - 0.5) < 1e-12);
  BOOST_TEST(std::abs(centre[1] - 0.5) < 1e-12);
  const Point<2> corner = oscillating_domain_map(domain, {{0, 0}});
  BOOST_TEST((corner == Point<2>{{0, 0}}));
}

BOOST_AUTO_TEST_CASE(perturbed_meshes_are_valid_and_reproducible) {
  OscillatingDomain domain;
  domain.cells_per_side = 40;
  domain.wiggles_per_side = 5;
  domain.interior_perturbation = 0.3;
  domain.seed = 11;
  const SimplexMesh<2> a = oscillating_domain_mesh(domain);
  const SimplexMesh<2> b = oscillating_domain_mesh(domain);
  domain.seed = 12;
  const SimplexMesh<2> c = oscillating_domain_mesh(domain);
  BOOST_TEST(std::abs(a.total_measure() - 1.0) < 1e-12);
  BOOST_TEST(std::abs(c.total_measure() - 1.0) < 1e-12);
  BOOST_TEST((a.vertices() == b.vertices()));
  BOOST_TEST(!(a.vertices() == c.vertices()));
}

BOOST_AUTO_TEST_CASE(limiting_parameters_still_give_valid_meshes) {
  // The coarsest grid (4 cells per wave), the steepest waves and the largest perturbation
  // allowed: the constructor would throw on an inverted or degenerate triangle.
  for (int k : {1, 2, 3, 5, 16, 40}) {
    BOOST_TEST_CONTEXT("k = " << k) {
      OscillatingDomain domain;
      domain.wiggles_per_side = k;
      domain.cells_per_side = 4 * k;
      domain.amplitude = amplitude_for_slope(k, 0.8);
      domain.interior_perturbation = 0.3;
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        domain.seed = seed;
        const SimplexMesh<2> mesh = oscillating_domain_mesh(domain);
        BOOST_TEST(std::abs(mesh.total_measure() - 1.0) < 1e-12);
      }
    }
  }
  OscillatingDomain square;
  square.cells_per_side = 3;
  square.wiggles_per_side = 0;  // no waves: the unit square
  BOOST_TEST(std::abs(oscillating_domain_mesh(square).total_measure() - 1.0) < 1e-14);
}

BOOST_AUTO_TEST_CASE(bad_parameters_are_refused) {
  // Each refusal names the parameter and its value.
  const auto refused = [](OscillatingDomain domain, const std::string& part) {
    return error_names([&] { oscillating_domain_mesh(domain); },
                       {"oscillating_domain_mesh: " + part});
  };
  OscillatingDomain domain;
  domain.cells_per_side = 0;
  BOOST_TEST(refused(domain, "cells_per_side = 0; need 1 <= n <= 32000"));
  domain = {};
  domain.cells_per_side = 63;  // fewer than 4 cells per wave for 16 waves
  BOOST_TEST(refused(domain,
                     "63 cells per side cannot resolve 16 waves; need cells_per_side >= "
                     "4 * wiggles_per_side = 64"));
  domain = {};
  domain.amplitude = amplitude_for_slope(domain.wiggles_per_side, 0.81);
  BOOST_TEST(refused(domain, "the waves' slope 2*pi*k*amplitude = 0.8"));  // 0.81 ± rounding
  domain = {};
  domain.amplitude = -0.001;
  BOOST_TEST(refused(domain, "amplitude -0.001 is negative"));
  domain = {};
  domain.interior_perturbation = 0.31;
  BOOST_TEST(refused(domain, "interior_perturbation 0.31 outside [0, 0.3]"));
}

BOOST_AUTO_TEST_CASE(paper_sized_mesh_build_time) {
  // [Dong2021] §4.1 (docs/theory.md, References) uses 503,596 triangles; the default n = 502 gives
  // 504,008.
  const auto start = std::chrono::steady_clock::now();
  const SimplexMesh<2> mesh = oscillating_domain_mesh();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST(mesh.cell_count() == 2 * 502 * 502);
  BOOST_TEST(std::abs(mesh.total_measure() - 1.0) < 1e-11);
  BOOST_TEST((mesh.boundary_tag_values() == std::vector<int>{1, 2, 3, 4}));
  BOOST_TEST_MESSAGE("oscillating_domain_mesh(): " << mesh.cell_count() << " triangles in "
                                                   << seconds << " s");
}
