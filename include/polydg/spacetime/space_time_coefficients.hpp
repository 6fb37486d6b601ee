#pragma once
/// The data of a parabolic problem (docs/theory.md, "Space-time slabs, as built")
///     ∂t u − ∇·(a∇u) + w·∇u + c u = f  in J × D,  Dirichlet / Neumann on J × ∂D,
/// as problem (1) in d + 1 dimensions: A = diag(a, 0), b = (w, 1).
///
/// `spatial` is a Coefficients<2, ...> (make_coefficients<2>() and the with_* setters) whose
/// callables take the space-time point X = (x, y, t) as a Point<3>:
///   diffusion(X) → Tensor<2> a(x, t)      advection(X) → Point<2> w(x, t)
///   reaction(X), source(X), dirichlet(X) → double
///   neumann(X, n) → double, n the spatial outward normal (Point<2>)
/// Constants (with_diffusion(1.0), ...) work as they are. With __host__ __device__ spatial
/// callables (or constants) the result runs on the device as well.
#include <optional>
#include <utility>

#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/coefficients.hpp"
#include "polydg/dg/point_coefficients.hpp"

namespace polydg {

/// The space-time lifts of the spatial callables: named functors rather than lambdas so that
/// they run on the device too (POLYDG_HD) when the spatial callables do (DeviceAssembler).
template <class SpatialDiffusion>
struct SpaceTimeDiffusion {
  /// A's last row and column are zero: the element integrand leaves out its last component
  /// (element_components_for, element_integrand.hpp).
  static constexpr bool last_axis_free = true;
  /// A point-indexed spatial a (PointValues, point_coefficients.hpp) gives a point-indexed A.
  static constexpr bool point_indexed = PointIndexedCoefficient<SpatialDiffusion>;
  SpatialDiffusion a;
  POLYDG_HD Tensor<3> operator()(const Point<3>& x) const { return lift(a(x)); }
  POLYDG_HD Tensor<3> at(PointIndex point, const Point<3>& x) const requires
      PointIndexedCoefficient<SpatialDiffusion> {
    return lift(a.at(point, x));
  }
  /// A constant spatial a gives a constant A (ConstantCoefficient).
  POLYDG_HD Tensor<3> constant_value() const requires ConstantCoefficient<SpatialDiffusion> {
    return lift(a.constant_value());
  }
  /// ... and one without per-point values a uniform one (PointValues::uniform_value).
  std::optional<Tensor<3>> uniform_value() const requires
      requires(const SpatialDiffusion& spatial) {
    spatial.uniform_value();
  }
  {
    const auto spatial = a.uniform_value();
    if (!spatial) return std::nullopt;
    return lift(*spatial);
  }

 private:
  POLYDG_HD static Tensor<3> lift(const Tensor<2>& spatial_a) {
    Tensor<3> result{};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) result[i][j] = spatial_a[i][j];
    return result;
  }
};

template <class SpatialAdvection>
struct SpaceTimeAdvection {
  /// b's last component is 1: a slab's top face is outflow (top_face_idle, face_integrand.hpp).
  static constexpr bool last_component_positive = true;
  static constexpr bool point_indexed = PointIndexedCoefficient<SpatialAdvection>;
  SpatialAdvection w;
  POLYDG_HD Point<3> operator()(const Point<3>& x) const { return lift(w(x)); }
  POLYDG_HD Point<3> at(PointIndex point, const Point<3>& x) const requires
      PointIndexedCoefficient<SpatialAdvection> {
    return lift(w.at(point, x));
  }

 private:
  POLYDG_HD static Point<3> lift(const Point<2>& spatial_w) {
    return Point<3>{{spatial_w[0], spatial_w[1], 1.0}};
  }
};

template <class SpatialNeumann>
struct SpaceTimeNeumann {
  static constexpr bool point_indexed = PointIndexedCoefficient<SpatialNeumann>;
  SpatialNeumann g;
  POLYDG_HD double operator()(const Point<3>& x, const Point<3>& n) const {
    return g(x, Point<2>{{n[0], n[1]}});
  }
  POLYDG_HD double at(PointIndex point, const Point<3>& x,
                      const Point<3>& n) const requires PointIndexedCoefficient<SpatialNeumann> {
    return g.at(point, x, Point<2>{{n[0], n[1]}});
  }
};

template <class Spatial>
auto space_time_coefficients(const Spatial& spatial) {
  static_assert(Spatial::dimension == 2, "space_time_coefficients takes 2D spatial data");
  return make_coefficients<3>()
      .with_diffusion(SpaceTimeDiffusion<decltype(spatial.diffusion)>{spatial.diffusion})
      .with_advection(SpaceTimeAdvection<decltype(spatial.advection)>{spatial.advection})
      .with_reaction(spatial.reaction)
      .with_source(spatial.source)
      .with_dirichlet(spatial.dirichlet)
      .with_neumann(SpaceTimeNeumann<decltype(spatial.neumann)>{spatial.neumann});
}

/// The space-time coefficients of spatial data given per point of the slab mesh (2D values —
/// a, w, ... — at the slab's 3D quadrature points): the slab solvers' precompiled type.
using SpaceTimePointCoefficients =
    decltype(space_time_coefficients(std::declval<PointCoefficients<2>>()));

/// The spatial data `data` was made of: space_time_coefficients' inverse.
template <class Diffusion, class Advection, class Reaction, class Source, class Dirichlet,
          class Neumann>
auto spatial_coefficients(
    const Coefficients<3, SpaceTimeDiffusion<Diffusion>, SpaceTimeAdvection<Advection>, Reaction,
                       Source, Dirichlet, SpaceTimeNeumann<Neumann>>& data) {
  return make_coefficients<2>()
      .with_diffusion(data.diffusion.a)
      .with_advection(data.advection.w)
      .with_reaction(data.reaction)
      .with_source(data.source)
      .with_dirichlet(data.dirichlet)
      .with_neumann(data.neumann.g);
}

/// Space-time coefficients of constant spatial data in per-point form (no arrays).
template <class Diffusion, class Advection, class Reaction, class Source, class Dirichlet,
          class Neumann>
requires ConstantCoefficient<Diffusion> && ConstantCoefficient<Advection> &&
    ConstantCoefficient<Reaction> && ConstantCoefficient<Source> &&
    ConstantCoefficient<Dirichlet> && ConstantCoefficient<Neumann>
        SpaceTimePointCoefficients as_point_coefficients(
            const Coefficients<3, SpaceTimeDiffusion<Diffusion>, SpaceTimeAdvection<Advection>,
                               Reaction, Source, Dirichlet, SpaceTimeNeumann<Neumann>>& data) {
  return space_time_coefficients(as_point_coefficients(spatial_coefficients(data)));
}

}  // namespace polydg
