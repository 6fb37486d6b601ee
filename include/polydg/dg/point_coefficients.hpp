#pragma once
/// Coefficients given by their values at the quadrature points of a device mesh: the route for
/// data that is not a __host__ __device__ functor (a host function, a field from another code,
/// a previous solution), and the coefficient type whose GPU kernels libpolydg compiles, so that
/// a program assembling with it is plain C++ (device_assembler.hpp).
///
/// PointValues<T> is one coefficient: a value per quadrature point of each kind (element
/// points, boundary-facet points, interface-facet points) in device memory, or, where an array
/// is null, one constant. The points are numbered as the DeviceAssembler's mesh numbers them
/// (DeviceAssembler::quadrature_points gives their coordinates in that order); an array of a
/// kind has one entry per point of that kind. Which kinds a coefficient is read at:
///   diffusion, advection   element, boundary and interface points
///   reaction, source       element points
///   dirichlet, neumann     boundary points
/// so A and b need all three arrays or none. DevicePointCoefficients
/// (device_point_coefficients.hpp) owns such arrays and fills them from a host functor.
///
/// The kernels call coefficient_at(f, point, x...): f.at(point, x...) for a point-indexed
/// coefficient (point_indexed, below), f(x...) for any other, so the same kernels serve both.
#include <optional>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/coefficients.hpp"

namespace polydg {

enum class PointKind : unsigned char { element, boundary, interface };

/// A quadrature point of a device mesh: its kind and its number among the points of that kind.
struct PointIndex {
  PointKind kind = PointKind::element;
  GlobalIndex index = 0;
};

template <class T>
struct PointValues {
  /// The kernels pass the point (coefficient_at).
  static constexpr bool point_indexed = true;
  T constant{};                  ///< where the kind's array is null
  const T* element = nullptr;    ///< device memory, one per element point
  const T* boundary = nullptr;   ///< one per boundary-facet point
  const T* interface = nullptr;  ///< one per interface-facet point

  template <class... Arguments>
  POLYDG_HD T at(PointIndex point, const Arguments&...) const {
    const T* values = point.kind == PointKind::element    ? element
                      : point.kind == PointKind::boundary ? boundary
                                                          : interface;
    return values ? values[point.index] : constant;
  }
  /// The value every point has, where no array is set: the assembly then skips the work a
  /// constant settles in advance (the penalty's diffusion ranges). Host only.
  std::optional<T> uniform_value() const {
    if (element || boundary || interface) return std::nullopt;
    return constant;
  }
};

/// F's kernels' calls pass the quadrature point (F::point_indexed).
template <class F>
concept PointIndexedCoefficient = requires {
  requires F::point_indexed;
};

/// f at quadrature point `point` with coordinates (and normal) `arguments`.
template <class F, class... Arguments>
POLYDG_HD POLYDG_INLINE auto coefficient_at(const F& f, PointIndex point,
                                            const Arguments&... arguments) {
  if constexpr (PointIndexedCoefficient<F>) {
    return f.at(point, arguments...);
  } else {
    (void)point;
    return f(arguments...);
  }
}

/// Some member of Coefficients is point-indexed: the kernels then compute the point numbers.
template <class Coefficients>
inline constexpr bool uses_point_indices =
    PointIndexedCoefficient<decltype(Coefficients::diffusion)> ||
    PointIndexedCoefficient<decltype(Coefficients::advection)> ||
    PointIndexedCoefficient<decltype(Coefficients::reaction)> ||
    PointIndexedCoefficient<decltype(Coefficients::source)> ||
    PointIndexedCoefficient<decltype(Coefficients::dirichlet)> ||
    PointIndexedCoefficient<decltype(Coefficients::neumann)>;

/// Every coefficient given per point (or as a constant where its arrays are null).
template <int Dim>
using PointCoefficients =
    Coefficients<Dim, PointValues<Tensor<Dim>>, PointValues<Point<Dim>>, PointValues<double>,
                 PointValues<double>, PointValues<double>, PointValues<double>>;

/// The same data in per-point form, every member a constant (no arrays).
template <int Dim, class Diffusion, class Advection, class Reaction, class Source, class Dirichlet,
          class Neumann>
requires ConstantCoefficient<Diffusion> && ConstantCoefficient<Advection> &&
    ConstantCoefficient<Reaction> && ConstantCoefficient<Source> &&
    ConstantCoefficient<Dirichlet> && ConstantCoefficient<Neumann>
        PointCoefficients<Dim> as_point_coefficients(
            const Coefficients<Dim, Diffusion, Advection, Reaction, Source, Dirichlet, Neumann>&
                data) {
  PointCoefficients<Dim> result;
  result.diffusion.constant = data.diffusion.constant_value();
  result.advection.constant = data.advection.constant_value();
  result.reaction.constant = data.reaction.constant_value();
  result.source.constant = data.source.constant_value();
  result.dirichlet.constant = data.dirichlet.constant_value();
  result.neumann.constant = data.neumann.constant_value();
  return result;
}

}  // namespace polydg
