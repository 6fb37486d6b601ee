// The device-memory layer of a build without CUDA: queries answer "no device", everything else
// throws, so code that asks for the CUDA backend gets a clear error instead of a link failure.
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"

namespace polydg::device {
namespace {
[[noreturn]] void unavailable(const char* what) {
  raise("polydg::device::", what, ": libpolydg was built without CUDA (POLYDG_CUDA=OFF)");
}
}  // namespace

bool compiled_with_cuda() { return false; }
int device_count() { return 0; }
void select_device(int) { unavailable("select_device"); }
void* allocate(std::size_t) { unavailable("allocate"); }
void deallocate(void*) noexcept {}
void release_cached_memory() {}
void* allocate_pinned(std::size_t) { unavailable("allocate_pinned"); }
void deallocate_pinned(void*) noexcept {}
void copy_host_to_device(void*, const void*, std::size_t) { unavailable("copy_host_to_device"); }
void copy_device_to_host(void*, const void*, std::size_t) { unavailable("copy_device_to_host"); }
void copy_device_to_device(void*, const void*, std::size_t) {
  unavailable("copy_device_to_device");
}
void fill_zero(void*, std::size_t) { unavailable("fill_zero"); }
void synchronize() { unavailable("synchronize"); }
TransferCounts transfer_counts() { return {}; }

}  // namespace polydg::device
