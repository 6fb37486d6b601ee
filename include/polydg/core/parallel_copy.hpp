#pragma once
/// parallel_copy: std::memcpy split over the OpenMP threads (above 1 MiB), for filling pinned
/// staging buffers from pageable memory and back at more than one thread's copy speed (about
/// 10 GB/s). Inside a parallel region it runs on the calling thread alone. The ranges must not
/// overlap.
#include <cstddef>

namespace polydg {

void parallel_copy(void* destination, const void* source, std::size_t bytes);

}  // namespace polydg
