// CUDA smoke test: a kernel through the library's device buffers, forall launcher and error
// layer. Exits 77 (ctest: Skipped) when no CUDA device is present.
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "core/forall.cuh"
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
