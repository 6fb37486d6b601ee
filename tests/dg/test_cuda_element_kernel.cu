// The device element kernel (include/polydg/detail/dg/element_kernel.cuh) against the CPU reference
// assemble_elements (the same POLYDG_HD integrand): diagonal blocks and rhs of agglomerated
// unit-square meshes (2D P_p, p = 1..5, and mixed degrees 1..5) and of space-time slabs (3D,
// p = 1..3, P_p and PQ_p), with variable __host__ __device__ coefficients. Relative Frobenius
// difference ≤ 1e-13 (the device contracts to FMAs, the CPU does not); off-diagonal blocks stay
// zero; two device runs give the same bits; matrix-only and rhs-only launches give the same bits
// as the full one; with DiagonalBlockWrite::overwrite, into values that hold NaN, the diagonal
// blocks come out with the same bits and nothing else is written. The device diffusion ranges
// (the penalty's ā) agree with the CPU's to 1e-13; a constant A's (DeviceDiffusionRanges) are
// the CPU's bit for bit, and a variable A after it replaces them. The space-time A = diag(a, 0)
// (one component fewer) gives the bits of the same coefficients as general 3D callables. Exits 77
// (ctest: Skipped) when no CUDA device is present.
#define BOOST_TEST_MODULE cuda_element_kernel
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu_test_main.hpp"
#include "gpu_test_support.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/detail/dg/device_diffusion_ranges.cuh"
#include "polydg/detail/dg/diffusion_range_kernel.cuh"
#include "polydg/detail/dg/element_kernel.cuh"
#include "polydg/dg/assembly_kernels.hpp"
#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/dg/diffusion_ranges.hpp"
#include "polydg/dg/quadrature_mesh.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/generators.hpp"
#include "polydg/mesh/polytopic_mesh.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/spacetime/space_time_coefficients.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/device_block_pattern.hpp"

using namespace polydg;

