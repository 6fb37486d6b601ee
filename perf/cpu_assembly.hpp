#pragma once
// What the CPU backend gave on a benchmark's mesh, for the GPU runs to compare against, and the
// comparison.
#include <cmath>
#include <span>
#include <vector>

namespace polydg::bench {

/// The CPU's matrix values (BlockMatrix layout) and rhs; empty where the CPU was not run.
struct CpuAssembly {
  std::vector<double> values, rhs;
};

/// |gpu − cpu| / |cpu| in the Frobenius norm; −1 when there is nothing to compare (cpu empty,
/// e.g. the CPU not run at this degree, or of another size).
inline double relative_difference(std::span<const double> gpu, std::span<const double> cpu) {
  if (cpu.empty() || cpu.size() != gpu.size()) return -1;
  double difference = 0, norm = 0;
  for (std::size_t k = 0; k < cpu.size(); ++k) {
    difference += (gpu[k] - cpu[k]) * (gpu[k] - cpu[k]);
    norm += cpu[k] * cpu[k];
  }
  return std::sqrt(difference / norm);
}

}  // namespace polydg::bench
