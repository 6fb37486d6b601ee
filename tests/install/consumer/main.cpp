// Uses the installed headers and library: builds a mesh, agglomerates it, reports the device.
#include <cmath>
#include <iostream>
#include <polydg/core/device_buffer.hpp>
#include <polydg/mesh/generators.hpp>

int main() {
  const polydg::SimplexMesh<2> mesh = polydg::unit_square_mesh(16, 0.2, 5);
  std::cout << "cells " << mesh.cell_count() << " area " << mesh.total_measure() << " cuda "
            << polydg::device::compiled_with_cuda() << " devices " << polydg::device::device_count()
            << '\n';
  return (mesh.cell_count() == 512 && std::abs(mesh.total_measure() - 1) < 1e-12) ? 0 : 1;
}
