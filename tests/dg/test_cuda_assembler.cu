// The CUDA backend (DeviceAssembler, kernels/dg/device_assembler.cuh) against the CPU reference
// Assembler on 2D meshes (2D+1 slabs: test_cuda_slab_assembler.cu): every kernel (element,
// interior faces, boundary faces with Dirichlet, Neumann and inflow points), P_p for p = 1..5 and
// hp (degrees 1..5 mixed), a purely hyperbolic problem (no diffusion: inflow on every tag).
// Checked (check_problem, device_assembler_checks.cuh):
// * relative Frobenius difference ≤ 1e-13 for the whole matrix, its off-diagonal blocks (the
//   interior-face kernel alone writes them) and the rhs, in both write modes; ≤ 1e-5 for the
//   single-precision backend (DeviceAssembler<Dim, float>);
// * the deterministic mode gives the same bits on a second run and under every launch
//   configuration (narrow blocks, capped batches, items per block or per warp, with or without
//   the producer warp, persistent blocks or not, three persistent blocks taking all items);
//   matrix-only and rhs-only assemblies give the bits of the full one;
// * Approach 1 (CooAssembly: COO with duplicates, sort and reduce by key) gives the CSR of the
//   same matrix (hp);
// * a NaN coefficient is reported as a polydg::Error naming the element whose block row holds
//   the first non-finite value (both write modes), an infinite source likewise for the rhs.
// Exits 77 (ctest: Skipped) when no CUDA device is present.
#include "dg/device_assembler_checks.cuh"

namespace device_assembler_test {

// Diffusion, advection and reaction varying in x; Dirichlet on tags 1, 2, 4, Neumann on 3.
void check_square_meshes() {
  const auto fine = fine_square(20);
  const Agglomeration parts = agglomerate(*fine, 30);
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
  for (int p = 1; p <= (small_run() ? 2 : 5); ++p) {
    const PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
    char name[64];
    std::snprintf(name, sizeof name, "square P_%d", p);
    check_problem(mesh, conditions, AssemblyOptions{}, coefficients, no_slab, name);
  }
  const Index elements = PolytopicMesh<2>(fine, parts.element_of_cell, 1).element_count();
  std::vector<int> mixed(static_cast<std::size_t>(elements));
  for (Index e = 0; e < elements; ++e) mixed[e] = 1 + int((7 * e) % 5);
  const PolytopicMesh<2> hp(fine, parts.element_of_cell, mixed);
  check_problem(hp, conditions, AssemblyOptions{}, coefficients, no_slab, "square hp 1..5");
  AssemblyOptions sub_simplex;
  sub_simplex.penalty_scaling = PenaltyScaling::sub_simplex;
  check_problem(hp, conditions, sub_simplex, coefficients, no_slab, "square hp, sub-simplex σ");

  // Pure advection: no diffusive point anywhere, inflow on every tag (Neumann included).
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
  std::printf("infinite source: %s\n", message.c_str());
  POLYDG_GPU_CHECK(message.find("non-finite") != std::string::npos);
  POLYDG_GPU_CHECK(message.find("rhs") != std::string::npos);
}

}  // namespace device_assembler_test

int main() {
  return testing::run_gpu_checks(device_assembler_test::check_square_meshes,
                                 device_assembler_test::check_approach_one_square,
                                 device_assembler_test::check_non_finite_coefficient);
}
