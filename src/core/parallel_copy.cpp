#include "polydg/core/parallel_copy.hpp"

#include <algorithm>
#include <cstring>

namespace polydg {

void parallel_copy(void* destination, const void* source, std::size_t bytes) {
  // Pieces of 256 KiB: large enough that each is a streaming memcpy, small enough that an
  // 8 MiB staging chunk gives every thread of a 16-core host two. Up to 1 MiB the threads'
  // start-up would cost more than they save: one thread copies.
  constexpr std::size_t piece = std::size_t(256) << 10;
  auto* to = static_cast<unsigned char*>(destination);
  const auto* from = static_cast<const unsigned char*>(source);
  const std::ptrdiff_t pieces = std::ptrdiff_t((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 4)
  for (std::ptrdiff_t i = 0; i < pieces; ++i) {
    const std::size_t begin = std::size_t(i) * piece;
    std::memcpy(to + begin, from + begin, std::min(piece, bytes - begin));
  }
}

}  // namespace polydg
