//                      libpolydg example: euler
//
// Compile:  part of the libpolydg build.
//
// Sample runs:
//   build/bin/euler
//   build/bin/euler --case supersonic_vortex --p 2 --level 1 --json vortex.json --progress 500
//   build/bin/euler --case rotating_hill --p 3 --level 2 --cfl 0.9
//   build/bin/euler --case double_mach --level 2 --progress 200
//
// Description: the explicit modal DG path for conservation laws (docs/theory.md, "Explicit path
// for conservation laws") on its two smooth tests, with RK time steps at a CFL number:
//  * rotating_hill: u_t − 2πy u_x + 2πx u_y = 0 on [−1, 1]², a Gaussian of radius 0.15 at
//    (0.2, 0), exact data on the boundary, one rotation (T = 1) with RK4; an 8 · 2^L square
//    grid of 2 (8 · 2^L)² triangles; the error is the scalar's L2 error at T.
//  * supersonic_vortex: the Euler equations on the quarter annulus (supersonic_vortex.hpp),
//    180 · 4^L triangles, marched with SSP-RK3 from the exact solution's projection to the
//    discrete steady state (max |R| ≤ 1e-4 of its start, or t = 20); the error is the
//    density's L2 error against the exact solution.
//  * double_mach: a Mach 10 shock reflected by a 30° wedge (double_mach_reflection.hpp) on
//    [0, 4] × [0, 1], 8 (12 · 2^L)² triangles, p = 1 with the Barth–Jespersen limiter and the
//    positivity fix after every stage, SSP-RK2, to t = 0.2 (CFL 0.5 unless --cfl); no exact
//    solution: the run reports the smallest density and pressure at its points instead, and
//    fails if they are not positive.
#include "polydg/hyperbolic/euler.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/hyperbolic/double_mach_reflection.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/hyperbolic/positivity.hpp"
#include "polydg/hyperbolic/slope_limiter.hpp"
#include "polydg/hyperbolic/supersonic_vortex.hpp"
#include "polydg/mesh/generators.hpp"

namespace {

using namespace polydg;
using namespace polydg::hyperbolic;
constexpr double pi = std::numbers::pi;

struct Options {
  std::string name = "rotating_hill";
  int p = -1;  ///< -1: the case's default (2; double_mach 1)
  int level = 0;
  double cfl = 0;  ///< 0: the case's default (0.9; double_mach 0.5)
  long progress = 0;
  std::string json_path;
};

const char* help_text = R"(Usage: euler [options]
  --case NAME      rotating_hill (default), supersonic_vortex or double_mach
  --p P            polynomial degree, 0..10 (default 2; double_mach: 1, the only one)
  --level L        mesh level, 0..5: rotating_hill 2 (8 * 2^L)^2 triangles, supersonic_vortex
                   180 * 4^L triangles, double_mach 8 (12 * 2^L)^2 triangles (default 0)
  --cfl C          CFL number, > 0 (default 0.9; double_mach 0.5):
                   dt = C h_min / (lambda_max (2p + 1))
  --progress N     a line every N steps: step, t, dt, seconds per step, and min density and
                   pressure (Euler) or min / max of the scalar (default 0: none)
  --json FILE      {"case", "p", "level", "elements", "dofs", "steps", "l2_error", "seconds",
                    "seconds_per_element_step"}; double_mach: "min_density", "min_pressure"
                    instead of "l2_error"
  --help           this text
)";

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::cout << help_text;
      std::exit(0);
    }
    require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
    const std::string value = argv[++i];
    if (flag == "--case")
      o.name = value;
    else if (flag == "--p")
      o.p = parse_integer(flag, value);
    else if (flag == "--level")
      o.level = parse_integer(flag, value);
    else if (flag == "--cfl") {
      o.cfl = parse_number(flag, value);
      require(o.cfl > 0, "--cfl ", value, ": must be positive");
    } else if (flag == "--progress")
      o.progress = parse_integer(flag, value);
    else if (flag == "--json")
      o.json_path = value;
    else
      raise("unknown option '", flag, "' (see --help)");
  }
  require(o.name == "rotating_hill" || o.name == "supersonic_vortex" || o.name == "double_mach",
          "--case ", o.name, ": use rotating_hill, supersonic_vortex or double_mach");
  const bool double_mach = o.name == "double_mach";
  if (o.p < 0) o.p = double_mach ? 1 : 2;
  if (o.cfl == 0) o.cfl = double_mach ? 0.5 : 0.9;
  require(!double_mach || o.p == 1, "--p ", o.p,
          ": double_mach runs at p = 1 (the Barth-Jespersen limiter's degree)");
  require(o.p >= 0 && o.p <= max_dubiner_degree, "--p ", o.p,
          " is outside the supported degrees [0, ", max_dubiner_degree, "]");
  require(o.level >= 0 && o.level <= 5, "--level ", o.level, ": use 0..5");
  require(o.cfl > 0, "--cfl ", o.cfl, ": must be positive");
  require(o.progress >= 0, "--progress ", o.progress, ": must be at least 0");
  return o;
}

