#pragma once
// The GPU explicit solvers against their CPU references, as test_cuda_explicit_triangles and
// test_cuda_explicit_polygons check them: one residual with its facet fluxes, and a march of
// about `steps` CFL steps by DeviceTimeStepper against TimeStepper (the same step count and
// end time; coefficients equal to `tolerance`, max relative difference). Dg: ExplicitTriangleDG
// or ExplicitPolygonDG; DeviceDg: its device solver. Boost.Test assertions.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "max_relative_difference.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"

namespace polydg::testing {

inline const char* scheme_name(hyperbolic::TimeScheme scheme) {
  using hyperbolic::TimeScheme;
  return scheme == TimeScheme::rk4 ? "RK4" : scheme == TimeScheme::ssp_rk3 ? "SSP-RK3" : "SSP-RK2";
}

/// One residual and its facet fluxes at (u, 0), GPU against CPU.
template <class Dg, class DeviceDg, class Boundary>
void compare_residual(Dg& dg, DeviceDg& device_dg, const std::vector<double>& u,
                      const Boundary& boundary, double tolerance, const std::string& label) {
  std::vector<double> r(u.size());
  dg.residual(u, 0.0, boundary, r);
  const auto device_u = device_dg.upload(u);
  auto device_r = device_dg.make_vector();
  device_dg.residual(device_u, 0.0, boundary, device_r);
  const std::vector<double> fluxes = device_dg.facet_fluxes().to_host();
  const std::vector<double> cpu_fluxes(dg.facet_fluxes().begin(), dg.facet_fluxes().end());
  const double residual_difference = max_relative_difference(device_dg.download(device_r), r);
  const double flux_difference = max_relative_difference(fluxes, cpu_fluxes);
  BOOST_TEST(residual_difference <= tolerance, label << ": residual " << residual_difference);
  BOOST_TEST(flux_difference <= tolerance, label << ": facet fluxes " << flux_difference);
}

/// advance over about `steps` CFL steps on both backends from u: the same first Δt (to
/// `tolerance`), step count and time, the coefficients to `tolerance`, and a state that moved
/// (not vacuous). Returns the GPU's.
template <class Dg, class DeviceDg, class Boundary>
std::vector<double> compare_advance(Dg& dg, DeviceDg& device_dg, std::vector<double> u,
                                    const Boundary& boundary, hyperbolic::TimeScheme scheme,
                                    double cfl, int steps, double tolerance,
                                    const std::string& label) {
  const std::vector<double> initial = u;
  const double t_end = steps * dg.stable_time_step(u, 0.0, cfl);
  auto device_u = device_dg.upload(u);
  const double cpu_step = dg.stable_time_step(u, 0.0, cfl);
  BOOST_TEST(
      std::abs(device_dg.stable_time_step(device_u, 0.0, cfl) - cpu_step) <= tolerance * cpu_step,
      label);
  const hyperbolic::TimeSteppingStatistics cpu =
      hyperbolic::TimeStepper(dg, scheme).advance(u, 0.0, t_end, boundary, cfl);
  const hyperbolic::TimeSteppingStatistics gpu =
      hyperbolic::DeviceTimeStepper(device_dg, scheme).advance(device_u, 0.0, t_end, boundary, cfl);
  const std::vector<double> result = device_dg.download(device_u);
  const double difference = max_relative_difference(result, u);
  std::cout << label << ", " << scheme_name(scheme) << ": " << gpu.steps << " steps (CPU "
            << cpu.steps << "), max relative difference " << difference << ", change "
            << max_relative_difference(u, initial) << std::endl;
  BOOST_TEST(gpu.steps == cpu.steps, label);
  BOOST_TEST(gpu.final_time == cpu.final_time, label);
  BOOST_TEST(difference <= tolerance, label << ", " << scheme_name(scheme) << ": " << difference);
  BOOST_TEST(max_relative_difference(u, initial) > 1e-3, label);
  return result;
}

}  // namespace polydg::testing
