#pragma once
// What the CPU Assembler gave on a benchmark's mesh, for the GPU runs to compare against.
#include <vector>

namespace polydg::bench {

/// The CPU's matrix values (BlockMatrix layout) and rhs; empty where the CPU was not run.
struct CpuAssembly {
  std::vector<double> values, rhs;
};

}  // namespace polydg::bench
