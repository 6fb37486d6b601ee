// The CUDA backend (DeviceAssembler, kernels/dg/device_assembler.cuh) against the CPU reference
// Assembler on the same meshes: every kernel (element, interior faces, boundary faces with
// Dirichlet, Neumann and inflow points, the previous slab's data), 2D P_p for p = 1..5 and hp
// (degrees 1..5 mixed), 2D+1 slabs P_p and PQ_p for p = 1..3, a purely hyperbolic problem (no
// diffusion: inflow on every tag). Checked:
// * relative Frobenius difference ≤ 1e-13 for the whole matrix, its off-diagonal blocks (the
//   interior-face kernel alone writes them) and the rhs, in both write modes; ≤ 1e-5 for the
//   single-precision backend (DeviceAssembler<Dim, float>);
// * the deterministic mode gives the same bits on a second run, with 64 instead of 256
//   threads per block (other passes) and with batches capped at 8 KiB (several per item);
//   matrix-only and rhs-only assemblies give the bits of the full one;
// * map_last_coordinate moves the device geometry as the CPU's;
// * Approach 1 (CooAssembly: COO with duplicates, sort and reduce by key) gives the CSR of the
//   same matrix;
// * a NaN coefficient is reported as a polydg::Error naming the element.
// Exits 77 (ctest: Skipped) when no CUDA device is present.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "dg/coo_assembly.cuh"
#include "dg/device_assembler.cuh"
#include "gpu_test_support.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_mesh.hpp"

using namespace polydg;

