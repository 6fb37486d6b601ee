#define BOOST_TEST_MODULE core_parallel_copy
#include <boost/test/unit_test.hpp>
#include <cstddef>
#include <cstring>
#include <vector>

#include "polydg/core/parallel_copy.hpp"

using namespace polydg;

// Sizes around the 256 KiB pieces the copy is split into, from and to unaligned addresses: every
// byte arrives, and the bytes just outside the destination range are untouched.
BOOST_AUTO_TEST_CASE(copies_every_byte_and_nothing_else) {
  const std::size_t piece = std::size_t(256) << 10;
  for (const std::size_t bytes :
       {std::size_t(0), std::size_t(1), piece - 1, piece, piece + 1, 5 * piece + 7}) {
    for (const std::size_t offset : {std::size_t(0), std::size_t(3)}) {
      std::vector<unsigned char> source(bytes + 8), destination(bytes + 8, 0xAB);
      for (std::size_t i = 0; i < source.size(); ++i) source[i] = (unsigned char)(i * 131 + 7);
      parallel_copy(destination.data() + offset, source.data() + 5, bytes);
      BOOST_TEST(std::memcmp(destination.data() + offset, source.data() + 5, bytes) == 0,
                 "bytes " << bytes << " offset " << offset);
      for (std::size_t i = 0; i < offset; ++i) BOOST_TEST(destination[i] == 0xAB);
      for (std::size_t i = offset + bytes; i < destination.size(); ++i)
        BOOST_TEST(destination[i] == 0xAB);
    }
  }
}
