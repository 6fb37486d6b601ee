#pragma once
// What the DeviceAssembler tests (test_cuda_assembler.cu: 2D; test_cuda_slab_assembler.cu: 2D+1
// slabs — two files, so that their kernels compile in parallel) share, as Boost.Test assertions
// (each test defines its module and includes gpu_test_main.hpp before this): check_problem, the GPU
// against the CPU Assembler on one problem under every launch configuration, and
// check_approach_one, Approach 1's CSR against Approach 2's blocks; and the test meshes: the
// built-in square, and a mesh of the user's (test_meshes).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dg/coo_assembly.cuh"
#include "gpu_test_support.hpp"
#include "polydg/cuda/device_assembler.cuh"
#include "polydg/dg/assembler.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "user_test_mesh.hpp"

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
                   const PreviousSlab* previous_slab, const std::string& name) {
  BOOST_TEST_INFO_SCOPE(name);
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
  narrow.tuning.max_block_threads = 64;
  DeviceAssemblyOptions small_batches;  // several batches per item (the default may opt in
  small_batches.tuning.max_block_shared_bytes = 8 * 1024;  // above 48 KiB where occupancy allows)
  DeviceAssemblyOptions warps;  // small items one per warp rather than one per thread
  warps.tuning.small_items_per_thread = false;
  DeviceAssemblyOptions blocks = warps;  // ... or one per block
  blocks.tuning.small_items_per_warp = false;
  DeviceAssemblyOptions in_turn;  // no producer warp: the point evaluation between barriers
  in_turn.tuning.overlap_point_evaluation = false;
  DeviceAssemblyOptions overlapped = blocks;  // a producer warp in every launch
  overlapped.tuning.overlap_min_mean_points = 0;
  DeviceAssemblyOptions narrow_blocks = overlapped;  // one unit warp and the producer warp
  narrow_blocks.tuning.max_block_threads = 64;
  DeviceAssemblyOptions item_per_block = overlapped;  // blocks not persistent
  item_per_block.tuning.persistent_blocks = false;
  // Three persistent blocks: each takes many items, of different sizes on hp meshes, and with
  // narrow blocks in several passes, its producer evaluating the next item's first batch.
  DeviceAssemblyOptions few_blocks = overlapped, few_narrow_blocks = narrow_blocks;
  few_blocks.tuning.max_persistent_blocks = few_narrow_blocks.tuning.max_persistent_blocks = 3;
  // FP64 FMAs where the tensor cores would multiply: another rounding, the same bits again
  // under another launch configuration.
  DeviceAssemblyOptions fma, fma_few_narrow_blocks = few_narrow_blocks;
  fma.tuning.tensor_cores = fma_few_narrow_blocks.tuning.tensor_cores = false;
  // The interior faces after the elements and the boundaries, or beside them at every degree
  // (the default: at p ≤ 2).
  DeviceAssemblyOptions one_stream, beside;
  one_stream.tuning.overlap_interior_faces_max_degree = -1;
  beside.tuning.overlap_interior_faces_max_degree = max_basis_degree;
  DeviceAssemblyOptions atomic;
  atomic.write_mode = FaceWriteMode::atomic;
  const Host first = run({}), atomic_run = run(atomic), fma_run = run(fma);

  const BlockPattern& pattern = *cpu.pattern();
  const double matrix_difference = relative_difference(first.values, host_values);
  const double off_diagonal_difference =
      relative_difference(off_diagonal(pattern, first.values), off_diagonal(pattern, host_values));
  const double rhs_difference = relative_difference(first.rhs, rhs);
  const double atomic_difference = relative_difference(atomic_run.values, host_values);
  const double fma_difference = relative_difference(fma_run.values, host_values);
  DeviceAssembler<Dim, float> single(mesh, conditions, options);
  single.assemble(coefficients);
  if constexpr (slab) single.add_previous_slab_term(*previous_slab);
  const double single_difference = relative_difference(single.values_to_host(), host_values);
  const double single_rhs_difference = relative_difference(single.rhs_to_host(), rhs);
  BOOST_TEST_MESSAGE(name << ": elements " << pattern.block_row_count() << " dofs "
                          << pattern.dof_count() << "  |D-C|/|C|: matrix " << matrix_difference
                          << " off-diagonal " << off_diagonal_difference << " rhs "
                          << rhs_difference << " atomic " << atomic_difference << " fma "
                          << fma_difference << " float " << single_difference << " (rhs "
                          << single_rhs_difference << ")");
  BOOST_TEST(single_difference <= single_tolerance);
  BOOST_TEST(single_rhs_difference <= single_tolerance);
  BOOST_TEST(matrix_difference <= tolerance);
  BOOST_TEST(off_diagonal_difference <= tolerance);
  BOOST_TEST(rhs_difference <= tolerance);
  BOOST_TEST(atomic_difference <= tolerance);
  BOOST_TEST(relative_difference(atomic_run.rhs, rhs) <= tolerance);
  BOOST_TEST(fma_difference <= tolerance);
  BOOST_TEST(relative_difference(fma_run.rhs, rhs) <= tolerance);
  // Every run and launch configuration: the same bits. Under compute-sanitizer (small_run(),
  // where each launch is slow) the ones with the most barriers and shared-memory reuse only:
  // one warp of products in several passes, no producer warp, persistent blocks taking items
  // of several sizes.
  struct Configuration {
    const char* name;
    DeviceAssemblyOptions options;
    bool under_sanitizer;
  };
  const Configuration configurations[] = {{"second", {}, false},
                                          {"one stream", one_stream, true},
                                          {"interior faces beside", beside, true},
                                          {"narrow", narrow, true},
                                          {"small batches", small_batches, false},
                                          {"warps", warps, true},
                                          {"blocks", blocks, false},
                                          {"in turn", in_turn, true},
                                          {"overlapped", overlapped, false},
                                          {"narrow blocks", narrow_blocks, false},
                                          {"item per block", item_per_block, false},
                                          {"few blocks", few_blocks, true},
                                          {"few narrow blocks", few_narrow_blocks, true}};
  for (const Configuration& configuration : configurations) {
    if (small_run() && !configuration.under_sanitizer) continue;
    const Host result = run(configuration.options);
    BOOST_TEST_INFO_SCOPE("the run '" << configuration.name << "' against the first");
    BOOST_TEST(same_bits(first.values, result.values));
    BOOST_TEST(same_bits(first.rhs, result.rhs));
  }
  const Host fma_few_narrow_block_run = run(fma_few_narrow_blocks);
  BOOST_TEST(same_bits(fma_run.values, fma_few_narrow_block_run.values), "fma, few narrow blocks");
  BOOST_TEST(same_bits(fma_run.rhs, fma_few_narrow_block_run.rhs), "fma, few narrow blocks");

  // Matrix-only and rhs-only assemblies: the same bits as the full one. Every value is written
  // by an assembly (only the diagonal blocks are zeroed before it): NaNs left in the values do
  // not survive, in either write mode.
  const auto fill_with_nan = [](auto& assembler) {
    POLYDG_CUDA_CHECK(cudaMemset(assembler.values(), 0xFF,
                                 std::size_t(assembler.pattern().value_count()) * sizeof(double)));
  };
  DeviceAssembler<Dim> gpu(mesh, conditions, options);
  fill_with_nan(gpu);
  gpu.assemble_matrix(coefficients);
  BOOST_TEST(same_bits(gpu.values_to_host(), first.values), "matrix only");
  DeviceAssembler<Dim> atomic_gpu(mesh, conditions, options, atomic);
  fill_with_nan(atomic_gpu);
  atomic_gpu.assemble_matrix(coefficients);
  BOOST_TEST(relative_difference(atomic_gpu.values_to_host(), host_values) <= tolerance,
             "matrix only, atomic");
  gpu.assemble_rhs(coefficients);
  if constexpr (slab) gpu.add_previous_slab_term(*previous_slab);
  BOOST_TEST(same_bits(gpu.rhs_to_host(), first.rhs), "rhs only");
}