namespace element_kernel_test {

using testing::relative_difference;
using testing::same_bits;
using testing::small_run;

constexpr double tolerance = 1e-13;

struct DeviceResult {
  std::vector<double> values, rhs;
};

// One device assembly into zeroed arrays (or, with `overwrite`, into values that all hold NaN);
// a target left out stays empty.
template <int Dim, class Coefficients>
DeviceResult run_device(const DeviceQuadratureMesh<Dim>& data, const DeviceBlockPattern& pattern,
                        const Coefficients& coefficients, bool matrix, bool rhs,
                        bool overwrite = false) {
  const std::vector<double> initial_values(std::size_t(pattern.value_count()),
                                           overwrite ? std::nan("") : 0.0);
  const std::vector<double> zero_rhs(std::size_t(pattern.dof_count()), 0.0);
  device::DeviceBuffer<double> values{std::span<const double>(initial_values)};
  device::DeviceBuffer<double> vector{std::span<const double>(zero_rhs)};
  assemble_elements_on_device(data, pattern.view(), coefficients, matrix ? values.data() : nullptr,
                              rhs ? vector.data() : nullptr, {}, nullptr,
                              overwrite ? DiagonalBlockWrite::overwrite : DiagonalBlockWrite::add);
  device::synchronize();
  DeviceResult result;
  if (matrix) result.values = values.to_host();
  if (rhs) result.rhs = vector.to_host();
  return result;
}

template <int Dim, class Coefficients>
void check_mesh(const PolytopicMesh<Dim>& mesh, BasisSpace space, const Coefficients& coefficients,
                const std::string& name) {
  BOOST_TEST_INFO_SCOPE(name);
  QuadratureMesh<Dim> quadrature_mesh(mesh, BoundaryConditions::all_dirichlet());
  quadrature_mesh.space = space;
  const Index elements = quadrature_mesh.element_count();
  std::vector<Index> block_sizes(elements);
  for (Index e = 0; e < elements; ++e)
    block_sizes[e] = space_basis_size(space, Dim, quadrature_mesh.element_degrees[e]);
  const BlockPattern pattern(block_sizes, quadrature_mesh.interface_elements);
  const QuadratureDegrees degrees;

  // CPU reference: the element kernel alone, as Assembler::run calls it, on zeroed values.
  std::vector<double> values(std::size_t(pattern.value_count()), 0.0);
  std::vector<double> rhs(std::size_t(pattern.dof_count()), 0.0);
  const AssemblyData<Dim> cpu_data{quadrature_mesh, pattern, {}, degrees, 10.0,
                                   {true, true},    values,  rhs};
  assemble_elements(cpu_data, coefficients);

  const DeviceBlockPattern device_pattern =
      build_block_pattern_on_device(block_sizes, quadrature_mesh.interface_elements);
  const DeviceQuadratureMesh<Dim> device_data(quadrature_mesh, degrees);
  const DeviceResult first = run_device(device_data, device_pattern, coefficients, true, true);
  const DeviceResult second = run_device(device_data, device_pattern, coefficients, true, true);
  const DeviceResult matrix_only =
      run_device(device_data, device_pattern, coefficients, true, false);
  const DeviceResult rhs_only = run_device(device_data, device_pattern, coefficients, false, true);
  const DeviceResult overwritten =
      run_device(device_data, device_pattern, coefficients, true, false, true);

  // Diagonal blocks compared; every other block must be untouched (zero).
  std::vector<double> host_diagonal, device_diagonal, overwritten_diagonal;
  bool off_diagonal_zero = true, off_diagonal_untouched = true;
  for (Index e = 0; e < elements; ++e)
    for (Index block = pattern.block_row_begin(e); block < pattern.block_row_begin(e + 1);
         ++block) {
      const GlobalIndex begin = pattern.block_value_offset(block);
      const GlobalIndex end = pattern.block_value_offset(block + 1);
      for (GlobalIndex k = begin; k < end; ++k)
        if (block == pattern.diagonal_block(e)) {
          host_diagonal.push_back(values[k]);
          device_diagonal.push_back(first.values[k]);
          overwritten_diagonal.push_back(overwritten.values[k]);
        } else {
          off_diagonal_zero = off_diagonal_zero && first.values[k] == 0.0;
          off_diagonal_untouched = off_diagonal_untouched && std::isnan(overwritten.values[k]);
        }
    }
  const double matrix_difference = relative_difference(device_diagonal, host_diagonal);
  const double rhs_difference = relative_difference(first.rhs, rhs);
  BOOST_TEST_MESSAGE(name << ": elements " << elements << "  dofs " << pattern.dof_count()
                          << "  |D-C|/|C|: blocks " << matrix_difference << "  rhs "
                          << rhs_difference);
  BOOST_TEST(matrix_difference <= tolerance);
  BOOST_TEST(rhs_difference <= tolerance);
  BOOST_TEST(off_diagonal_zero);
  BOOST_TEST(same_bits(first.values, second.values));
  BOOST_TEST(same_bits(first.rhs, second.rhs));
  BOOST_TEST(same_bits(first.values, matrix_only.values));
  BOOST_TEST(matrix_only.rhs.empty());
  BOOST_TEST(same_bits(first.rhs, rhs_only.rhs));
  BOOST_TEST(rhs_only.values.empty());
  BOOST_TEST(same_bits(overwritten_diagonal, device_diagonal));
  BOOST_TEST(off_diagonal_untouched);

  // The penalty's diffusion ranges: the CPU's to rounding (min and max are exact, but the device
  // contracts the points' map to FMAs, so A is evaluated at points a rounding apart).
  const std::vector<DiffusionRange<Dim>> host_ranges =
      compute_diffusion_ranges(quadrature_mesh, coefficients, degrees);
  device::DeviceBuffer<DiffusionRange<Dim>> device_ranges{std::size_t(elements)};
  compute_diffusion_ranges_on_device(device_data, coefficients, device_ranges.data());
  const std::vector<DiffusionRange<Dim>> ranges = device_ranges.to_host();
  std::vector<double> host_extrema, device_extrema;
  for (std::size_t e = 0; e < ranges.size(); ++e)
    for (int i = 0; i < Dim; ++i)
      for (int j = 0; j < Dim; ++j) {
        host_extrema.insert(host_extrema.end(),
                            {host_ranges[e].lower[i][j], host_ranges[e].upper[i][j]});
        device_extrema.insert(device_extrema.end(), {ranges[e].lower[i][j], ranges[e].upper[i][j]});
      }
  const double range_difference = relative_difference(device_extrema, host_extrema);
  BOOST_TEST_MESSAGE(name << ": diffusion ranges |D-C|/|C| " << range_difference);
  BOOST_TEST(ranges.size() == host_ranges.size());
  BOOST_TEST(range_difference <= tolerance);
}

// DeviceDiffusionRanges (what DeviceAssembler uses): a constant A is every element's range, with
// the bits of the CPU's pass over the points of a callable returning it; a variable A replaces
// the ranges, and the constant after it (or another constant) replaces them again; a NaN
// constant is refused, naming the entry.
template <class Variable>
void check_constant_diffusion_ranges(const PolytopicMesh<3>& slab, const Variable& variable) {
  const QuadratureMesh<3> quadrature_mesh(slab, BoundaryConditions::all_dirichlet());
  const QuadratureDegrees degrees;
  const DeviceQuadratureMesh<3> device_data(quadrature_mesh, degrees);
  const Index elements = quadrature_mesh.element_count();
  const Tensor<3> a{{{2, 0.5, 0}, {0.5, 1, 0}, {0, 0, 0}}};
  const auto constant = make_coefficients<3>().with_diffusion(a);
  const auto pointwise = make_coefficients<3>().with_diffusion([a](const Point<3>&) { return a; });
  const auto other = make_coefficients<3>().with_diffusion(Tensor<3>::identity(3.0));
  const auto other_pointwise = make_coefficients<3>().with_diffusion(
      [](const Point<3>&) { return Tensor<3>::identity(3.0); });

  DeviceDiffusionRanges<3> ranges(elements);
  const auto held = [&] {
    std::vector<DiffusionRange<3>> host(static_cast<std::size_t>(elements));
    device::copy_device_to_host(host.data(), ranges.data(), host.size() * sizeof host[0]);
    return host;
  };
  const auto same = [](const std::vector<DiffusionRange<3>>& x,
                       const std::vector<DiffusionRange<3>>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof x[0]) == 0;
  };
  device::DeviceBuffer<DiffusionRange<3>> by_kernel{std::size_t(elements)};
  compute_diffusion_ranges_on_device(device_data, variable, by_kernel.data());