namespace device_assembler_test {

using testing::relative_difference;
using testing::same_bits;
using testing::small_run;

constexpr double tolerance = 1e-13;

constexpr double single_tolerance = 1e-5;

// The off-diagonal entries of `values` in pattern order.
std::vector<double> off_diagonal(const BlockPattern& pattern, std::span<const double> values) {
  std::vector<double> entries;
  for (Index block = 0; block < pattern.block_count(); ++block)
    if (pattern.block_row(block) != pattern.block_column(block))
      for (GlobalIndex k = pattern.block_value_offset(block);
           k < pattern.block_value_offset(block + 1); ++k)
        entries.push_back(values[k]);
  return entries;
}

struct Host {
  std::vector<double> values, rhs;
};

template <int Dim, class Coefficients, class PreviousSlab>
void check_problem(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                   const AssemblyOptions& options, const Coefficients& coefficients,
                   const PreviousSlab* previous_slab, const char* name) {
  Assembler<Dim> cpu(mesh, conditions, options);
  BlockMatrix<double> matrix = cpu.make_matrix();
  std::vector<double> rhs = cpu.make_vector();
  cpu.assemble(coefficients, matrix, rhs);
  constexpr bool slab = !std::is_same_v<PreviousSlab, int>;  // int: no previous slab
  if constexpr (slab) cpu.add_previous_slab_term(*previous_slab, rhs);
  const std::vector<double> host_values(matrix.values().begin(), matrix.values().end());

  auto run = [&](DeviceAssemblyOptions device_options) {
    DeviceAssembler<Dim> gpu(mesh, conditions, options, device_options);
    gpu.assemble(coefficients);
    if constexpr (slab) gpu.add_previous_slab_term(*previous_slab);
    return Host{gpu.values_to_host(), gpu.rhs_to_host()};
  };
  DeviceAssemblyOptions narrow;
  narrow.max_block_threads = 64;
  DeviceAssemblyOptions small_batches;  // several batches per item (the default may opt in
  small_batches.max_block_shared_bytes = 8 * 1024;  // above 48 KiB where occupancy allows)
  DeviceAssemblyOptions blocks;  // small items one per block rather than one per warp
  blocks.small_items_per_warp = false;
  DeviceAssemblyOptions in_turn;  // no producer warp: the point evaluation between barriers
  in_turn.overlap_point_evaluation = false;
  DeviceAssemblyOptions overlapped = blocks;  // a producer warp in every launch
  overlapped.overlap_min_mean_points = 0;
  DeviceAssemblyOptions narrow_blocks = overlapped;  // one unit warp and the producer warp
  narrow_blocks.max_block_threads = 64;
  DeviceAssemblyOptions atomic;
  atomic.write_mode = FaceWriteMode::atomic;
  const Host first = run({}), second = run({}), narrow_run = run(narrow), atomic_run = run(atomic);
  const Host small_batch_run = run(small_batches), block_run = run(blocks);
  const Host in_turn_run = run(in_turn), overlapped_run = run(overlapped);
  const Host narrow_block_run = run(narrow_blocks);

  const BlockPattern& pattern = *cpu.pattern();
  const double matrix_difference = relative_difference(first.values, host_values);
  const double off_diagonal_difference =
      relative_difference(off_diagonal(pattern, first.values), off_diagonal(pattern, host_values));
  const double rhs_difference = relative_difference(first.rhs, rhs);
  const double atomic_difference = relative_difference(atomic_run.values, host_values);
  DeviceAssembler<Dim, float> single(mesh, conditions, options);
  single.assemble(coefficients);
  if constexpr (slab) single.add_previous_slab_term(*previous_slab);
  const double single_difference = relative_difference(single.values_to_host(), host_values);
  const double single_rhs_difference = relative_difference(single.rhs_to_host(), rhs);
  std::printf(
      "%-24s elements %5d dofs %7lld  |D-C|/|C|: matrix %.1e off-diagonal %.1e rhs %.1e "
      "atomic %.1e float %.1e (rhs %.1e)\n",
      name, int(pattern.block_row_count()), static_cast<long long>(pattern.dof_count()),
      matrix_difference, off_diagonal_difference, rhs_difference, atomic_difference,
      single_difference, single_rhs_difference);
  POLYDG_GPU_CHECK(single_difference <= single_tolerance);
  POLYDG_GPU_CHECK(single_rhs_difference <= single_tolerance);
  POLYDG_GPU_CHECK(matrix_difference <= tolerance);
  POLYDG_GPU_CHECK(off_diagonal_difference <= tolerance);
  POLYDG_GPU_CHECK(rhs_difference <= tolerance);
  POLYDG_GPU_CHECK(atomic_difference <= tolerance);
  POLYDG_GPU_CHECK(relative_difference(atomic_run.rhs, rhs) <= tolerance);
  POLYDG_GPU_CHECK(same_bits(first.values, second.values));
  POLYDG_GPU_CHECK(same_bits(first.rhs, second.rhs));
  POLYDG_GPU_CHECK(same_bits(first.values, narrow_run.values));
  POLYDG_GPU_CHECK(same_bits(first.rhs, narrow_run.rhs));
  POLYDG_GPU_CHECK(same_bits(first.values, small_batch_run.values));
  POLYDG_GPU_CHECK(same_bits(first.rhs, small_batch_run.rhs));
  POLYDG_GPU_CHECK(same_bits(first.values, block_run.values));
  POLYDG_GPU_CHECK(same_bits(first.rhs, block_run.rhs));
  POLYDG_GPU_CHECK(same_bits(first.values, in_turn_run.values));
  POLYDG_GPU_CHECK(same_bits(first.rhs, in_turn_run.rhs));
  POLYDG_GPU_CHECK(same_bits(first.values, overlapped_run.values));
  POLYDG_GPU_CHECK(same_bits(first.rhs, overlapped_run.rhs));
  POLYDG_GPU_CHECK(same_bits(first.values, narrow_block_run.values));
  POLYDG_GPU_CHECK(same_bits(first.rhs, narrow_block_run.rhs));

  // Matrix-only and rhs-only assemblies: the same bits as the full one.
  DeviceAssembler<Dim> gpu(mesh, conditions, options);
  gpu.assemble_matrix(coefficients);
  POLYDG_GPU_CHECK(same_bits(gpu.values_to_host(), first.values));
  gpu.assemble_rhs(coefficients);
  if constexpr (slab) gpu.add_previous_slab_term(*previous_slab);
  POLYDG_GPU_CHECK(same_bits(gpu.rhs_to_host(), first.rhs));
}

std::shared_ptr<const SimplexMesh<2>> fine_square(int n) {
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 4));
}

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

