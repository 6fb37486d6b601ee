// CUDA implementation of the device-memory layer declared in polydg/core/device_buffer.hpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/parallel_copy.hpp"
#include "polydg/detail/core/cuda_check.cuh"

namespace polydg::device {

bool compiled_with_cuda() { return true; }

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error so later calls are unaffected
    return 0;
  }
  return count;
}

void select_device(int device) {
  const int count = device_count();
  require(device >= 0 && device < count, "polydg::device::select_device: device ", device, " of ",
          count);
  POLYDG_CUDA_CHECK(cudaSetDevice(device));
}

namespace {

// Device memory comes from CUDA's stream-ordered pool of the device (cudaMallocAsync on the
// default stream), which keeps what the library frees for its next allocations: a cudaMalloc
// and cudaFree cost tens of microseconds each, and cudaFree waits for the whole device — for
// the eleven buffers of a device BlockPattern built from device arrays, more than its kernels.
// Without pool support on the device: cudaMalloc / cudaFree.
struct MemoryPool {
  bool pooled = false;
  cudaMemPool_t pool = nullptr;
};

const MemoryPool& memory_pool() {
  static const MemoryPool pool = [] {
    MemoryPool result;
    int device = 0, supported = 0;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) ==
            cudaSuccess &&
        supported && cudaDeviceGetDefaultMemPool(&result.pool, device) == cudaSuccess) {
      // Keep freed memory in the pool (the default gives it back at every synchronization);
      // release_cached_memory() and a failed allocation give it back.
      std::uint64_t keep_all = ~std::uint64_t(0);
      result.pooled = cudaMemPoolSetAttribute(result.pool, cudaMemPoolAttrReleaseThreshold,
                                              &keep_all) == cudaSuccess;
    }
    cudaGetLastError();  // no device: allocate() reports it
    return result;
  }();
  return pool;
}

// Raises "no usable CUDA device" when `status` (of `call`) or the runtime's device query says
// there is no device or no working driver: that is not an out-of-memory, whatever the
// allocation's error code, and the message says what to check.
void require_usable_device(cudaError_t status, const char* call) {
  int count = 0;
  const cudaError_t query = cudaGetDeviceCount(&count);
  cudaGetLastError();
  const bool no_device = status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver ||
                         status == cudaErrorInitializationError || query != cudaSuccess ||
                         count == 0;
  if (!no_device) return;
  const cudaError_t reason = query != cudaSuccess ? query : status;
  raise("no usable CUDA device for ", call, ": ", cudaGetErrorName(reason), " (",
        cudaGetErrorString(reason), "; ", count,
        " devices visible). Check the NVIDIA driver (nvidia-smi), CUDA_VISIBLE_DEVICES, and that "
        "the driver supports this CUDA runtime; or run on the CPU backend");
}

}  // namespace

void* allocate(std::size_t bytes) {
  const MemoryPool& pool = memory_pool();
  void* pointer = nullptr;
  const char* call = pool.pooled ? "cudaMallocAsync" : "cudaMalloc";
  const auto try_allocate = [&] {
    return pool.pooled ? cudaMallocAsync(&pointer, bytes, cudaStream_t(0))
                       : cudaMalloc(&pointer, bytes);
  };
  cudaError_t status = try_allocate();
  if (status == cudaErrorMemoryAllocation && pool.pooled) {
    cudaGetLastError();
    release_cached_memory();  // memory the pool keeps but the device's other users may hold
    status = try_allocate();
  }
  if (status != cudaSuccess) {
    cudaGetLastError();
    require_usable_device(status, call);
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    cudaGetLastError();
    raise("CUDA error in ", call, " of ", bytes, " bytes (", bytes / 1048576.0, " MiB; ",
          free_bytes / 1048576.0, " MiB free of ", total_bytes / 1048576.0,
          " MiB on the device): ", cudaGetErrorName(status), " (", cudaGetErrorString(status), ")");
  }
  return pointer;
}

void deallocate(void* pointer) noexcept {
  if (!pointer) return;
  // After the work queued before it on the default stream (work on other streams is joined to
  // it before the library's buffers go).
  if (memory_pool().pooled)
    cudaFreeAsync(pointer, cudaStream_t(0));
  else
    cudaFree(pointer);
}

void release_cached_memory() {
  const MemoryPool& pool = memory_pool();
  if (!pool.pooled) return;
  cudaDeviceSynchronize();  // the frees queued on the stream are done
  cudaMemPoolTrimTo(pool.pool, 0);
  cudaGetLastError();
}

