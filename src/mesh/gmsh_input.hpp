#pragma once
/// MshInput: the Gmsh reader's view of its input stream — text lines with their line numbers,
/// binary blocks with their byte offsets, and errors that name the place (private to the
/// reader).
///
/// Every error goes through fail(), which prefixes "<file>:<line>: ". Inside a binary section
/// the line is the section's header line and the message adds the byte offset into the
/// section, since a binary block has no lines of its own. Line numbers count every '\n' byte,
/// binary data included, so they match what an editor or `grep -n` shows.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "polydg/core/error.hpp"

namespace polydg::gmsh {

class MshInput {
 public:
  MshInput(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  /// Line number of the last line read (1-based; 0 before the first).
  long line_number() const { return line_number_; }
  /// The line that errors name: line_number(), or in binary mode the section header's line.
  long reported_line() const { return in_binary() ? binary_header_line_ : line_number_; }

  /// Reads the next line without its line break (and without a trailing '\r').
  /// Returns false at the end of the input.
  bool read_line(std::string& line);
  /// Reads the next non-blank line of `section` (begun at `section_line`); fails with
  /// "unexpected end of file" at the end of the input.
  const std::string& expect_line(std::string_view section, long section_line);
  /// Reads entry `read` (0-based) of the `declared` entries (counted at `declared_line`) of
  /// `section`: the next non-blank line, failing at the end of the input or if the section
  /// ends first ("$Nodes ends after 97 of the 98 nodes declared at line 5").
  const std::string& expect_entry(std::string_view section, long section_line, long declared_line,
                                  std::uint64_t declared, std::uint64_t read,
                                  std::string_view entries);
  /// Reads lines until `$End<section>`; fails at the end of the input.
  void skip_section(std::string_view section, long section_line);
  /// Reads the next non-blank line and fails unless it is `$End<section>`; `what_was_read`
  /// names the entries just read, for the message ("after the 98 nodes declared at line 5").
  void expect_section_end(std::string_view section, std::string_view what_was_read);

  /// Binary mode: from here on fail() names `section` (whose header is the last line read)
  /// and the byte offset in it. `swap_bytes` and `size_bytes` come from $MeshFormat.
  void begin_binary(std::string_view section, bool swap_bytes, int size_bytes);
  void end_binary() { binary_section_.clear(); }
  bool in_binary() const { return !binary_section_.empty(); }

  /// Reads exactly `count` bytes; fails with "unexpected end of file" if they are not there.
  void read_bytes(void* destination, std::size_t count);
  /// Binary values in the file's byte order: int (4 bytes), size_t (`size_bytes` of
  /// $MeshFormat) and double (8 bytes).
  int read_int();
  std::uint64_t read_size();
  double read_double();
  /// `count` size_t values, read in one go.
  void read_sizes(std::uint64_t* destination, std::size_t count);
  /// `count` doubles, read in one go.
  void read_doubles(double* destination, std::size_t count);

  /// Throws polydg::Error "<file>:<line>: <parts>" (plus the byte offset in binary mode).
  template <class... Parts>
  [[noreturn]] void fail(Parts&&... parts) const {
    raise(location(), std::forward<Parts>(parts)...);
  }
  /// "<file>:<line>: " at the current position, or with the binary section and byte offset.
  std::string location() const;

 private:
  std::istream& in_;
  std::string name_;
  std::string line_;
  long line_number_ = 0;
  // Binary mode: the section being read, where its data started and the format's sizes.
  std::string binary_section_;
  long binary_header_line_ = 0;
  std::uint64_t binary_bytes_read_ = 0;
  bool swap_bytes_ = false;
  int size_bytes_ = 8;
  std::vector<unsigned char> scratch_;
};

/// `text` without leading and trailing spaces and tabs.
std::string_view trimmed(std::string_view text);
/// The fields of a text line separated by spaces or tabs.
void split_fields(std::string_view line, std::vector<std::string_view>& fields);

/// Parsers of one field; they fail through `input` naming `what` and the offending text.
long long parse_integer(const MshInput& input, std::string_view field, std::string_view what);
std::uint64_t parse_count(const MshInput& input, std::string_view field, std::string_view what);
int parse_int(const MshInput& input, std::string_view field, std::string_view what);
double parse_double(const MshInput& input, std::string_view field, std::string_view what);

/// Fails unless a text line has exactly `expected` fields; `layout` names them.
void require_field_count(const MshInput& input, const std::vector<std::string_view>& fields,
                         std::size_t expected, std::string_view layout);

}  // namespace polydg::gmsh
