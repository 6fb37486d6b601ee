// Benchmark of the dense-block-format SpMV (DeviceDenseBlockMatrix) against cuSPARSE CSR
// (generic cusparseSpMV), cuSPARSE BSR (cusparse<t>bsrmv, uniform block size) and the HDG
// paper's two-step DBF (inflate, contract; [Roca2011], docs/theory.md, References), in one run
// on the GPU, per p = 1..5, on
//   (a) 2D agglomerated IP-DG patterns (oscillating domain, METIS recursive bisection, or
//       greedy growth from about 2 GB, where METIS fails; about 3 triangles per polygon: 3 to
//       10 neighbours per element, elements numbered along a Hilbert curve; --element-order
//       first-cell: in the order of their first cell), N = (p+1)(p+2)/2;
//   (b) 2D+1 slab patterns: the same spatial structure with the 3D block size of P_p
//       (the slab's neighbours are the spatial ones; top and bottom are boundary faces);
//   (c) HDG face patterns (the HDG paper's, make_hdg_block_pattern): 2D (n_a = 5, blocks
//       4(p+1)) and 3D (n_a = 7, blocks 5(p+1)(p+2)/2), each at 11,780 faces (the HDG
//       paper's size, "seed-size", fp64) and large (fp64 and fp32).
// Values are pseudo-random, diagonally dominant (fill_diagonally_dominant_values): the product
// does not care. Each case is sized to about --megabytes of matrix values (default 600, so the
// targets' "≥ 500 MB" holds); the HDG seed-size cases keep the paper's face count whatever their
// size (2D: 30–270 MB; 3D: 142 MB at p = 1 to 6.96 GB at p = 5). "HDG 3D large" is sized
// by measuring its pattern (its boundary rows, with 4 of 7 blocks, are a large share when the
// blocks are large and the faces few), so its fp64 values are at least --megabytes; at high p it
// has fewer faces than the seed-size case.
// Times: CUDA events, median of --repeats after a warm-up. GB/s: each format's minimal traffic
// (values, its indices, x and y once); % of the device-to-device copy bandwidth measured in the
// same run. At the end, the HDG paper's Table 3 layout for the fp64 seed-size HDG cases (the
// paper's own numbers, 2D only, next to ours). --json FILE writes every row and that table.
// --cases picks the families: ip (a), slab (b), hdg2 and hdg3 (c); default all.
// --rows-per-thread R (1, 2, 4, 8) fixes DeviceDenseBlockMatrix's rows per thread of y = A x
// (default 0: its own choice), for comparing the choices. --slice-rows S1,S2,... builds the DBF
// with groups cut into slices of S block rows (-1, the default: DenseBlockMatrix's own choice;
// 0: whole groups): the table's DBF columns are S1's, and each further S gets a line of its
// own, timed on the same matrix.
//
//   build-gpu/bin/bench_spmv [--p 1,2,3,4,5] [--megabytes 600] [--repeats 20]
//                            [--cases ip,slab,hdg2,hdg3] [--rows-per-thread R]
//                            [--slice-rows -1] [--element-order hilbert] [--json FILE]
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cuda_event_timing.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/detail/core/cuda_check.cuh"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"
#include "polydg/sparse/hdg_block_pattern.hpp"

