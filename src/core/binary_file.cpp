#include "binary_file.hpp"

#include <unistd.h>  // fsync: the file on the disk before the rename

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <utility>

#include "polydg/core/error.hpp"

namespace polydg::detail {

namespace {

/// The temporary file of an atomic write: removed unless committed.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::filesystem::path path) : path_(std::move(path)) {}
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (file_) std::fclose(file_);
    if (!committed_) {
      std::error_code ignored;
      std::filesystem::remove(path_, ignored);
    }
  }
  std::FILE* open() { return file_ = std::fopen(path_.c_str(), "wb"); }
  /// fclose; false (errno set) when the last writes failed.
  bool close() {
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    return closed;
  }
  void commit() { committed_ = true; }

 private:
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace

std::string hexadecimal(std::uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

void require_little_endian(const std::string& where, const std::string& what) {
  require(std::endian::native == std::endian::little, where, ": ", what,
          " are little-endian and this host is not");
}

void write_file_atomically(const std::filesystem::path& path,
                           std::span<const std::span<const std::byte>> pieces,
                           const std::string& where) {
  std::filesystem::path temporary_path = path;
  temporary_path += ".tmp";
  const std::string temporary = concatenate('\'', temporary_path.string(), '\'');
  TemporaryFile temporary_file(temporary_path);
  std::FILE* out = temporary_file.open();
  require(out != nullptr, where, ": cannot open ", temporary,
          " for writing: ", std::strerror(errno));
  bool written = true;
  for (const std::span<const std::byte> piece : pieces)
    written = written && std::fwrite(piece.data(), 1, piece.size(), out) == piece.size();
  written = written && std::fflush(out) == 0 && fsync(fileno(out)) == 0;
  const int write_error = errno;
  const bool closed = temporary_file.close();
  require(written && closed, where, ": writing ", temporary,
          " failed: ", std::strerror(written ? errno : write_error));
  std::error_code error;
  std::filesystem::rename(temporary_path, path, error);
  require(!error, where, ": cannot rename ", temporary, " to it: ", error.message());
  temporary_file.commit();
}

FileWords read_file_words(const std::filesystem::path& path, const std::string& where) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  require(!error, where, ": cannot read its size: ", error.message());
  std::FILE* in = std::fopen(path.c_str(), "rb");
  require(in != nullptr, where, ": cannot open the file: ", std::strerror(errno));
  FileWords file;
  file.bytes = size;
  file.words.assign(std::size_t((size + 7) / 8), 0);
  const std::size_t got = std::fread(file.words.data(), 1, std::size_t(size), in);
  const int read_error = errno;
  const bool failed = std::ferror(in) != 0;
  std::fclose(in);
  require(!failed && got == size, where, ": reading the file failed after ", got, " of ", size,
          " bytes", failed ? ": " : "", failed ? std::strerror(read_error) : "");
  return file;
}

}  // namespace polydg::detail