// The space-time heat problem's structure: spatial diffusion, b = (w, 1), the bottom face
// reading a previous slab (here a smooth function of (e, x)), the top face outflow.
void check_slab_meshes() {
  const auto fine = fine_square(8);
  const Agglomeration parts = agglomerate(*fine, 10);
  const PolytopicMesh<2> spatial(fine, parts.element_of_cell, 1);
  const auto coefficients =
      make_coefficients<3>()
          .with_diffusion([] __host__ __device__(const Point<3>& x) {
            Tensor<3> a{};
            a[0][0] = 1 + x[0] * x[0];
            a[1][1] = 1 + x[1] * x[2];
            a[0][1] = a[1][0] = 0.1 * x[0];
            return a;
          })
          .with_advection([] __host__ __device__(const Point<3>& x) {
            return Point<3>{{x[1] - 0.5, 0.5 - x[0], 1.0}};
          })
          .with_reaction([] __host__ __device__(const Point<3>& x) { return 0.5 + x[2]; })
          .with_source([] __host__ __device__(const Point<3>& x) {
            return cos(2 * x[0]) * (1 + x[1]) * exp(-x[2]);
          })
          .with_dirichlet([] __host__ __device__(const Point<3>& x) { return x[0] * x[2]; });
  const auto previous_slab = [] __host__ __device__(Index e, const Point<3>& x) {
    return sin(x[0] + 0.1 * e) * x[1];
  };
  BoundaryConditions conditions(BoundaryKind::dirichlet);
  conditions.set(slab_bottom_tag, BoundaryKind::previous_slab);
  conditions.set(slab_top_tag, BoundaryKind::neumann);
  for (int p = 1; p <= (small_run() ? 1 : 3); ++p) {
    const PolytopicMesh<3> slab = make_slab_mesh(spatial, p);
    for (BasisSpace space : {BasisSpace::total_degree, BasisSpace::total_degree_times_last})
      for (QuadraturePieces pieces : {QuadraturePieces::simplices, QuadraturePieces::slab_prisms}) {
        AssemblyOptions options;
        options.space = space;
        options.pieces = pieces;
        char name[64];
        std::snprintf(name, sizeof name, "slab %s_%d %s",
                      space == BasisSpace::total_degree ? "P" : "PQ", p,
                      pieces == QuadraturePieces::slab_prisms ? "prisms" : "tetrahedra");
        check_problem(slab, conditions, options, coefficients, &previous_slab, name);
      }
  }

  // map_last_coordinate: both backends moved onto [0.5, 0.75] (and from there onto [0.75, 1.1])
  // hold the same geometry — the device's mapped in place, bit for bit the CPU's — and assemble
  // the same matrix; the GPU assembler's host mesh, mapped once by the composed map, has the
  // same points and measures within two roundings.
  const PolytopicMesh<3> slab = make_slab_mesh(spatial, 2);
  const AssemblyOptions prisms = slab_assembly_options();
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
    POLYDG_GPU_CHECK(same(download(device_view.simplex_vertices, host.simplex_vertices.size() * 4),
                          host.simplex_vertices.data()));
    POLYDG_GPU_CHECK(
        same(download(device_view.boxes, host.element_boxes.size()), host.element_boxes.data()));
    POLYDG_GPU_CHECK(same(download(device_view.measures, host.element_measures.size()),
                          host.element_measures.data()));
    POLYDG_GPU_CHECK(same(
        download(device_view.interface_facet_vertices, host.interface_facet_vertices.size() * 3),
        host.interface_facet_vertices.data()));
    POLYDG_GPU_CHECK(
        same(download(device_view.interface_facet_measures, host.interface_facet_measures.size()),
             host.interface_facet_measures.data()));
    POLYDG_GPU_CHECK(same(download(device_view.interface_facet_cell_measures,
                                   host.interface_facet_cell_measures.size() * 2),
                          host.interface_facet_cell_measures.data()));
    POLYDG_GPU_CHECK(
        same(download(device_view.boundary_facet_vertices, host.boundary_facet_vertices.size() * 3),
             host.boundary_facet_vertices.data()));
    POLYDG_GPU_CHECK(
        same(download(device_view.boundary_facet_measures, host.boundary_facet_measures.size()),
             host.boundary_facet_measures.data()));
    POLYDG_GPU_CHECK(same(download(device_view.boundary_facet_cell_measures,
                                   host.boundary_facet_cell_measures.size()),
                          host.boundary_facet_cell_measures.data()));
    const QuadratureMesh<3>& followed = gpu.quadrature_mesh();
    POLYDG_GPU_CHECK(followed.simplex_vertices == host.simplex_vertices);
    POLYDG_GPU_CHECK(followed.boundary_facet_vertices == host.boundary_facet_vertices);
    POLYDG_GPU_CHECK(relative_difference(followed.element_measures, host.element_measures) <=
                     1e-15);
    POLYDG_GPU_CHECK(relative_difference(followed.boundary_facet_measures,
                                         host.boundary_facet_measures) <= 1e-15);
  }
  BlockMatrix<double> matrix = cpu.make_matrix();
  std::vector<double> rhs = cpu.make_vector();
  cpu.assemble(coefficients, matrix, rhs);
  gpu.assemble(coefficients);
  const double mapped_difference = relative_difference(gpu.values_to_host(), matrix.values());
  std::printf("slab P_2 mapped to [0.75, 1.1]: |D-C|/|C| = %.1e\n", mapped_difference);
  POLYDG_GPU_CHECK(mapped_difference <= tolerance);
  POLYDG_GPU_CHECK(relative_difference(gpu.rhs_to_host(), rhs) <= tolerance);
  BlockMatrix<double> copied = gpu.make_host_matrix();
  std::vector<double> copied_rhs(rhs.size());
  gpu.copy_to_host(copied, copied_rhs);
  POLYDG_GPU_CHECK(relative_difference(copied.values(), matrix.values()) <= tolerance);
  POLYDG_GPU_CHECK(copied.values().size() == matrix.values().size());
}

