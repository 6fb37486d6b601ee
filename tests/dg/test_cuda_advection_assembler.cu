// The CUDA backend against the CPU reference on a purely hyperbolic 2D problem: no diffusive
// point anywhere, inflow on every tag (Neumann included), P_2 — check_problem
// (device_assembler_checks.cuh): GPU = CPU within 1e-13 (1e-5 in single precision), the same bits
// under every launch configuration. (Split from test_cuda_assembler.cu so the two compile in
// parallel.) Exits 77 (ctest: Skipped) when no CUDA device is present.
#define BOOST_TEST_MODULE cuda_advection_assembler
#include "gpu_test_main.hpp"
// (first: device_assembler_checks.cuh includes Boost.Test, which would define a main)
#include "dg/device_assembler_checks.cuh"

namespace device_assembler_test {

void check_pure_advection() {
  const auto fine = fine_square(20);
  const Agglomeration parts = agglomerate(*fine, 30);
  const BoundaryConditions conditions =
      BoundaryConditions(BoundaryKind::dirichlet).set(3, BoundaryKind::neumann);
  const int* no_slab = nullptr;
  const auto hyperbolic =
      make_coefficients<2>()
          .with_advection([] __host__ __device__(const Point<2>& x) {
            return Point<2>{{cos(x[1]), 0.5 - x[0]}};
          })
          .with_reaction(1.0)
          .with_source([] __host__ __device__(const Point<2>& x) { return x[0] * x[1]; })
          .with_dirichlet([] __host__ __device__(const Point<2>& x) { return 1 + x[0]; });
  const PolytopicMesh<2> mesh(fine, parts.element_of_cell, 2);
  check_problem(mesh, conditions, AssemblyOptions{}, hyperbolic, no_slab, "advection P_2");
}

}  // namespace device_assembler_test

BOOST_AUTO_TEST_CASE(pure_advection_p2_equals_the_cpu) {
  device_assembler_test::check_pure_advection();
}