  ranges.update(device_data, constant);
  const bool constant_filled =
      same(held(), compute_diffusion_ranges(quadrature_mesh, pointwise, degrees));
  ranges.update(device_data, variable);
  const bool variable_computed = same(held(), by_kernel.to_host());
  ranges.update(device_data, constant);
  const bool constant_again =
      same(held(), compute_diffusion_ranges(quadrature_mesh, pointwise, degrees));
  ranges.update(device_data, other);
  const bool other_filled =
      same(held(), compute_diffusion_ranges(quadrature_mesh, other_pointwise, degrees));
  std::string message;
  try {
    ranges.update(device_data, make_coefficients<3>().with_diffusion(Tensor<3>::identity(nan(""))));
  } catch (const Error& error) {
    message = error.what();
  }
  BOOST_TEST_MESSAGE("constant diffusion ranges: filled "
                     << constant_filled << ", variable " << variable_computed << ", constant again "
                     << constant_again << ", other " << other_filled << "; " << message);
  BOOST_TEST(constant_filled);
  BOOST_TEST(variable_computed);
  BOOST_TEST(constant_again);
  BOOST_TEST(other_filled);
  BOOST_TEST(message.find("constant diffusion coefficient A is not finite (A[0][0] = nan)") !=
                 std::string::npos,
             message);
}