/// Prints a progress line every o.progress steps.
template <class Dg>
struct Progress {
  const Options& o;
  const Dg& dg;
  const std::vector<double>& u;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  void operator()(long step, double t, double dt) {
    if (o.progress == 0 || step % o.progress != 0) return;
    const auto now = std::chrono::steady_clock::now();
    const double per_step = std::chrono::duration<double>(now - last).count() / o.progress;
    last = now;
    // Minimum of the cell averages (mode 0 times φ_0 = √2).
    double low = std::numeric_limits<double>::infinity(), high = -low, low_pressure = low;
    for (Index c = 0; c < dg.element_count(); ++c) {
      State<Dg::variables> mean;
      for (int v = 0; v < Dg::variables; ++v)
        mean[v] = std::numbers::sqrt2 * u[dg.coefficient_index(c, v, 0)];
      low = std::min(low, mean[0]);
      high = std::max(high, mean[0]);
      if constexpr (Dg::variables == 4)
        low_pressure = std::min(low_pressure, dg.law().pressure(mean));
    }
    std::printf("step %ld  t = %.6f  dt = %.3e  %.3e s/step  ", step, t, dt, per_step);
    if constexpr (Dg::variables == 4)
      std::printf("min density %.6f  min pressure %.6f (cell averages)\n", low, low_pressure);
    else
      std::printf("min %.6f  max %.6f (cell averages)\n", low, high);
    std::fflush(stdout);
  }
};

struct Result {
  Index elements = 0;
  std::size_t dofs = 0;
  long steps = 0;
  double l2_error = 0;
  double seconds = 0;
  double min_density = 0, min_pressure = 0;  ///< double_mach: the smallest at the vertices
};

Result rotating_hill(const Options& o) {
  const LinearAdvection law{RotatingVelocity{{0.0, 0.0}, 2 * pi}};
  const auto exact = [](const Point<2>& x, double t) {
    const double c = std::cos(2 * pi * t), s = std::sin(2 * pi * t);
    const double dx = x[0] * c + x[1] * s - 0.2;
    const double dy = -x[0] * s + x[1] * c;
    return State<1>{{std::exp(-(dx * dx + dy * dy) / (2 * 0.15 * 0.15))}};
  };
  const SimplexMesh<2> unit = unit_square_mesh(8 << o.level);
  std::vector<Point<2>> vertices = unit.vertices();
  for (auto& x : vertices) x = Point<2>{-1 + 2 * x[0], -1 + 2 * x[1]};
  std::vector<SimplexMesh<2>::TaggedFacet> tags;
  for (Index f = 0; f < unit.facet_count(); ++f)
    if (unit.is_boundary_facet(f)) tags.push_back({unit.facet_vertices(f), unit.facet_tag(f)});
  const SimplexMesh<2> mesh(std::move(vertices), unit.cells(), {}, std::move(tags));
  ExplicitTriangleDG dg(mesh, o.p, law);
  auto u = dg.project([&](const Point<2>& x) { return exact(x, 0.0); });
  const auto boundary = exact_boundary(exact);
  TimeStepper stepper(dg, TimeScheme::rk4);
  Progress<decltype(dg)> progress{o, dg, u};
  const auto start = std::chrono::steady_clock::now();
  double t = 0;
  long steps = 0;
  while (t < 1.0) {  // TimeStepper::advance's loop, with progress lines
    double dt = dg.stable_time_step(u, t, o.cfl);
    if (t + 1.0000001 * dt >= 1.0) dt = 1.0 - t;
    stepper.step(u, t, dt, boundary);
    t = t + dt >= 1.0 ? 1.0 : t + dt;
    progress(++steps, t, dt);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {mesh.cell_count(), dg.coefficient_count(), steps, dg.l2_errors(u, exact, 1.0)[0],
          seconds};
}

Result supersonic_vortex(const Options& o) {
  const SupersonicVortex vortex;
  const SimplexMesh<2> mesh = supersonic_vortex_mesh(o.level, vortex);
  ExplicitTriangleDG dg(mesh, o.p, vortex.gas);
  auto u = dg.project([&](const Point<2>& x) { return vortex.exact(x); });
  Progress<decltype(dg)> progress{o, dg, u};
  const auto start = std::chrono::steady_clock::now();
  const auto march =
      march_to_steady_state(dg, TimeScheme::ssp_rk3, u, SupersonicVortexBoundary{vortex}, o.cfl,
                            1e-4, 20.0, [&](long s, double t, double dt) { progress(s, t, dt); });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!march.converged)
    std::cerr << "euler: warning: not steady at t = " << march.time << ": max |R| "
              << march.final_residual << " > 1e-4 * " << march.initial_residual << '\n';
  return {mesh.cell_count(), dg.coefficient_count(), march.steps, dg.l2_errors(u, vortex, 0.0)[0],
          seconds};
}

