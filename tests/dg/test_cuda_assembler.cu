// The CUDA backend (DeviceAssembler, include/polydg/cuda/device_assembler.cuh) against the CPU
// reference Assembler on 2D meshes (2D+1 slabs: test_cuda_slab_assembler.cu): every kernel
// (element, interior faces, boundary faces with Dirichlet, Neumann and inflow points), P_p for p
// = 1..5 and hp (degrees 1..5 mixed), on the built-in square and on POLYDG_TEST_MESH where it is
// set (test_meshes). A purely hyperbolic problem: test_cuda_advection_assembler.cu; Approach 1 and
// the non-finite reports: test_cuda_coo_and_non_finite.cu. (Each coefficient type compiles every
// kernel again: in three executables they compile in parallel.) Checked (check_problem,
// device_assembler_checks.cuh):
// * relative Frobenius difference ≤ 1e-13 for the whole matrix, its off-diagonal blocks (the
//   interior-face kernel alone writes them) and the rhs, in both write modes; ≤ 1e-5 for the
//   single-precision backend (DeviceAssembler<Dim, float>);
// * the deterministic mode gives the same bits on a second run and under every launch
//   configuration (narrow blocks, capped batches, items per block or per warp, with or without
//   the producer warp, persistent blocks or not, three persistent blocks taking all items);
//   matrix-only and rhs-only assemblies give the bits of the full one.
// Exits 77 (ctest: Skipped) when no CUDA device is present.
#define BOOST_TEST_MODULE cuda_assembler
#include "gpu_test_main.hpp"
// (first: device_assembler_checks.cuh includes Boost.Test, which would define a main)
#include "dg/device_assembler_checks.cuh"

namespace device_assembler_test {

// What a test case checks on each test mesh: P_p for p = 1..5 (1..2 in a small run), hp degrees
// 1..5 mixed, or hp with the sub-simplex penalty scaling.
enum class Part { uniform_degrees, hp, hp_sub_simplex };

// Diffusion, advection and reaction varying in x; Dirichlet on tags 1, 2, 4, Neumann on 3 (a
// user's mesh: Neumann where its tag is 3). One function for every part, so that one set of
// coefficient types (and of kernels) serves them all.
void check_mesh(const TestMesh& test_mesh, Part part) {
  const auto& fine = test_mesh.fine;
  const Agglomeration parts = agglomerate(*fine, test_mesh.elements);
  const auto coefficients =
      make_coefficients<2>()
          .with_diffusion([] __host__ __device__(const Point<2>& x) {
            Tensor<2> a{};
            a[0][0] = 1 + x[0] * x[0];
            a[1][1] = 2 + x[1];
            a[0][1] = a[1][0] = 0.25 * x[0] * x[1];
            return a;
          })
          .with_advection([] __host__ __device__(const Point<2>& x) {
            return Point<2>{{1 + x[1], 0.5 - x[0]}};
          })
          .with_reaction([] __host__ __device__(const Point<2>& x) { return 1 + x[0] * x[1]; })
          .with_source(
              [] __host__ __device__(const Point<2>& x) { return sin(3 * x[0]) + exp(x[1]); })
          .with_dirichlet([] __host__ __device__(const Point<2>& x) { return x[0] - x[1] * x[1]; })
          .with_neumann([] __host__ __device__(const Point<2>& x, const Point<2>& n) {
            return n[0] * x[1] + n[1] * cos(x[0]);
          });
  const BoundaryConditions conditions =
      BoundaryConditions(BoundaryKind::dirichlet).set(3, BoundaryKind::neumann);
  const int* no_slab = nullptr;
  if (part == Part::uniform_degrees) {
    for (int p = 1; p <= (small_run() ? 2 : 5); ++p) {
      const PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
      check_problem(mesh, conditions, AssemblyOptions{}, coefficients, no_slab,
                    test_mesh.name + " P_" + std::to_string(p));
    }
    return;
  }
  const Index elements = PolytopicMesh<2>(fine, parts.element_of_cell, 1).element_count();
  std::vector<int> mixed(static_cast<std::size_t>(elements));
  for (Index e = 0; e < elements; ++e) mixed[e] = 1 + int((7 * e) % 5);
  const PolytopicMesh<2> hp(fine, parts.element_of_cell, mixed);
  if (part == Part::hp) {
    check_problem(hp, conditions, AssemblyOptions{}, coefficients, no_slab,
                  test_mesh.name + " hp 1..5");
    return;
  }
  AssemblyOptions sub_simplex;
  sub_simplex.penalty_scaling = PenaltyScaling::sub_simplex;
  check_problem(hp, conditions, sub_simplex, coefficients, no_slab,
                test_mesh.name + " hp, sub-simplex σ");
}

void check_meshes(Part part) {
  for (const TestMesh& mesh : test_meshes(20, 30)) check_mesh(mesh, part);
}

}  // namespace device_assembler_test

using device_assembler_test::check_meshes;
using device_assembler_test::Part;

BOOST_AUTO_TEST_CASE(uniform_degrees_equal_the_cpu) { check_meshes(Part::uniform_degrees); }

BOOST_AUTO_TEST_CASE(hp_degrees_equal_the_cpu) { check_meshes(Part::hp); }

BOOST_AUTO_TEST_CASE(hp_sub_simplex_penalty_equals_the_cpu) { check_meshes(Part::hp_sub_simplex); }
