// Benchmark of a Krylov solve through the GPU MATSHELL against PETSc's own AIJ on the CPU, on a
// 2D+1 space-time slab with ≥ 2 M DoFs (the heat demo's slab system, heat_slab_problem.hpp,
// assembled on the CPU with polydg::Assembler<3> so this benchmark does not depend on the GPU
// assembler), one rank:
//   (i)   ShellMatrix over DeviceDenseBlockOperator with host Vecs: products on the GPU, x and y
//         staged host ↔ device through pinned buffers at every product;
//   (ii)  AijMatrix: PETSc's MatMult_SeqAIJ on one CPU core;
// and where PETSc has CUDA (polydg/petsc/placement.hpp), everything on the GPU:
//   (iii) the same shell with device Vecs (VECCUDA): products on the Vecs' device arrays;
//   (iv)  AijMatrix as MATAIJCUSPARSE with device Vecs: PETSc's cuSPARSE product.
// Each row also counts the host↔device copies of its solve per iteration and the bytes they
// moved, in vectors (petsc::host_device_traffic(): PETSc's -log_view counters and the
// library's): on device Vecs GMRES still sends its orthogonalization coefficients, a few scalars.
// GMRES (the slab is nonsymmetric: CG does not apply) with Jacobi, with point-block Jacobi and
// with ILU(0) (for the shell built from the AIJ as the preconditioning matrix), a fixed number of
// iterations (rtol = atol = 0, -ksp_max_it = --iterations), so the times per iteration compare; the
// PC set-up (diagonal / inverted blocks / ILU factorization) is timed apart.
//
// Per product the table splits the shell's MatMult into its parts, each timed alone:
//   device product   y = A x on device buffers (CUDA events), DeviceDenseBlockMatrix::multiply;
//   staging (pinned) what the shell does for host Vecs: x → pinned (OpenMP memcpy) → device,
//                    y device → pinned → Vec (synchronous cudaMemcpy);
//   staging (pageable) the alternative: cudaMemcpy straight from / to the pageable arrays;
//   DMA only         the two cudaMemcpy from / to pinned memory, without the host memcpy;
// and reports the bytes each moves and the bandwidth: the device product reads the stored
// values, the slot and row indices, x and y once (DeviceDenseBlockMatrix::minimal_bytes());
// the staging moves 2 × 8 n bytes over PCIe (x in, y out); the AIJ product reads 8 nnz bytes of
// values, sizeof(PetscInt) (nnz + n + 1) of indices, x and y.
//
// What bounds the shell with host Vecs: per product it moves 16 bytes per DoF over PCIe (tens
// of GB/s) against the ~50 × 8 bytes per DoF of matrix values the device reads at a few TB/s
// (P_2 slab), so the staging copies, not the dense block product, set the shell's MatMult
// time; and a GMRES iteration also runs PETSc's host vector operations (orthogonalization
// against up to `restart` vectors, on one core), which neither backend speeds up. The
// "MatMult share" column shows how much of an iteration the product is for each backend, and
// "other ms/it" the rest. The results: docs/performance.md, "KSP through the GPU shell".
//
//   build/bin/bench_ksp [--cells-per-side 560] [--cells-per-element 3] [--p 2]
//                       [--iterations 50] [--products 20] [--json FILE] [PETSc options]
// PETSc options (e.g. -ksp_gmres_restart 50, -ksp_monitor) apply to every KSP of the run.
#include <cuda_runtime.h>
#include <omp.h>
#include <petscksp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cuda_event_timing.hpp"
#include "heat_slab_problem.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/dg/assembler.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/device_dense_block_operator.hpp"
#include "polydg/petsc/linear_operator.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/placement.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"

