#pragma once
/// The data of a parabolic problem (SPEC §5)
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
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/coefficients.hpp"

namespace polydg {

/// The space-time lifts of the spatial callables: named functors rather than lambdas so that
/// they run on the device too (POLYDG_HD) when the spatial callables do (DeviceAssembler).
template <class SpatialDiffusion>
struct SpaceTimeDiffusion {
  /// A's last row and column are zero: the element integrand leaves out its last component
  /// (element_components_for, element_integrand.hpp).
  static constexpr bool last_axis_free = true;
  SpatialDiffusion a;
  POLYDG_HD Tensor<3> operator()(const Point<3>& x) const { return lift(a(x)); }
  /// A constant spatial a gives a constant A (ConstantCoefficient).
  POLYDG_HD Tensor<3> constant_value() const requires ConstantCoefficient<SpatialDiffusion> {
    return lift(a.constant_value());
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
  SpatialAdvection w;
  POLYDG_HD Point<3> operator()(const Point<3>& x) const {
    const Point<2> spatial_w = w(x);
    return Point<3>{{spatial_w[0], spatial_w[1], 1.0}};
  }
};

template <class SpatialNeumann>
struct SpaceTimeNeumann {
  SpatialNeumann g;
  POLYDG_HD double operator()(const Point<3>& x, const Point<3>& n) const {
    return g(x, Point<2>{{n[0], n[1]}});
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

}  // namespace polydg
