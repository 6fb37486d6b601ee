#define BOOST_TEST_MODULE explicit_output
// Output of the explicit DG solver (hyperbolic/explicit_output.hpp): the VTU samples of u_h,
// read back and compared with the polynomials that were projected; restart files written and
// read bitwise, every corruption refused naming the file and the problem; and a march stopped,
// saved, loaded into a new solver and resumed, bitwise equal to the march that never stopped.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "error_message.hpp"
#include "io/vtu_test_reader.hpp"
#include "polydg/hyperbolic/euler.hpp"
#include "polydg/hyperbolic/explicit_dg.hpp"
#include "polydg/hyperbolic/explicit_output.hpp"
#include "polydg/hyperbolic/explicit_time_stepping.hpp"
#include "polydg/hyperbolic/linear_advection.hpp"
#include "polydg/mesh/generators.hpp"
#include "same_bits.hpp"

using namespace polydg;
using namespace polydg::hyperbolic;
using polydg::testing::error_names;
using polydg::testing::same_bits;
namespace fs = std::filesystem;

namespace {

fs::path output_directory() { return testing::vtu_output_directory("polydg_test_explicit_output"); }

// A perturbed mesh: general triangles, so that x = x_0 + J (r, s) is exercised in full.
SimplexMesh<2> perturbed_square(int n, double perturbation = 0.2) {
  return unit_square_mesh(n, perturbation, 5);
}

const LinearAdvection<RotatingVelocity> advection{RotatingVelocity{{0.5, 0.5}, 1.0}};
using AdvectionDG = ExplicitTriangleDG<LinearAdvection<RotatingVelocity>>;

double quadratic(const Point<2>& x) {
  return 0.3 - 1.2 * x[0] + 0.7 * x[1] + 2.0 * x[0] * x[0] - 0.9 * x[0] * x[1] + 0.4 * x[1] * x[1];
}

// Linear conserved variables of a gas at rest up to small momenta: physical on [0, 1]².
State<4> linear_gas_state(const Point<2>& x) {
  return {{1.0 + 0.2 * x[0] + 0.1 * x[1], 0.3 - 0.1 * x[1], 0.2 * x[0], 3.0 + 0.1 * x[0]}};
}

// The projection of a polynomial of P_p is exact up to rounding (the volume rule has degree
// 2p, the integrands f φ_i degree ≤ 2p), and so is the Dubiner sum at a lattice point: a few
// ulps of the O(1) values times the basis size, far below this bound (≈ 4500 ε).
constexpr double sample_tolerance = 1e-12;

// Counts, connectivity and element ids of a written file: `elements` blocks of
// (r+1)(r+2)/2 points each, r² cells per element whose points are its own block.
void check_lattice(const std::string& xml, Index elements, int r) {
  const long points_per_element = (r + 1) * (r + 2) / 2;
  BOOST_REQUIRE_EQUAL(testing::attribute(xml, "NumberOfPoints"), elements * points_per_element);
  BOOST_REQUIRE_EQUAL(testing::attribute(xml, "NumberOfCells"), long(elements) * r * r);
  const std::vector<double> connectivity = testing::data_array(xml, "connectivity");
  const std::vector<double> ids = testing::data_array(xml, "element_id");
  BOOST_REQUIRE_EQUAL(long(ids.size()), long(elements) * r * r);
  BOOST_REQUIRE_EQUAL(connectivity.size(), 3 * ids.size());
  std::vector<long> cells_of_element(elements, 0);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const long e = long(ids[k]);
    BOOST_REQUIRE(e >= 0 && e < elements);
    ++cells_of_element[e];
    for (int j = 0; j < 3; ++j) {
      const long point = long(connectivity[3 * k + j]);
      BOOST_CHECK(point >= e * points_per_element && point < (e + 1) * points_per_element);
    }
  }
  for (long count : cells_of_element) BOOST_CHECK_EQUAL(count, r * r);
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  BOOST_REQUIRE(in);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  BOOST_REQUIRE(out);
}

// Overwrites the bytes of `value` at `offset` (the layout of explicit_output.hpp).
template <class T>
std::string patched(std::string bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
  return bytes;
}

// explicit_output.hpp's layout: fields of the header, and the first coefficient.
constexpr std::size_t version_offset = 8, coefficient_count_offset = 28, time_offset = 52,
                      step_offset = 60, data_offset = 68;

}  // namespace

