// The GPU backend of the explicit modal DG solver on polygons
// (polydg/cuda/device_explicit_polygon_dg.cuh) against the CPU reference (ExplicitPolygonDG,
// TimeStepper; docs/theory.md, "Explicit path for conservation laws"), on METIS agglomerates:
//  * the rotating hill (linear advection, exact boundary data), p = 1..3: one residual and its
//    sub-facet fluxes, then about 100 steps of advance with RK4 and SSP-RK3, equal to the CPU's
//    to 1e-12 (max relative difference) in the same number of steps;
//  * the supersonic vortex (Euler, reflecting walls, exact inflow and outflow), p = 1, 2,
//    SSP-RK3, from a perturbed state: the same;
//  * two runs give the same bits (no atomics; max / min reductions);
//  * a state that is not physical is a polydg::Error naming the element, the point and the
//    state as the CPU does, and wrong vector sizes are refused.
// Exits 77 (ctest: Skipped) without a device.
#define BOOST_TEST_MODULE cuda_explicit_polygons
#include "gpu_test_main.hpp"
// (first: error_message.hpp includes Boost.Test, which would define a main)
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "device_cpu_comparison.hpp"
#include "error_message.hpp"
#include "gpu_test_support.hpp"
#include "max_relative_difference.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/cuda/device_explicit_polygon_dg.cuh"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/hyperbolic/rotating_hill.hpp"
#include "polydg/hyperbolic/supersonic_vortex.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

using namespace polydg;
using namespace polydg::hyperbolic;
using testing::compare_advance;
using testing::compare_residual;
using testing::error_message;
using testing::max_relative_difference;

namespace {

constexpr double tolerance = 1e-12;

/// `fine` agglomerated by METIS into about `elements` polygons.
PolytopicMesh<2> agglomerated(SimplexMesh<2> fine, Index elements) {
  auto shared = std::make_shared<const SimplexMesh<2>>(std::move(fine));
  return PolytopicMesh<2>(shared, agglomerate(*shared, elements).element_of_cell, 1);
}

/// The text of an error from ": the state" on: the CPU and GPU name their solver differently.
std::string from_the_state(const std::string& message) {
  const std::size_t at = message.find(": the state");
  return at == std::string::npos ? message : message.substr(at);
}

}  // namespace

// (a) The rotating hill on 16 x 16 x 2 triangles agglomerated into about 80 polygons.
BOOST_AUTO_TEST_CASE(rotating_hill_matches_the_cpu) {
  const PolytopicMesh<2> mesh = agglomerated(square_mesh(16, -1.0, 1.0, 0.2, 7), 80);
  const auto boundary = exact_boundary(RotatingHill{});
  for (int p : testing::small_run() ? std::vector<int>{1} : std::vector<int>{1, 2, 3}) {
    ExplicitPolygonDG dg(mesh, p, rotating_hill_law());
    DeviceExplicitPolygonDG device_dg(dg);
    const std::string label = "polygons, rotating hill p = " + std::to_string(p);
    const auto u = dg.project([](const Point<2>& x) { return RotatingHill{}(x, 0.0); });
    compare_residual(dg, device_dg, u, boundary, tolerance, label);
    for (TimeScheme scheme : {TimeScheme::rk4, TimeScheme::ssp_rk3})
      compare_advance(dg, device_dg, u, boundary, scheme, 0.5, 100, tolerance, label);
  }
}

// (b) The supersonic vortex (Euler, walls, inflow, outflow) on its level-1 mesh (720
// triangles) agglomerated into about 150 polygons, perturbed so that the state moves.
BOOST_AUTO_TEST_CASE(supersonic_vortex_matches_the_cpu) {
  const SupersonicVortex vortex;
  const PolytopicMesh<2> mesh = agglomerated(supersonic_vortex_mesh(1, vortex), 150);
  const SupersonicVortexBoundary boundary{vortex};
  for (int p : testing::small_run() ? std::vector<int>{1} : std::vector<int>{1, 2}) {
    ExplicitPolygonDG dg(mesh, p, vortex.gas);
    DeviceExplicitPolygonDG device_dg(dg);
    const std::string label = "polygons, supersonic vortex p = " + std::to_string(p);
    const auto u = dg.project([&](const Point<2>& x) {
      Euler::Primitive w = vortex.primitive(x);
      const double bump =
          std::exp(-200 * ((x[0] - 0.8) * (x[0] - 0.8) + (x[1] - 0.7) * (x[1] - 0.7)));
      w.density *= 1 + 0.1 * bump;
      w.pressure *= 1 + 0.2 * bump;
      return vortex.gas.conserved(w);
    });
    compare_residual(dg, device_dg, u, boundary, tolerance, label);
    const auto first = compare_advance(dg, device_dg, u, boundary, TimeScheme::ssp_rk3, 0.5, 100,
                                       tolerance, label);

    // Bitwise reproducible: a second march gives the same bits.
    auto again = device_dg.upload(u);
    const double t_end = 100 * dg.stable_time_step(u, 0.0, 0.5);
    DeviceTimeStepper(device_dg, TimeScheme::ssp_rk3).advance(again, 0.0, t_end, boundary, 0.5);
    BOOST_TEST(testing::same_bits(device_dg.download(again), first), label);

    // A negative density in element 11: named as the CPU names it.
    if (p == 1) {
      std::vector<double> bad = u;
      for (int i = 0; i < dg.basis_size(); ++i) bad[dg.coefficient_index(11, 0, i)] *= -1.0;
      const std::string cpu = error_message([&] { (void)dg.max_wave_speed(bad, 0.25); });
      const std::string gpu =
          error_message([&] { (void)device_dg.max_wave_speed(device_dg.upload(bad), 0.25); });
      BOOST_TEST(testing::contains(gpu, "in element 11 "), gpu);
      BOOST_TEST(testing::contains(gpu, "at t = 0.25"), gpu);
      BOOST_TEST(from_the_state(gpu) == from_the_state(cpu));
      // Wrong sizes.
      auto short_vector = device::DeviceBuffer<double>(u.size() - 1);
      BOOST_TEST(testing::contains(
          error_message([&] { (void)device_dg.max_wave_speed(short_vector, 0.0); }),
          "coefficients, expected"));
      BOOST_TEST(testing::contains(
          error_message([&] { (void)device_dg.upload(std::vector<double>(3)); }), "upload"));
    }
  }
}
