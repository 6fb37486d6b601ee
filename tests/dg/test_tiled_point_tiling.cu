// The launch choices of the assembly kernels' schedule
// (include/polydg/detail/dg/tiled_point_schedule.cuh), host code only, so it runs without a device:
// the point groups G — the one choice that changes the sums — depend on a table's rows alone
// (matrix-only, rhs-only and full assemblies give the same bits); the tables the kernels are tuned
// for go one per warp (P_1 and P_2 items, P_3 elements in 3D) or in one pass of a block (P_4 / P_5
// interfaces, with 4 × 8 tiles); every launch fits a block's threads; FP64 tensor-core tables are
// chosen by the rows alone; the smallest tables go one per thread, with one point group; items are
// grouped by degree, the larger first (device_quadrature_mesh.cuh).
#define BOOST_TEST_MODULE tiled_point_tiling
#include <boost/test/unit_test.hpp>
#include <vector>

#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/tiled_point_schedule.cuh"
#include "polydg/fem/basis_space.hpp"

using namespace polydg;
using device::detail::choose_tiling;
using device::detail::fits_one_warp;
using device::detail::max_block_threads;
using device::detail::Tiling;

namespace {

int units(const Tiling& tiling) { return tiling.tiles * tiling.groups; }

}  // namespace

BOOST_AUTO_TEST_CASE(point_groups_depend_on_the_rows_alone) {
  for (int rows = 1; rows <= 300; ++rows) {
    BOOST_TEST_INFO_SCOPE("rows " << rows);
    const int groups = choose_tiling(rows, rows).groups;
    BOOST_TEST(choose_tiling(rows, rows + 1).groups == groups);  // with the rhs column
    BOOST_TEST(choose_tiling(rows, 1).groups == groups);         // the rhs alone
    BOOST_TEST(groups >= 1);
    BOOST_TEST(groups <= device::detail::max_point_groups);
  }
}

BOOST_AUTO_TEST_CASE(tables_take_the_intended_teams) {
  for (int dim = 2; dim <= 3; ++dim)
    for (int p = 1; p <= 5; ++p) {
      BOOST_TEST_INFO_SCOPE(dim << "D P_" << p);
      const int n = space_basis_size(BasisSpace::total_degree, dim, p);
      const Tiling element = choose_tiling(n, n + 1), rhs_only = choose_tiling(n, 1);
      const Tiling interface = choose_tiling(2 * n, 2 * n);
      // Elements (and boundaries, the same table) of P_1..P_3 and interfaces of P_1, P_2 in 3D
      // (P_1 in 2D: P_2's 12 × 12 goes to a block) are one warp's work in one pass.
      if (p <= 3) {
        BOOST_TEST(fits_one_warp(element));
        BOOST_TEST(fits_one_warp(rhs_only));
      }
      if (p <= (dim == 3 ? 2 : 1)) BOOST_TEST(fits_one_warp(interface));
      if (dim == 3 && p >= 4) BOOST_TEST(!fits_one_warp(element));
      if (dim == 3 && p >= 3) BOOST_TEST(!fits_one_warp(interface));
      // Block teams: at most one pass of max_block_threads, except a table too large for it.
      for (const Tiling& tiling : {element, interface})
        if (!fits_one_warp(tiling)) BOOST_TEST(units(tiling) <= max_block_threads);
      BOOST_TEST_MESSAGE(dim << "D P_" << p << ": element " << element.tiles << " tiles x G "
                             << element.groups << " (" << element.tile_rows << "x"
                             << element.tile_columns << "), interface " << interface.tiles << " x "
                             << interface.groups << " (" << interface.tile_rows << "x"
                             << interface.tile_columns << ")");
    }
}