namespace {

using namespace polydg;
using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// Median wall-clock ms of `repeats` runs of work() after one warm-up (work is synchronous).
template <class Work>
double host_ms(int repeats, Work&& work) {
  work();
  std::vector<double> times;
  for (int r = 0; r < std::max(repeats, 1); ++r) {
    const auto start = Clock::now();
    work();
    times.push_back(milliseconds_since(start));
  }
  return median(times);
}

/// The shell's host copy into / out of its pinned buffers (src/petsc/shell_matrix.cpp).
void host_copy(double* to, const double* from, std::size_t count) {
  constexpr std::size_t chunk = std::size_t(1) << 15;
  const std::ptrdiff_t chunks = std::ptrdiff_t((count + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (chunks > 4)
  for (std::ptrdiff_t c = 0; c < chunks; ++c) {
    const std::size_t first = std::size_t(c) * chunk;
    std::memcpy(to + first, from + first, std::min(chunk, count - first) * sizeof(double));
  }
}

/// Forwards to a LinearOperator and counts the products (MatMult calls of a KSP).
class CountingOperator final : public petsc::LinearOperator {
 public:
  explicit CountingOperator(const petsc::LinearOperator& inner) : inner_(inner) {}
  mutable long long products = 0;

  const BlockPattern& pattern() const override { return inner_.pattern(); }
  petsc::MemorySpace memory() const override { return inner_.memory(); }
  void multiply(const double* x, double* y) const override {
    ++products;
    inner_.multiply(x, y);
  }
  void multiply_transpose(const double* x, double* y) const override {
    ++products;
    inner_.multiply_transpose(x, y);
  }
  void multiply_add(const double* x, const double* z, double* y) const override {
    ++products;
    inner_.multiply_add(x, z, y);
  }
  void diagonal(double* d) const override { inner_.diagonal(d); }
  std::vector<double> inverted_block_diagonal(Index block_rows) const override {
    return inner_.inverted_block_diagonal(block_rows);
  }

 private:
  const petsc::LinearOperator& inner_;
};

struct KspRow {
  std::string backend, pc;
  int iterations = 0;
  long long products = 0;
  double setup_s = 0, solve_s = 0, ms_per_iteration = 0, matmult_share = 0;
  double difference = 0;            ///< max |x − x_AIJ| / max |x_AIJ| (0 for the AIJ rows)
  double copies_per_iteration = 0;  ///< host↔device copies of the solve, per iteration
  double bytes_per_iteration = 0;   ///< the bytes they moved, per iteration
};

struct Run {
  int p = 0;
  long long elements = 0, dofs = 0, nonzeros = 0;
  double assembly_s = 0;
  double shell_matmult_ms = 0, aij_matmult_ms = 0, device_product_ms = 0;
  double staging_pinned_ms = 0, staging_pageable_ms = 0, dma_pinned_ms = 0;
  double device_bytes = 0, pcie_bytes = 0, aij_bytes = 0;
  std::vector<KspRow> ksp;
};

/// Gives the AIJ export the element blocks the shell has (for PCPBJACOBI).
void set_aij_blocks(Mat aij, const BlockPattern& pattern) {
  std::vector<PetscInt> sizes(static_cast<std::size_t>(pattern.block_row_count()));
  for (Index e = 0; e < pattern.block_row_count(); ++e) sizes[e] = pattern.block_size(e);
  if (std::all_of(sizes.begin(), sizes.end(), [&](PetscInt n) { return n == sizes[0]; }))
    POLYDG_PETSC_CALL(MatSetBlockSize(aij, sizes[0]));
  POLYDG_PETSC_CALL(MatSetVariableBlockSizes(aij, PetscInt(sizes.size()), sizes.data()));
}

/// GMRES on `mat` with `pc_type` built from `preconditioner_mat` for exactly `iterations`
/// iterations from x = 0; the options database (KSPSetFromOptions(), no prefix) may change
/// anything else.
KspRow time_ksp(Mat mat, Mat preconditioner_mat, const char* pc_type, int iterations, Vec b,
                Vec x) {
  KspRow row;
  row.pc = pc_type;
  KSP ksp = nullptr;
  POLYDG_PETSC_CALL(KSPCreate(PETSC_COMM_WORLD, &ksp));
  try {
    POLYDG_PETSC_CALL(KSPSetOperators(ksp, mat, preconditioner_mat));
    POLYDG_PETSC_CALL(KSPSetType(ksp, KSPGMRES));
    PC pc = nullptr;
    POLYDG_PETSC_CALL(KSPGetPC(ksp, &pc));
    POLYDG_PETSC_CALL(PCSetType(pc, pc_type));
    POLYDG_PETSC_CALL(KSPSetTolerances(ksp, 0.0, 0.0, PETSC_DEFAULT, PetscInt(iterations)));
    POLYDG_PETSC_CALL(KSPSetFromOptions(ksp));
    auto start = Clock::now();
    POLYDG_PETSC_CALL(KSPSetUp(ksp));
    POLYDG_PETSC_CALL(PCSetUp(pc));
    row.setup_s = milliseconds_since(start) * 1e-3;
    const petsc::HostDeviceTraffic traffic_before = petsc::host_device_traffic();
    start = Clock::now();
    POLYDG_PETSC_CALL(KSPSolve(ksp, b, x));
    row.solve_s = milliseconds_since(start) * 1e-3;
    PetscInt done = 0;
    POLYDG_PETSC_CALL(KSPGetIterationNumber(ksp, &done));
    row.iterations = int(done);
    row.ms_per_iteration = row.solve_s * 1e3 / std::max(row.iterations, 1);
    const petsc::HostDeviceTraffic traffic = petsc::host_device_traffic();
    row.copies_per_iteration =
        (traffic.copies - traffic_before.copies) / std::max(row.iterations, 1);
    row.bytes_per_iteration = (traffic.bytes - traffic_before.bytes) / std::max(row.iterations, 1);
  } catch (...) {
    KSPDestroy(&ksp);
    throw;
  }
  POLYDG_PETSC_CALL(KSPDestroy(&ksp));
  return row;
}

std::vector<double> values_of(Vec vec, GlobalIndex size) {
  std::vector<double> values(static_cast<std::size_t>(size));
  petsc::copy_from_vec(vec, values);
  return values;
}

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double difference = 0, largest = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    difference = std::max(difference, std::abs(a[i] - b[i]));
    largest = std::max(largest, std::abs(b[i]));
  }
  return largest > 0 ? difference / largest : difference;
}

/// The device rows: the shell over the same operator and MATAIJCUSPARSE, both with VECCUDA
/// Vecs, against the CPU AIJ's solutions per PC.
void run_on_device(Run& run, const BlockMatrix<double>& matrix, const std::vector<double>& rhs,
                   const CountingOperator& counting,
                   std::map<std::string, std::vector<double>>& aij_solutions, int iterations) {
  using petsc::Placement;
  const BlockPattern& pattern = matrix.pattern();
  const GlobalIndex n = pattern.dof_count();
  petsc::ShellMatrix shell(counting, "device_");
  petsc::AijMatrix aij(pattern, "device_", Placement::device);
  aij.update(matrix);
  set_aij_blocks(aij.mat(), pattern);
  petsc::Vector b(n, Placement::device, "device_"), solution(n, Placement::device, "device_");
  petsc::copy_to_vec(rhs, b.vec());
  for (const char* pc_type : {PCJACOBI, PCPBJACOBI, PCILU}) {
    if (std::string(pc_type) != PCILU) {  // a MATSHELL gives no ILU
      counting.products = 0;
      KspRow row = time_ksp(shell.mat(), shell.mat(), pc_type, iterations, b.vec(), solution.vec());
      row.backend = "shell, device Vecs";
      row.products = counting.products;
      row.difference =
          max_relative_difference(values_of(solution.vec(), n), aij_solutions[pc_type]);
      row.matmult_share = double(row.products) * run.device_product_ms / (row.solve_s * 1e3);
      run.ksp.push_back(row);
    }
    KspRow row = time_ksp(aij.mat(), aij.mat(), pc_type, iterations, b.vec(), solution.vec());
    row.backend = "AIJCUSPARSE, device Vecs";
    row.products = -1;
    row.matmult_share = -1;
    row.difference = max_relative_difference(values_of(solution.vec(), n), aij_solutions[pc_type]);
    run.ksp.push_back(row);
  }
}

Run run_degree(const std::shared_ptr<const SimplexMesh<2>>& fine, const Agglomeration& parts, int p,
               int iterations, int products) {
  Run run;
  run.p = p;
  // The slab system, assembled on the CPU.
  auto start = Clock::now();
  const PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
  const PolytopicMesh<3> slab = make_slab_mesh(mesh);
  Assembler<3> assembler(slab, bench::heat_slab_conditions());
  BlockMatrix<double> matrix = assembler.make_matrix();
  std::vector<double> rhs = assembler.make_vector();
  assembler.assemble_matrix(bench::heat_slab_coefficients(), matrix);
  assembler.assemble_rhs(bench::heat_slab_coefficients(), rhs);
  run.assembly_s = milliseconds_since(start) * 1e-3;
  const BlockPattern& pattern = matrix.pattern();
  const GlobalIndex n = pattern.dof_count();
  run.elements = pattern.block_row_count();
  run.dofs = n;
  run.nonzeros = pattern.value_count();
  std::printf(
      "p = %d: %lld elements, %lld DoFs, %lld nonzeros (%.0f MB of values), assembled "
      "on the CPU in %.1f s\n",
      p, run.elements, run.dofs, run.nonzeros, 8e-6 * double(run.nonzeros), run.assembly_s);
  std::fflush(stdout);

  // Both operators.
  const DenseBlockMatrix<double> host(matrix);
  const DeviceDenseBlockMatrix<double> gpu(host);
  const petsc::DeviceDenseBlockOperator device_operator(gpu, matrix.shared_pattern());
  const CountingOperator counting(device_operator);
  // Host Vecs for this shell whatever PETSc has (the device rows below have their own).
  POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, "-host_vec_type", "standard"));
  petsc::ShellMatrix shell(counting, "host_");
  petsc::AijMatrix aij(pattern);
  aij.update(matrix);
  set_aij_blocks(aij.mat(), pattern);

  petsc::Vector x(n), y(n), b(n), solution(n);
  std::vector<double> x_values(static_cast<std::size_t>(n));
  for (GlobalIndex k = 0; k < n; ++k) x_values[k] = std::sin(0.1 * double(k));
  petsc::copy_to_vec(x_values, x.vec());
  petsc::copy_to_vec(rhs, b.vec());

  // One product and its parts.
  run.shell_matmult_ms =
      host_ms(products, [&] { POLYDG_PETSC_CALL(MatMult(shell.mat(), x.vec(), y.vec())); });
  const std::vector<double> y_shell = values_of(y.vec(), n);
  run.aij_matmult_ms = host_ms(std::max(products / 4, 3),
                               [&] { POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec())); });
  const double product_difference = max_relative_difference(y_shell, values_of(y.vec(), n));
  {
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(double);
    device::DeviceBuffer<double> x_device(static_cast<std::size_t>(n)),
        y_device(static_cast<std::size_t>(n));
    device::PinnedBuffer<double> x_pinned(static_cast<std::size_t>(n)),
        y_pinned(static_cast<std::size_t>(n));
    std::vector<double> y_host(static_cast<std::size_t>(n), 0.0);
    device::copy_host_to_device(x_device.data(), x_values.data(), bytes);
    run.device_product_ms =
        bench::median_event_ms(products, [&] { gpu.multiply(x_device.data(), y_device.data()); });
    run.staging_pinned_ms = host_ms(products, [&] {
      host_copy(x_pinned.data(), x_values.data(), std::size_t(n));
      POLYDG_CUDA_CHECK(
          cudaMemcpy(x_device.data(), x_pinned.data(), bytes, cudaMemcpyHostToDevice));
      POLYDG_CUDA_CHECK(
          cudaMemcpy(y_pinned.data(), y_device.data(), bytes, cudaMemcpyDeviceToHost));
      host_copy(y_host.data(), y_pinned.data(), std::size_t(n));
    });
    run.staging_pageable_ms = host_ms(products, [&] {
      POLYDG_CUDA_CHECK(
          cudaMemcpy(x_device.data(), x_values.data(), bytes, cudaMemcpyHostToDevice));
      POLYDG_CUDA_CHECK(cudaMemcpy(y_host.data(), y_device.data(), bytes, cudaMemcpyDeviceToHost));
    });
    run.dma_pinned_ms = host_ms(products, [&] {
      POLYDG_CUDA_CHECK(
          cudaMemcpy(x_device.data(), x_pinned.data(), bytes, cudaMemcpyHostToDevice));
      POLYDG_CUDA_CHECK(
          cudaMemcpy(y_pinned.data(), y_device.data(), bytes, cudaMemcpyDeviceToHost));
    });
  }
  run.device_bytes = gpu.minimal_bytes();
  run.pcie_bytes = 2.0 * 8.0 * double(n);
  run.aij_bytes = 8.0 * double(run.nonzeros) +
                  double(sizeof(PetscInt)) * (double(run.nonzeros) + double(n) + 1) +
                  16.0 * double(n);
  std::printf("  MatMult: GPU shell %.3f ms, AIJ %.3f ms, |y_shell − y_AIJ| / |y_AIJ| = %.1e\n",
              run.shell_matmult_ms, run.aij_matmult_ms, product_difference);
  std::fflush(stdout);

  // KSP: the same solves through both.
  // Jacobi and PBJacobi from the shell itself; ILU, which a MATSHELL cannot give, from the AIJ
  // as the preconditioning matrix (petsc::LinearSolver(shell, aij)).
  std::map<std::string, std::vector<double>> aij_solutions;  // per PC, the reference
  for (const char* pc_type : {PCJACOBI, PCPBJACOBI, PCILU}) {
    counting.products = 0;
    const Mat shell_preconditioner = std::string(pc_type) == PCILU ? aij.mat() : shell.mat();
    KspRow shell_row =
        time_ksp(shell.mat(), shell_preconditioner, pc_type, iterations, b.vec(), solution.vec());
    shell_row.backend = "shell, host Vecs";
    shell_row.products = counting.products;
    const std::vector<double> shell_solution = values_of(solution.vec(), n);
    KspRow aij_row = time_ksp(aij.mat(), aij.mat(), pc_type, iterations, b.vec(), solution.vec());
    aij_row.backend = "AIJ (CPU)";
    aij_solutions[pc_type] = values_of(solution.vec(), n);
    // The same KSP and PC take the same number of products (counted on the shell).
    aij_row.products = aij_row.iterations == shell_row.iterations ? shell_row.products : -1;
    shell_row.difference = max_relative_difference(shell_solution, aij_solutions[pc_type]);
    shell_row.matmult_share =
        double(shell_row.products) * run.shell_matmult_ms / (shell_row.solve_s * 1e3);
    aij_row.matmult_share = aij_row.products > 0 ? double(aij_row.products) * run.aij_matmult_ms /
                                                       (aij_row.solve_s * 1e3)
                                                 : -1;
    run.ksp.push_back(shell_row);
    run.ksp.push_back(aij_row);
  }
  if (petsc::device_placement_possible())
    run_on_device(run, matrix, rhs, counting, aij_solutions, iterations);
  return run;
}