BOOST_AUTO_TEST_CASE(vtu_samples_a_projected_quadratic_exactly) {
  const SimplexMesh<2> mesh = perturbed_square(4);
  const AdvectionDG dg(mesh, 2, advection);
  const auto u = dg.project([](const Point<2>& x) { return State<1>{{quadratic(x)}}; });
  for (const int subdivisions : {0, 3}) {
    const int r = subdivisions == 0 ? 2 : subdivisions;  // max(1, p) by default
    const fs::path path =
        output_directory() / ("quadratic_r" + std::to_string(subdivisions) + ".vtu");
    write_explicit_solution_vtu(path, dg, u, {"u"}, subdivisions);
    const std::string xml = testing::read_file(path);
    check_lattice(xml, dg.element_count(), r);
    const std::vector<double> points = testing::data_array(xml, "Points");
    const std::vector<double> values = testing::data_array(xml, "u");
    BOOST_REQUIRE_EQUAL(points.size(), 3 * values.size());
    for (std::size_t k = 0; k < values.size(); ++k)
      BOOST_CHECK_SMALL(values[k] - quadratic({points[3 * k], points[3 * k + 1]}),
                        sample_tolerance);
  }
}

BOOST_AUTO_TEST_CASE(vtu_writes_every_euler_variable_and_a_derived_pressure) {
  const SimplexMesh<2> mesh = perturbed_square(3);
  const Euler gas;
  const ExplicitTriangleDG dg(mesh, 1, gas);
  const auto u = dg.project(linear_gas_state);
  const fs::path path = output_directory() / "linear_gas.vtu";
  write_explicit_solution_vtu(path, dg, u, {"density", "momentum_x", "momentum_y", "energy"}, 0,
                              {{"pressure", [&](const State<4>& w) { return gas.pressure(w); }}});
  const std::string xml = testing::read_file(path);
  check_lattice(xml, dg.element_count(), 1);
  BOOST_CHECK(testing::contains(xml, "<PointData Scalars=\"density\">"));
  const std::vector<double> points = testing::data_array(xml, "Points");
  const char* names[] = {"density", "momentum_x", "momentum_y", "energy"};
  for (int v = 0; v < 4; ++v) {
    const std::vector<double> values = testing::data_array(xml, names[v]);
    BOOST_REQUIRE_EQUAL(points.size(), 3 * values.size());
    for (std::size_t k = 0; k < values.size(); ++k)
      BOOST_CHECK_SMALL(values[k] - linear_gas_state({points[3 * k], points[3 * k + 1]})[v],
                        sample_tolerance);
  }
  // p = (γ − 1)(E − |m|²/(2ρ)) of states within rounding of the exact ones, with ρ ≥ 1 and
  // |m| < 1: its derivatives are O(1), so it is as close.
  const std::vector<double> pressure = testing::data_array(xml, "pressure");
  BOOST_REQUIRE_EQUAL(points.size(), 3 * pressure.size());
  for (std::size_t k = 0; k < pressure.size(); ++k)
    BOOST_CHECK_SMALL(
        pressure[k] - gas.pressure(linear_gas_state({points[3 * k], points[3 * k + 1]})),
        sample_tolerance);
}

BOOST_AUTO_TEST_CASE(vtu_refuses_bad_arguments_naming_the_file) {
  const SimplexMesh<2> mesh = perturbed_square(2);
  const AdvectionDG dg(mesh, 1, advection);
  const auto u = dg.project([](const Point<2>& x) { return State<1>{{quadratic(x)}}; });
  const fs::path path = output_directory() / "refused.vtu";
  const std::string file = "'" + path.string() + "'";
  BOOST_CHECK(error_names(
      [&] {
        write_explicit_solution_vtu(path, dg, u, {"u", "v"});
      },
      {file, "2 variable names for 1 variables"}));
  BOOST_CHECK(error_names([&] { write_explicit_solution_vtu(path, dg, u, {"a<b"}); },
                          {file, "'a<b'", "holds one of"}));
  BOOST_CHECK(error_names(
      [&] {
        write_explicit_solution_vtu(path, dg, u, {"u"}, 0,
                                    {{"u", [](const State<1>& w) { return w[0]; }}});
      },
      {file, "two point arrays are named 'u'"}));
  BOOST_CHECK(error_names([&] { write_explicit_solution_vtu(path, dg, u, {"u"}, 65); },
                          {file, "subdivisions = 65"}));
  const std::vector<double> short_u(u.size() - 1);
  BOOST_CHECK(error_names([&] { write_explicit_solution_vtu(path, dg, short_u, {"u"}); },
                          {file, std::to_string(short_u.size()) + " coefficients, expected"}));
  const fs::path nowhere = output_directory() / "no_such_folder" / "x.vtu";
  BOOST_CHECK(error_names([&] { write_explicit_solution_vtu(nowhere, dg, u, {"u"}); },
                          {nowhere.string(), "cannot open"}));
}