// FP64 tensor-core tables: chosen by the rows alone (like G, they change the rounding), never
// one warp's, in at most max_tensor_regions warps of at most max_tensor_regions_per_warp regions
// of at most tensor_region_side² tiles of 8 × 8 that cover the table; in 3D the P_4 / P_5
// elements and boundaries and the P_3..P_5 interfaces.
BOOST_AUTO_TEST_CASE(tensor_core_tables) {
  using device::detail::max_tensor_regions;
  using device::detail::max_tensor_regions_per_warp;
  using device::detail::tensor_chunks;
  using device::detail::tensor_region_side;
  using device::detail::tensor_regions_per_warp;
  using device::detail::tensor_warps;
  using device::detail::tiles_of;
  for (int rows = 1; rows <= 300; ++rows) {
    BOOST_TEST_INFO_SCOPE("rows " << rows);
    const Tiling full = choose_tiling(rows, rows + 1, true);
    const bool tensor = full.tile_rows == 8;
    for (const int columns : {1, rows, rows + 1}) {
      BOOST_TEST_INFO_SCOPE("columns " << columns);
      const Tiling tiling = choose_tiling(rows, columns, true);
      BOOST_TEST((tiling.tile_rows == 8) == tensor);
      if (!tensor) continue;
      BOOST_TEST(tiling.tile_columns == 8);
      BOOST_TEST(tiling.groups == 1);
      BOOST_TEST(!fits_one_warp(tiling));
      BOOST_TEST(tiling.tiles >= 1);
      BOOST_TEST(tiling.tiles <= max_tensor_regions_per_warp * max_tensor_regions);
      // The launch's warps take every region, one each where there are no more than the most
      // warps, and none takes more than its share rounded up.
      const int warps = tensor_warps(tiling.tiles);
      const int each = tensor_regions_per_warp(tiling.tiles, warps);
      BOOST_TEST(warps >= 1);
      BOOST_TEST(warps <= max_tensor_regions);
      BOOST_TEST(warps * each >= tiling.tiles);
      BOOST_TEST((warps - 1) * each < tiling.tiles);
      BOOST_TEST((each == 1) == (tiling.tiles <= max_tensor_regions));
      for (const int side : {rows, columns}) {  // chunks of at most tensor_region_side tiles
        const int tiles8 = tiles_of(side, 8), chunks = tensor_chunks(tiles8);
        BOOST_TEST(chunks >= 1);
        BOOST_TEST(chunks <= tiles8);
        BOOST_TEST((tiles8 + chunks - 1) / chunks <= tensor_region_side);
      }
    }
    // Without tensor cores: the FMA tiling.
    BOOST_TEST(choose_tiling(rows, rows + 1, false).tile_rows != 8);
  }
  for (int p = 1; p <= 5; ++p) {
    BOOST_TEST_INFO_SCOPE("3D P_" << p);
    const int n = space_basis_size(BasisSpace::total_degree, 3, p);
    BOOST_TEST((choose_tiling(n, n + 1, true).tile_rows == 8) == (p >= 4));
    BOOST_TEST((choose_tiling(2 * n, 2 * n, true).tile_rows == 8) == (p >= 3));
  }
  // The P_4 / P_5 interfaces (70 / 112 rows): 9 regions in 5 warps, 16 in 8.
  BOOST_TEST(choose_tiling(70, 70, true).tiles == 9);
  BOOST_TEST(tensor_warps(9) == 5);
  BOOST_TEST(choose_tiling(112, 112, true).tiles == 16);
  BOOST_TEST(tensor_warps(16) == 8);
  // Tables of more than 16 tiles of 8 on a side (rows + 1 > 128) take the FMA tiles.
  BOOST_TEST(choose_tiling(127, 128, true).tile_rows == 8);
  BOOST_TEST(choose_tiling(128, 129, true).tile_rows != 8);
  // ... and only for launches whose items have >= 16 points on average, >= 192 where the
  // tables have at most 40 rows: on the slab of the paper's Table 2 setting (docs/performance.md,
  // "Assembly: the paper's Table 2 setting": 163,360 prisms) the P_4 boundaries (49) and elements
  // (142) do not take them, the P_5 boundaries (77) and elements (262) and the P_4 / P_5 interfaces
  // (25.5 / 35.6) do, and so would P_4 elements of 247 points (the tensor rules').
  using device::detail::enough_points_for_tensor_cores;
  const Index items = 163360;
  const int p4 = space_basis_size(BasisSpace::total_degree, 3, 4);
  const int p5 = space_basis_size(BasisSpace::total_degree, 3, 5);
  const auto enough = [&](int points, int rows) {
    return enough_points_for_tensor_cores(points * GlobalIndex(items), items, rows);
  };
  for (const int points : {49, 99, 142, 191}) BOOST_TEST(!enough(points, p4), points << " points");
  for (const int points : {192, 247}) BOOST_TEST(enough(points, p4), points << " points");
  BOOST_TEST(!enough(15, p5));
  BOOST_TEST(!enough(15, 2 * p5));
  for (const int points : {16, 77, 262}) BOOST_TEST(enough(points, p5), points << " points");
  BOOST_TEST(enough(25, 2 * p4));
  BOOST_TEST(enough(35, 2 * p5));
  BOOST_TEST(!enough_points_for_tensor_cores(16 * GlobalIndex(items) - 1, items, p5));

  // ... and only where the least batch fits the device's shared memory per block. A P_5
  // interface (112 rows, K = 2): 100 KB of sums, fits an H100 / H200 (227 KB) but not the
  // 99 KB of sm_86 / sm_89 devices, where the FMA tiles take it; P_5 elements (K = 4) and P_4
  // interfaces fit both. The sizes are those of tiled_table_layout.
  using device::detail::tensor_tables_fit;
  using device::detail::tiled_table_layout;
  const std::size_t hopper = 227 * 1024, ada = 99 * 1024;
  const int record = 90;  // doubles: about a 3D interface record at P_5
  BOOST_TEST(tensor_tables_fit(2, 2 * p5, 2 * p5 + 1, record, hopper));
  BOOST_TEST(!tensor_tables_fit(2, 2 * p5, 2 * p5 + 1, record, ada));
  BOOST_TEST(tensor_tables_fit(4, p5, p5 + 1, record, ada));
  BOOST_TEST(tensor_tables_fit(2, 2 * p4, 2 * p4 + 1, record, ada));
  const auto layout = tiled_table_layout(2, 2 * p5, 2 * p5, 8, 8);
  BOOST_TEST(layout.accumulator_doubles == 64 * 14 * 14);
  BOOST_TEST(layout.code_doubles == 56);
  BOOST_TEST(layout.table_size == 2 * (112 + 112 + 8));
  // The least batch exactly: codes, sums and two points (K = 2) of two records and tables each.
  const std::size_t least = (56 + 64 * 14 * 14) * 8 + 2 * (2 * record + 464) * 8;
  BOOST_TEST(tensor_tables_fit(2, 2 * p5, 2 * p5, record, least));
  BOOST_TEST(!tensor_tables_fit(2, 2 * p5, 2 * p5, record, least - 1));
  // FMA tiles: no sums in shared memory, K components unpadded.
  const auto fma_layout = tiled_table_layout(3, 35, 36, 4, 4);
  BOOST_TEST(fma_layout.accumulator_doubles == 0);
  BOOST_TEST(fma_layout.table_size == 3 * (36 + 36));
  BOOST_TEST(fma_layout.code_doubles == 18);
}