std::shared_ptr<const SimplexMesh<2>> fine_square(int n) {
  return std::make_shared<const SimplexMesh<2>>(unit_square_mesh(n, 0.2, 4));
}

void check_square_meshes() {
  const auto fine = fine_square(24);
  const Agglomeration parts = agglomerate(*fine, 40);
  // Variable coefficients on host and device (an extended lambda needs an enclosing function
  // without a deduced return type).
  const auto coefficients =
      make_coefficients<2>()
          .with_diffusion([] __host__ __device__(const Point<2>& x) {
            Tensor<2> a{};
            a[0][0] = 1 + x[0] * x[0];
            a[1][1] = 2 + x[1];
            a[0][1] = a[1][0] = 0.25 * x[0] * x[1];
            return a;
          })
          .with_advection([] __host__ __device__(const Point<2>& x) {
            return Point<2>{{1 + x[1], 0.5 - x[0]}};
          })
          .with_reaction([] __host__ __device__(const Point<2>& x) { return 1 + x[0] * x[1]; })
          .with_source(
              [] __host__ __device__(const Point<2>& x) { return sin(3 * x[0]) + exp(x[1]); });
  for (int p = 1; p <= (small_run() ? 2 : 5); ++p) {
    const PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
    check_mesh(mesh, BasisSpace::total_degree, coefficients, "square P_" + std::to_string(p));
  }
  // hp: degrees 1..5 mixed, so every degree group is launched.
  const Index elements = PolytopicMesh<2>(fine, parts.element_of_cell, 1).element_count();
  std::vector<int> mixed(static_cast<std::size_t>(elements));
  for (Index e = 0; e < elements; ++e) mixed[e] = 1 + int((7 * e) % 5);
  const PolytopicMesh<2> mesh(fine, parts.element_of_cell, mixed);
  check_mesh(mesh, BasisSpace::total_degree, coefficients, "square mixed p = 1..5");
}

// The slab's coefficients at x = (x, y, t): A = diag(a, 0), b = (w, 1) (docs/theory.md, "Space-time
// slabs"), given as the
// spatial a and w that space_time_coefficients lifts (SpaceTimeDiffusion: the element integrand
// leaves out its last component, an exact zero)...
struct SlabDiffusion {
  POLYDG_HD Tensor<2> operator()(const Point<3>& x) const {
    Tensor<2> a{};
    a[0][0] = 1 + x[0] * x[0];
    a[1][1] = 1 + x[1] * x[2];
    a[0][1] = a[1][0] = 0.1 * x[0];
    return a;
  }
};
struct SlabAdvection {
  POLYDG_HD Point<2> operator()(const Point<3>& x) const { return {{x[1] - 0.5, 0.5 - x[0]}}; }
};
// ... and as general 3D callables with the same values (the lifts' own, through types that do not
// say last_axis_free: all Dim + 1 components).
struct SlabDiffusion3D {
  POLYDG_HD Tensor<3> operator()(const Point<3>& x) const {
    return SpaceTimeDiffusion<SlabDiffusion>{SlabDiffusion{}}(x);
  }
};
struct SlabAdvection3D {
  POLYDG_HD Point<3> operator()(const Point<3>& x) const {
    return SpaceTimeAdvection<SlabAdvection>{SlabAdvection{}}(x);
  }
};
struct SlabReaction {
  POLYDG_HD double operator()(const Point<3>& x) const { return 0.5 + x[2]; }
};
struct SlabSource {
  POLYDG_HD double operator()(const Point<3>& x) const {
    return cos(2 * x[0]) * (1 + x[1]) * exp(-x[2]);
  }
};