BOOST_AUTO_TEST_CASE(restart_round_trip_is_bitwise) {
  const SimplexMesh<2> mesh = perturbed_square(3);
  const ExplicitTriangleDG dg(mesh, 2, Euler{});
  auto u = dg.project(linear_gas_state);
  // Values no decimal text would carry exactly.
  for (std::size_t k = 0; k < u.size(); ++k) u[k] += std::numbers::pi * 1e-3 * double(k % 7);
  const fs::path path = output_directory() / "round_trip.restart";
  fs::path temporary = path;
  temporary += ".tmp";
  write_bytes(temporary, "a stale temporary file of an interrupted writer");
  const double t = 0.1 + 1.0 / 3.0;
  save_explicit_restart(path, dg, u, t, 123456789012L);
  BOOST_CHECK(!fs::exists(temporary));
  BOOST_CHECK_EQUAL(fs::file_size(path), data_offset + 8 * u.size());
  const ExplicitRestart restart = load_explicit_restart(path, dg);
  BOOST_CHECK(same_bits(restart.u, u));
  BOOST_CHECK_EQUAL(restart.t, t);
  BOOST_CHECK_EQUAL(restart.step, 123456789012L);

  // Saved again over the old file: replaced whole.
  u.assign(u.size(), 0.5);
  save_explicit_restart(path, dg, u, 2.0, 7);
  const ExplicitRestart again = load_explicit_restart(path, dg);
  BOOST_CHECK(same_bits(again.u, u));
  BOOST_CHECK_EQUAL(again.t, 2.0);
  BOOST_CHECK_EQUAL(again.step, 7);
  BOOST_CHECK(!fs::exists(temporary));
}

BOOST_AUTO_TEST_CASE(restart_refuses_every_corruption_naming_the_file_and_the_problem) {
  const SimplexMesh<2> mesh = perturbed_square(3);
  const AdvectionDG dg(mesh, 2, advection);
  const auto u = dg.project([](const Point<2>& x) { return State<1>{{quadratic(x)}}; });
  const fs::path folder = output_directory();
  const fs::path good = folder / "good.restart";
  save_explicit_restart(good, dg, u, 0.25, 10);
  const std::string bytes = read_bytes(good);
  const fs::path bad = folder / "bad.restart";
  const std::string file = "'" + bad.string() + "'";
  const auto refused = [&](const std::string& content, std::initializer_list<std::string> parts) {
    write_bytes(bad, content);
    return error_names([&] { load_explicit_restart(bad, dg); }, parts);
  };

  // The file itself.
  BOOST_CHECK(error_names([&] { load_explicit_restart(folder / "missing.restart", dg); },
                          {"missing.restart", "cannot open"}));
  BOOST_CHECK(refused(bytes.substr(0, 20), {file, "truncated: 20 bytes", "68-byte header"}));
  BOOST_CHECK(refused(bytes.substr(0, bytes.size() - 8), {file, "truncated"}));
  BOOST_CHECK(refused(bytes + "extra", {file, "5 more", "trailing data"}));
  BOOST_CHECK(refused("X" + bytes.substr(1), {file, "wrong magic"}));
  BOOST_CHECK(
      refused(patched(bytes, version_offset, std::uint32_t(2)), {file, "format version 2"}));
  BOOST_CHECK(refused(patched(bytes, coefficient_count_offset, std::uint64_t(5)),
                      {file, "holds 5 coefficients"}));

  // The data.
  BOOST_CHECK(refused(patched(bytes, time_offset, std::numeric_limits<double>::infinity()),
                      {file, "t = inf is not finite"}));
  BOOST_CHECK(
      refused(patched(bytes, step_offset, std::int64_t(-1)), {file, "step -1 is negative"}));
  // Coefficient 1 is element 1, variable 0, mode 0 (element-fastest).
  BOOST_CHECK(refused(patched(bytes, data_offset + 8, std::numeric_limits<double>::quiet_NaN()),
                      {file, "coefficient 1 (element 1, variable 0, mode 0)", "not finite"}));
  BOOST_CHECK(refused(patched(bytes, data_offset + 8, u[1] + 1e-9), {file, "checksum"}));
  BOOST_CHECK(refused(patched(bytes, time_offset, 0.5), {file, "checksum"}));

  // Another solver: degree, law, element count, mesh.
  write_bytes(bad, bytes);
  const AdvectionDG linear(mesh, 1, advection);
  BOOST_CHECK(error_names([&] { load_explicit_restart(bad, linear); },
                          {file, "written at degree p = 2", "degree is p = 1"}));
  const ExplicitTriangleDG gas(mesh, 2, Euler{});
  BOOST_CHECK(error_names([&] { load_explicit_restart(bad, gas); },
                          {file, "written for 1 variables", "has 4"}));
  const AdvectionDG finer(perturbed_square(4), 2, advection);
  BOOST_CHECK(error_names([&] { load_explicit_restart(bad, finer); },
                          {file, "mesh of 18 elements", "has 32"}));
  const AdvectionDG moved(perturbed_square(3, 0.1), 2, advection);
  BOOST_CHECK(error_names([&] { load_explicit_restart(bad, moved); }, {file, "another mesh"}));

  // save refuses what load would.
  auto infinite = u;
  infinite[2] = std::numeric_limits<double>::infinity();
  BOOST_CHECK(error_names([&] { save_explicit_restart(bad, dg, infinite, 0.0, 0); },
                          {file, "coefficient 2 (element 2", "not finite"}));
  BOOST_CHECK(error_names([&] { save_explicit_restart(bad, dg, u, std::nan(""), 0); },
                          {file, "is not finite"}));
  const fs::path nowhere = folder / "no_such_folder" / "x.restart";
  BOOST_CHECK(error_names([&] { save_explicit_restart(nowhere, dg, u, 0.0, 0); },
                          {nowhere.string(), "cannot open", ".tmp"}));
}