namespace {

using namespace polydg;

#define BENCH_CUSPARSE(call)                                                                     \
  do {                                                                                           \
    const cusparseStatus_t status = (call);                                                      \
    if (status != CUSPARSE_STATUS_SUCCESS)                                                       \
      raise("cuSPARSE error in ", #call, ": ", cusparseGetErrorString(status), " at ", __FILE__, \
            ":", __LINE__);                                                                      \
  } while (0)

double gigabytes_per_second(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

/// Device-to-device copy bandwidth (read + write bytes / time) of a 1 GiB buffer.
double streaming_gbs(int repeats) {
  const std::size_t bytes = std::size_t(1) << 30;
  device::DeviceBuffer<char> a(bytes), b(bytes);
  const double ms = bench::median_event_ms(repeats, [&] {
    POLYDG_CUDA_CHECK(cudaMemcpy(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice));
  });
  return gigabytes_per_second(2.0 * double(bytes), ms);
}

struct Row {
  std::string family;
  std::string precision;
  int p = 0;
  long long block_rows = 0, dofs = 0, nonzeros = 0;
  double matrix_mb = 0, padding = 0;
  double dbf_ms = 0, csr_ms = 0, bsr_ms = -1, two_step_ms = 0, transpose_ms = 0;
  double dbf_bytes = 0, csr_bytes = 0, bsr_bytes = 0;
  double difference = 0;        ///< |y_DBF − y_CSR| / |y_CSR|
  int rows_per_thread = 0;      ///< DeviceDenseBlockMatrix::rows_per_thread() of the DBF product
  double fixed_size_share = 0;  ///< block rows in the fixed-size kernels / all block rows
  double end_share = 0;         ///< of those, in a size's end shape / all block rows
  /// y = A x with each further --slice-rows value: (slice rows, ms, minimal bytes).
  std::vector<std::tuple<int, double, double>> sliced;
};

template <class Real>
constexpr cudaDataType cuda_type() {
  return sizeof(Real) == 8 ? CUDA_R_64F : CUDA_R_32F;
}

/// --rows-per-thread (0: DeviceDenseBlockMatrix chooses).
int dbf_rows_per_thread = 0;
/// --slice-rows: the DenseBlockMatrix slices of the table's DBF, then of the extra lines.
std::vector<int> dbf_slice_rows = {DenseBlockMatrix<double>::default_slices};

template <class Real>
Row run_case(const BlockMatrix<Real>& matrix, const std::string& family, int p, int repeats,
             cusparseHandle_t handle) {
  const BlockPattern& pattern = matrix.pattern();
  Row row;
  row.family = family;
  row.precision = sizeof(Real) == 8 ? "fp64" : "fp32";
  row.p = p;
  row.block_rows = pattern.block_row_count();
  row.dofs = pattern.dof_count();
  row.nonzeros = pattern.value_count();
  row.matrix_mb = double(row.nonzeros) * sizeof(Real) / 1e6;
  const GlobalIndex n = pattern.dof_count();
  require(pattern.value_count() < (GlobalIndex(1) << 31), "bench_spmv: ", pattern.value_count(),
          " nonzeros do not fit cuSPARSE's 32-bit CSR indices");

  // DBF (exact grouping).
  std::vector<Real> x(static_cast<std::size_t>(n));
  for (GlobalIndex k = 0; k < n; ++k) x[k] = Real(std::sin(0.1 * double(k)));
  const device::DeviceBuffer<Real> x_device{std::span<const Real>(x)};
  device::DeviceBuffer<Real> y_dbf(x.size()), y_csr(x.size());
  std::vector<Real> dbf_result, csr_result;
  {
    const DenseBlockMatrix<Real> host(matrix, 0, dbf_slice_rows[0]);
    const DeviceDenseBlockMatrix<Real> dbf(host, dbf_rows_per_thread);
    row.rows_per_thread = dbf.rows_per_thread();
    row.fixed_size_share = double(dbf.fixed_size_rows()) / double(host.row_block_rows().size());
    row.end_share = double(dbf.end_rows()) / double(host.row_block_rows().size());
    row.padding = host.padding_ratio();
    row.dbf_bytes = dbf.minimal_bytes();
    row.dbf_ms =
        bench::median_event_ms(repeats, [&] { dbf.multiply(x_device.data(), y_dbf.data()); });
    row.transpose_ms = bench::median_event_ms(
        repeats, [&] { dbf.multiply_transpose(x_device.data(), y_csr.data()); });
    device::DeviceBuffer<Real> inflated(std::size_t(dbf.inflated_size()));
    row.two_step_ms = bench::median_event_ms(repeats, [&] {
      dbf.inflate(x_device.data(), inflated.data());
      dbf.contract(inflated.data(), y_csr.data());
    });
    dbf.multiply(x_device.data(), y_dbf.data());
    dbf_result = y_dbf.to_host();
  }
  for (std::size_t s = 1; s < dbf_slice_rows.size(); ++s) {
    const DenseBlockMatrix<Real> host(matrix, 0, dbf_slice_rows[s]);
    const DeviceDenseBlockMatrix<Real> dbf(host, dbf_rows_per_thread);
    const double ms =
        bench::median_event_ms(repeats, [&] { dbf.multiply(x_device.data(), y_csr.data()); });
    require(y_csr.to_host() == dbf_result, "bench_spmv: ", family, " p = ", p, ": slices of ",
            dbf_slice_rows[s], " rows changed the product's bits");
    row.sliced.emplace_back(dbf_slice_rows[s], ms, dbf.minimal_bytes());
  }

  // CSR, built on the host from the blocks (columns ascending in every row).
  {
    std::vector<int> offsets(static_cast<std::size_t>(n) + 1, 0), columns;
    std::vector<Real> values;
    columns.reserve(std::size_t(pattern.value_count()));
    values.reserve(std::size_t(pattern.value_count()));
    for (Index e = 0; e < pattern.block_row_count(); ++e)
      for (Index i = 0; i < pattern.block_size(e); ++i) {
        for (Index block = pattern.block_row_begin(e); block < pattern.block_row_begin(e + 1);
             ++block) {
          const Index c = pattern.block_column(block), size = pattern.block_size(c);
          const Real* source =
              matrix.values().data() + pattern.block_value_offset(block) + GlobalIndex(i) * size;
          for (Index j = 0; j < size; ++j) {
            columns.push_back(int(pattern.dof_offset(c) + j));
            values.push_back(source[j]);
          }
        }
        offsets[pattern.dof_offset(e) + i + 1] = int(columns.size());
      }
    const device::DeviceBuffer<int> offsets_device{std::span<const int>(offsets)};
    const device::DeviceBuffer<int> columns_device{std::span<const int>(columns)};
    const device::DeviceBuffer<Real> values_device{std::span<const Real>(values)};
    values = {};
    columns = {};
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t vx, vy;
    BENCH_CUSPARSE(cusparseCreateCsr(
        &a, n, n, pattern.value_count(), const_cast<int*>(offsets_device.data()),
        const_cast<int*>(columns_device.data()), const_cast<Real*>(values_device.data()),
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, cuda_type<Real>()));
    BENCH_CUSPARSE(
        cusparseCreateDnVec(&vx, n, const_cast<Real*>(x_device.data()), cuda_type<Real>()));
    BENCH_CUSPARSE(cusparseCreateDnVec(&vy, n, y_csr.data(), cuda_type<Real>()));
    const Real one = 1, zero = 0;
    std::size_t buffer_size = 0;
    BENCH_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx,
                                           &zero, vy, cuda_type<Real>(), CUSPARSE_SPMV_ALG_DEFAULT,
                                           &buffer_size));
    device::DeviceBuffer<char> buffer(std::max<std::size_t>(buffer_size, 1));
    row.csr_ms = bench::median_event_ms(repeats, [&] {
      BENCH_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy,
                                  cuda_type<Real>(), CUSPARSE_SPMV_ALG_DEFAULT, buffer.data()));
    });
    csr_result = y_csr.to_host();
    cusparseDestroySpMat(a);
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    row.csr_bytes = double(pattern.value_count()) * (sizeof(Real) + 4) + double(n + 1) * 4 +
                    2.0 * double(n) * sizeof(Real);
  }

  // BSR (cusparse<t>bsrmv, row-major blocks = the BlockMatrix values as they are), when every
  // block has the same size.
  bool uniform = true;
  for (Index e = 1; e < pattern.block_row_count(); ++e)
    uniform = uniform && pattern.block_size(e) == pattern.block_size(0);
  if (uniform) {
    // Should cusparse<t>bsrmv refuse a block size, report it and keep the other formats' rows.
    try {
      std::vector<int> block_offsets(static_cast<std::size_t>(pattern.block_row_count()) + 1),
          block_columns(static_cast<std::size_t>(pattern.block_count()));
      for (Index e = 0; e <= pattern.block_row_count(); ++e)
        block_offsets[e] = pattern.block_row_begin(e);
      for (Index k = 0; k < pattern.block_count(); ++k) block_columns[k] = pattern.block_column(k);
      const device::DeviceBuffer<int> offsets_device{std::span<const int>(block_offsets)};
      const device::DeviceBuffer<int> columns_device{std::span<const int>(block_columns)};
      const device::DeviceBuffer<Real> values_device{matrix.values()};
      cusparseMatDescr_t descriptor;
      BENCH_CUSPARSE(cusparseCreateMatDescr(&descriptor));
      const Real one = 1, zero = 0;
      const int size = pattern.block_size(0);
      row.bsr_ms = bench::median_event_ms(repeats, [&] {
        if constexpr (sizeof(Real) == 8)
          BENCH_CUSPARSE(cusparseDbsrmv(
              handle, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE,
              pattern.block_row_count(), pattern.block_row_count(), pattern.block_count(), &one,
              descriptor, values_device.data(), offsets_device.data(), columns_device.data(), size,
              x_device.data(), &zero, y_csr.data()));
        else
          BENCH_CUSPARSE(cusparseSbsrmv(
              handle, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE,
              pattern.block_row_count(), pattern.block_row_count(), pattern.block_count(), &one,
              descriptor, values_device.data(), offsets_device.data(), columns_device.data(), size,
              x_device.data(), &zero, y_csr.data()));
      });
      cusparseDestroyMatDescr(descriptor);
      row.bsr_bytes = double(pattern.value_count()) * sizeof(Real) +
                      double(pattern.block_count()) * 4 +
                      double(pattern.block_row_count() + 1) * 4 + 2.0 * double(n) * sizeof(Real);
    } catch (const Error& error) {
      std::fprintf(stderr, "bench_spmv: %s p = %d: BSR skipped: %s\n", family.c_str(), p,
                   error.what());
      row.bsr_ms = -1;
    }
  }

  double difference = 0, norm = 0;
  for (std::size_t k = 0; k < csr_result.size(); ++k) {
    difference += double(dbf_result[k] - csr_result[k]) * double(dbf_result[k] - csr_result[k]);
    norm += double(csr_result[k]) * double(csr_result[k]);
  }
  row.difference = std::sqrt(difference / norm);
  return row;
}

