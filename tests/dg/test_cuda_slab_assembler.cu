// The CUDA backend (DeviceAssembler) against the CPU reference Assembler on 2D+1 slabs, the
// space-time heat problem's structure (2D meshes: test_cuda_assembler.cu): P_p and PQ_p for
// p = 1..3 on tetrahedra and prisms, P_4 and P_5 and an hp slab (degrees 1..5) on prisms, the
// previous slab's data on the bottom faces; on the built-in square and on POLYDG_TEST_MESH
// where it is set (test_meshes). Checked:
// * check_problem (device_assembler_checks.cuh): the GPU matrix and rhs within 1e-13 of the CPU's
//   (1e-5 in single precision), the same bits under every launch configuration;
// * map_last_coordinate moves the device geometry as the CPU's (bit for bit), and the moved slab
//   assembles the CPU's matrix;
// * a DeviceAssembler built from a QuadratureMesh gives the same bits as from the polytopic mesh,
//   and one whose pieces are not the options' is refused;
// * through space_time_coefficients, whose types make a slab's top face idle (top_face_idle),
//   the boundary kernels leave the top faces out and still give the CPU's matrix and rhs;
// * with previous_slab on the top face too (those facets then lead, as the bottom's, and the
//   matrix launch takes them where the coefficients leave the top idle), the matrix, the rhs
//   and the previous slab term still match the CPU's;
// * Approach 1's CSR holds Approach 2's matrix;
// * a NaN coefficient on a P_1 slab is reported naming the first non-finite block row.
// Exits 77 (ctest: Skipped) when no CUDA device is present.
#define BOOST_TEST_MODULE cuda_slab_assembler
#include "gpu_test_main.hpp"
// (first: device_assembler_checks.cuh includes Boost.Test, which would define a main)
#include "dg/device_assembler_checks.cuh"
#include "polydg/dg/face_integrand.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"

