#pragma once
/// Device memory owned by RAII buffers: the only place the library allocates GPU memory.
///
/// The functions in polydg::device are implemented in kernels/core/device.cu when the library is
/// built with CUDA and in src/core/device_unavailable.cpp otherwise, where they throw
/// polydg::Error("... built without CUDA") — so front-end code never needs #ifdef POLYDG_CUDA
/// and no CUDA header leaks into public headers. Every CUDA failure becomes a polydg::Error
/// naming the call, the reason and (for allocations) the size asked for and the memory free.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace polydg::device {

/// True when the library was compiled with CUDA support.
bool compiled_with_cuda();
/// Number of usable CUDA devices; 0 without CUDA support or without a device (never throws).
int device_count();
/// Makes device `device` (0 ≤ device < device_count()) the calling thread's current device, as
/// cudaSetDevice; throws polydg::Error without CUDA or for a device out of range.
void select_device(int device);
/// Allocates `bytes` of device memory, ordered on the default stream (CUDA's stream-ordered
/// pool where the device has one); throws polydg::Error (with the free memory) on failure.
void* allocate(std::size_t bytes);
/// Frees memory from allocate() once the work queued before on the default stream is done; null
/// is ignored. Never throws. The memory stays in the pool for the library's next allocations.
void deallocate(void* pointer) noexcept;
/// Gives the memory the library freed, kept in the pool, back to the device (for other
/// allocators in the process, e.g. PETSc's); an allocation that fails does this and tries again.
/// Waits for the device. Without CUDA or a pool: nothing to do.
void release_cached_memory();
/// Allocates `bytes` of page-locked (pinned) host memory (cudaMallocHost), which the GPU's copy
/// engines read and write directly; throws polydg::Error naming the size on failure.
void* allocate_pinned(std::size_t bytes);
/// Frees memory from allocate_pinned(); null is ignored. Never throws.
void deallocate_pinned(void* pointer) noexcept;
/// Copies host memory to the device and returns once the source may be reused (the data is then
/// on the device for work queued after it on the default stream). Copies of 8 MiB and more from
/// pageable memory go through two pinned staging chunks filled by the OpenMP threads.
void copy_host_to_device(void* device_destination, const void* host_source, std::size_t bytes);
void copy_device_to_host(void* host_destination, const void* device_source, std::size_t bytes);
void copy_device_to_device(void* destination, const void* source, std::size_t bytes);
/// Sets `bytes` of device memory to zero, asynchronously on the default stream.
void fill_zero(void* device_destination, std::size_t bytes);
/// Throws polydg::Error: a host array of `given` elements for a device buffer of `expected`.
[[noreturn]] void throw_size_mismatch(std::size_t given, std::size_t expected);
/// Waits for all work on the device and reports any asynchronous kernel error.
void synchronize();

/// How many copies copy_host_to_device() and copy_device_to_host() made since the process
/// started, and how many bytes they moved (device-to-device copies are not counted): a test or
/// benchmark compares two
/// readings to check that work between them stayed on the device (the library's staging of
/// host PETSc Vecs for a device operator goes through these functions; PETSc counts its own
/// copies for -log_view).
struct TransferCounts {
  std::uint64_t host_to_device = 0;
  std::uint64_t device_to_host = 0;
  std::uint64_t bytes = 0;  ///< both directions
};
TransferCounts transfer_counts();

/// An owning, move-only array of `T` in device memory. T must be trivially copyable.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t size)
      : data_(size ? static_cast<T*>(allocate(size * sizeof(T))) : nullptr), size_(size) {}
  explicit DeviceBuffer(std::span<const T> host) : DeviceBuffer(host.size()) {
    copy_host_to_device(data_, host.data(), host.size_bytes());
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      deallocate(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { deallocate(data_); }

  std::size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }

  /// Overwrites the buffer with `host`, which must have size() elements (no reallocation).
  void assign(std::span<const T> host) {
    if (host.size() != size_) throw_size_mismatch(host.size(), size_);
    if (size_) copy_host_to_device(data_, host.data(), host.size_bytes());
  }
  /// Sets every element's bytes to zero (asynchronous on the default stream).
  void fill_zero() {
    if (size_) device::fill_zero(data_, size_ * sizeof(T));
  }

  /// Copies the whole buffer back to a host vector.
  std::vector<T> to_host() const {
    std::vector<T> host(size_);
    if (size_) copy_device_to_host(host.data(), data_, size_ * sizeof(T));
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// An owning, move-only array of `T` in pinned (page-locked) host memory: ordinary host memory
/// for the CPU, and a source or target of host↔device copies that the DMA engines serve at full
/// PCIe speed without the driver's intermediate bounce buffer. T must be trivially copyable;
/// the contents are uninitialized. Pinned memory is a scarce system resource: use it for
/// staging buffers, not for bulk data.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t size)
      : data_(size ? static_cast<T*>(allocate_pinned(size * sizeof(T))) : nullptr), size_(size) {}
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      deallocate_pinned(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~PinnedBuffer() { deallocate_pinned(data_); }

  std::size_t size() const { return size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::span<T> span() { return {data_, size_}; }
  std::span<const T> span() const { return {data_, size_}; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace polydg::device
