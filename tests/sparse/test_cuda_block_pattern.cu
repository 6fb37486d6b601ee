// The BlockPattern built on the device equals the CPU BlockPattern (the reference) exactly, array
// by array: hand-made and random interface sets (1 to 200k elements, block sizes 3, 6, 10, 21)
// and the interfaces of agglomerated polytopic meshes with mixed degrees, built from host
// arrays and from device arrays. Bad input gives polydg::Error with the CPU pattern's message:
// the host-side checks run (and are tested) even without a device, the device-side ones (of the
// build from device arrays) with one. Without a CUDA device the host-side cases run alone, and
// the suite then exits 77 (ctest: Skipped) when they pass.
#define BOOST_TEST_MODULE cuda_block_pattern
#define POLYDG_GPU_TEST_WITHOUT_DEVICE \
  "host_checks_refuse_bad_input,valid_input_without_a_device_is_an_error"
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "gpu_test_main.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/detail/core/forall.cuh"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

using namespace polydg;

namespace {

using Pairs = std::vector<std::array<Index, 2>>;

// The message of the polydg::Error that `build` throws, or "" when it throws none.
template <class Build>
std::string error_message(Build build) {
  try {
    build();
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

// The pattern built from the same input uploaded first (build_block_pattern_from_device_arrays,
// as DeviceAssembler builds it from its device mesh).
DeviceBlockPattern build_from_device_arrays(const std::vector<Index>& sizes, const Pairs& pairs) {
  const device::DeviceBuffer<Index> ends(
      std::span<const Index>(reinterpret_cast<const Index*>(pairs.data()), 2 * pairs.size()));
  return build_block_pattern_from_device_arrays(device::DeviceBuffer<Index>(std::span(sizes)),
                                                ends.data(), Index(pairs.size()));
}

// Bad input: the device build throws the CPU pattern's error; with a device, so does the build
// from device arrays, which checks on the device.
void check_same_error(const std::vector<Index>& sizes, const Pairs& pairs, const char* what,
                      bool from_device_arrays) {
  const std::string host = error_message([&] { BlockPattern(sizes, pairs); });
  const std::string device = error_message([&] { build_block_pattern_on_device(sizes, pairs); });
  BOOST_TEST_MESSAGE(what << ": CPU \"" << host << "\", device \"" << device << "\"");
  BOOST_TEST_INFO_SCOPE(what);
  BOOST_TEST(!host.empty());
  BOOST_TEST(device == host);
  if (from_device_arrays) {
    const std::string arrays = error_message([&] { build_from_device_arrays(sizes, pairs); });
    BOOST_TEST_MESSAGE(what << ", from device arrays: \"" << arrays << "\"");
    BOOST_TEST(arrays == host, "from device arrays");
  }
}

// The checks made on the host before the device is touched: they hold without a device. With
// one (`on_device`), the same inputs through the device-side checks, and the CPU's order where
// one input has several faults.
void check_validation(bool on_device) {
  check_same_error({3, 0, 6}, {{0, 1}}, "block size 0", on_device);
  check_same_error({3, 6, 10}, {{0, 1}, {1, 3}}, "element out of range", on_device);
  check_same_error({3, 6, 10}, {{0, 1}, {-1, 2}}, "negative element", on_device);
  check_same_error({3, 6, 10}, {{0, 1}, {2, 2}}, "pair (e, e)", on_device);
  check_same_error({}, {{0, 1}}, "interface without elements", on_device);
  check_same_error({3, 6, -2, 0}, {{0, 1}, {5, 5}, {2, 2}, {1, 0}}, "several faults", on_device);
  check_same_error({3, 6, 10, 3}, {{0, 1}, {3, 3}, {1, 7}, {1, 0}}, "bad pairs and a repeat",
                   on_device);
}

// Every array of the device pattern equals the CPU pattern's.
bool equal_to_cpu(const DeviceBlockPattern& device_pattern, const BlockPattern& cpu) {
  const DeviceBlockPattern::HostArrays d = device_pattern.to_host();
  const Index rows = cpu.block_row_count(), blocks = cpu.block_count();
  bool same =
      device_pattern.block_row_count() == rows && device_pattern.block_count() == blocks &&
      device_pattern.dof_count() == cpu.dof_count() &&
      device_pattern.value_count() == cpu.value_count() &&
      d.block_sizes.size() == std::size_t(rows) && d.dof_offsets.size() == std::size_t(rows) + 1 &&
      d.row_offsets.size() == std::size_t(rows) + 1 &&
      d.diagonal_blocks.size() == std::size_t(rows) &&
      d.block_columns.size() == std::size_t(blocks) && d.block_rows.size() == std::size_t(blocks) &&
      d.value_offsets.size() == std::size_t(blocks) + 1;
  if (!same) return false;
  for (Index e = 0; e < rows; ++e)
    same = same && d.block_sizes[e] == cpu.block_size(e) && d.dof_offsets[e] == cpu.dof_offset(e) &&
           d.row_offsets[e] == cpu.block_row_begin(e) &&
           d.diagonal_blocks[e] == cpu.diagonal_block(e);
  same = same && d.dof_offsets[rows] == cpu.dof_offset(rows) &&
         d.row_offsets[rows] == cpu.block_row_begin(rows);
  for (Index k = 0; k < blocks; ++k)
    same = same && d.block_columns[k] == cpu.block_column(k) &&
           d.block_rows[k] == cpu.block_row(k) && d.value_offsets[k] == cpu.block_value_offset(k);
  same = same && d.value_offsets[blocks] == cpu.value_count();
  return same;
}

// DeviceBlockPatternView::find_block in a kernel finds every block, and −1 for the pair (r, c)
// of each block with c replaced by a column not in row r (where there is one).
bool find_block_works(const DeviceBlockPattern& pattern) {
  const Index blocks = pattern.block_count();
  if (blocks == 0) return true;
  device::DeviceBuffer<Index> found(2 * std::size_t(blocks));
  const DeviceBlockPatternView view = pattern.view();
  Index* out = found.data();
  device::forall(blocks, [=] __device__(GlobalIndex k) {
    const Index r = view.block_rows[k], c = view.block_columns[k];
    out[2 * k] = view.find_block(r, c);
    // Column c + 1 when it is not the next block's column of the same row (a non-neighbour).
    const bool next_is_neighbour = k + 1 < view.block_count && view.block_rows[k + 1] == r &&
                                   view.block_columns[k + 1] == c + 1;
    out[2 * k + 1] = (c + 1 < view.block_row_count && !next_is_neighbour)
                         ? view.find_block(r, c + 1)
                         : Index(-1);
  });
  const std::vector<Index> back = found.to_host();
  for (Index k = 0; k < blocks; ++k)
    if (back[2 * std::size_t(k)] != k || back[2 * std::size_t(k) + 1] != -1) return false;
  return true;
}

void check_pattern(const std::vector<Index>& sizes, const Pairs& pairs, const char* what,
                   bool check_determinism = false) {
  const BlockPattern cpu(sizes, pairs);
  const DeviceBlockPattern device_pattern = build_block_pattern_on_device(sizes, pairs);
  const bool same = equal_to_cpu(device_pattern, cpu) &&
                    equal_to_cpu(build_from_device_arrays(sizes, pairs), cpu);
  const bool found = find_block_works(device_pattern);
  BOOST_TEST_MESSAGE(what << ": " << sizes.size() << " elements " << pairs.size() << " interfaces "
                          << cpu.block_count() << " blocks " << cpu.value_count() << " values: "
                          << (same && found ? "equal to the CPU pattern" : "DIFFERENT"));
  BOOST_TEST_INFO_SCOPE(what << ": " << sizes.size() << " elements, " << pairs.size()
                             << " interfaces");
  BOOST_TEST(same);
  BOOST_TEST(found);
  if (check_determinism) {
    // Run to run: a second build gives the same arrays.
    const DeviceBlockPattern again = build_block_pattern_on_device(sizes, pairs);
    BOOST_TEST(equal_to_cpu(again, cpu), "a second build");
  }
}

// A random graph on `elements` vertices with about `mean_degree` neighbours each: distinct pairs
// in random order and orientation; block sizes drawn from {3, 6, 10, 21}.
void random_input(Index elements, double mean_degree, std::mt19937_64& random,
                  std::vector<Index>& sizes, Pairs& pairs) {
  static constexpr Index choices[] = {3, 6, 10, 21};
  std::uniform_int_distribution<int> choice(0, 3);
  sizes.resize(elements);
  for (Index& s : sizes) s = choices[choice(random)];
  pairs.clear();
  if (elements < 2) return;
  const std::uint64_t possible = std::uint64_t(elements) * std::uint64_t(elements - 1) / 2;
  const std::uint64_t wanted =
      std::min<std::uint64_t>(possible, std::uint64_t(mean_degree * elements / 2));
  std::uniform_int_distribution<Index> element(0, elements - 1);
  std::unordered_set<std::uint64_t> seen;
  while (pairs.size() < wanted) {
    Index a = element(random), b = element(random);
    if (a == b) continue;
    const std::uint64_t key =
        std::uint64_t(std::min(a, b)) * std::uint64_t(elements) + std::uint64_t(std::max(a, b));
    if (!seen.insert(key).second) continue;
    if (random() & 1) std::swap(a, b);
    pairs.push_back({a, b});
  }
}

}  // namespace

// The checks made on the host before the device is touched: they hold without a device.
BOOST_AUTO_TEST_CASE(host_checks_refuse_bad_input) { check_validation(false); }

// A valid input without a device: an error, not a crash.
BOOST_AUTO_TEST_CASE(valid_input_without_a_device_is_an_error,
                     *boost::unit_test::precondition([](boost::unit_test::test_unit_id) {
                       return device::device_count() == 0;
                     })) {
  const std::string message = error_message([] {
    const std::vector<Index> sizes = {3, 6};
    const Pairs pairs = {{0, 1}};
    build_block_pattern_on_device(sizes, pairs);
  });
  BOOST_TEST_MESSAGE("valid input without a device: \"" << message << "\"");
  BOOST_TEST(!message.empty());
}

// With a device: the same inputs through the device-side checks, and the CPU's order where one
// input has several faults.
BOOST_AUTO_TEST_CASE(device_checks_refuse_bad_input_as_the_cpu) { check_validation(true); }

BOOST_AUTO_TEST_CASE(random_graphs_equal_the_cpu) {
  std::mt19937_64 random(2024);
  std::vector<Index> sizes;
  Pairs pairs;
  for (const Index elements : {1, 2, 3, 7, 64, 1000, 20000, 200000}) {
    for (const double degree : {0.5, 6.0}) {
      random_input(elements, degree, random, sizes, pairs);
      const std::string what = "random graph, mean degree " + std::to_string(degree).substr(0, 3);
      check_pattern(sizes, pairs, what.c_str(), elements == 200000);
    }
  }
  // Dense: every pair of 300 elements.
  sizes.assign(300, 21);
  pairs.clear();
  for (Index a = 0; a < 300; ++a)
    for (Index b = a + 1; b < 300; ++b) pairs.push_back({b, a});
  check_pattern(sizes, pairs, "complete graph on 300 elements");
}

BOOST_AUTO_TEST_CASE(small_cases_equal_the_cpu) {
  check_pattern({}, {}, "no elements");
  check_pattern({21}, {}, "one element");
  check_pattern({3, 6, 10}, {}, "no interfaces");
  check_pattern({3, 6, 3, 10, 1}, {{0, 1}, {2, 0}, {1, 3}, {2, 3}}, "hand-made, element 4 alone");
}

BOOST_AUTO_TEST_CASE(repeated_pairs_are_refused_as_by_the_cpu) {
  std::mt19937_64 random(2025);
  check_same_error({3, 6, 10}, {{0, 1}, {1, 2}, {0, 1}}, "repeated pair", true);
  check_same_error({3, 6, 10}, {{0, 1}, {1, 2}, {2, 1}}, "repeated pair, other orientation", true);
  // A repeat hidden in a large random set: the smallest repeated (row, column) is named.
  std::vector<Index> sizes;
  Pairs pairs;
  random_input(50000, 6.0, random, sizes, pairs);
  pairs.push_back(pairs[pairs.size() / 3]);
  pairs.push_back({pairs[17][1], pairs[17][0]});
  std::shuffle(pairs.begin(), pairs.end(), random);
  check_same_error(sizes, pairs, "repeated pairs among 150k", true);
}

// The interfaces of agglomerated meshes, with degrees 1..5 per element (N = 3, 6, 10, 15, 21).
BOOST_AUTO_TEST_CASE(agglomerated_meshes_equal_the_cpu) {
  std::mt19937_64 random(2026);
  for (const auto [n, elements] : {std::array<int, 2>{8, 10}, {40, 400}, {200, 5000}}) {
    const auto fine = std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 5));
    const Agglomeration parts = agglomerate(*fine, elements);
    std::uniform_int_distribution<int> degree(1, 5);
    std::vector<int> degrees(parts.element_count);
    for (int& p : degrees) p = degree(random);
    const PolytopicMesh<2> mesh(fine, parts.element_of_cell, degrees);
    std::vector<Index> sizes(mesh.element_count());
    for (Index e = 0; e < mesh.element_count(); ++e) sizes[e] = basis_size(2, degrees[e]);
    Pairs pairs(mesh.interface_count());
    for (Index i = 0; i < mesh.interface_count(); ++i) pairs[i] = mesh.interface_elements(i);
    const std::string what = "agglomerated " + std::to_string(2 * n * n) + " triangles";
    check_pattern(sizes, pairs, what.c_str());
  }
}