// The error names the block row of the first non-finite value: the one a pass over the values
// on the host finds (the kernels note it as they store, in either write mode).
template <int Dim, class Coefficients>
void check_non_finite_report(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                             const AssemblyOptions& assembly, const Coefficients& coefficients,
                             FaceWriteMode mode, const std::string& name) {
  const char* mode_name = mode == FaceWriteMode::atomic ? "atomic" : "deterministic";
  BOOST_TEST_INFO_SCOPE(name << " (" << mode_name << ")");
  DeviceAssemblyOptions options;
  options.write_mode = mode;
  DeviceAssembler<Dim> gpu(mesh, conditions, assembly, options);
  std::string message;
  try {
    gpu.assemble_matrix(coefficients);
  } catch (const Error& error) {
    message = error.what();
  }
  const std::vector<double> values = gpu.values_to_host();
  const auto bad = std::find_if(values.begin(), values.end(),
                                [](double value) { return !std::isfinite(value); });
  BOOST_TEST((bad != values.end()), "a non-finite value in the matrix");
  if (bad == values.end()) return;
  const BlockPattern& pattern = *gpu.host_pattern();
  const Index element =
      pattern.block_row(pattern.block_of_value(GlobalIndex(bad - values.begin())));
  BOOST_TEST_MESSAGE(name << " (" << mode_name << "): " << message);
  BOOST_TEST(message.find("non-finite") != std::string::npos, message);
  BOOST_TEST(
      message.find("block row of element " + std::to_string(element) + ":") != std::string::npos,
      "element " << element << ": " << message);
}

std::shared_ptr<const SimplexMesh<2>> fine_square(int n) {
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 4));
}

using testing::TestMesh;

/// The built-in square of n × n cells in `elements` polygons, then the user's mesh where the
/// environment names one (POLYDG_TEST_MESH, POLYDG_TEST_ELEMENTS). The tests then check GPU =
/// CPU, and the deterministic bits, on that mesh too (docs/user-guide.md).
inline std::vector<TestMesh> test_meshes(int n, Index elements) {
  return testing::with_user_test_mesh({"square", fine_square(n), elements});
}

// Approach 1 (CooAssembly): the CSR it builds holds every pattern entry with the value of the
// Approach 2 assembly (other summation order: ≤ 1e-13), and nothing else.
template <int Dim, class Coefficients>
void check_approach_one(const PolytopicMesh<Dim>& mesh, const BoundaryConditions& conditions,
                        const AssemblyOptions& options, const Coefficients& coefficients,
                        const std::string& name) {
  BOOST_TEST_INFO_SCOPE(name);
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
  BOOST_TEST_MESSAGE(name << ": Approach 1: COO " << coo.coo_count() << " entries -> CSR "
                          << coo.nonzero_count() << ", |A1-A2|/|A2| = " << difference);
  BOOST_TEST(all_found);
  BOOST_TEST(row_offsets.back() == GlobalIndex(blocks.size()));
  BOOST_TEST(difference <= tolerance);
}

}  // namespace device_assembler_test