namespace device_assembler_test {

// The data of a space-time heat problem at X = (x, y, t): spatial a and w, c, f, g_D.
__host__ __device__ Tensor<2> heat_diffusion(const Point<3>& x) {
  Tensor<2> a{};
  a[0][0] = 1 + x[0] * x[0];
  a[1][1] = 1 + x[1] * x[2];
  a[0][1] = a[1][0] = 0.1 * x[0];
  return a;
}
__host__ __device__ Point<2> heat_advection(const Point<3>& x) {
  return Point<2>{{x[1] - 0.5, 0.5 - x[0]}};
}
__host__ __device__ double heat_reaction(const Point<3>& x) { return 0.5 + x[2]; }
__host__ __device__ double heat_source(const Point<3>& x) {
  return cos(2 * x[0]) * (1 + x[1]) * exp(-x[2]);
}
__host__ __device__ double heat_dirichlet(const Point<3>& x) { return x[0] * x[2]; }

// What a test case checks on each test mesh (the parts of check_slab_mesh below).
enum class Part {
  general_coefficients,
  space_time_coefficients,
  high_degrees_and_hp,
  previous_slab_on_top,
  mapped_slab,
  from_quadrature_mesh
};

// The space-time heat problem's structure: spatial diffusion, b = (w, 1), the bottom face
// reading a previous slab (here a smooth function of (e, x)), the top face outflow. One function
// for every part, so that one set of coefficient types (and of kernels) serves them all.
void check_slab_mesh(const TestMesh& test_mesh, Part part) {
  const auto& fine = test_mesh.fine;
  const Agglomeration parts = agglomerate(*fine, test_mesh.elements);
  const PolytopicMesh<2> spatial(fine, parts.element_of_cell, 1);
  // Spatial callables of their own: their types say nothing of A's last row or of b's last
  // component.
  const auto coefficients =
      make_coefficients<3>()
          .with_diffusion([] __host__ __device__(const Point<3>& x) {
            const Tensor<2> spatial = heat_diffusion(x);
            Tensor<3> a{};
            for (int i = 0; i < 2; ++i)
              for (int j = 0; j < 2; ++j) a[i][j] = spatial[i][j];
            return a;
          })
          .with_advection([] __host__ __device__(const Point<3>& x) {
            const Point<2> w = heat_advection(x);
            return Point<3>{{w[0], w[1], 1.0}};
          })
          .with_reaction([] __host__ __device__(const Point<3>& x) { return heat_reaction(x); })
          .with_source([] __host__ __device__(const Point<3>& x) { return heat_source(x); })
          .with_dirichlet([] __host__ __device__(const Point<3>& x) { return heat_dirichlet(x); });
  const auto previous_slab = [] __host__ __device__(Index e, const Point<3>& x) {
    return sin(x[0] + 0.1 * e) * x[1];
  };
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  const auto space_name = [](BasisSpace space) {
    return std::string(space == BasisSpace::total_degree ? "P" : "PQ");
  };
  if (part == Part::general_coefficients) {
    for (int p = 1; p <= (small_run() ? 1 : 3); ++p) {
      const PolytopicMesh<3> slab = make_slab_mesh(spatial, p);
      for (BasisSpace space : {BasisSpace::total_degree, BasisSpace::total_degree_times_last})
        for (QuadraturePieces pieces :
             {QuadraturePieces::simplices, QuadraturePieces::slab_prisms}) {
          AssemblyOptions options;
          options.space = space;
          options.pieces = pieces;
          check_problem(slab, conditions, options, coefficients, &previous_slab,
                        test_mesh.name + ": slab " + space_name(space) + "_" + std::to_string(p) +
                            (pieces == QuadraturePieces::slab_prisms ? " prisms" : " tetrahedra"));
        }
    }
  }

  // The same problem through space_time_coefficients: A = diag(a, 0) and b = (w, 1) by their
  // types, so the device's boundary kernels do not launch the top faces (the CPU integrates them,
  // to exact zeros). Plain make_coefficients<3> callables say nothing, and keep them.
  const auto space_time = space_time_coefficients(
      make_coefficients<2>()
          .with_diffusion([] __host__ __device__(const Point<3>& x) { return heat_diffusion(x); })
          .with_advection([] __host__ __device__(const Point<3>& x) { return heat_advection(x); })
          .with_reaction([] __host__ __device__(const Point<3>& x) { return heat_reaction(x); })
          .with_source([] __host__ __device__(const Point<3>& x) { return heat_source(x); })
          .with_dirichlet([] __host__ __device__(const Point<3>& x) { return heat_dirichlet(x); }));
  static_assert(top_face_idle<decltype(space_time)>);
  static_assert(!top_face_idle<decltype(coefficients)>);
  if (part == Part::space_time_coefficients) {
    for (int p = 1; p <= (small_run() ? 1 : 2); ++p) {
      const PolytopicMesh<3> slab = make_slab_mesh(spatial, p);
      for (BasisSpace space : {BasisSpace::total_degree, BasisSpace::total_degree_times_last}) {
        AssemblyOptions options = slab_assembly_options();
        options.space = space;
        check_problem(slab, conditions, options, space_time, &previous_slab,
                      test_mesh.name + ": space-time " + space_name(space) + "_" +
                          std::to_string(p) + " prisms");
      }
    }
  }

  // P_4 and P_5, the benchmark's setting (prisms, total-degree rules, the top faces idle): the
  // elements, the element boundaries (~13 triangles per polygon) and the interfaces here take
  // the FP64 tensor-core tables, the interfaces two regions per warp (P_4: 9 regions in 5
  // warps; "narrow" configurations: one warp in passes of two). And an hp slab, degrees 1..5
  // mixed, with the general coefficients: every degree group of every kernel, interfaces
  // between unequal degrees, the previous slab read at each degree. P_4 in the small runs too
  // (compute-sanitizer): the tensor-core tables of all three kernels.
  if (part == Part::high_degrees_and_hp) {
    for (int p = 4; p <= (small_run() ? 4 : 5); ++p)
      check_problem(make_slab_mesh(spatial, p), conditions, slab_assembly_options(), space_time,
                    &previous_slab,
                    test_mesh.name + ": space-time P_" + std::to_string(p) + " prisms");
    if (!small_run()) {
      std::vector<int> mixed(static_cast<std::size_t>(spatial.element_count()));
      for (std::size_t e = 0; e < mixed.size(); ++e) mixed[e] = 1 + int((3 * e) % 5);
      const PolytopicMesh<3> hp =
          make_slab_mesh(PolytopicMesh<2>(fine, parts.element_of_cell, mixed));
      check_problem(hp, conditions, slab_assembly_options(), coefficients, &previous_slab,
                    test_mesh.name + ": slab hp 1..5 prisms");
    }
  }

  // previous_slab on the top face too (an odd choice, but a valid one): those facets join the
  // leading run of previous_slab facets, so the previous slab term takes them, the rhs launch
  // leaves them out, and the matrix launch takes them even where the top face is idle (their
  // points then add exact zeros).
  if (part == Part::previous_slab_on_top) {
    BoundaryConditions top_too = conditions;
    top_too.set(slab_top_tag, BoundaryKind::previous_slab);
    const PolytopicMesh<3> slab = make_slab_mesh(spatial, 1);
    check_problem(slab, top_too, slab_assembly_options(), coefficients, &previous_slab,
                  test_mesh.name + ": slab P_1 prisms, previous_slab on top too");
    check_problem(slab, top_too, slab_assembly_options(), space_time, &previous_slab,
                  test_mesh.name + ": space-time P_1 prisms, previous_slab on top too");
  }

  // map_last_coordinate: both backends moved onto [0.5, 0.75] (and from there onto [0.75, 1.1])
  // hold the same geometry — the device's mapped in place, bit for bit the CPU's — and assemble
  // the same matrix; the GPU assembler's host mesh, mapped once by the composed map, has the
  // same points and measures within two roundings.
  const PolytopicMesh<3> slab = make_slab_mesh(spatial, 2);
  const AssemblyOptions prisms = slab_assembly_options();
  if (part == Part::mapped_slab) {
    Assembler<3> cpu(slab, conditions, prisms);
    DeviceAssembler<3> gpu(slab, conditions, prisms);
    cpu.map_last_coordinate(0, 1, 0.5, 0.75);
    gpu.map_last_coordinate(0, 1, 0.5, 0.75);
    cpu.map_last_coordinate(0.5, 0.75, 0.75, 1.1);
    gpu.map_last_coordinate(0.5, 0.75, 0.75, 1.1);
    {
      const QuadratureMesh<3>& host = cpu.quadrature_mesh();
      const DeviceQuadratureMeshView<3> device_view = gpu.device_mesh().view();
      const auto download = [](const auto* device_data, std::size_t count) {
        std::vector<std::remove_cv_t<std::remove_pointer_t<decltype(device_data)>>> copy(count);
        device::copy_device_to_host(copy.data(), device_data, count * sizeof(copy[0]));
        return copy;
      };
      const auto same = [](const auto& device_values, const auto* host_values) {
        return std::memcmp(device_values.data(), host_values,
                           device_values.size() * sizeof(device_values[0])) == 0;
      };
      BOOST_TEST(same(download(device_view.simplex_vertices, host.simplex_vertices.size() * 4),
                      host.simplex_vertices.data()));
      BOOST_TEST(
          same(download(device_view.boxes, host.element_boxes.size()), host.element_boxes.data()));
      BOOST_TEST(same(download(device_view.measures, host.element_measures.size()),
                      host.element_measures.data()));
      BOOST_TEST(same(
          download(device_view.interface_facet_vertices, host.interface_facet_vertices.size() * 3),
          host.interface_facet_vertices.data()));
      BOOST_TEST(
          same(download(device_view.interface_facet_measures, host.interface_facet_measures.size()),
               host.interface_facet_measures.data()));
      BOOST_TEST(same(download(device_view.interface_facet_cell_measures,
                               host.interface_facet_cell_measures.size() * 2),
                      host.interface_facet_cell_measures.data()));
      BOOST_TEST(same(
          download(device_view.boundary_facet_vertices, host.boundary_facet_vertices.size() * 3),
          host.boundary_facet_vertices.data()));
      BOOST_TEST(
          same(download(device_view.boundary_facet_measures, host.boundary_facet_measures.size()),
               host.boundary_facet_measures.data()));
      BOOST_TEST(same(download(device_view.boundary_facet_cell_measures,
                               host.boundary_facet_cell_measures.size()),
                      host.boundary_facet_cell_measures.data()));
      const QuadratureMesh<3>& followed = gpu.quadrature_mesh();
      BOOST_TEST((followed.simplex_vertices == host.simplex_vertices));
      BOOST_TEST((followed.boundary_facet_vertices == host.boundary_facet_vertices));
      BOOST_TEST(relative_difference(followed.element_measures, host.element_measures) <= 1e-15);
      BOOST_TEST(relative_difference(followed.boundary_facet_measures,
                                     host.boundary_facet_measures) <= 1e-15);
    }
    BlockMatrix<double> matrix = cpu.make_matrix();
    std::vector<double> rhs = cpu.make_vector();
    cpu.assemble(coefficients, matrix, rhs);
    gpu.assemble(coefficients);
    const double mapped_difference = relative_difference(gpu.values_to_host(), matrix.values());
    BOOST_TEST_MESSAGE(test_mesh.name << ": slab P_2 mapped to [0.75, 1.1]: |D-C|/|C| = "
                                      << mapped_difference);
    BOOST_TEST(mapped_difference <= tolerance);
    BOOST_TEST(relative_difference(gpu.rhs_to_host(), rhs) <= tolerance);
    BlockMatrix<double> copied = gpu.make_host_matrix();
    std::vector<double> copied_rhs(rhs.size());
    gpu.copy_to_host(copied, copied_rhs);
    BOOST_TEST(relative_difference(copied.values(), matrix.values()) <= tolerance);
    BOOST_TEST(copied.values().size() == matrix.values().size());
  }

  // From a quadrature mesh the caller built: the same bits as from the polytopic mesh; a mesh
  // with other pieces than the options' is refused, naming both.
  if (part != Part::from_quadrature_mesh) return;
  DeviceAssembler<3> from_polytopic(slab, conditions, prisms);
  DeviceAssembler<3> from_quadrature(QuadratureMesh<3>(slab, conditions, prisms.pieces), prisms);
  from_polytopic.assemble(coefficients);
  from_polytopic.add_previous_slab_term(previous_slab);
  from_quadrature.assemble(coefficients);
  from_quadrature.add_previous_slab_term(previous_slab);
  BOOST_TEST(same_bits(from_quadrature.values_to_host(), from_polytopic.values_to_host()));
  BOOST_TEST(same_bits(from_quadrature.rhs_to_host(), from_polytopic.rhs_to_host()));
  BOOST_TEST((from_quadrature.quadrature_mesh().space == prisms.space));
  std::string message;
  try {
    DeviceAssembler<3> mismatched(QuadratureMesh<3>(slab, conditions), prisms);
  } catch (const Error& error) {
    message = error.what();
  }
  BOOST_TEST_MESSAGE("pieces mismatch: " << message);
  BOOST_TEST(message.find("quadrature mesh has simplices as pieces, but the options ask "
                          "for slab prisms") != std::string::npos,
             message);
}

void check_slab_meshes(Part part) {
  for (const TestMesh& mesh : test_meshes(8, 10)) {
    BOOST_TEST_INFO_SCOPE(mesh.name);
    check_slab_mesh(mesh, part);
  }
}

void check_approach_one_slab() {
  const auto fine = fine_square(12);
  const Agglomeration parts = agglomerate(*fine, 20);
  const PolytopicMesh<3> slab = make_slab_mesh(PolytopicMesh<2>(fine, parts.element_of_cell, 1), 2);
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  const auto heat = make_coefficients<3>()
                        .with_diffusion(Tensor<3>{{{1, 0, 0}, {0, 1, 0}, {0, 0, 0}}})
                        .with_advection(Point<3>{{1.0, 0.5, 1.0}})
                        .with_reaction(1.0);
  check_approach_one(slab, conditions, slab_assembly_options(), heat, "slab P_2 prisms");
}

// A NaN on a P_1 slab of prisms, whose elements (4 × 4), interfaces (8 × 8) and boundary faces
// are summed one per thread and stored a table at a time (thread_item_kernel.cuh's store_table):
// the error still names the block row of the first non-finite value, in both write modes. A NaN
// reaction reaches the element kernel only; a NaN advection the interfaces and the inflow faces.
void check_non_finite_slab() {
  const auto fine = fine_square(8);
  const PolytopicMesh<3> slab =
      make_slab_mesh(PolytopicMesh<2>(fine, agglomerate(*fine, 10).element_of_cell, 1), 1);
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  AssemblyOptions options = slab_assembly_options();
  options.space = BasisSpace::total_degree;
  const auto heat = [] {
    return make_coefficients<3>()
        .with_diffusion(Tensor<3>{{{1, 0, 0}, {0, 1, 0}, {0, 0, 0}}})
        .with_advection(Point<3>{{1.0, 0.5, 1.0}});
  };
  const auto reaction = heat().with_reaction(
      [] __host__ __device__(const Point<3>& x) { return x[0] > 0.7 ? nan("") : 1.0; });
  const auto advection =
      heat().with_reaction(1.0).with_advection([] __host__ __device__(const Point<3>& x) {
        return Point<3>{{1.0, x[1] > 0.6 ? nan("") : 0.5, 1.0}};
      });
  for (const FaceWriteMode mode : {FaceWriteMode::deterministic, FaceWriteMode::atomic}) {
    check_non_finite_report(slab, conditions, options, reaction, mode, "slab P_1 NaN reaction");
    check_non_finite_report(slab, conditions, options, advection, mode, "slab P_1 NaN advection");
  }
}

}  // namespace device_assembler_test

