// DeviceDenseBlockMatrix (the GPU dense-block-format products) against the CPU
// DenseBlockMatrix and BlockMatrix::multiply: y = A x, A x + z, Aᵀ x and the two-step
// inflate + contract, in double (≤ 1e-13 relative) and float (≤ 1e-5), on
//   (a) an agglomerated IP-DG pattern with hp degrees (variable neighbour counts and sizes),
//   (b) HDG face patterns (the HDG paper's structure, docs/performance.md) in 2D and 3D,
// with exact grouping and with groups merged (padding), in the default slices, in slices of 16
// rows and unsliced (the HDG paper's layout); update_values from BlockMatrix values
// in device memory reproduces the host layout bit for bit; repeated products are bitwise equal.
// Exits 77 (ctest: Skipped) when no CUDA device is present.
#define BOOST_TEST_MODULE cuda_dense_block_matrix
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpu_test_main.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"
#include "polydg/sparse/device_ghost_column_blocks.hpp"
#include "polydg/sparse/ghost_column_blocks.hpp"
#include "polydg/sparse/hdg_block_pattern.hpp"
#include "relative_difference.hpp"
#include "same_bits.hpp"

using namespace polydg;

namespace dense_block_test {

using testing::relative_difference;
using testing::same_bits;

template <class Real>
std::vector<Real> test_vector(GlobalIndex size, double phase) {
  std::vector<Real> x(static_cast<std::size_t>(size));
  for (GlobalIndex k = 0; k < size; ++k) x[k] = Real(std::sin(0.37 * double(k) + phase));
  return x;
}

/// fixed_size, when given: whether y = A x must run (at least partly) in a kernel compiled for
/// the block size (its bits are checked against the general kernel's in any case); end_shape:
/// whether that kernel has an end shape, which must then take the block rows asked of it.
template <class Real>
void check_matrix(const BlockMatrix<Real>& matrix, Index max_group_count, const std::string& name,
                  std::optional<bool> fixed_size = std::nullopt,
                  Index slice_rows = DenseBlockMatrix<Real>::default_slices,
                  bool end_shape = false) {
  BOOST_TEST_INFO_SCOPE(name << " (" << (sizeof(Real) == 8 ? "double" : "float") << ")");
  const double tolerance = sizeof(Real) == 8 ? 1e-13 : 1e-5;
  const DenseBlockMatrix<Real> host(matrix, max_group_count, slice_rows);
  DeviceDenseBlockMatrix<Real> gpu(host);
  if (fixed_size) BOOST_TEST((gpu.fixed_size_rows() > 0) == *fixed_size);
  const GlobalIndex n = host.dof_count();
  const std::vector<Real> x = test_vector<Real>(n, 0.1), z = test_vector<Real>(n, 0.7);
  std::vector<Real> y(static_cast<std::size_t>(n)), y_add(y.size()), y_transpose(y.size()),
      y_reference(y.size());
  host.multiply(x, y);
  host.multiply_add(x, z, y_add);
  host.multiply_transpose(x, y_transpose);
  matrix.multiply(x, y_reference);

  const device::DeviceBuffer<Real> x_device{std::span<const Real>(x)};
  const device::DeviceBuffer<Real> z_device{std::span<const Real>(z)};
  device::DeviceBuffer<Real> y_device(y.size()), inflated(std::size_t(gpu.inflated_size()));
  gpu.multiply(x_device.data(), y_device.data());
  const std::vector<Real> product = y_device.to_host();
  gpu.multiply(x_device.data(), y_device.data());
  const std::vector<Real> again = y_device.to_host();
  gpu.multiply_add(x_device.data(), z_device.data(), y_device.data());
  const std::vector<Real> product_add = y_device.to_host();
  gpu.multiply_transpose(x_device.data(), y_device.data());
  const std::vector<Real> product_transpose = y_device.to_host();
  gpu.inflate(x_device.data(), inflated.data());
  gpu.contract(inflated.data(), y_device.data());
  const std::vector<Real> two_step = y_device.to_host();
  // In place: y = A x + y.
  device::DeviceBuffer<Real> in_place{std::span<const Real>(z)};
  gpu.multiply_add(x_device.data(), in_place.data(), in_place.data());
  const std::vector<Real> product_in_place = in_place.to_host();

  // update_values from the BlockMatrix values on the device: the same stored values.
  const std::vector<Real> stored(host.values().begin(), host.values().end());
  std::vector<Real> scrambled(stored.size(), Real(7));
  device::copy_host_to_device(const_cast<Real*>(gpu.values()), scrambled.data(),
                              scrambled.size() * sizeof(Real));
  const device::DeviceBuffer<Real> block_values{std::span<const Real>(matrix.values())};
  gpu.update_values(block_values.data());
  std::vector<Real> updated(stored.size());
  device::copy_device_to_host(updated.data(), gpu.values(), updated.size() * sizeof(Real));
  // Padding is not rewritten by update_values (it stays as constructed): compare real values.
  bool update_exact = true;
  for (std::size_t k = 0; k < stored.size(); ++k)
    if (stored[k] != 0 && updated[k] != stored[k]) update_exact = false;

  const double d_multiply = relative_difference(product, y);
  const double d_reference = relative_difference(product, y_reference);
  const double d_add = relative_difference(product_add, y_add);
  const double d_transpose = relative_difference(product_transpose, y_transpose);
  const double d_two_step = relative_difference(two_step, y);
  const double d_in_place = relative_difference(product_in_place, y_add);
  BOOST_TEST_MESSAGE(
      name << " " << (sizeof(Real) == 8 ? "double" : "float ") << " rows " << n << " groups "
           << host.groups().size() << " padding " << host.padding_ratio() << " |GPU-CPU|/|CPU|: Ax "
           << d_multiply << " (BlockMatrix " << d_reference << ") Ax+z " << d_add << " ATx "
           << d_transpose << " two-step " << d_two_step << " in-place " << d_in_place);
  BOOST_TEST(d_multiply <= tolerance);
  BOOST_TEST(d_reference <= tolerance);
  BOOST_TEST(d_add <= tolerance);
  BOOST_TEST(d_transpose <= tolerance);
  BOOST_TEST(d_two_step <= tolerance);
  BOOST_TEST(d_in_place <= tolerance);
  BOOST_TEST(same_bits(product, again));
  // Every rows-per-thread choice of y = A x gives the same bits (each y_i is one thread's sum
  // over k ascending whatever the chunking); this matrix chose gpu.rows_per_thread() itself,
  // and the fixed-size kernels where its blocks allow them. A forced choice is the general
  // kernel everywhere.
  for (int rows_per_thread : {1, 2, 4, 8}) {
    BOOST_TEST_INFO_SCOPE(rows_per_thread << " rows per thread");
    const DeviceDenseBlockMatrix<Real> chunked(host, rows_per_thread);
    BOOST_TEST(chunked.rows_per_thread() == rows_per_thread);
    BOOST_TEST(chunked.fixed_size_rows() == 0);
    chunked.multiply_add(x_device.data(), z_device.data(), y_device.data());
    BOOST_TEST(same_bits(y_device.to_host(), product_add));
  }
  // The end shape for one block row (the last slice), half of them and all: the same bits.
  const Index block_rows = Index(host.row_block_rows().size());
  for (const Index end_rows : {Index(1), block_rows / 2, block_rows}) {
    BOOST_TEST_INFO_SCOPE("end shape for " << end_rows << " block rows");
    const DeviceDenseBlockMatrix<Real> ended(host, 0, end_rows);
    if (end_shape) {
      BOOST_TEST(ended.end_rows() >= end_rows);
      BOOST_TEST(ended.end_rows() > 0);
    }
    if (end_shape && end_rows < block_rows / 2) BOOST_TEST(ended.end_rows() < block_rows);
    if (!end_shape) BOOST_TEST(ended.end_rows() == 0);
    ended.multiply(x_device.data(), y_device.data());
    BOOST_TEST(same_bits(y_device.to_host(), product));
    ended.multiply_add(x_device.data(), z_device.data(), y_device.data());
    BOOST_TEST(same_bits(y_device.to_host(), product_add));
  }
  BOOST_TEST(update_exact);
}

// (a) the block sizes and interfaces of an agglomerated IP-DG pattern: variable neighbour counts.
struct IpDgShape {
  std::vector<Index> block_sizes;  // hp degrees 1..4
  std::vector<std::array<Index, 2>> interfaces;
};

IpDgShape ip_dg_shape() {
  const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(24, 0.2, 4));
  const Agglomeration parts = agglomerate(*fine, 60);
  const PolytopicMesh<2> probe(fine, parts.element_of_cell, 1);
  IpDgShape shape;
  shape.block_sizes.resize(static_cast<std::size_t>(probe.element_count()));
  for (std::size_t e = 0; e < shape.block_sizes.size(); ++e) {
    const int p = 1 + int((5 * e) % 4);
    shape.block_sizes[e] = (p + 1) * (p + 2) / 2;
  }
  for (Index i = 0; i < probe.interface_count(); ++i)
    shape.interfaces.push_back(probe.interface_elements(i));
  return shape;
}

