#pragma once
// Test helper: the meshes of the tests that check one implementation against another (GPU = CPU
// assembly, shell = AIJ): their built-in mesh, then a 2D mesh of the user's where the environment
// names one (docs/user-guide.md, "Checking on your own mesh").
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "polydg/core/command_line.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/types.hpp"
#include "polydg/mesh/gmsh_reader.hpp"
#include "polydg/mesh/simplex_mesh.hpp"

namespace polydg::testing {

/// A fine 2D mesh, the polygons to agglomerate it into, and a name for the checks' lines.
struct TestMesh {
  std::string name;
  std::shared_ptr<const SimplexMesh<2>> fine;
  Index elements;  ///< at most its triangles
};

/// POLYDG_TEST_MESH=FILE.msh (2D Gmsh, any version the reader takes) in POLYDG_TEST_ELEMENTS
/// polygons (default `default_elements`); nothing where POLYDG_TEST_MESH is unset or empty.
/// The GPU assembly tests' earlier names, POLYDG_GPU_TEST_MESH / POLYDG_GPU_TEST_ELEMENTS, are
/// read where these are unset.
inline std::optional<TestMesh> user_test_mesh(Index default_elements) {
  const auto variable = [](const char* name,
                           const char* old_name) -> std::pair<const char*, const char*> {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return {name, value};
    value = std::getenv(old_name);
    if (value != nullptr && *value != '\0') return {old_name, value};
    return {name, nullptr};
  };
  const auto [file_variable, file] = variable("POLYDG_TEST_MESH", "POLYDG_GPU_TEST_MESH");
  if (file == nullptr) return std::nullopt;
  const auto [count_variable, count] = variable("POLYDG_TEST_ELEMENTS", "POLYDG_GPU_TEST_ELEMENTS");
  const Index elements = count ? Index(parse_integer(count_variable, count)) : default_elements;
  // ctest runs each test in its own folder: a relative path there is rarely the one meant.
  const std::filesystem::path path(file);
  if (path.is_relative() && !std::filesystem::exists(path))
    raise(file_variable, "=", file, ": no such file in the test's working directory ",
          std::filesystem::current_path().string(), "; give an absolute path");
  auto fine = std::make_shared<const SimplexMesh<2>>(read_gmsh<2>(file));
  const Index used = std::min(elements, fine->cell_count());
  std::printf("also checking %s (%s: %d triangles) in %d polygons\n", file, file_variable,
              int(fine->cell_count()), int(used));
  return TestMesh{file, std::move(fine), used};
}

/// `built_in`, then the user's mesh (user_test_mesh, by default in as many polygons).
inline std::vector<TestMesh> with_user_test_mesh(TestMesh built_in) {
  const Index elements = built_in.elements;
  std::vector<TestMesh> meshes{std::move(built_in)};
  if (std::optional<TestMesh> user = user_test_mesh(elements)) meshes.push_back(std::move(*user));
  return meshes;
}

}  // namespace polydg::testing
