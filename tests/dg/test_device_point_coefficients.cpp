// The precompiled GPU assembly from plain C++ (no nvcc): DeviceAssembler with
// DevicePointCoefficients filled from host functions (2D, and 3D polyhedra), with constants,
// and on 2D+1 slabs with
// SpaceTimePointCoefficients and per-point coupling data — each against the CPU Assembler with
// the same functions, to 1e-13 relative (the GPU kernels and the CPU sum the same terms in other
// orders; the host and the device evaluate the same functions at the same points). The point
// numbering: the points of each kind are as many as the pieces' rules have, and their weights'
// sum is the measure of what they cover. Skipped (exit 77) without a device.
#define BOOST_TEST_MODULE device_point_coefficients
#include <cmath>
#include <memory>
#include <vector>

#include "captured_warnings.hpp"
#include "gpu_test_main.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/device_assembler.hpp"
#include "polydg/dg/device_point_coefficients.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/slab_solver.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"
#include "relative_difference.hpp"
#include "test_meshes.hpp"

using namespace polydg;
using testing::relative_difference;

namespace {

constexpr double tolerance = 1e-13;

std::shared_ptr<const SimplexMesh<2>> square(int n) {
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 5));
}

// Varying A (full tensor), b, c, f, g_D, g_N: every kernel and every kind of point reads one.
auto varying_data() {
  return make_coefficients<2>()
      .with_diffusion([](const Point<2>& x) {
        Tensor<2> a{};
        a[0][0] = 1 + x[0] * x[0];
        a[1][1] = 2 + x[1];
        a[0][1] = a[1][0] = 0.25 * x[0] * x[1];
        return a;
      })
      .with_advection([](const Point<2>& x) {
        return Point<2>{{1 + x[1], 0.5 - x[0]}};
      })
      .with_reaction([](const Point<2>& x) { return 1 + x[0] * x[1]; })
      .with_source([](const Point<2>& x) { return std::sin(3 * x[0]) + std::exp(x[1]); })
      .with_dirichlet([](const Point<2>& x) { return x[0] - x[1] * x[1]; })
      .with_neumann(
          [](const Point<2>& x, const Point<2>& n) { return n[0] * x[1] + n[1] * std::cos(x[0]); });
}

struct Assembled {
  std::vector<double> values, rhs;
};

template <int Dim, class Data>
Assembled cpu_assembly(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                       const AssemblyOptions& options, const Data& data) {
  Assembler<Dim> cpu(mesh, conditions, options);
  BlockMatrix<double> matrix = cpu.make_matrix();
  std::vector<double> rhs = cpu.make_vector();
  cpu.assemble(data, matrix, rhs);
  return {std::vector<double>(matrix.values().begin(), matrix.values().end()), rhs};
}

}  // namespace

BOOST_AUTO_TEST_CASE(host_functions_at_the_points_equal_the_cpu_assembly) {
  const auto fine = square(12);
  const Agglomeration parts = agglomerate(*fine, 20);
  const BoundaryConditions conditions =
      BoundaryConditions(BoundaryKind::dirichlet).set(3, BoundaryKind::neumann);
  for (int p = 1; p <= 3; ++p) {
    const PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
    const Assembled cpu = cpu_assembly(mesh, conditions, {}, varying_data());
    DeviceAssembler<2> gpu(mesh, conditions);
    DevicePointCoefficients<2> data(gpu);
    data.set(varying_data());
    gpu.assemble(data.view());
    BOOST_TEST_CONTEXT("P_" << p) {
      BOOST_TEST(relative_difference(gpu.values_to_host(), cpu.values) <= tolerance);
      BOOST_TEST(relative_difference(gpu.rhs_to_host(), cpu.rhs) <= tolerance);
    }
  }
}

BOOST_AUTO_TEST_CASE(constants_take_the_precompiled_path) {
  const auto fine = square(10);
  const PolytopicMesh<2> mesh(fine, agglomerate(*fine, 15).element_of_cell, 2);
  Tensor<2> a{};
  a[0][0] = 2;
  a[1][1] = 0.5;
  a[0][1] = a[1][0] = 0.3;
  const auto data = make_coefficients<2>()
                        .with_diffusion(a)
                        .with_advection(Point<2>{{1.0, -0.5}})
                        .with_reaction(0.7)
                        .with_source(1.5)
                        .with_dirichlet(-0.25);
  const Assembled cpu = cpu_assembly(mesh, BoundaryConditions::all_dirichlet(), {}, data);
  DeviceAssembler<2> gpu(mesh, BoundaryConditions::all_dirichlet());
  gpu.assemble(data);
  BOOST_TEST(relative_difference(gpu.values_to_host(), cpu.values) <= tolerance);
  BOOST_TEST(relative_difference(gpu.rhs_to_host(), cpu.rhs) <= tolerance);
}

