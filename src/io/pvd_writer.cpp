#include "polydg/io/pvd_writer.hpp"

#include <fstream>

#include "polydg/core/error.hpp"

namespace polydg {

void PvdWriter::add(double time, const std::filesystem::path& vtu) {
  entries_.emplace_back(time, vtu);
  std::ofstream out(path_);
  require(bool(out), "PvdWriter: cannot write ", path_.string());
  out.precision(17);
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  const std::filesystem::path folder = path_.parent_path();
  for (const auto& [t, file] : entries_)
    out << "    <DataSet timestep=\"" << t << "\" part=\"0\" file=\""
        << (folder.empty() ? file : std::filesystem::relative(file, folder)).string() << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  require(bool(out), "PvdWriter: cannot write ", path_.string());
}

}  // namespace polydg