/// --element-order: how the agglomerated elements of (a) and (b) are numbered (default along
/// the Hilbert curve: neighbours' x entries then lie close together, so the gathers hit L2; the
/// numbers: docs/performance.md, "DBF SpMV").
ElementOrder ip_element_order = ElementOrder::hilbert_curve;

/// The interfaces of the oscillating domain with about `elements` polygons of ~3 triangles.
std::vector<std::array<Index, 2>> ip_dg_interfaces(double elements, Index& element_count) {
  OscillatingDomain domain;
  domain.cells_per_side = std::max(64, int(std::ceil(std::sqrt(3.0 * elements / 2.0))));
  const auto fine = std::make_shared<const SimplexMesh<2>>(oscillating_domain_mesh(domain));
  AgglomerationOptions options;
  options.method = PartitionMethod::recursive_bisection;
  options.element_order = ip_element_order;
  // METIS rejects some part counts near a million (its target weights do not sum to 1 in
  // single precision): retry with slightly fewer cells per part. From about 2 GB (3.8 M
  // elements) every count near 3 cells per part fails: greedy growth then, said on
  // stderr (about three cells per element as well; mesh and agglomeration 5 s at 3.8 M
  // elements on the 2-core development machine).
  Agglomeration parts;
  for (double cells_per_element = 3.0;; cells_per_element *= 0.99) {
    try {
      parts = agglomerate_by_cell_count(*fine, cells_per_element, options);
      break;
    } catch (const Error&) {
      if (cells_per_element >= 2.8) continue;
      std::fprintf(stderr,
                   "note: METIS's recursive bisection failed for %.0f elements; (a) and (b) at "
                   "this size are agglomerated by greedy growth\n",
                   elements);
      options.method = PartitionMethod::greedy_growth;
      parts = agglomerate_by_cell_count(*fine, 3.0, options);
      break;
    }
  }
  const PolytopicMesh<2> mesh(fine, parts.element_of_cell, 1);
  element_count = mesh.element_count();
  std::vector<std::array<Index, 2>> interfaces;
  for (Index i = 0; i < mesh.interface_count(); ++i)
    interfaces.push_back(mesh.interface_elements(i));
  return interfaces;
}