// Element blocks and rhs on the device with coefficients `a` and `b` that have the same values:
// the same bits.
template <class CoefficientsA, class CoefficientsB>
void check_same_device_bits(const PolytopicMesh<3>& mesh, BasisSpace space, const CoefficientsA& a,
                            const CoefficientsB& b, const std::string& name) {
  QuadratureMesh<3> quadrature_mesh(mesh, BoundaryConditions::all_dirichlet());
  quadrature_mesh.space = space;
  std::vector<Index> block_sizes(quadrature_mesh.element_count());
  for (Index e = 0; e < quadrature_mesh.element_count(); ++e)
    block_sizes[e] = space_basis_size(space, 3, quadrature_mesh.element_degrees[e]);
  const DeviceBlockPattern pattern =
      build_block_pattern_on_device(block_sizes, quadrature_mesh.interface_elements);
  const DeviceQuadratureMesh<3> data(quadrature_mesh, QuadratureDegrees{});
  const DeviceResult first = run_device(data, pattern, a, true, true);
  const DeviceResult second = run_device(data, pattern, b, true, true);
  const bool same = same_bits(first.values, second.values) && same_bits(first.rhs, second.rhs);
  constexpr int components = device::detail::ElementLaunch<3, double, CoefficientsA>::components;
  constexpr int all = device::detail::ElementLaunch<3, double, CoefficientsB>::components;
  BOOST_TEST_MESSAGE(name << ": space-time A = diag(a, 0), " << components
                          << " components: the bits of all " << all << ": "
                          << (same ? "yes" : "NO"));
  BOOST_TEST(same, name << ": space-time A = diag(a, 0) against all components");
}

PolytopicMesh<2> slab_base() {
  const auto fine = fine_square(8);
  return PolytopicMesh<2>(fine, agglomerate(*fine, 10).element_of_cell, 1);
}

auto general_slab_coefficients() {
  return make_coefficients<3>()
      .with_diffusion(SlabDiffusion3D{})
      .with_advection(SlabAdvection3D{})
      .with_reaction(SlabReaction{})
      .with_source(SlabSource{});
}

void check_slab_meshes() {
  const PolytopicMesh<2> spatial = slab_base();
  const auto coefficients = general_slab_coefficients();
  const auto space_time = space_time_coefficients(make_coefficients<2>()
                                                      .with_diffusion(SlabDiffusion{})
                                                      .with_advection(SlabAdvection{})
                                                      .with_reaction(SlabReaction{})
                                                      .with_source(SlabSource{}));
  static_assert(device::detail::ElementLaunch<3, double, decltype(coefficients)>::components == 4);
  static_assert(device::detail::ElementLaunch<3, double, decltype(space_time)>::components == 3);
  // P_1: one element per thread; P_2, P_3: per warp; P_4: per block, the FP64 tensor cores.
  for (int p = 1; p <= (small_run() ? 1 : 4); ++p) {
    const PolytopicMesh<3> slab = make_slab_mesh(spatial, p);
    for (const BasisSpace space : {BasisSpace::total_degree, BasisSpace::total_degree_times_last}) {
      const std::string name = std::string("slab ") +
                               (space == BasisSpace::total_degree ? "P" : "PQ") + "_" +
                               std::to_string(p);
      if (p <= 3) check_mesh(slab, space, coefficients, name);
      check_mesh(slab, space, space_time, name);
      check_same_device_bits(slab, space, space_time, coefficients, name);
    }
  }
}

}  // namespace element_kernel_test

using namespace element_kernel_test;

// 2D P_p, p = 1..5 (1..2 in a small run), and degrees 1..5 mixed: blocks, rhs, bits, ranges.
BOOST_AUTO_TEST_CASE(square_meshes_equal_the_cpu) { check_square_meshes(); }

// 2D+1 slabs, P_p and PQ_p: general 3D coefficients to P_3, the space-time ones to P_4, and
// the two with the same values give the same bits.
BOOST_AUTO_TEST_CASE(slab_meshes_equal_the_cpu) { check_slab_meshes(); }

BOOST_AUTO_TEST_CASE(constant_diffusion_ranges_are_the_cpu_bits) {
  check_constant_diffusion_ranges(make_slab_mesh(slab_base(), 2), general_slab_coefficients());
}