using device_assembler_test::check_slab_meshes;
using device_assembler_test::Part;

// P_p and PQ_p, p = 1..3, on tetrahedra and prisms: general 3D coefficients.
BOOST_AUTO_TEST_CASE(general_coefficients_equal_the_cpu) {
  check_slab_meshes(Part::general_coefficients);
}

// Through space_time_coefficients: the top faces idle, left out by the boundary kernels.
BOOST_AUTO_TEST_CASE(space_time_coefficients_equal_the_cpu) {
  check_slab_meshes(Part::space_time_coefficients);
}

// P_4 and P_5 (the FP64 tensor-core tables) and an hp slab of degrees 1..5.
BOOST_AUTO_TEST_CASE(high_degrees_and_hp_equal_the_cpu) {
  check_slab_meshes(Part::high_degrees_and_hp);
}

BOOST_AUTO_TEST_CASE(previous_slab_on_the_top_face_too) {
  check_slab_meshes(Part::previous_slab_on_top);
}

BOOST_AUTO_TEST_CASE(mapped_slab_has_the_cpu_geometry_and_matrix) {
  check_slab_meshes(Part::mapped_slab);
}

BOOST_AUTO_TEST_CASE(from_a_quadrature_mesh_the_same_bits) {
  check_slab_meshes(Part::from_quadrature_mesh);
}

BOOST_AUTO_TEST_CASE(approach_one_csr_holds_the_block_matrix) {
  device_assembler_test::check_approach_one_slab();
}

BOOST_AUTO_TEST_CASE(non_finite_coefficients_name_their_block_row) {
  device_assembler_test::check_non_finite_slab();
}