// Approach 1 (CooAssembly): the CSR it builds holds every pattern entry with the value of the
// Approach 2 assembly (other summation order: ≤ 1e-13), and nothing else.
template <int Dim, class Coefficients>
void check_approach_one(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                        const AssemblyOptions& options, const Coefficients& coefficients,
                        const char* name) {
  DeviceAssembler<Dim> gpu(mesh, conditions, options);
  gpu.assemble_matrix(coefficients);
  CooAssembly<Dim> coo(gpu);
  coo.assemble_matrix(coefficients);
  const std::vector<GlobalIndex> row_offsets = coo.row_offsets().to_host();
  const std::vector<Index> columns = coo.columns().to_host();
  const std::vector<double> csr = coo.values().to_host();
  const std::vector<double> blocks = gpu.values_to_host();
  const BlockPattern& pattern = *gpu.host_pattern();
  std::vector<double> reordered(blocks.size(), 0.0);
  bool all_found = true;
  for (Index block = 0; block < pattern.block_count(); ++block) {
    const Index r = pattern.block_row(block), c = pattern.block_column(block);
    const int rows = pattern.block_size(r), cols = pattern.block_size(c);
    for (int v = 0; v < rows * cols; ++v) {
      const GlobalIndex row = pattern.dof_offset(r) + v / cols;
      const Index column = Index(pattern.dof_offset(c) + v % cols);
      const auto begin = columns.begin() + row_offsets[row];
      const auto end = columns.begin() + row_offsets[row + 1];
      const auto found = std::lower_bound(begin, end, column);
      if (found == end || *found != column) {
        all_found = false;
        continue;
      }
      reordered[pattern.block_value_offset(block) + v] = csr[found - columns.begin()];
    }
  }
  const double difference = relative_difference(reordered, blocks);
  std::printf("%-24s Approach 1: COO %lld entries -> CSR %lld, |A1-A2|/|A2| = %.1e\n", name,
              static_cast<long long>(coo.coo_count()), static_cast<long long>(coo.nonzero_count()),
              difference);
  POLYDG_GPU_CHECK(all_found);
  POLYDG_GPU_CHECK(row_offsets.back() == GlobalIndex(blocks.size()));
  POLYDG_GPU_CHECK(difference <= tolerance);
}

void check_approach_one_meshes() {
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

void check_non_finite_coefficient() {
  const auto fine = fine_square(8);
  const PolytopicMesh<2> mesh(fine, agglomerate(*fine, 10).element_of_cell, 1);
  const auto coefficients = make_coefficients<2>().with_reaction(
      [] __host__ __device__(const Point<2>& x) { return x[0] > 0.7 ? nan("") : 1.0; });
  DeviceAssembler<2> gpu(mesh, BoundaryConditions::all_dirichlet());
  std::string message;
  try {
    gpu.assemble(coefficients);
  } catch (const Error& error) {
    message = error.what();
  }
  std::printf("NaN reaction: %s\n", message.c_str());
  POLYDG_GPU_CHECK(message.find("non-finite") != std::string::npos);
  POLYDG_GPU_CHECK(message.find("element") != std::string::npos);
}

}  // namespace device_assembler_test

int main() {
  if (testing::no_cuda_device()) return testing::skipped_exit_code;
  try {
    device_assembler_test::check_square_meshes();
    device_assembler_test::check_slab_meshes();
    device_assembler_test::check_approach_one_meshes();
    device_assembler_test::check_non_finite_coefficient();
  } catch (const Error& error) {
    std::fprintf(stderr, "polydg::Error: %s\n", error.what());
    return 1;
  }
  return testing::gpu_test_result();
}