void print_run(const Run& r) {
  const double n = double(r.dofs);
  std::printf("\nOne MatMult, p = %d, %lld DoFs (median of the batch):\n", r.p, r.dofs);
  std::printf("  %-34s %10s %14s %10s\n", "part", "ms", "bytes moved", "GB/s");
  const auto line = [](const char* name, double ms, double bytes) {
    std::printf("  %-34s %10.3f %14.3e %10.1f\n", name, ms, bytes, bytes / (ms * 1e-3) / 1e9);
  };
  line("GPU shell MatMult (host Vecs)", r.shell_matmult_ms, r.device_bytes + r.pcie_bytes);
  line("  device product (DBF)", r.device_product_ms, r.device_bytes);
  line("  staging x, y (pinned, as shell)", r.staging_pinned_ms, r.pcie_bytes);
  line("    of which DMA only (pinned)", r.dma_pinned_ms, r.pcie_bytes);
  line("  staging x, y (pageable, direct)", r.staging_pageable_ms, r.pcie_bytes);
  std::printf("  %-34s %10.3f\n", "  rest (PETSc, launch, allocation)",
              r.shell_matmult_ms - r.device_product_ms - r.staging_pinned_ms);
  line("AIJ MatMult (CPU, 1 core)", r.aij_matmult_ms, r.aij_bytes);
  std::printf(
      "  staging share of the shell MatMult: %.0f %%; device product: %.0f %%; "
      "bytes per DoF: device %.0f, PCIe %.0f\n",
      100 * r.staging_pinned_ms / r.shell_matmult_ms,
      100 * r.device_product_ms / r.shell_matmult_ms, r.device_bytes / n, r.pcie_bytes / n);

  std::printf("\nGMRES, fixed iterations, p = %d:\n", r.p);
  std::printf("  %-24s %-9s %6s %8s %9s %9s %10s %9s %12s %9s %10s %10s\n", "backend", "PC", "its",
              "MatMults", "setup_s", "solve_s", "ms/it", "MatMult%", "other ms/it", "copies/it",
              "vectors/it", "|dx|/|x|");
  const double vector_bytes = double(r.dofs) * sizeof(PetscScalar);
  for (const KspRow& k : r.ksp) {
    // The rest of an iteration: the vector operations (orthogonalization, norms) and the
    // preconditioner's application: PETSc's, on the host for host Vecs, on the GPU for device
    // Vecs.
    const double other_ms = k.ms_per_iteration * (1 - std::max(k.matmult_share, 0.0));
    std::printf("  %-24s %-9s %6d %8lld %9.3f %9.3f %10.3f ", k.backend.c_str(), k.pc.c_str(),
                k.iterations, k.products, k.setup_s, k.solve_s, k.ms_per_iteration);
    if (k.matmult_share >= 0)
      std::printf("%8.0f%% ", 100 * k.matmult_share);
    else
      std::printf("%9s ", "-");  // PETSc's own product: not timed apart
    std::printf("%12.3f %9.1f %10.3f ", other_ms, k.copies_per_iteration,
                k.bytes_per_iteration / vector_bytes);
    if (k.backend != "AIJ (CPU)")
      std::printf("%10.1e\n", k.difference);
    else
      std::printf("%10s\n", "(ref.)");
  }
}

