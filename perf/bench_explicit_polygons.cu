// Seconds per degree of freedom and step of the explicit DG solver on polygons
// (DeviceExplicitPolygonDG, polydg/cuda/device_explicit_polygon_dg.cuh) against triangles
// (DeviceExplicitTriangleDG) on the same fine mesh: the supersonic vortex (Euler, RK4 by
// default) on supersonic_vortex_mesh(--level), its triangles as they are and agglomerated by
// METIS into polygons of about k triangles each (--triangles-per-polygon). Each row: one whole
// DeviceTimeStepper::advance of --steps steps after --warmup, timed by CUDA events; s per
// element-step and per DoF-step (DoFs: 4 (p + 1)(p + 2) / 2 per element on both), wall clock
// from a synchronised device to the end of the last step. The target:
// polygons at most 2 times the triangles' time per DoF at the same p.
//
// Work model (why polygons cost more per DoF at the same p): a polygon of k triangles holds as
// many DoFs as one triangle but integrates over its k sub-triangles (k times the volume points)
// and over its sub-facets (about 3k/2 + O(√k) fine edges against 3/2 per triangle), evaluating
// its bounding-box Legendre basis at each physical point instead of reading reference tables.
//
//   bench_explicit_polygons [--p 1,2,3,4] [--level 6] [--triangles-per-polygon 4]
//                           [--steps 20] [--warmup 2] [--scheme rk4] [--cfl 0.5] [--json FILE]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "bench_provenance.hpp"
#include "cuda_event_timing.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/cuda/device_explicit_dg.cuh"
#include "polydg/cuda/device_explicit_polygon_dg.cuh"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_polygon_dg.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/supersonic_vortex.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"

namespace {

using namespace polydg;
using namespace polydg::hyperbolic;

constexpr const char* usage = R"(Usage: bench_explicit_polygons [options]
Seconds per DoF-step of the explicit DG solver on METIS polygons against triangles of the same
fine mesh on the GPU (DeviceTimeStepper), the supersonic vortex (Euler).
  --p P[,P...]                   degrees (default 1,2,3,4)
  --level L                      supersonic_vortex_mesh(L): 180 * 4^L triangles (default 6)
  --triangles-per-polygon K[,K]  polygons of about K triangles (default 4)
  --steps N                      timed steps (default 20)
  --warmup N                     steps before them (default 2)
  --scheme S                     rk4, ssp_rk3 or ssp_rk2 (default rk4)
  --cfl C                        CFL number (default 0.5)
  --json FILE                    also write the rows as JSON
  --help                         this text
)";

struct Options {
  std::vector<int> degrees = {1, 2, 3, 4};
  int level = 6;
  std::vector<int> triangles_per_polygon = {4};
  int steps = 20, warmup = 2;
  TimeScheme scheme = TimeScheme::rk4;
  double cfl = 0.5;
  std::string json;
};

struct Row {
  std::string elements_kind;  // "triangles" or "polygons"
  int p = 0, triangles_per_element = 1;
  long long elements = 0, dofs = 0;
  long steps = 0;
  double seconds_per_element_step = 0, seconds_per_dof_step = 0;
  double per_dof_over_triangles = 1;
};

/// advance on the device: warm-up, then the timed steps; fills the timing of `row`.
template <class DeviceDG, class Boundary>
void time_steps(DeviceDG& device_dg, typename DeviceDG::Vector& u, const Boundary& boundary,
                const Options& options, Row& row) {
  DeviceTimeStepper stepper(device_dg, options.scheme);
  const double dt = device_dg.stable_time_step(u, 0.0, options.cfl);
  stepper.advance(u, 0.0, options.warmup * dt, boundary, options.cfl);
  const double t = options.warmup * dt;
  POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
  const auto start = std::chrono::steady_clock::now();
  row.steps = stepper.advance(u, t, t + options.steps * dt, boundary, options.cfl).steps;
  POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  row.elements = device_dg.element_count();
  row.dofs = (long long)device_dg.coefficient_count();
  row.seconds_per_element_step = ms * 1e-3 / (double(row.steps) * double(row.elements));
  row.seconds_per_dof_step = ms * 1e-3 / (double(row.steps) * double(row.dofs));
}

void print(const Row& row) {
  std::printf("%-9s %2d %3d %9lld %10lld %5ld | %10.3e %10.3e | %6.2f\n", row.elements_kind.c_str(),
              row.p, row.triangles_per_element, row.elements, row.dofs, row.steps,
              row.seconds_per_element_step, row.seconds_per_dof_step, row.per_dof_over_triangles);
  std::fflush(stdout);
}