/// The HDG paper ([Roca2011], docs/theory.md, References), Table 3: "Speedup of the proposed and
/// CUSPARSE sparse matrix-vector product compared with MATLAB for p = 1, ..., 5" — 2D HDG matrices
/// of a compressible Navier–Stokes problem on one triangular mesh of 11,780 faces (n_c = 4), double
/// precision (Table 1's MB are 8-byte values), GeForce GTX 285 (CUSPARSE, proposed) and a Mac
/// Pro 2009 (MATLAB). "Proposed" is the paper's two-step DBF product (Table 2: tv + tc). The
/// paper has no 3D counterpart. csr_nonzeros is Table 1's "CSR (nnz)" for the same matrices.
struct SeedTable3Row {
  int p;
  double matlab_ms, cusparse_ms, proposed_ms;  // execution time (ms)
  double cusparse_speedup, proposed_speedup;   // speedup, MATLAB as reference
  long long csr_nonzeros;                      // Table 1
};
constexpr std::array<SeedTable3Row, 5> seed_table3 = {{
    {1, 22.81, 1.87, 0.72, 12.22, 31.91, 3743188},
    {2, 47.07, 3.05, 1.15, 15.41, 40.79, 8423010},
    {3, 77.37, 4.17, 1.77, 18.54, 43.64, 14975728},
    {4, 118.51, 5.91, 2.53, 20.05, 46.82, 23395950},
    {5, 179.37, 7.39, 3.41, 24.28, 52.54, 33696648},
}};
constexpr Index seed_face_count = 11780;

std::optional<SeedTable3Row> seed_table3_row(int dimension, int p) {
  for (const SeedTable3Row& row : seed_table3)
    if (dimension == 2 && row.p == p) return row;
  return std::nullopt;
}

