#include "gmsh_input.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>

namespace polydg::gmsh {
namespace {

template <class Unsigned>
Unsigned decode(const unsigned char* bytes, bool swap) {
  unsigned char ordered[sizeof(Unsigned)];
  for (std::size_t i = 0; i < sizeof(Unsigned); ++i)
    ordered[i] = swap ? bytes[sizeof(Unsigned) - 1 - i] : bytes[i];
  Unsigned value;
  std::memcpy(&value, ordered, sizeof(Unsigned));
  return value;
}

}  // namespace

bool MshInput::read_line(std::string& line) {
  if (!std::getline(in_, line)) return false;
  ++line_number_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

const std::string& MshInput::expect_line(std::string_view section, long section_line) {
  while (read_line(line_))
    if (!trimmed(line_).empty()) return line_;
  fail("unexpected end of file inside $", section, " (begun at line ", section_line,
       "); the file is truncated");
}

const std::string& MshInput::expect_entry(std::string_view section, long section_line,
                                          long declared_line, std::uint64_t declared,
                                          std::uint64_t read, std::string_view entries) {
  const std::string& line = expect_line(section, section_line);
  if (line.find('$') != std::string::npos)
    fail("$", section, " ends after ", read, " of the ", declared, " ", entries,
         " declared at line ", declared_line, " (found '", trimmed(line).substr(0, 60), "')");
  return line;
}

void MshInput::skip_section(std::string_view section, long section_line) {
  const std::string end = "$End" + std::string(section);
  while (read_line(line_))
    if (trimmed(line_) == end) return;
  fail("unexpected end of file inside $", section, " (begun at line ", section_line, "): no ", end);
}

void MshInput::expect_section_end(std::string_view section, std::string_view what_was_read) {
  const std::string end = "$End" + std::string(section);
  while (read_line(line_)) {
    const std::string_view text = trimmed(line_);
    if (text.empty()) continue;
    if (text == end) return;
    fail("expected ", end, " after ", what_was_read, ", found '", text.substr(0, 60),
         "' (more entries than declared?)");
  }
  fail("unexpected end of file: ", end, " missing after ", what_was_read,
       "; the file is truncated");
}

void MshInput::begin_binary(std::string_view section, bool swap_bytes, int size_bytes) {
  binary_section_ = section;
  binary_header_line_ = line_number_;
  binary_bytes_read_ = 0;
  swap_bytes_ = swap_bytes;
  size_bytes_ = size_bytes;
}

std::string MshInput::location() const {
  if (in_binary())
    return detail::concatenate(name_, ":", reported_line(), ": binary $", binary_section_,
                               " section, byte ", binary_bytes_read_, ": ");
  return detail::concatenate(name_, ":", line_number_, ": ");
}

void MshInput::read_bytes(void* destination, std::size_t count) {
  in_.read(static_cast<char*>(destination), std::streamsize(count));
  const auto got = std::size_t(in_.gcount());
  if (got != count)
    fail("unexpected end of file (", count, " bytes needed, ", got,
         " left); the file is truncated");
  const auto* bytes = static_cast<const char*>(destination);
  line_number_ += long(std::count(bytes, bytes + count, '\n'));
  binary_bytes_read_ += count;
}

int MshInput::read_int() {
  unsigned char bytes[4];
  read_bytes(bytes, 4);
  return int(decode<std::uint32_t>(bytes, swap_bytes_));
}

std::uint64_t MshInput::read_size() {
  std::uint64_t value;
  read_sizes(&value, 1);
  return value;
}

double MshInput::read_double() {
  double value;
  read_doubles(&value, 1);
  return value;
}

void MshInput::read_sizes(std::uint64_t* destination, std::size_t count) {
  scratch_.resize(count * size_bytes_);
  read_bytes(scratch_.data(), scratch_.size());
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char* bytes = scratch_.data() + i * size_bytes_;
    destination[i] = size_bytes_ == 8 ? decode<std::uint64_t>(bytes, swap_bytes_)
                                      : decode<std::uint32_t>(bytes, swap_bytes_);
  }
}

void MshInput::read_doubles(double* destination, std::size_t count) {
  scratch_.resize(count * 8);
  read_bytes(scratch_.data(), scratch_.size());
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t bits = decode<std::uint64_t>(scratch_.data() + 8 * i, swap_bytes_);
    std::memcpy(destination + i, &bits, 8);
  }
}

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

void split_fields(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t position = 0;
  while (true) {
    position = line.find_first_not_of(" \t", position);
    if (position == std::string_view::npos) return;
    const std::size_t end = std::min(line.find_first_of(" \t", position), line.size());
    fields.push_back(line.substr(position, end - position));
    position = end;
  }
}

long long parse_integer(const MshInput& input, std::string_view field, std::string_view what) {
  long long value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error == std::errc::result_out_of_range) input.fail(what, " '", field, "' is out of range");
  if (error != std::errc() || end != field.data() + field.size())
    input.fail("expected ", what, " (an integer), found '", field.substr(0, 40), "'");
  return value;
}

std::uint64_t parse_count(const MshInput& input, std::string_view field, std::string_view what) {
  const long long value = parse_integer(input, field, what);
  if (value < 0) input.fail(what, " is ", value, "; it must not be negative");
  return std::uint64_t(value);
}

int parse_int(const MshInput& input, std::string_view field, std::string_view what) {
  const long long value = parse_integer(input, field, what);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
    input.fail(what, " '", field, "' is out of range");
  return int(value);
}

double parse_double(const MshInput& input, std::string_view field, std::string_view what) {
  double value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  // Out of range means overflow to ±inf or underflow to 0; report it like any bad number.
  if (error != std::errc() || end != field.data() + field.size())
    input.fail("expected ", what, " (a number), found '", field.substr(0, 40), "'");
  return value;
}

void require_field_count(const MshInput& input, const std::vector<std::string_view>& fields,
                         std::size_t expected, std::string_view layout) {
  if (fields.size() != expected)
    input.fail("expected ", expected, " fields (", layout, "), found ", fields.size());
}

}  // namespace polydg::gmsh
