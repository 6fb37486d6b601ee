#pragma once
// Binary files the library writes and reads back (explicit restart files, rank part files):
// a checksum, an atomic write and a whole-file read, with errors that name the file.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace polydg::detail {

/// FNV-1a over 64-bit words. Each step (h ^ w) · prime is a bijection of w and of h, so a
/// change of any single word always changes the result. A guard against corruption, not a
/// cryptographic hash.
class WordHash {
 public:
  void add(std::uint64_t word) { hash_ = (hash_ ^ word) * 1099511628211ull; }
  void add(double value) { add(std::bit_cast<std::uint64_t>(value)); }
  void add(std::span<const double> values) {
    for (double value : values) add(value);
  }
  void add(std::span<const std::uint64_t> words) {
    for (std::uint64_t word : words) add(word);
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

/// "0x" and 16 hexadecimal digits.
std::string hexadecimal(std::uint64_t value);

/// Throws polydg::Error "<where>: <what> are little-endian and this host is not" on a
/// big-endian host: the files are written in the host's byte order.
void require_little_endian(const std::string& where, const std::string& what);

/// Writes the bytes of `pieces`, one after the other, to path + ".tmp", flushes them to the
/// disk (fsync) and renames that over `path`: a rename within one directory is atomic (POSIX),
/// so `path` is always the previous file or the whole new one, never half of one. The
/// temporary file is removed on failure. Throws polydg::Error "<where>: ..." naming the
/// temporary file and the system's reason.
void write_file_atomically(const std::filesystem::path& path,
                           std::span<const std::span<const std::byte>> pieces,
                           const std::string& where);

/// A whole file as 64-bit words (the last one padded with zero bytes) and its length in bytes,
/// read straight into the words. Throws polydg::Error "<where>: ..." when it cannot be opened
/// or read.
struct FileWords {
  std::vector<std::uint64_t> words;
  std::uint64_t bytes = 0;
};
FileWords read_file_words(const std::filesystem::path& path, const std::string& where);

}  // namespace polydg::detail