void* allocate_pinned(std::size_t bytes) {
  void* pointer = nullptr;
  cudaError_t status = cudaMallocHost(&pointer, bytes);
  if (status != cudaSuccess) {
    cudaGetLastError();
    raise("CUDA error in cudaMallocHost of ", bytes, " bytes (", bytes / 1048576.0,
          " MiB of pinned host memory): ", cudaGetErrorName(status), " (",
          cudaGetErrorString(status), ")");
  }
  return pointer;
}

void deallocate_pinned(void* pointer) noexcept {
  if (pointer) cudaFreeHost(pointer);
}

namespace {

/// The pinned chunks large uploads are staged through, allocated at the first large upload and
/// kept for the process (a pinned allocation costs milliseconds). One upload at a time.
struct StagingChunks {
  static constexpr std::size_t chunk_bytes = std::size_t(8) << 20;
  std::mutex mutex;
  PinnedBuffer<unsigned char> chunks[2];
};

StagingChunks& staging_chunks() {
  // Never destroyed: freeing pinned memory after the CUDA runtime has shut down at exit fails.
  static StagingChunks* staging = new StagingChunks;
  return *staging;
}

/// An event destroyed with its scope (created per upload: events belong to the current device).
struct ScopedEvent {
  cudaEvent_t event = nullptr;
  ScopedEvent() { POLYDG_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming)); }
  ScopedEvent(const ScopedEvent&) = delete;
  ScopedEvent& operator=(const ScopedEvent&) = delete;
  ~ScopedEvent() { cudaEventDestroy(event); }
};

}  // namespace

namespace {
std::atomic<std::uint64_t> host_to_device_copies{0};
std::atomic<std::uint64_t> device_to_host_copies{0};
std::atomic<std::uint64_t> copied_bytes{0};
}  // namespace

TransferCounts transfer_counts() {
  return {host_to_device_copies.load(), device_to_host_copies.load(), copied_bytes.load()};
}

void copy_host_to_device(void* destination, const void* source, std::size_t bytes) {
  ++host_to_device_copies;
  copied_bytes += bytes;
  // Small copies go straight to cudaMemcpy. Large ones from pageable memory are staged through
  // two pinned chunks: the CPU threads fill one while the copy engine reads the other. The
  // driver's own pageable path copies through its bounce buffers on one thread, several times
  // slower for a large mesh's geometry (bench_assembly times the upload).
  if (bytes < StagingChunks::chunk_bytes) {
    POLYDG_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyHostToDevice));
    return;
  }
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, source) == cudaSuccess &&
      attributes.type != cudaMemoryTypeUnregistered) {  // pinned or managed: no staging
    POLYDG_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyHostToDevice));
    return;
  }
  cudaGetLastError();
  StagingChunks& staging = staging_chunks();
  const std::lock_guard<std::mutex> lock(staging.mutex);
  for (auto& chunk : staging.chunks)
    if (chunk.size() == 0) chunk = PinnedBuffer<unsigned char>(StagingChunks::chunk_bytes);
  // The copies go on the default stream, as the library's kernels do: earlier work there (a
  // kernel still reading `destination`) comes first, and later kernels see the data.
  ScopedEvent copied[2];
  auto* to = static_cast<unsigned char*>(destination);
  const auto* from = static_cast<const unsigned char*>(source);
  for (std::size_t done = 0, c = 0; done < bytes; done += StagingChunks::chunk_bytes, c ^= 1) {
    const std::size_t size = std::min(StagingChunks::chunk_bytes, bytes - done);
    POLYDG_CUDA_CHECK(cudaEventSynchronize(copied[c].event));  // chunk c's last copy is done
    parallel_copy(staging.chunks[c].data(), from + done, size);
    POLYDG_CUDA_CHECK(cudaMemcpyAsync(to + done, staging.chunks[c].data(), size,
                                      cudaMemcpyHostToDevice, cudaStream_t(0)));
    POLYDG_CUDA_CHECK(cudaEventRecord(copied[c].event, cudaStream_t(0)));
  }
  // The chunks are reused by the next upload and the events are destroyed here: wait for both.
  for (const ScopedEvent& event : copied) POLYDG_CUDA_CHECK(cudaEventSynchronize(event.event));
}
void copy_device_to_host(void* destination, const void* source, std::size_t bytes) {
  ++device_to_host_copies;
  copied_bytes += bytes;
  POLYDG_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToHost));
}
void copy_device_to_device(void* destination, const void* source, std::size_t bytes) {
  POLYDG_CUDA_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToDevice));
}
void fill_zero(void* destination, std::size_t bytes) {
  POLYDG_CUDA_CHECK(cudaMemsetAsync(destination, 0, bytes));
}
void synchronize() { POLYDG_CUDA_CHECK(cudaDeviceSynchronize()); }

}  // namespace polydg::device
