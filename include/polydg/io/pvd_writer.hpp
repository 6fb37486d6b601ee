#pragma once
/// A ParaView time series (.pvd): a list of (time, .vtu file) pairs, rewritten after each
/// add() so an interrupted run still leaves a readable series. Paths of the .vtu files are
/// written relative to the .pvd file's folder. Throws polydg::Error naming the path when the
/// file cannot be written.
#include <filesystem>
#include <utility>
#include <vector>

namespace polydg {

class PvdWriter {
 public:
  explicit PvdWriter(std::filesystem::path path) : path_(std::move(path)) {}
  /// Records that `vtu` holds the field at `time`, and rewrites the .pvd file.
  void add(double time, const std::filesystem::path& vtu);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::vector<std::pair<double, std::filesystem::path>> entries_;
};

}  // namespace polydg