/// The HDG face pattern of the fewest faces (to 0.5 %) whose values take ≥ `megabytes` in
/// fp64: the face count is rescaled from the measured value count, since the share of boundary
/// rows (fewer blocks) grows as the face count falls.
BlockPattern hdg_pattern_of_megabytes(int dimension, int p, double megabytes) {
  const double face_size = double(hdg_face_block_size(dimension, p));
  const double bytes_per_face =
      double(hdg_max_blocks_per_row(dimension)) * face_size * face_size * 8.0;
  Index faces = std::max<Index>(1, Index(megabytes * 1e6 / bytes_per_face));
  for (int attempt = 0;; ++attempt) {
    BlockPattern pattern = make_hdg_block_pattern(dimension, faces, p);
    const double mb = double(pattern.value_count()) * 8.0 / 1e6;
    if (mb >= megabytes || attempt == 8) return pattern;
    faces = std::max<Index>(faces + 1, Index(std::ceil(double(faces) * megabytes / mb * 1.005)));
  }
}

template <class Real>
BlockMatrix<Real> random_matrix(BlockPattern pattern) {
  BlockMatrix<Real> matrix(std::make_shared<const BlockPattern>(std::move(pattern)));
  fill_diagonally_dominant_values(matrix);
  return matrix;
}

void print(const Row& r, double stream) {
  std::printf(
      "%-14s %s %d %9lld %11lld %8.0f %6.3f | %8.3f %6.0f %4.0f%% | %8.3f %6.0f | %8.3f %6s | "
      "%8.3f | %5.2f %5s | %.1e\n",
      r.family.c_str(), r.precision.c_str(), r.p, r.dofs, r.nonzeros, r.matrix_mb, r.padding,
      r.dbf_ms, gigabytes_per_second(r.dbf_bytes, r.dbf_ms),
      100 * gigabytes_per_second(r.dbf_bytes, r.dbf_ms) / stream, r.csr_ms,
      gigabytes_per_second(r.csr_bytes, r.csr_ms), r.bsr_ms,
      r.bsr_ms > 0 ? std::to_string(int(gigabytes_per_second(r.bsr_bytes, r.bsr_ms))).c_str() : "—",
      r.two_step_ms, r.csr_ms / r.dbf_ms,
      r.bsr_ms > 0 ? (std::ostringstream() << r.bsr_ms / r.dbf_ms).str().substr(0, 5).c_str() : "—",
      r.difference);
  for (const auto& [slice_rows, ms, bytes] : r.sliced)
    std::printf(
        "%-14s   DBF, --slice-rows %5d: %8.3f ms %6.0f GB/s %4.0f%% (table's DBF ms / this %.3f)\n",
        "", slice_rows, ms, gigabytes_per_second(bytes, ms),
        100 * gigabytes_per_second(bytes, ms) / stream, r.dbf_ms / ms);
}

/// The SpMV targets, for fp64 matrices of at least 500 MB (docs/performance.md, "Where the GPU
/// targets stand"): y = A x at
/// ≥ 90 % of the copy bandwidth measured in the same run and ≥ 1.8× cuSPARSE CSR, and on (a)
/// padding ≤ 10 %. Prints how many rows meet each and every row that misses one.
void print_issue_targets(const std::vector<Row>& rows, double stream) {
  constexpr double min_mb = 500, bandwidth_share = 0.90, csr_speedup = 1.8, padding = 0.10;
  int count = 0, bandwidth_met = 0, speedup_met = 0, both = 0, padding_met = 0, ip_rows = 0;
  std::ostringstream misses;
  for (const Row& r : rows) {
    if (r.precision != "fp64" || r.matrix_mb < min_mb) continue;
    ++count;
    const double share = gigabytes_per_second(r.dbf_bytes, r.dbf_ms) / stream;
    const double speedup = r.csr_ms / r.dbf_ms;
    bandwidth_met += share >= bandwidth_share;
    speedup_met += speedup >= csr_speedup;
    both += share >= bandwidth_share && speedup >= csr_speedup;
    if (r.family == "IP-DG 2D") {
      ++ip_rows;
      padding_met += r.padding <= padding;
    }
    if (share < bandwidth_share || speedup < csr_speedup)
      misses << "\n  " << r.family << " p = " << r.p << ": " << std::fixed << std::setprecision(1)
             << 100 * share << " % of the copy, " << std::setprecision(4) << speedup << "x CSR";
  }
  if (count == 0) {
    std::printf("\nAgainst the SpMV targets: no fp64 matrix of >= %.0f MB in this run\n", min_mb);
    return;
  }
  std::printf(
      "\nAgainst the SpMV targets (fp64 y = A x, matrices >= %.0f MB): %d of %d at >= %.0f %% of "
      "the copy bandwidth, %d of %d at >= %.1fx cuSPARSE CSR, %d of %d both",
      min_mb, bandwidth_met, count, 100 * bandwidth_share, speedup_met, count, csr_speedup, both,
      count);
  if (ip_rows > 0)
    std::printf("; padding <= %.0f %% on (a): %d of %d", 100 * padding, padding_met, ip_rows);
  std::printf("%s%s\n", both < count ? "; missed:" : "", misses.str().c_str());
}