// (a) agglomerated IP-DG, hp degrees 1..4: variable neighbour counts and block sizes.
template <class Real>
void check_ip_dg_hp() {
  const IpDgShape shape = ip_dg_shape();
  BlockMatrix<Real> dg(std::make_shared<const BlockPattern>(shape.block_sizes, shape.interfaces));
  fill_diagonally_dominant_values(dg);
  check_matrix(dg, 0, "IP-DG hp, exact groups");
  check_matrix(dg, 4, "IP-DG hp, 4 groups (padded)");
}

// One degree: every group has one block size in the fixed-size kernels, N = 3, 6, 10, 15, 21
// (2D P_1..P_5), 4, 10, 20, 35, 56 (2D+1 and 3D P_1..P_5), 8, 12, 16, 20, 24 (HDG 2D) and 15,
// 30, 50, 75, 105 (HDG 3D); N = 9 in the general one; padded groups (rows with fewer blocks
// than the group's slots) in the general one.
template <class Real>
void check_one_block_size() {
  const IpDgShape shape = ip_dg_shape();
  for (const Index n : {3, 4, 6, 8, 9, 10, 12, 15, 16, 20, 21, 24, 30, 35, 50, 56, 75, 105}) {
    BlockMatrix<Real> one_degree(std::make_shared<const BlockPattern>(
        std::vector<Index>(shape.block_sizes.size(), n), shape.interfaces));
    fill_diagonally_dominant_values(one_degree);
    const std::string name = "IP-DG one degree, N = " + std::to_string(n);
    check_matrix(one_degree, 0, name, n != 9, DenseBlockMatrix<Real>::default_slices, n == 56);
    check_matrix(one_degree, 0, name + ", slices of 16", n != 9, 16, n == 56);
    check_matrix(one_degree, 3, name + ", 3 groups (padded)");
  }
}