/// The smallest density and pressure of u_h at the triangles' vertices (where a p = 1 field
/// takes its minimum: positivity.hpp).
std::array<double, 2> smallest_density_and_pressure(const ExplicitTriangleDG<Euler>& dg,
                                                    const PositivityFix& positivity,
                                                    const std::vector<double>& u) {
  const int n = dg.basis_size();
  const std::span<const double> phi = positivity.vertex_values();
  double density = std::numeric_limits<double>::infinity(), pressure = density;
  for (Index c = 0; c < dg.element_count(); ++c)
    for (int k = 0; k < 3; ++k) {
      State<4> w{};
      for (int v = 0; v < 4; ++v)
        for (int i = 0; i < n; ++i) w[v] += u[dg.coefficient_index(c, v, i)] * phi[k * n + i];
      density = std::min(density, w[0]);
      pressure = std::min(pressure, dg.law().pressure(w));
    }
  return {density, pressure};
}

Result double_mach_reflection(const Options& o) {
  const DoubleMachReflection problem;
  const SimplexMesh<2> mesh = double_mach_reflection_mesh(12 << o.level, problem);
  ExplicitTriangleDG dg(mesh, 1, problem.gas);
  const BarthJespersenLimiter limiter(dg);
  const PositivityFix positivity(dg);
  const auto limit = [&](std::span<double> v) {
    limiter(v);
    positivity(v);
  };
  auto u = dg.project([&](const Point<2>& x) { return problem.initial_state(x); });
  limit(u);  // the projected shock overshoots
  TimeStepper stepper(dg, TimeScheme::ssp_rk2, limit);
  const auto boundary = double_mach_reflection_boundary(problem);
  Progress<decltype(dg)> progress{o, dg, u};
  const double end = 0.2;
  const auto start = std::chrono::steady_clock::now();
  double t = 0;
  long steps = 0;
  while (t < end) {
    double dt = dg.stable_time_step(u, t, o.cfl);
    if (t + 1.0000001 * dt >= end) dt = end - t;
    stepper.step(u, t, dt, boundary);
    t = t + dt >= end ? end : t + dt;
    progress(++steps, t, dt);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto [density, pressure] = smallest_density_and_pressure(dg, positivity, u);
  return {mesh.cell_count(), dg.coefficient_count(), steps, 0.0, seconds, density, pressure};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse_options(argc, argv);
    const bool double_mach = o.name == "double_mach";
    const Result r = o.name == "rotating_hill" ? rotating_hill(o)
                     : double_mach             ? double_mach_reflection(o)
                                               : supersonic_vortex(o);
    const double per_element_step = r.seconds / (double(r.elements) * double(r.steps));
    std::printf("%s, p = %d, level %d: %ld triangles, %zu DoFs, %ld steps, ", o.name.c_str(), o.p,
                o.level, long(r.elements), r.dofs, r.steps);
    if (double_mach)
      std::printf("min density %.6e, min pressure %.6e", r.min_density, r.min_pressure);
    else
      std::printf("%s L2 error %.6e", o.name == "rotating_hill" ? "scalar" : "density", r.l2_error);
    std::printf(", %.3f s (%.3e s per element-step)\n", r.seconds, per_element_step);
    if (!o.json_path.empty()) {
      std::ofstream json(o.json_path);
      require(bool(json), "cannot write ", o.json_path);
      json.precision(17);
      json << "{\"case\": \"" << o.name << "\", \"p\": " << o.p << ", \"level\": " << o.level
           << ", \"elements\": " << r.elements << ", \"dofs\": " << r.dofs
           << ", \"steps\": " << r.steps;
      if (double_mach)
        json << ", \"min_density\": " << r.min_density << ", \"min_pressure\": " << r.min_pressure;
      else
        json << ", \"l2_error\": " << r.l2_error;
      json << ", \"seconds\": " << r.seconds
           << ", \"seconds_per_element_step\": " << per_element_step << "}\n";
    }
    // A positive solution is what the limiter and the positivity fix are for.
    if (double_mach && !(r.min_density > 0 && r.min_pressure > 0)) {
      std::cerr << "euler: double_mach: density or pressure not positive at t = 0.2\n";
      return 1;
    }
    return 0;
  } catch (const polydg::Error& error) {
    std::cerr << "euler: " << error.what() << '\n';
    return 1;
  }
}
