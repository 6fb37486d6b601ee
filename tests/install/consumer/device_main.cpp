// The precompiled GPU assembly from a plain C++ program against the installed package: no
// nvcc, no CUDA language. Assembles a variable-coefficient problem on the GPU with
// DevicePointCoefficients (host functions at the quadrature points) and compares with the CPU
// Assembler (1e-13 relative: the same terms summed in other orders). Without a device it only
// proves that it compiles and links, and says so.
#include <cmath>
#include <iostream>
#include <memory>
#include <polydg/core/device_buffer.hpp>
#include <polydg/dg/assembler.hpp>
#include <polydg/dg/device_assembler.hpp>
#include <polydg/dg/device_point_coefficients.hpp>
#include <polydg/mesh/agglomeration.hpp>
#include <polydg/mesh/generators.hpp>
#include <vector>

int main() {
  if (polydg::device::device_count() == 0) {
    std::cout << "device_consumer: no CUDA device; compiled and linked as plain C++\n";
    return 0;
  }
  auto fine = std::make_shared<const polydg::SimplexMesh<2>>(polydg::unit_square_mesh(16, 0.2, 5));
  const polydg::PolytopicMesh<2> mesh(fine, polydg::agglomerate(*fine, 20).element_of_cell, 2);
  const auto data =
      polydg::make_coefficients<2>()
          .with_diffusion([](const polydg::Point<2>& x) {
            return polydg::Tensor<2>::identity(1 + x[0] * x[1]);
          })
          .with_source([](const polydg::Point<2>& x) { return std::sin(x[0]) + x[1]; })
          .with_dirichlet([](const polydg::Point<2>& x) { return x[0] - x[1]; });
  const polydg::BoundaryConditions conditions = polydg::BoundaryConditions::all_dirichlet();
  polydg::Assembler<2> cpu(mesh, conditions);
  auto matrix = cpu.make_matrix();
  auto rhs = cpu.make_vector();
  cpu.assemble(data, matrix, rhs);
  polydg::DeviceAssembler<2> gpu(mesh, conditions);
  polydg::DevicePointCoefficients<2> points(gpu);
  points.set(data);
  gpu.assemble(points.view());
  const std::vector<double> values = gpu.values_to_host(), gpu_rhs = gpu.rhs_to_host();
  double difference = 0, norm = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    difference += (values[k] - matrix.values()[k]) * (values[k] - matrix.values()[k]);
    norm += matrix.values()[k] * matrix.values()[k];
  }
  for (std::size_t k = 0; k < gpu_rhs.size(); ++k) {
    difference += (gpu_rhs[k] - rhs[k]) * (gpu_rhs[k] - rhs[k]);
    norm += rhs[k] * rhs[k];
  }
  const double relative = std::sqrt(difference / norm);
  std::cout << "device_consumer: |GPU - CPU| / |CPU| = " << relative << '\n';
  return relative <= 1e-13 ? 0 : 1;
}
