// CUDA smoke test: a kernel through the library's device buffers, forall launcher and error
// layer. Exits 77 (ctest: Skipped) when no CUDA device is present.
#define BOOST_TEST_MODULE cuda_smoke
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "gpu_test_main.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/detail/core/forall.cuh"

using namespace polydg;

namespace {

constexpr std::size_t chunk = std::size_t(8) << 20;  // the pinned staging chunks' size

// y = 2 x + 1 on the device for x = 0.5, 1.5, ...: n values, one kernel.
device::DeviceBuffer<double> affine_on_device(const std::vector<double>& x) {
  device::DeviceBuffer<double> x_device{std::span<const double>(x)};
  device::DeviceBuffer<double> y_device(x.size());
  const double* xp = x_device.data();
  double* yp = y_device.data();
  device::forall(GlobalIndex(x.size()),
                 [=] __device__(GlobalIndex i) { yp[i] = fma(2.0, xp[i], 1.0); });
  device::synchronize();
  return y_device;
}

// The bytes of `uploaded` that differ from (i + 1) * 131 + 7, counted by a kernel launched
// right after the upload (same stream).
int mismatches_on_device(const device::DeviceBuffer<unsigned char>& uploaded) {
  device::DeviceBuffer<int> mismatches(1);
  mismatches.fill_zero();
  const unsigned char* up = uploaded.data();
  int* mp = mismatches.data();
  device::forall(GlobalIndex(uploaded.size()), [=] __device__(GlobalIndex i) {
    if (up[i] != (unsigned char)((i + 1) * 131 + 7)) atomicAdd(mp, 1);
  });
  return mismatches.to_host()[0];
}

// An element-wise kernel writing i into 16 ints; returns them.
std::vector<int> iota_on_device() {
  device::DeviceBuffer<int> small(16);
  int* sp = small.data();
  device::forall(16, [=] __device__(GlobalIndex i) { sp[i] = int(i); });
  return small.to_host();
}

}  // namespace

// y = 2 x + 1 on the device, against the host.
BOOST_AUTO_TEST_CASE(forall_kernel_equals_the_host) {
  const int n = 1 << 20;
  std::vector<double> x(n);
  std::iota(x.begin(), x.end(), 0.5);
  const std::vector<double> y = affine_on_device(x).to_host();
  std::vector<double> expected(n);
  for (int i = 0; i < n; ++i) expected[i] = 2.0 * x[i] + 1.0;
  BOOST_TEST(y == expected, boost::test_tools::per_element());
}

// Uploads of 8 MiB and more are staged through pinned chunks (two, of 8 MiB): sizes at and
// around the chunk boundaries, from an unaligned pageable source, arrive byte for byte, and a
// kernel launched right after reads them (same stream).
BOOST_AUTO_TEST_CASE(staged_uploads_arrive_byte_for_byte) {
  for (const std::size_t bytes : {chunk - 1, chunk, chunk + 3, 3 * chunk + 5}) {
    BOOST_TEST_CONTEXT(bytes << " bytes") {
      std::vector<unsigned char> source(bytes + 1);
      for (std::size_t i = 0; i < source.size(); ++i) source[i] = (unsigned char)(i * 131 + 7);
      const device::DeviceBuffer<unsigned char> uploaded{
          std::span<const unsigned char>(source.data() + 1, bytes)};
      BOOST_TEST(mismatches_on_device(uploaded) == 0);
      const std::vector<unsigned char> back = uploaded.to_host();
      BOOST_TEST(std::memcmp(back.data(), source.data() + 1, bytes) == 0);
    }
  }
}

// A pinned source goes to the copy engine directly, with the same result.
BOOST_AUTO_TEST_CASE(pinned_upload_arrives_byte_for_byte) {
  const std::size_t bytes = 2 * chunk + 1;
  device::PinnedBuffer<unsigned char> pinned(bytes);
  for (std::size_t i = 0; i < bytes; ++i) pinned[i] = (unsigned char)(i * 7 + 1);
  const device::DeviceBuffer<unsigned char> uploaded{pinned.span()};
  const std::vector<unsigned char> back = uploaded.to_host();
  BOOST_TEST(std::memcmp(back.data(), pinned.data(), bytes) == 0);
}

// Moves leave the source empty; the memory is freed once.
BOOST_AUTO_TEST_CASE(move_leaves_the_source_empty) {
  const std::size_t n = 1 << 20;
  device::DeviceBuffer<double> y_device(n);
  device::DeviceBuffer<double> moved = std::move(y_device);
  BOOST_TEST(y_device.size() == 0u);
  BOOST_TEST((y_device.data() == nullptr));
  BOOST_TEST(moved.size() == n);
}

// An impossible allocation is a polydg::Error naming cudaMalloc and the size, not an abort; the
// device is still usable after it.
BOOST_AUTO_TEST_CASE(impossible_allocation_is_an_error) {
  bool threw = false;
  try {
    device::DeviceBuffer<char> huge(std::size_t(1) << 50);
  } catch (const Error& error) {
    threw = true;
    const std::string message = error.what();
    BOOST_TEST_MESSAGE("expected error: " << message);
    BOOST_TEST(message.find("cudaMalloc") != std::string::npos, message);
    BOOST_TEST(message.find("MiB free") != std::string::npos, message);
  }
  BOOST_TEST(threw);
  BOOST_TEST(iota_on_device()[15] == 15);
}