// Tables a thread sums (thread_item_kernel.cuh): at most thread_item_rows rows, one point group
// (that kernel's order of the sums, so the other schedules give the same bits); the P_1 element
// (4 × 4, record of 27 Reals) and interface (8 × 8, 30) in 3D, the 2D P_2 element (6 × 7).
// The 4 × 4 shape is compiled apart (fewer registers than 8 × 8); a fifth column takes 8 × 8.
BOOST_AUTO_TEST_CASE(smallest_tables_one_per_thread) {
  using device::detail::fits_one_thread;
  using device::detail::fits_small_thread_table;
  using device::detail::max_thread_item_record;
  using device::detail::thread_item_rows;
  for (int rows = 1; rows <= thread_item_rows; ++rows)
    BOOST_TEST(choose_tiling(rows, rows + 1).groups == 1, "rows " << rows);
  BOOST_TEST(fits_one_thread(4, 4, 27));
  BOOST_TEST(fits_one_thread(4, 1, 27));
  BOOST_TEST(fits_small_thread_table(4, 4));
  BOOST_TEST(fits_small_thread_table(3, 3));
  BOOST_TEST(!fits_small_thread_table(4, 5));
  BOOST_TEST(!fits_small_thread_table(5, 4));
  BOOST_TEST(fits_one_thread(4, 5, 27));
  BOOST_TEST(fits_one_thread(8, 8, 30));
  BOOST_TEST(fits_one_thread(6, 7, 21));
  BOOST_TEST(!fits_one_thread(8, 9, 30));    // 9 columns: not compiled (registers)
  BOOST_TEST(!fits_one_thread(10, 11, 33));  // the 3D P_2 element
  BOOST_TEST(!fits_one_thread(8, 8, max_thread_item_record + 1));
}

// order_degree_groups: each degree's included items, once each, with more pieces first and in
// index order among equals.
BOOST_AUTO_TEST_CASE(items_by_degree_larger_first) {
  const Index count = 1000;
  const auto degree = [](Index i) { return int(i * 7 % 3); };
  const auto include = [](Index i) { return i % 5 != 0; };
  const auto pieces = [](Index i) { return Index(1 + i * 13 % 6); };
  const DegreeGroups groups =
      polydg::detail::order_degree_groups(count, 2, degree, include, pieces);
  std::vector<int> seen(count, 0);
  for (int p = 0; p <= 2; ++p)
    for (Index k = groups.offsets[p]; k < groups.offsets[p + 1]; ++k) {
      const Index i = groups.host_items[k];
      ++seen[i];
      BOOST_TEST_CONTEXT("degree " << p << ", item " << i) {
        BOOST_TEST(include(i));
        BOOST_TEST(degree(i) == p);
        BOOST_TEST(pieces(i) <= groups.max_pieces[p]);
        if (k + 1 < groups.offsets[p + 1]) {
          const Index next = groups.host_items[k + 1];
          BOOST_TEST((pieces(i) > pieces(next) || (pieces(i) == pieces(next) && i < next)),
                     "next item " << next);
        }
      }
    }
  for (Index i = 0; i < count; ++i) BOOST_TEST(seen[i] == (include(i) ? 1 : 0), "item " << i);
}

BOOST_AUTO_TEST_CASE(wide_tiles_only_for_the_largest_tables) {
  for (int rows = 1; rows <= 300; ++rows) {
    BOOST_TEST_INFO_SCOPE("rows " << rows);
    const Tiling tiling = choose_tiling(rows, rows);
    const int square_tiles = device::detail::tiles_of(rows, 4) * device::detail::tiles_of(rows, 4);
    const bool wide = square_tiles > device::detail::most_square_tiles;
    BOOST_TEST((tiling.tile_columns == 8) == wide);
    if (wide) BOOST_TEST(tiling.tile_rows == 4);
  }
  // A P_5 interface in 3D (112 rows): one pass of 392 threads, not two of 512.
  const Tiling p5 = choose_tiling(112, 112);
  BOOST_TEST(p5.tile_rows == 4);
  BOOST_TEST(p5.tile_columns == 8);
  BOOST_TEST(units(p5) == 392);
}
