// The launch choices of the assembly kernels' schedule (include/polydg/detail/dg/tiled_point_schedule.cuh),
// host code only, so it runs without a device: the point groups G — the one choice that changes
// the sums — depend on a table's rows alone (matrix-only, rhs-only and full assemblies give the
// same bits); the tables the kernels are tuned for go one per warp (P_1 and P_2 items, P_3
// elements in 3D) or in one pass of a block (P_4 / P_5 interfaces, with 4 × 8 tiles); every
// launch fits a block's threads; FP64 tensor-core tables are chosen by the rows alone; the
// smallest tables go one per thread, with one point group; items are grouped by degree, the
// larger first (device_quadrature_mesh.cuh).
#include <cstdio>

#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/tiled_point_schedule.cuh"
#include "gpu_test_support.hpp"
#include "polydg/fem/basis_space.hpp"

using namespace polydg;
using device::detail::choose_tiling;
using device::detail::fits_one_warp;
using device::detail::max_block_threads;
using device::detail::Tiling;

namespace {

int units(const Tiling& tiling) { return tiling.tiles * tiling.groups; }

void point_groups_depend_on_the_rows_alone() {
  for (int rows = 1; rows <= 300; ++rows) {
    const int groups = choose_tiling(rows, rows).groups;
    POLYDG_GPU_CHECK(choose_tiling(rows, rows + 1).groups == groups);  // with the rhs column
    POLYDG_GPU_CHECK(choose_tiling(rows, 1).groups == groups);         // the rhs alone
    POLYDG_GPU_CHECK(groups >= 1 && groups <= device::detail::max_point_groups);
  }
}

void tables_take_the_intended_teams() {
  for (int dim = 2; dim <= 3; ++dim)
    for (int p = 1; p <= 5; ++p) {
      const int n = space_basis_size(BasisSpace::total_degree, dim, p);
      const Tiling element = choose_tiling(n, n + 1), rhs_only = choose_tiling(n, 1);
      const Tiling interface = choose_tiling(2 * n, 2 * n);
      // Elements (and boundaries, the same table) of P_1..P_3 and interfaces of P_1, P_2 in 3D
      // (P_1 in 2D: P_2's 12 × 12 goes to a block) are one warp's work in one pass.
      if (p <= 3) POLYDG_GPU_CHECK(fits_one_warp(element) && fits_one_warp(rhs_only));
      if (p <= (dim == 3 ? 2 : 1)) POLYDG_GPU_CHECK(fits_one_warp(interface));
      if (dim == 3 && p >= 4) POLYDG_GPU_CHECK(!fits_one_warp(element));
      if (dim == 3 && p >= 3) POLYDG_GPU_CHECK(!fits_one_warp(interface));
      // Block teams: at most one pass of max_block_threads, except a table too large for it.
      for (const Tiling& tiling : {element, interface})
        if (!fits_one_warp(tiling)) POLYDG_GPU_CHECK(units(tiling) <= max_block_threads);
      std::printf("%dD P_%d: element %d tiles x G %d (%dx%d), interface %d x %d (%dx%d)\n", dim, p,
                  element.tiles, element.groups, element.tile_rows, element.tile_columns,
                  interface.tiles, interface.groups, interface.tile_rows, interface.tile_columns);
    }
}

// FP64 tensor-core tables: chosen by the rows alone (like G, they change the rounding), never
// one warp's, in at most max_tensor_regions warps of at most max_tensor_regions_per_warp regions
// of at most tensor_region_side² tiles of 8 × 8 that cover the table; in 3D the P_4 / P_5
// elements and boundaries and the P_3..P_5 interfaces.
void tensor_core_tables() {
  using device::detail::max_tensor_regions;
  using device::detail::max_tensor_regions_per_warp;
  using device::detail::tensor_chunks;
  using device::detail::tensor_region_side;
  using device::detail::tensor_regions_per_warp;
  using device::detail::tensor_warps;
  using device::detail::tiles_of;
  for (int rows = 1; rows <= 300; ++rows) {
    const Tiling full = choose_tiling(rows, rows + 1, true);
    const bool tensor = full.tile_rows == 8;
    for (const int columns : {1, rows, rows + 1}) {
      const Tiling tiling = choose_tiling(rows, columns, true);
      POLYDG_GPU_CHECK((tiling.tile_rows == 8) == tensor);
      if (!tensor) continue;
      POLYDG_GPU_CHECK(tiling.tile_columns == 8 && tiling.groups == 1 && !fits_one_warp(tiling));
      POLYDG_GPU_CHECK(tiling.tiles >= 1 &&
                       tiling.tiles <= max_tensor_regions_per_warp * max_tensor_regions);
      // The launch's warps take every region, one each where there are no more than the most
      // warps, and none takes more than its share rounded up.
      const int warps = tensor_warps(tiling.tiles);
      const int each = tensor_regions_per_warp(tiling.tiles, warps);
      POLYDG_GPU_CHECK(warps >= 1 && warps <= max_tensor_regions && warps * each >= tiling.tiles &&
                       (warps - 1) * each < tiling.tiles);
      POLYDG_GPU_CHECK((each == 1) == (tiling.tiles <= max_tensor_regions));
      for (const int side : {rows, columns}) {  // chunks of at most tensor_region_side tiles
        const int tiles8 = tiles_of(side, 8), chunks = tensor_chunks(tiles8);
        POLYDG_GPU_CHECK(chunks >= 1 && chunks <= tiles8 &&
                         (tiles8 + chunks - 1) / chunks <= tensor_region_side);
      }
    }
    // Without tensor cores: the FMA tiling.
    POLYDG_GPU_CHECK(choose_tiling(rows, rows + 1, false).tile_rows != 8);
  }
  for (int p = 1; p <= 5; ++p) {
    const int n = space_basis_size(BasisSpace::total_degree, 3, p);
    POLYDG_GPU_CHECK((choose_tiling(n, n + 1, true).tile_rows == 8) == (p >= 4));
    POLYDG_GPU_CHECK((choose_tiling(2 * n, 2 * n, true).tile_rows == 8) == (p >= 3));
  }
  // The P_4 / P_5 interfaces (70 / 112 rows): 9 regions in 5 warps, 16 in 8.
  POLYDG_GPU_CHECK(choose_tiling(70, 70, true).tiles == 9 && tensor_warps(9) == 5);
  POLYDG_GPU_CHECK(choose_tiling(112, 112, true).tiles == 16 && tensor_warps(16) == 8);
  // Tables of more than 16 tiles of 8 on a side (rows + 1 > 128) take the FMA tiles.
  POLYDG_GPU_CHECK(choose_tiling(127, 128, true).tile_rows == 8);
  POLYDG_GPU_CHECK(choose_tiling(128, 129, true).tile_rows != 8);
  // ... and only for launches whose items have >= 16 points on average, >= 192 where the
  // tables have at most 40 rows: on Table 2's slab the P_4 boundaries (49) and elements (142)
  // do not take them, the P_5 boundaries (77) and elements (262) and the P_4 / P_5 interfaces
  // (25.5 / 35.6) do, and so would P_4 elements of 247 points (the tensor rules').
  using device::detail::enough_points_for_tensor_cores;
  const Index items = 163360;
  const int p4 = space_basis_size(BasisSpace::total_degree, 3, 4);
  const int p5 = space_basis_size(BasisSpace::total_degree, 3, 5);
  const auto enough = [&](int points, int rows) {
    return enough_points_for_tensor_cores(points * GlobalIndex(items), items, rows);
  };
  POLYDG_GPU_CHECK(!enough(49, p4) && !enough(99, p4) && !enough(142, p4) && !enough(191, p4));
  POLYDG_GPU_CHECK(enough(192, p4) && enough(247, p4));
  POLYDG_GPU_CHECK(!enough(15, p5) && !enough(15, 2 * p5));
  POLYDG_GPU_CHECK(enough(16, p5) && enough(77, p5) && enough(262, p5));
  POLYDG_GPU_CHECK(enough(25, 2 * p4) && enough(35, 2 * p5));
  POLYDG_GPU_CHECK(!enough_points_for_tensor_cores(16 * GlobalIndex(items) - 1, items, p5));

  // ... and only where the least batch fits the device's shared memory per block. A P_5
  // interface (112 rows, K = 2): 100 KB of sums, fits an H100 / H200 (227 KB) but not the
  // 99 KB of sm_86 / sm_89 devices, where the FMA tiles take it; P_5 elements (K = 4) and P_4
  // interfaces fit both. The sizes are those of tiled_table_layout.
  using device::detail::tensor_tables_fit;
  using device::detail::tiled_table_layout;
  const std::size_t hopper = 227 * 1024, ada = 99 * 1024;
  const int record = 90;  // doubles: about a 3D interface record at P_5
  POLYDG_GPU_CHECK(tensor_tables_fit(2, 2 * p5, 2 * p5 + 1, record, hopper));
  POLYDG_GPU_CHECK(!tensor_tables_fit(2, 2 * p5, 2 * p5 + 1, record, ada));
  POLYDG_GPU_CHECK(tensor_tables_fit(4, p5, p5 + 1, record, ada));
  POLYDG_GPU_CHECK(tensor_tables_fit(2, 2 * p4, 2 * p4 + 1, record, ada));
  const auto layout = tiled_table_layout(2, 2 * p5, 2 * p5, 8, 8);
  POLYDG_GPU_CHECK(layout.accumulator_doubles == 64 * 14 * 14 && layout.code_doubles == 56 &&
                   layout.table_size == 2 * (112 + 112 + 8));
  // The least batch exactly: codes, sums and two points (K = 2) of two records and tables each.
  const std::size_t least = (56 + 64 * 14 * 14) * 8 + 2 * (2 * record + 464) * 8;
  POLYDG_GPU_CHECK(tensor_tables_fit(2, 2 * p5, 2 * p5, record, least) &&
                   !tensor_tables_fit(2, 2 * p5, 2 * p5, record, least - 1));
  // FMA tiles: no sums in shared memory, K components unpadded.
  const auto fma_layout = tiled_table_layout(3, 35, 36, 4, 4);
  POLYDG_GPU_CHECK(fma_layout.accumulator_doubles == 0 && fma_layout.table_size == 3 * (36 + 36) &&
                   fma_layout.code_doubles == 18);
}

// Tables a thread sums (thread_item_kernel.cuh): at most thread_item_rows rows, one point group
// (that kernel's order of the sums, so the other schedules give the same bits); the P_1 element
// (4 × 4, record of 27 Reals) and interface (8 × 8, 30) in 3D, the 2D P_2 element (6 × 7).
// The 4 × 4 shape is compiled apart (fewer registers than 8 × 8); a fifth column takes 8 × 8.
void smallest_tables_one_per_thread() {
  using device::detail::fits_one_thread;
  using device::detail::fits_small_thread_table;
  using device::detail::max_thread_item_record;
  using device::detail::thread_item_rows;
  for (int rows = 1; rows <= thread_item_rows; ++rows)
    POLYDG_GPU_CHECK(choose_tiling(rows, rows + 1).groups == 1);
  POLYDG_GPU_CHECK(fits_one_thread(4, 4, 27) && fits_one_thread(4, 1, 27));
  POLYDG_GPU_CHECK(fits_small_thread_table(4, 4) && fits_small_thread_table(3, 3));
  POLYDG_GPU_CHECK(!fits_small_thread_table(4, 5) && !fits_small_thread_table(5, 4));
  POLYDG_GPU_CHECK(fits_one_thread(4, 5, 27));
  POLYDG_GPU_CHECK(fits_one_thread(8, 8, 30) && fits_one_thread(6, 7, 21));
  POLYDG_GPU_CHECK(!fits_one_thread(8, 9, 30));    // 9 columns: not compiled (registers)
  POLYDG_GPU_CHECK(!fits_one_thread(10, 11, 33));  // the 3D P_2 element
  POLYDG_GPU_CHECK(!fits_one_thread(8, 8, max_thread_item_record + 1));
}

// order_degree_groups: each degree's included items, once each, with more pieces first and in
// index order among equals.
void items_by_degree_larger_first() {
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
      POLYDG_GPU_CHECK(include(i) && degree(i) == p && pieces(i) <= groups.max_pieces[p]);
      if (k + 1 < groups.offsets[p + 1]) {
        const Index next = groups.host_items[k + 1];
        POLYDG_GPU_CHECK(pieces(i) > pieces(next) || (pieces(i) == pieces(next) && i < next));
      }
    }
  for (Index i = 0; i < count; ++i) POLYDG_GPU_CHECK(seen[i] == (include(i) ? 1 : 0));
}

void wide_tiles_only_for_the_largest_tables() {
  for (int rows = 1; rows <= 300; ++rows) {
    const Tiling tiling = choose_tiling(rows, rows);
    const int square_tiles = device::detail::tiles_of(rows, 4) * device::detail::tiles_of(rows, 4);
    const bool wide = square_tiles > device::detail::most_square_tiles;
    POLYDG_GPU_CHECK((tiling.tile_columns == 8) == wide);
    if (wide) POLYDG_GPU_CHECK(tiling.tile_rows == 4);
  }
  // A P_5 interface in 3D (112 rows): one pass of 392 threads, not two of 512.
  const Tiling p5 = choose_tiling(112, 112);
  POLYDG_GPU_CHECK(p5.tile_rows == 4 && p5.tile_columns == 8 && units(p5) == 392);
}

}  // namespace

int main() {
  point_groups_depend_on_the_rows_alone();
  tables_take_the_intended_teams();
  wide_tiles_only_for_the_largest_tables();
  tensor_core_tables();
  smallest_tables_one_per_thread();
  items_by_degree_larger_first();
  return testing::gpu_test_result();
}
