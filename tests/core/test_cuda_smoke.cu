// CUDA smoke test: a kernel through the library's device buffers, forall launcher and error
// layer. Exits 77 (ctest: Skipped) when no CUDA device is present.
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "polydg/detail/core/forall.cuh"
#include "gpu_test_support.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"

using namespace polydg;

int main() {
  if (testing::no_cuda_device()) return testing::skipped_exit_code;
  try {
    // y = 2 x + 1 on the device, against the host.
    const int n = 1 << 20;
    std::vector<double> x(n);
    std::iota(x.begin(), x.end(), 0.5);
    device::DeviceBuffer<double> x_device{std::span<const double>(x)};
    device::DeviceBuffer<double> y_device(n);
    const double* xp = x_device.data();
    double* yp = y_device.data();
    device::forall(n, [=] __device__(GlobalIndex i) { yp[i] = fma(2.0, xp[i], 1.0); });
    device::synchronize();
    std::vector<double> y = y_device.to_host();
    for (int i = 0; i < n; ++i) POLYDG_GPU_CHECK(y[i] == 2.0 * x[i] + 1.0);

    // Uploads of 8 MiB and more are staged through pinned chunks (two, of 8 MiB): sizes at and
    // around the chunk boundaries, from an unaligned pageable source, arrive byte for byte, and a
    // kernel launched right after reads them (same stream).
    const std::size_t chunk = std::size_t(8) << 20;
    for (const std::size_t bytes : {chunk - 1, chunk, chunk + 3, 3 * chunk + 5}) {
      std::vector<unsigned char> source(bytes + 1);
      for (std::size_t i = 0; i < source.size(); ++i) source[i] = (unsigned char)(i * 131 + 7);
      device::DeviceBuffer<unsigned char> uploaded{
          std::span<const unsigned char>(source.data() + 1, bytes)};
      device::DeviceBuffer<int> mismatches(1);
      mismatches.fill_zero();
      const unsigned char* up = uploaded.data();
      int* mp = mismatches.data();
      device::forall(GlobalIndex(bytes), [=] __device__(GlobalIndex i) {
        if (up[i] != (unsigned char)((i + 1) * 131 + 7)) atomicAdd(mp, 1);
      });
      POLYDG_GPU_CHECK(mismatches.to_host()[0] == 0);
      const std::vector<unsigned char> back = uploaded.to_host();
      POLYDG_GPU_CHECK(std::memcmp(back.data(), source.data() + 1, bytes) == 0);
    }
    {  // a pinned source goes to the copy engine directly, with the same result
      const std::size_t bytes = 2 * chunk + 1;
      device::PinnedBuffer<unsigned char> pinned(bytes);
      for (std::size_t i = 0; i < bytes; ++i) pinned[i] = (unsigned char)(i * 7 + 1);
      device::DeviceBuffer<unsigned char> uploaded{pinned.span()};
      const std::vector<unsigned char> back = uploaded.to_host();
      POLYDG_GPU_CHECK(std::memcmp(back.data(), pinned.data(), bytes) == 0);
    }

    // Moves leave the source empty; the memory is freed once.
    device::DeviceBuffer<double> moved = std::move(y_device);
    POLYDG_GPU_CHECK(y_device.size() == 0 && y_device.data() == nullptr &&
                     moved.size() == std::size_t(n));

    // An impossible allocation is a polydg::Error naming cudaMalloc and the size, not an abort.
    bool threw = false;
    try {
      device::DeviceBuffer<char> huge(std::size_t(1) << 50);
    } catch (const Error& error) {
      threw = true;
      const std::string message = error.what();
      std::printf("expected error: %s\n", message.c_str());
      POLYDG_GPU_CHECK(message.find("cudaMalloc") != std::string::npos);
      POLYDG_GPU_CHECK(message.find("MiB free") != std::string::npos);
    }
    POLYDG_GPU_CHECK(threw);
    // The device is still usable after the failed allocation.
    device::DeviceBuffer<int> small(16);
    int* sp = small.data();
    device::forall(16, [=] __device__(GlobalIndex i) { sp[i] = int(i); });
    std::vector<int> back = small.to_host();
    POLYDG_GPU_CHECK(back[15] == 15);
  } catch (const Error& error) {
    std::fprintf(stderr, "unexpected polydg::Error: %s\n", error.what());
    return 1;
  }
  return testing::gpu_test_result();
}