std::string json_row(const Row& row) {
  std::ostringstream out;
  out.precision(17);
  out << "{\"elements_kind\": \"" << row.elements_kind << "\", \"p\": " << row.p
      << ", \"triangles_per_element\": " << row.triangles_per_element
      << ", \"elements\": " << row.elements << ", \"dofs\": " << row.dofs
      << ", \"steps\": " << row.steps
      << ", \"seconds_per_element_step\": " << row.seconds_per_element_step
      << ", \"seconds_per_dof_step\": " << row.seconds_per_dof_step
      << ", \"per_dof_over_triangles\": " << row.per_dof_over_triangles
      << ", \"target_per_dof_over_triangles\": 2}";
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string started = bench::utc_now();
  Options options;
  try {
    for (int i = 1; i < argc; i += 2) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        std::fputs(usage, stdout);
        return 0;
      }
      const bool known = flag == "--p" || flag == "--level" || flag == "--triangles-per-polygon" ||
                         flag == "--steps" || flag == "--warmup" || flag == "--scheme" ||
                         flag == "--cfl" || flag == "--json";
      require(known, "unknown option ", flag, " (see --help)");
      require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[i + 1];
      if (flag == "--p") {
        options.degrees = parse_integer_list(flag, value);
      } else if (flag == "--level") {
        options.level = parse_integer(flag, value);
      } else if (flag == "--triangles-per-polygon") {
        options.triangles_per_polygon = parse_integer_list(flag, value);
      } else if (flag == "--steps") {
        options.steps = parse_integer(flag, value);
      } else if (flag == "--warmup") {
        options.warmup = parse_integer(flag, value);
      } else if (flag == "--scheme") {
        const std::string scheme = parse_choice_list(flag, value, {"rk4", "ssp_rk3", "ssp_rk2"})[0];
        options.scheme = scheme == "rk4"       ? TimeScheme::rk4
                         : scheme == "ssp_rk3" ? TimeScheme::ssp_rk3
                                               : TimeScheme::ssp_rk2;
      } else if (flag == "--cfl") {
        options.cfl = parse_number(flag, value);
      } else {
        options.json = value;
      }
    }
    require(options.level >= 0 && options.level <= 7, "--level must be in 0..7");
    require(options.steps >= 1 && options.warmup >= 0,
            "--steps must be positive, --warmup not negative");
    require(options.cfl > 0, "--cfl must be positive");
    for (int p : options.degrees) require(p >= 0 && p <= 4, "--p: degree ", p, " is outside 0..4");
    for (int k : options.triangles_per_polygon)
      require(k >= 1, "--triangles-per-polygon: ", k, " is not positive");

    const SupersonicVortex vortex;
    const SupersonicVortexBoundary boundary{vortex};
    const auto initial = [&](const Point<2>& x) { return vortex.exact(x); };
    auto fine =
        std::make_shared<const SimplexMesh<2>>(supersonic_vortex_mesh(options.level, vortex));
    std::vector<PolytopicMesh<2>> polygons;
    for (int k : options.triangles_per_polygon) {
      // k = 1: every triangle its own polygon (METIS would be asked for one part per cell).
      std::vector<Index> element_of_cell(std::size_t(fine->cell_count()));
      if (k == 1)
        std::iota(element_of_cell.begin(), element_of_cell.end(), Index(0));
      else
        element_of_cell =
            agglomerate(*fine, std::max<Index>(1, fine->cell_count() / k)).element_of_cell;
      polygons.emplace_back(fine, element_of_cell, 1);
    }
    std::printf(
        "%s; supersonic vortex (Euler), %d fine triangles, RK stages of %s, CFL %g, %d "
        "steps after %d\n",
        bench::device_name().c_str(), int(fine->cell_count()),
        options.scheme == TimeScheme::rk4 ? "RK4" : "SSP", options.cfl, options.steps,
        options.warmup);
    std::printf(
        "elements   p   k  elements       DoFs steps | s/el-step  s/DoF-step | "
        "/ triangles (target 2)\n");
    std::vector<Row> rows;
    for (int p : options.degrees) {
      Row triangles;
      triangles.elements_kind = "triangles";
      triangles.p = p;
      {
        ExplicitTriangleDG dg(*fine, p, vortex.gas);
        DeviceExplicitTriangleDG device_dg(dg);
        auto u = device_dg.upload(dg.project(initial));
        time_steps(device_dg, u, boundary, options, triangles);
      }
      print(triangles);
      rows.push_back(triangles);
      for (std::size_t i = 0; i < polygons.size(); ++i) {
        Row row;
        row.elements_kind = "polygons";
        row.p = p;
        row.triangles_per_element = options.triangles_per_polygon[i];
        ExplicitPolygonDG dg(polygons[i], p, vortex.gas);
        DeviceExplicitPolygonDG device_dg(dg);
        auto u = device_dg.upload(dg.project(initial));
        time_steps(device_dg, u, boundary, options, row);
        row.per_dof_over_triangles = row.seconds_per_dof_step / triangles.seconds_per_dof_step;
        print(row);
        rows.push_back(row);
      }
    }
    if (!options.json.empty()) {
      std::ofstream json(options.json);
      require(bool(json), "bench_explicit_polygons: cannot write ", options.json);
      json << "{" << bench::provenance_json(argc, argv, started, bench::device_json())
           << ", \"case\": \"supersonic_vortex\", \"level\": " << options.level
           << ", \"fine_triangles\": " << fine->cell_count() << ", \"steps\": " << options.steps
           << ", \"cfl\": " << options.cfl << ", \"rows\": [";
      for (std::size_t i = 0; i < rows.size(); ++i) json << (i ? ", " : "") << json_row(rows[i]);
      json << "]}\n";
      require(bool(json), "bench_explicit_polygons: cannot write ", options.json);
    }
  } catch (const Error& error) {
    std::cerr << "bench_explicit_polygons: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