// The numbering: piece by piece, a piece's rule points in turn — with one degree everywhere
// every sub-triangle has as many points, and each lies in its element's bounding box.
BOOST_AUTO_TEST_CASE(points_are_numbered_piece_by_piece) {
  const auto fine = square(8);
  const PolytopicMesh<2> mesh(fine, agglomerate(*fine, 10).element_of_cell, 1);
  DeviceAssembler<2> gpu(mesh, BoundaryConditions::all_dirichlet());
  const QuadratureMesh<2>& host = gpu.quadrature_mesh();
  const std::vector<Point<2>> points = gpu.quadrature_points(PointKind::element);
  const GlobalIndex pieces = GlobalIndex(host.element_simplex_offsets.back());
  BOOST_TEST(GlobalIndex(points.size()) == gpu.point_count(PointKind::element));
  BOOST_TEST(points.size() % std::size_t(pieces) == 0u);  // one rule, P_1 everywhere
  const std::size_t per_piece = points.size() / std::size_t(pieces);
  for (Index e = 0; e < host.element_count(); ++e) {
    const Box<2>& box = host.element_boxes[e];
    for (Index s = host.element_simplex_offsets[e]; s < host.element_simplex_offsets[e + 1]; ++s)
      for (std::size_t q = 0; q < per_piece; ++q) {
        const Point<2>& x = points[std::size_t(s) * per_piece + q];
        for (int d = 0; d < 2; ++d) {
          BOOST_TEST(x[d] >= box.lower[d] - 1e-12);
          BOOST_TEST(x[d] <= box.upper[d] + 1e-12);
        }
      }
  }
  // Boundary normals are unit vectors; interface points are as many as the facets' rules have.
  for (const Point<2>& n : gpu.boundary_point_normals())
    BOOST_TEST(std::abs(n[0] * n[0] + n[1] * n[1] - 1) <= 1e-14);
  BOOST_TEST(gpu.quadrature_points(PointKind::boundary).size() ==
             std::size_t(gpu.point_count(PointKind::boundary)));
  BOOST_TEST(gpu.quadrature_points(PointKind::interface).size() ==
             std::size_t(gpu.point_count(PointKind::interface)));
  BOOST_TEST(gpu.point_count(PointKind::interface) > 0);
}

// 3D: polyhedra agglomerated from a cube of tetrahedra, the kernels compiled for
// PointCoefficients<3> (varying A, b, c, f, g_D) against the CPU.
BOOST_AUTO_TEST_CASE(polyhedra_equal_the_cpu_assembly) {
  const testing::TetrahedronSoup cube = testing::kuhn_unit_cube(4);
  const testing::CapturedWarnings untagged_boundary;  // tag 0 everywhere: Dirichlet
  const auto fine = std::make_shared<const SimplexMesh<3>>(cube.vertices, cube.cells);
  const auto data = make_coefficients<3>()
                        .with_diffusion([](const Point<3>& x) {
                          Tensor<3> a = Tensor<3>::identity(1 + x[0] * x[1]);
                          a[0][2] = a[2][0] = 0.1 * x[2];
                          return a;
                        })
                        .with_advection([](const Point<3>& x) {
                          return Point<3>{{1.0, x[0] - 0.5, 0.25}};
                        })
                        .with_reaction([](const Point<3>& x) { return 1 + x[2]; })
                        .with_source([](const Point<3>& x) { return std::exp(x[0] - x[1]) * x[2]; })
                        .with_dirichlet([](const Point<3>& x) { return x[0] + x[1] * x[2]; });
  for (int p = 1; p <= 2; ++p) {
    const PolytopicMesh<3> mesh(fine, agglomerate(*fine, 20).element_of_cell, p);
    const Assembled cpu = cpu_assembly(mesh, BoundaryConditions::all_dirichlet(), {}, data);
    DeviceAssembler<3> gpu(mesh, BoundaryConditions::all_dirichlet());
    DevicePointCoefficients<3> points(gpu);
    points.set(data);
    gpu.assemble(points.view());
    BOOST_TEST_CONTEXT("P_" << p) {
      BOOST_TEST(relative_difference(gpu.values_to_host(), cpu.values) <= tolerance);
      BOOST_TEST(relative_difference(gpu.rhs_to_host(), cpu.rhs) <= tolerance);
    }
  }
}

// 2D+1 slabs: space-time data of (x, y, t) at the slab's points, and the coupling term from u_0
// per boundary point — against the CPU with the same functions.
BOOST_AUTO_TEST_CASE(space_time_point_data_equal_the_cpu_assembly) {
  const auto fine = square(10);
  const PolytopicMesh<2> spatial(fine, agglomerate(*fine, 12).element_of_cell, 2);
  const PolytopicMesh<3> slab = make_slab_mesh(spatial);
  const BoundaryConditions conditions =
      slab_boundary_conditions(BoundaryConditions::all_dirichlet());
  const AssemblyOptions options = slab_assembly_options();
  const auto spatial_data =
      make_coefficients<2>()
          .with_diffusion([](const Point<3>& x) { return Tensor<2>::identity(1 + x[0] * x[2]); })
          .with_advection([](const Point<3>& x) {
            return Point<2>{{x[1] - 0.5, 0.5 - x[0]}};
          })
          .with_reaction(1.0)
          .with_source([](const Point<3>& x) { return std::cos(2 * x[0]) * std::exp(-x[2]); })
          .with_dirichlet([](const Point<3>& x) { return x[0] * x[2]; });
  const auto initial = [](Index, const Point<3>& x) { return std::sin(x[0] + 2 * x[1]); };

  Assembler<3> cpu(slab, conditions, options);
  BlockMatrix<double> matrix = cpu.make_matrix();
  std::vector<double> rhs = cpu.make_vector();
  cpu.assemble(space_time_coefficients(spatial_data), matrix, rhs);
  cpu.add_previous_slab_term(initial, rhs);

  DeviceAssembler<3> gpu(slab, conditions, options);
  DevicePointCoefficients<3, 2> data(gpu);
  data.set(spatial_data);
  gpu.assemble(space_time_coefficients(data.view()));
  device::DeviceBuffer<double> initial_values;
  gpu.add_previous_slab_term(
      data.boundary_values([&](const Point<3>& x) { return initial(0, x); }, initial_values));
  const std::vector<double> host_values(matrix.values().begin(), matrix.values().end());
  BOOST_TEST(relative_difference(gpu.values_to_host(), host_values) <= tolerance);
  BOOST_TEST(relative_difference(gpu.rhs_to_host(), rhs) <= tolerance);
}
