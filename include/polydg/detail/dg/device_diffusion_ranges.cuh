#pragma once
// DeviceDiffusionRanges: the penalty's per-element diffusion ranges (ā, polydg/dg/penalty.hpp) in
// device memory, brought up to date before each assembly. A coefficient A(x) is evaluated at the
// element's points (diffusion_range_kernel.cuh). A constant A (ConstantCoefficient) is every
// element's range as it is: the ranges are filled with it, and not even that where they already
// hold the same constant — so an assembly with, say, the heat equation's A = I reads no points
// for them: at P_1 that pass is a noticeable part of a re-assembly.
//
// The ranges do not depend on the geometry when A is constant, so map_last_coordinate keeps
// them; a non-constant A recomputes them on every update.
#include <cuda_runtime.h>

#include <cstring>
#include <optional>

#include "polydg/core/device_buffer.hpp"
#include "polydg/detail/core/forall.cuh"
#include "polydg/detail/dg/device_quadrature_mesh.cuh"
#include "polydg/detail/dg/diffusion_range_kernel.cuh"
#include "polydg/dg/coefficients.hpp"
#include "polydg/dg/diffusion_ranges.hpp"
#include "polydg/dg/penalty.hpp"

namespace polydg {

template <int Dim>
class DeviceDiffusionRanges {
 public:
  DeviceDiffusionRanges() = default;
  explicit DeviceDiffusionRanges(Index element_count) : ranges_(std::size_t(element_count)) {}

  /// The ranges of `coefficients.diffusion` on `mesh` (whose element count this was made for),
  /// asynchronously on `stream`. Throws polydg::Error for a constant A that is not finite (a
  /// variable one is caught by the assembly's finite check).
  template <class Coefficients>
  void update(const DeviceQuadratureMesh<Dim>& mesh, const Coefficients& coefficients,
              cudaStream_t stream = nullptr) {
    require(mesh.element_count() == Index(ranges_.size()),
            "DeviceDiffusionRanges: ", ranges_.size(), " ranges for a mesh of ",
            mesh.element_count(), " elements");
    if constexpr (ConstantCoefficient<decltype(coefficients.diffusion)>) {
      fill_constant(constant_diffusion_range<Dim>(coefficients.diffusion.constant_value()), stream);
    } else {
      // Per-point coefficients without per-point values are constant at run time.
      if constexpr (requires { coefficients.diffusion.uniform_value(); }) {
        if (const auto uniform = coefficients.diffusion.uniform_value()) {
          fill_constant(constant_diffusion_range<Dim>(*uniform), stream);
          return;
        }
      }
      constant_.reset();
      compute_diffusion_ranges_on_device(mesh, coefficients, ranges_.data(), stream);
    }
  }

  /// ranges[e] for every element, in device memory.
  const DiffusionRange<Dim>* data() const { return ranges_.data(); }

  /// Every element's range is `range` (no pass where they hold it already). (Public: the
  /// device lambda's enclosing function may not be private.)
  void fill_constant(const DiffusionRange<Dim>& range, cudaStream_t stream) {
    if (constant_ && std::memcmp(&*constant_, &range, sizeof range) == 0) return;
    DiffusionRange<Dim>* ranges = ranges_.data();
    device::forall(
        GlobalIndex(ranges_.size()), [=] __device__(GlobalIndex e) { ranges[e] = range; }, stream);
    constant_ = range;
  }

 private:
  device::DeviceBuffer<DiffusionRange<Dim>> ranges_;
  /// The constant the ranges hold, where the last update was of a constant A.
  std::optional<DiffusionRange<Dim>> constant_;
};

}  // namespace polydg
