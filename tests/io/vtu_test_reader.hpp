#pragma once
// Test helper: where the VTU tests write their files, and a minimal reader for the ASCII .vtu
// files that the library writes.
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace polydg::testing {

// Where the files go: $POLYDG_TEST_OUTPUT_DIR when set (ctest sets it so that the meshio check
// can read them), else `fallback_name` under the system's temporary directory.
inline std::filesystem::path vtu_output_directory(const std::string& fallback_name) {
  const char* configured = std::getenv("POLYDG_TEST_OUTPUT_DIR");
  const std::filesystem::path folder = configured
                                           ? std::filesystem::path(configured)
                                           : std::filesystem::temp_directory_path() / fallback_name;
  std::filesystem::create_directories(folder);
  return folder;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  BOOST_REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The values of the DataArray named `name` (a minimal reader for the ASCII files we write).
inline std::vector<double> data_array(const std::string& xml, const std::string& name) {
  const std::size_t tag = xml.find("Name=\"" + name + "\"");
  BOOST_REQUIRE_MESSAGE(tag != std::string::npos, "no DataArray " << name);
  const std::size_t begin = xml.find('>', tag) + 1;
  const std::size_t end = xml.find("</DataArray>", begin);
  std::istringstream values(xml.substr(begin, end - begin));
  std::vector<double> result;
  for (double v; values >> v;) result.push_back(v);
  return result;
}

// The integer value of the first attribute `name="..."` in the file.
inline long attribute(const std::string& xml, const std::string& name) {
  const std::size_t at = xml.find(name + "=\"");
  BOOST_REQUIRE(at != std::string::npos);
  return std::stol(xml.substr(at + name.size() + 2));
}

}  // namespace polydg::testing
