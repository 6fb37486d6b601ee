// The bounding-box Legendre basis evaluated by a CUDA kernel equals the host evaluation (the
// same POLYDG_HD code): values and gradients at random points of random boxes, Dim = 1..4,
// p = 0..10, double and float. Exits 77 (ctest: Skipped) without a CUDA device.
#define BOOST_TEST_MODULE cuda_basis
#include <cmath>
#include <random>
#include <vector>

#include "gpu_test_main.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/fem/legendre_basis.hpp"

using namespace polydg;

template <int Dim, class Real>
__global__ void evaluate_kernel(int p, int point_count, const Box<Dim, Real>* boxes,
                                const Point<Dim, Real>* points, Real* values,
                                Real (*gradients)[Dim]) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= point_count) return;
  const int n = basis_size(Dim, p);
  evaluate_basis_gradients<Dim, Real>(p, boxes[i], points[i], values + std::size_t(i) * n,
                                      gradients + std::size_t(i) * n);
}

// Largest |device − host| over all values and gradients, relative to the largest |host|.
template <int Dim, class Real>
double compare(int p, int point_count, std::mt19937_64& random) {
  std::uniform_real_distribution<double> uniform(-3, 3), extent(0.01, 2.0), unit(0, 1);
  std::vector<Box<Dim, Real>> boxes(point_count);
  std::vector<Point<Dim, Real>> points(point_count);
  for (int i = 0; i < point_count; ++i)
    for (int d = 0; d < Dim; ++d) {
      boxes[i].lower[d] = Real(uniform(random));
      boxes[i].upper[d] = boxes[i].lower[d] + Real(extent(random));
      points[i][d] = boxes[i].lower[d] + Real(unit(random)) * boxes[i].extent(d);
    }
  const int n = basis_size(Dim, p);
  device::DeviceBuffer<Box<Dim, Real>> boxes_device{std::span<const Box<Dim, Real>>(boxes)};
  device::DeviceBuffer<Point<Dim, Real>> points_device{std::span<const Point<Dim, Real>>(points)};
  device::DeviceBuffer<Real> values_device(std::size_t(point_count) * n);
  device::DeviceBuffer<Real> gradients_device(std::size_t(point_count) * n * Dim);
  evaluate_kernel<Dim, Real><<<(point_count + 127) / 128, 128>>>(
      p, point_count, boxes_device.data(), points_device.data(), values_device.data(),
      reinterpret_cast<Real(*)[Dim]>(gradients_device.data()));
  device::synchronize();
  const std::vector<Real> values = values_device.to_host();
  const std::vector<Real> gradients = gradients_device.to_host();

  double largest = 0, difference = 0;
  std::vector<Real> host_values(n), host_gradients(std::size_t(n) * Dim);
  for (int i = 0; i < point_count; ++i) {
    evaluate_basis_gradients<Dim, Real>(p, boxes[i], points[i], host_values.data(),
                                        reinterpret_cast<Real(*)[Dim]>(host_gradients.data()));
    for (int k = 0; k < n; ++k) {
      largest = std::max(largest, std::abs(double(host_values[k])));
      difference =
          std::max(difference, std::abs(double(values[std::size_t(i) * n + k]) - host_values[k]));
      for (int d = 0; d < Dim; ++d) {
        const double host = host_gradients[std::size_t(k) * Dim + d];
        largest = std::max(largest, std::abs(host));
        difference = std::max(
            difference, std::abs(double(gradients[(std::size_t(i) * n + k) * Dim + d]) - host));
      }
    }
  }
  return difference / largest;
}

template <int Dim>
void check_dimension(std::mt19937_64& random) {
  for (int p = 0; p <= max_basis_degree; ++p) {
    const double error_double = compare<Dim, double>(p, 2000, random);
    const double error_float = compare<Dim, float>(p, 2000, random);
    BOOST_TEST_MESSAGE("Dim " << Dim << " p " << p
                              << ": relative difference device vs host: double " << error_double
                              << ", float " << error_float);
    // Host and device may contract a*b+c differently; a few ulps of the largest entry.
    BOOST_TEST_CONTEXT("Dim " << Dim << ", p = " << p) {
      BOOST_TEST(error_double <= 1e-13);
      BOOST_TEST(error_float <= 1e-5);
    }
  }
}

// One seeded generator per dimension, so that each case runs alone (--run_test) on its points.
BOOST_AUTO_TEST_CASE(device_equals_host_1d) {
  std::mt19937_64 random(2026);
  check_dimension<1>(random);
}

BOOST_AUTO_TEST_CASE(device_equals_host_2d) {
  std::mt19937_64 random(2027);
  check_dimension<2>(random);
}

BOOST_AUTO_TEST_CASE(device_equals_host_3d) {
  std::mt19937_64 random(2028);
  check_dimension<3>(random);
}

BOOST_AUTO_TEST_CASE(device_equals_host_4d) {
  std::mt19937_64 random(2029);
  check_dimension<4>(random);
}