namespace {

// The march of euler.cpp's time-dependent cases: CFL steps, the last one landing on `end`;
// stops after `most` steps. Returns the steps taken.
long march(AdvectionDG& dg, TimeStepper<AdvectionDG>& stepper, std::vector<double>& u, double& t,
           long& step, double end, long most) {
  const auto boundary =
      exact_boundary([](const Point<2>& x, double) { return State<1>{{quadratic(x)}}; });
  long taken = 0;
  while (t < end && taken < most) {
    double dt = dg.stable_time_step(u, t, 0.5);
    if (t + 1.0000001 * dt >= end) dt = end - t;
    stepper.step(u, t, dt, boundary);
    t = t + dt >= end ? end : t + dt;
    ++step;
    ++taken;
  }
  return taken;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_resumed_march_is_bitwise_the_uninterrupted_one) {
  const SimplexMesh<2> mesh = perturbed_square(4);
  const double end = 0.3;
  AdvectionDG dg(mesh, 2, advection);
  const auto initial = dg.project([](const Point<2>& x) { return State<1>{{quadratic(x)}}; });

  auto uninterrupted = initial;
  double t = 0;
  long step = 0;
  TimeStepper<AdvectionDG> stepper(dg, TimeScheme::rk4);
  const long steps = march(dg, stepper, uninterrupted, t, step, end, 1000000);
  BOOST_REQUIRE_EQUAL(t, end);
  BOOST_REQUIRE_GT(steps, 4);

  // Stopped half way, saved, and resumed by a new solver and stepper (a new run of a program).
  auto first_half = initial;
  double t_stop = 0;
  long step_stop = 0;
  TimeStepper<AdvectionDG> first_stepper(dg, TimeScheme::rk4);
  march(dg, first_stepper, first_half, t_stop, step_stop, end, steps / 2);
  const fs::path path = output_directory() / "resume.restart";
  save_explicit_restart(path, dg, first_half, t_stop, step_stop);

  AdvectionDG resumed_dg(mesh, 2, advection);
  ExplicitRestart restart = load_explicit_restart(path, resumed_dg);
  BOOST_CHECK_EQUAL(restart.step, steps / 2);
  TimeStepper<AdvectionDG> resumed_stepper(resumed_dg, TimeScheme::rk4);
  march(resumed_dg, resumed_stepper, restart.u, restart.t, restart.step, end, 1000000);
  BOOST_CHECK_EQUAL(restart.t, end);
  BOOST_CHECK_EQUAL(restart.step, steps);
  BOOST_CHECK(same_bits(restart.u, uninterrupted));
}
