// The CUDA backend on 2D meshes, beyond test_cuda_assembler.cu (split from it so they compile in
// parallel):
// * Approach 1 (CooAssembly: COO with duplicates, sort and reduce by key) gives the CSR of the
//   same matrix (hp);
// * a NaN coefficient is reported as a polydg::Error naming the element whose block row holds
//   the first non-finite value (both write modes), an infinite source likewise for the rhs.
// Exits 77 (ctest: Skipped) when no CUDA device is present.
#define BOOST_TEST_MODULE cuda_coo_and_non_finite
#include "gpu_test_main.hpp"
// (first: device_assembler_checks.cuh includes Boost.Test, which would define a main)
#include "dg/device_assembler_checks.cuh"

namespace device_assembler_test {

void check_approach_one_square() {
  const auto fine = fine_square(12);
  const Agglomeration parts = agglomerate(*fine, 20);
  const Index elements = PolytopicMesh<2>(fine, parts.element_of_cell, 1).element_count();
  std::vector<int> mixed(static_cast<std::size_t>(elements));
  for (Index e = 0; e < elements; ++e) mixed[e] = 1 + int((3 * e) % 4);
  const PolytopicMesh<2> hp(fine, parts.element_of_cell, mixed);
  const auto coefficients =
      make_coefficients<2>()
          .with_diffusion(0.5)
          .with_advection([] __host__ __device__(const Point<2>& x) {
            return Point<2>{{1 + x[1], -x[0]}};
          })
          .with_reaction([] __host__ __device__(const Point<2>& x) { return 1 + x[0]; });
  check_approach_one(hp, BoundaryConditions::all_dirichlet(), AssemblyOptions{}, coefficients,
                     "square hp 1..4");
}

void check_non_finite_coefficient() {
  const auto fine = fine_square(8);
  const PolytopicMesh<2> mesh(fine, agglomerate(*fine, 10).element_of_cell, 1);
  // A NaN reaction reaches the element kernel's diagonal blocks only; a NaN advection the
  // interfaces' off-diagonal blocks and, by the gather or the atomics, the diagonal ones too.
  const auto reaction = make_coefficients<2>().with_reaction(
      [] __host__ __device__(const Point<2>& x) { return x[0] > 0.7 ? nan("") : 1.0; });
  const auto advection =
      make_coefficients<2>().with_advection([] __host__ __device__(const Point<2>& x) {
        return Point<2>{{1.0, x[1] > 0.6 ? nan("") : 0.5}};
      });
  for (const FaceWriteMode mode : {FaceWriteMode::deterministic, FaceWriteMode::atomic}) {
    check_non_finite_report(mesh, BoundaryConditions::all_dirichlet(), AssemblyOptions{}, reaction,
                            mode, "NaN reaction");
    check_non_finite_report(mesh, BoundaryConditions::all_dirichlet(), AssemblyOptions{}, advection,
                            mode, "NaN advection");
  }
  // The rhs is checked too.
  const auto source = make_coefficients<2>().with_source(
      [] __host__ __device__(const Point<2>& x) { return x[0] > 0.7 ? double(INFINITY) : 1.0; });
  DeviceAssembler<2> gpu(mesh, BoundaryConditions::all_dirichlet());
  std::string message;
  try {
    gpu.assemble(source);
  } catch (const Error& error) {
    message = error.what();
  }
  BOOST_TEST_MESSAGE("infinite source: " << message);
  BOOST_TEST(message.find("non-finite") != std::string::npos, "infinite source: " << message);
  BOOST_TEST(message.find("rhs") != std::string::npos, "infinite source: " << message);
}

}  // namespace device_assembler_test

BOOST_AUTO_TEST_CASE(approach_one_csr_holds_the_block_matrix) {
  device_assembler_test::check_approach_one_square();
}

BOOST_AUTO_TEST_CASE(non_finite_coefficients_name_their_block_row) {
  device_assembler_test::check_non_finite_coefficient();
}