// (b) HDG face patterns: 2D p = 1, 3D p = 2, exact (in the default slices: of 1024 rows at
// N = 8, of 32 at N = 30) and in the HDG paper's layout (one group, unsliced).
template <class Real>
void check_hdg(int dimension, int p) {
  const std::string name = "HDG " + std::to_string(dimension) + "D p=" + std::to_string(p);
  BlockMatrix<Real> hdg(
      std::make_shared<const BlockPattern>(make_hdg_block_pattern(dimension, 3000, p)));
  fill_diagonally_dominant_values(hdg);
  check_matrix(hdg, 0, name);
  check_matrix(hdg, 1, name + ", the HDG paper's layout (one group)", std::nullopt, 0);
}

// A rank's ghost columns (its first half of the elements owned, the rest ghosts): the list built
// from the device layout is the host's, and the device product adds what the host one adds
// (to 1e-14: the device may fuse the multiply-adds).
void check_ghost_columns(const BlockMatrix<double>& matrix, Index max_group_count,
                         const std::string& name) {
  BOOST_TEST_INFO_SCOPE(name);
  const DenseBlockMatrix<double> host(matrix, max_group_count);
  const DeviceDenseBlockMatrix<double> gpu(host);
  const BlockPattern& pattern = matrix.pattern();
  const GlobalIndex owned_dofs = pattern.dof_offset(pattern.block_row_count() / 2);
  const GhostColumnBlocks on_host(host.groups(), host.row_dof_offsets(),
                                  host.slot_column_dof_offsets(), host.slot_column_sizes(),
                                  owned_dofs);
  const GhostColumnBlocks from_device = gpu.ghost_column_blocks(owned_dofs);
  BOOST_TEST(on_host.block_count() > 0);
  const auto same = [](auto a, auto b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  };
  BOOST_TEST(same(from_device.row_dof_offsets(), on_host.row_dof_offsets()));
  BOOST_TEST(same(from_device.row_block_starts(), on_host.row_block_starts()));
  BOOST_TEST(same(from_device.block_value_offsets(), on_host.block_value_offsets()));
  BOOST_TEST(same(from_device.block_ghost_offsets(), on_host.block_ghost_offsets()));

  const GlobalIndex n = host.dof_count();
  const std::vector<double> x = test_vector<double>(n, 0.1), y_start = test_vector<double>(n, 0.7);
  std::vector<double> expected(y_start);
  on_host.multiply_add(host.values(), x.data() + owned_dofs, expected.data());
  const DeviceGhostColumnBlocks on_device(from_device);
  const device::DeviceBuffer<double> x_ghosts{std::span<const double>(x).subspan(owned_dofs)};
  device::DeviceBuffer<double> y{std::span<const double>(y_start)};
  on_device.multiply_add(gpu.values(), x_ghosts.data(), y.data());
  const std::vector<double> result = y.to_host();
  BOOST_TEST(relative_difference(result, expected) <= 1e-14);
  BOOST_TEST(!same(std::span<const double>(expected), std::span<const double>(y_start)));
}

}  // namespace dense_block_test