/// One line of the HDG paper's Table 3 layout: ours (an fp64 seed-size HDG row) next to the
/// paper's.
struct Table3Row {
  int dimension = 0;
  const Row* ours = nullptr;
  std::optional<SeedTable3Row> seed;
};

std::vector<Table3Row> table3_rows(const std::vector<Row>& rows) {
  std::vector<Table3Row> table;
  for (const int dimension : {2, 3}) {
    const std::string family = dimension == 2 ? "HDG 2D seed" : "HDG 3D seed";
    for (const Row& row : rows)
      if (row.family == family && row.precision == "fp64")
        table.push_back({dimension, &row, seed_table3_row(dimension, row.p)});
  }
  return table;
}

void print_table3(const std::vector<Table3Row>& table, const char* device) {
  if (table.empty()) return;
  std::printf(
      "\nHDG paper Table 3 layout: HDG matrices of %d faces, fp64, median ms of one y = A x.\n"
      "  seed: its Table 3 (GeForce GTX 285; MATLAB on a Mac Pro 2009 CPU; 2D only), with\n"
      "        speedups vs MATLAB (xMATLAB) and CUSPARSE ms / proposed ms (xCUSP, derived);\n"
      "        \"proposed\" = its two-step DBF; nnz = its Table 1 CSR nonzeros.\n"
      "  ours: %s, no MATLAB: speedups are cuSPARSE CSR ms / DBF ms and / two-step ms.\n",
      int(seed_face_count), device);
  std::printf("%3s %2s | %9s %9s %9s %9s %9s %9s %6s | %11s %8s %8s %8s %6s %6s\n", "dim", "p",
              "seed nnz", "MATLAB ms", "CUSP ms", "prop ms", "CUSP", "prop", "prop", "our nnz",
              "CSR ms", "DBF ms", "2-step", "DBF", "2-step");
  std::printf("%3s %2s | %9s %9s %9s %9s %9s %9s %6s | %11s %8s %8s %8s %6s %6s\n", "", "", "", "",
              "", "", "xMATLAB", "xMATLAB", "xCUSP", "", "", "", "ms", "xCSR", "xCSR");
  for (const Table3Row& t : table) {
    const Row& r = *t.ours;
    if (t.seed)
      std::printf("%3d %2d | %9lld %9.2f %9.2f %9.2f %9.2f %9.2f %6.2f |", t.dimension, r.p,
                  t.seed->csr_nonzeros, t.seed->matlab_ms, t.seed->cusparse_ms, t.seed->proposed_ms,
                  t.seed->cusparse_speedup, t.seed->proposed_speedup,
                  t.seed->cusparse_ms / t.seed->proposed_ms);
    else
      std::printf("%3d %2d | %9s %9s %9s %9s %9s %9s %6s |", t.dimension, r.p, "n/a", "n/a", "n/a",
                  "n/a", "n/a", "n/a", "n/a");
    std::printf(" %11lld %8.3f %8.3f %8.3f %6.2f %6.2f\n", r.nonzeros, r.csr_ms, r.dbf_ms,
                r.two_step_ms, r.csr_ms / r.dbf_ms, r.csr_ms / r.two_step_ms);
  }
}

}  // namespace