/// provenance: polydg::bench::provenance_json's member, written first.
void write_json(const std::string& path, const std::string& provenance,
                const std::string& device_name, int threads, int iterations,
                const std::vector<Run>& runs) {
  std::ofstream json(path);
  require(bool(json), "bench_ksp: cannot write ", path);
  json << "{" << provenance << ", \"device\": " << bench::json_string(device_name)
       << ", \"threads\": " << threads << ", \"iterations\": " << iterations
       << ", \"ksp_type\": \"gmres\", \"runs\": [";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    json << (i ? ", " : "") << "{\"p\": " << r.p << ", \"elements\": " << r.elements
         << ", \"dofs\": " << r.dofs << ", \"nonzeros\": " << r.nonzeros
         << ", \"assembly_s\": " << r.assembly_s << ", \"shell_matmult_ms\": " << r.shell_matmult_ms
         << ", \"aij_matmult_ms\": " << r.aij_matmult_ms
         << ", \"device_product_ms\": " << r.device_product_ms
         << ", \"staging_pinned_ms\": " << r.staging_pinned_ms
         << ", \"staging_pageable_ms\": " << r.staging_pageable_ms
         << ", \"dma_pinned_ms\": " << r.dma_pinned_ms << ", \"device_bytes\": " << r.device_bytes
         << ", \"pcie_bytes\": " << r.pcie_bytes << ", \"aij_bytes\": " << r.aij_bytes
         << ", \"ksp\": [";
    for (std::size_t k = 0; k < r.ksp.size(); ++k) {
      const KspRow& row = r.ksp[k];
      json << (k ? ", " : "") << "{\"backend\": \"" << row.backend << "\", \"pc\": \"" << row.pc
           << "\", \"iterations\": " << row.iterations << ", \"matmults\": " << row.products
           << ", \"setup_s\": " << row.setup_s << ", \"solve_s\": " << row.solve_s
           << ", \"ms_per_iteration\": " << row.ms_per_iteration
           << ", \"matmult_share\": " << row.matmult_share
           << ", \"solution_difference\": " << row.difference
           << ", \"copies_per_iteration\": " << row.copies_per_iteration
           << ", \"bytes_per_iteration\": " << row.bytes_per_iteration << "}";
    }
    json << "]}";
  }
  json << "]}\n";
}

}  // namespace