using namespace dense_block_test;

BOOST_AUTO_TEST_CASE(ghost_columns_on_the_device_are_the_hosts) {
  const IpDgShape shape = ip_dg_shape();
  BlockMatrix<double> dg(std::make_shared<const BlockPattern>(shape.block_sizes, shape.interfaces));
  fill_diagonally_dominant_values(dg);
  check_ghost_columns(dg, 0, "IP-DG hp, exact groups");
  check_ghost_columns(dg, 4, "IP-DG hp, 4 groups (padded)");
}

BOOST_AUTO_TEST_CASE(ip_dg_hp_double) { check_ip_dg_hp<double>(); }
BOOST_AUTO_TEST_CASE(ip_dg_hp_float) { check_ip_dg_hp<float>(); }
BOOST_AUTO_TEST_CASE(one_block_size_fixed_size_kernels_double) { check_one_block_size<double>(); }
BOOST_AUTO_TEST_CASE(one_block_size_fixed_size_kernels_float) { check_one_block_size<float>(); }
BOOST_AUTO_TEST_CASE(hdg_faces_2d_double) { check_hdg<double>(2, 1); }
BOOST_AUTO_TEST_CASE(hdg_faces_2d_float) { check_hdg<float>(2, 1); }
BOOST_AUTO_TEST_CASE(hdg_faces_3d_double) { check_hdg<double>(3, 2); }
BOOST_AUTO_TEST_CASE(hdg_faces_3d_float) { check_hdg<float>(3, 2); }