/// What --help prints.
constexpr const char* usage = R"(Usage: bench_spmv [options]
The dense-block-format y = A x on the GPU against cuSPARSE CSR, cuSPARSE BSR and the HDG
paper's two-step product (docs/performance.md, "DBF SpMV"), fp64 and fp32, per degree, with
that paper's Table 3 layout at the end.
  --p P[,P...]             degrees (default 1,2,3,4,5)
  --megabytes M            matrix values per case, about (default 600)
  --repeats N              runs per product; the median is reported (default 20)
  --cases ip,slab,hdg2,hdg3  families: 2D IP-DG, 2D+1 slab, HDG 2D, HDG 3D (default all)
  --rows-per-thread R      force the general kernel with R rows per thread (1, 2, 4, 8)
  --slice-rows S[,S...]    slice lengths; -1 the library's choice, 0 whole groups (default -1)
  --element-order hilbert|first-cell   element numbering of (a) and (b) (default hilbert)
  --json FILE              also write every row as JSON
  --help                   this text
)";

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  std::vector<int> degrees = {1, 2, 3, 4, 5};
  double megabytes = 600;
  int repeats = 20;
  std::string json_path;
  const std::set<std::string> all_cases = {"ip", "slab", "hdg2", "hdg3"};
  std::set<std::string> cases = all_cases;
  try {
    for (int i = 1; i < argc; i += 2) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        std::fputs(usage, stdout);
        return 0;
      }
      require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[i + 1];
      if (flag == "--p") {
        degrees = parse_integer_list(flag, value);
      } else if (flag == "--megabytes") {
        megabytes = parse_number(flag, value);
      } else if (flag == "--repeats") {
        repeats = parse_integer(flag, value);
      } else if (flag == "--cases") {
        cases.clear();
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');) {
          require(all_cases.count(item) == 1, "unknown case '", item,
                  "' (cases: ip, slab, hdg2, hdg3)");
          cases.insert(item);
        }
      } else if (flag == "--rows-per-thread") {
        dbf_rows_per_thread = parse_integer(flag, value);
      } else if (flag == "--slice-rows") {
        dbf_slice_rows = parse_integer_list(flag, value);
      } else if (flag == "--element-order") {
        require(value == "first-cell" || value == "hilbert", "--element-order ", value,
                ": need first-cell or hilbert");
        ip_element_order =
            value == "hilbert" ? ElementOrder::hilbert_curve : ElementOrder::first_cell;
      } else if (flag == "--json") {
        json_path = value;
      } else {
        raise("unknown option ", flag, " (see --help)");
      }
    }
    require(megabytes > 0 && repeats >= 1 && !degrees.empty() && !cases.empty() &&
                !dbf_slice_rows.empty(),
            "--megabytes, --repeats, --p, --cases and --slice-rows must be positive / non-empty");
    cudaDeviceProp properties{};
    POLYDG_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    cusparseHandle_t handle;
    BENCH_CUSPARSE(cusparseCreate(&handle));
    const double stream = streaming_gbs(repeats);
    std::printf(
        "%s, device-to-device copy %.0f GB/s; matrices of about %.0f MB; median of %d; (a), (b) "
        "elements in %s order\n",
        properties.name, stream, megabytes, repeats,
        ip_element_order == ElementOrder::hilbert_curve ? "Hilbert-curve" : "first-cell");
    std::printf(
        "%-14s %s %s %9s %11s %8s %6s | %8s %6s %5s | %8s %6s | %8s %6s | %8s | %5s %5s | %s\n",
        "family", "prec", "p", "DoFs", "nonzeros", "MB", "pad", "DBF ms", "GB/s", "%bw", "CSR ms",
        "GB/s", "BSR ms", "GB/s", "2-step", "xCSR", "xBSR", "|DBF-CSR|");
    std::vector<Row> rows;
    auto record = [&](const Row& row) {
      print(row, stream);
      std::fflush(stdout);
      rows.push_back(row);
    };
    for (int p : degrees) {
      const Index n2 = (p + 1) * (p + 2) / 2, n3 = (p + 1) * (p + 2) * (p + 3) / 6;
      const double blocks_per_row = 4.6;  // measured mean for ~3-triangle polygons
      for (const auto& [family, size, name] :
           {std::tuple{"IP-DG 2D", n2, "ip"}, {"slab 2D+1", n3, "slab"}}) {
        if (cases.count(name) == 0) continue;
        const double elements = megabytes * 1e6 / (blocks_per_row * size * size * 8.0);
        Index element_count = 0;
        const auto interfaces = ip_dg_interfaces(elements, element_count);
        const std::vector<Index> sizes(static_cast<std::size_t>(element_count), size);
        {
          const auto matrix = random_matrix<double>(BlockPattern(sizes, interfaces));
          record(run_case(matrix, family, p, repeats, handle));
        }
        const auto matrix = random_matrix<float>(BlockPattern(sizes, interfaces));
        record(run_case(matrix, family, p, repeats, handle));
      }
      if (cases.count("hdg2") == 1) {
        const Index face_size = hdg_face_block_size(2, p);
        record(run_case(random_matrix<double>(make_hdg_block_pattern(2, seed_face_count, p)),
                        "HDG 2D seed", p, repeats, handle));
        const Index faces = Index(megabytes * 1e6 / (5.0 * face_size * face_size * 8.0));
        record(run_case(random_matrix<double>(make_hdg_block_pattern(2, faces, p)), "HDG 2D large",
                        p, repeats, handle));
        record(run_case(random_matrix<float>(make_hdg_block_pattern(2, faces, p)), "HDG 2D large",
                        p, repeats, handle));
      }
      if (cases.count("hdg3") == 1) {
        record(run_case(random_matrix<double>(make_hdg_block_pattern(3, seed_face_count, p)),
                        "HDG 3D seed", p, repeats, handle));
        const BlockPattern large = hdg_pattern_of_megabytes(3, p, megabytes);
        record(run_case(random_matrix<double>(large), "HDG 3D large", p, repeats, handle));
        record(run_case(random_matrix<float>(large), "HDG 3D large", p, repeats, handle));
      }
    }
    cusparseDestroy(handle);
    const std::vector<Table3Row> table3 = table3_rows(rows);
    print_table3(table3, properties.name);
    print_issue_targets(rows, stream);
    if (!json_path.empty()) {
      std::ofstream json(json_path);
      require(bool(json), "bench_spmv: cannot write ", json_path);
      json << "{"
           << polydg::bench::provenance_json(argc, argv, started, polydg::bench::device_json())
           << ", \"device\": " << polydg::bench::json_string(properties.name)
           << ", \"stream_gbs\": " << stream << ", \"rows\": [";
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        json << (i ? ", " : "") << "{\"family\": \"" << r.family << "\", \"precision\": \""
             << r.precision << "\", \"p\": " << r.p << ", \"dofs\": " << r.dofs
             << ", \"nonzeros\": " << r.nonzeros << ", \"matrix_mb\": " << r.matrix_mb
             << ", \"padding\": " << r.padding << ", \"dbf_ms\": " << r.dbf_ms
             << ", \"transpose_ms\": " << r.transpose_ms << ", \"two_step_ms\": " << r.two_step_ms
             << ", \"csr_ms\": " << r.csr_ms << ", \"bsr_ms\": " << r.bsr_ms
             << ", \"dbf_bytes\": " << r.dbf_bytes << ", \"csr_bytes\": " << r.csr_bytes
             << ", \"bsr_bytes\": " << r.bsr_bytes << ", \"difference\": " << r.difference
             << ", \"block_rows\": " << r.block_rows
             << ", \"rows_per_thread\": " << r.rows_per_thread
             << ", \"fixed_size_share\": " << r.fixed_size_share
             << ", \"end_share\": " << r.end_share << ", \"sliced\": [";
        for (std::size_t s = 0; s < r.sliced.size(); ++s) {
          const auto& [slice_rows, ms, bytes] = r.sliced[s];
          json << (s ? ", " : "") << "{\"slice_rows\": " << slice_rows << ", \"dbf_ms\": " << ms
               << ", \"dbf_bytes\": " << bytes << "}";
        }
        json << "]}";
      }
      json << "], \"megabytes\": " << megabytes << ", \"repeats\": " << repeats
           << ", \"slice_rows\": " << dbf_slice_rows[0] << ", \"element_order\": \""
           << (ip_element_order == ElementOrder::hilbert_curve ? "hilbert" : "first-cell")
           << "\", \"cases\": [";
      bool first = true;
      for (const char* name : {"ip", "slab", "hdg2", "hdg3"})
        if (cases.count(name) == 1) {
          json << (first ? "" : ", ") << '"' << name << '"';
          first = false;
        }
      // The HDG paper's Table 3 layout: ours (fp64, seed-size HDG) and the paper's (null in
      // 3D).
      json << "], \"seed_table3\": [";
      for (std::size_t i = 0; i < table3.size(); ++i) {
        const Table3Row& t = table3[i];
        const Row& r = *t.ours;
        json << (i ? ", " : "") << "{\"dimension\": " << t.dimension << ", \"p\": " << r.p
             << ", \"faces\": " << r.block_rows << ", \"dofs\": " << r.dofs
             << ", \"nonzeros\": " << r.nonzeros << ", \"csr_ms\": " << r.csr_ms
             << ", \"dbf_ms\": " << r.dbf_ms << ", \"two_step_ms\": " << r.two_step_ms
             << ", \"dbf_speedup_vs_csr\": " << r.csr_ms / r.dbf_ms
             << ", \"two_step_speedup_vs_csr\": " << r.csr_ms / r.two_step_ms;
        auto seed_field = [&](const char* key, auto value) {
          json << ", \"" << key << "\": ";
          if (t.seed)
            json << value(*t.seed);
          else
            json << "null";
        };
        seed_field("seed_csr_nonzeros", [](const SeedTable3Row& s) { return s.csr_nonzeros; });
        seed_field("seed_matlab_ms", [](const SeedTable3Row& s) { return s.matlab_ms; });
        seed_field("seed_cusparse_ms", [](const SeedTable3Row& s) { return s.cusparse_ms; });
        seed_field("seed_proposed_ms", [](const SeedTable3Row& s) { return s.proposed_ms; });
        seed_field("seed_cusparse_speedup_vs_matlab",
                   [](const SeedTable3Row& s) { return s.cusparse_speedup; });
        seed_field("seed_proposed_speedup_vs_matlab",
                   [](const SeedTable3Row& s) { return s.proposed_speedup; });
        seed_field("seed_proposed_speedup_vs_cusparse",
                   [](const SeedTable3Row& s) { return s.cusparse_ms / s.proposed_ms; });
        json << "}";
      }
      json << "]}\n";
    }
  } catch (const Error& error) {
    std::cerr << "bench_spmv: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