/// What --help prints.
constexpr const char* usage = R"(Usage: bench_ksp [options] [PETSc options]
GMRES on a 2D+1 slab through the GPU MATSHELL (host Vecs staged) against PETSc's AIJ on one
CPU core, and where PETSc has CUDA the shell and MATAIJCUSPARSE on device Vecs: time per
iteration, host<->device copies per iteration, each product's parts, PC set-up.
  --p P[,P...]             degrees (default 2)
  --cells-per-side N       the oscillating domain's cells per side (default 560: 2.09 M DoFs at p = 2)
  --cells-per-element X    fine triangles per polygon (default 3)
  --iterations N           KSP iterations per solve, rtol = atol = 0 (default 50)
  --products N             products timed alone per part (default 20)
  --json FILE              also write the numbers as JSON
  --help                   this text
Options that do not start with -- go to PETSc (e.g. -ksp_gmres_restart 50).
)";

int main(int argc, char** argv) {
  const std::string started = bench::utc_now();
  OscillatingDomain domain;
  domain.cells_per_side = 560;  // 627,200 triangles; ~209k polygons; 2.09 M DoFs at p = 2
  double cells_per_element = 3;
  std::vector<int> degrees = {2};
  int iterations = 50, products = 20;
  std::string json_path;
  // Our options are taken out of the command line; the rest goes to PETSc.
  std::vector<char*> petsc_arguments = {argv[0]};
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        std::fputs(usage, stdout);
        return 0;
      }
      if (flag.rfind("--", 0) != 0) {
        petsc_arguments.push_back(argv[i]);
        continue;
      }
      require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[++i];
      if (flag == "--cells-per-side")
        domain.cells_per_side = parse_integer(flag, value);
      else if (flag == "--cells-per-element")
        cells_per_element = parse_number(flag, value);
      else if (flag == "--iterations")
        iterations = parse_integer(flag, value);
      else if (flag == "--products")
        products = parse_integer(flag, value);
      else if (flag == "--json")
        json_path = value;
      else if (flag == "--p") {
        degrees = parse_integer_list(flag, value);
      } else {
        raise("unknown option ", flag, " (see --help)");
      }
    }
    require(iterations > 0 && products > 0, "--iterations and --products must be > 0");
  } catch (const std::exception& error) {
    std::cerr << "bench_ksp: " << error.what() << '\n';
    return 1;
  }
  petsc_arguments.push_back(nullptr);
  int petsc_argc = int(petsc_arguments.size()) - 1;
  char** petsc_argv = petsc_arguments.data();
  petsc::Session session(petsc_argc, petsc_argv);

  try {
    require(device::device_count() > 0, "bench_ksp: no CUDA device");
    cudaDeviceProp properties{};
    POLYDG_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    const std::string device_name = properties.name;

    const auto fine = std::make_shared<const SimplexMesh<2>>(oscillating_domain_mesh(domain));
    Agglomeration parts;
    if (cells_per_element <= 1) {  // the fine mesh itself: one element per triangle
      parts.element_count = fine->cell_count();
      parts.element_of_cell.resize(static_cast<std::size_t>(fine->cell_count()));
      for (Index c = 0; c < fine->cell_count(); ++c) parts.element_of_cell[c] = c;
    } else {
      parts = agglomerate_by_cell_count(*fine, cells_per_element);
    }
    std::printf(
        "bench_ksp: %s; 2D+1 slab (prisms) on %d triangles in %d polygons; GMRES, %d "
        "iterations; %s; %d OpenMP threads; PetscInt %d bits\n",
        device_name.c_str(), int(fine->cell_count()), int(parts.element_count), iterations,
        petsc::device_placement_possible() ? "host and device Vecs"
                                           : "host Vecs (this PETSc has no CUDA)",
        omp_get_max_threads(), int(8 * sizeof(PetscInt)));
    std::fflush(stdout);

    std::vector<Run> runs;
    for (const int p : degrees) {
      runs.push_back(run_degree(fine, parts, p, iterations, products));
      print_run(runs.back());
      std::fflush(stdout);
    }
    if (!json_path.empty())
      write_json(json_path, bench::provenance_json(argc, argv, started, bench::device_json()),
                 device_name, omp_get_max_threads(), iterations, runs);
  } catch (const std::exception& error) {
    std::cerr << "bench_ksp: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
