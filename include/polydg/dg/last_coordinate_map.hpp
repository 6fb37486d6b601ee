#pragma once
/// LastCoordinateMap: the affine map of the last coordinate that moves a space-time slab mesh
/// from [from_begin, from_end] onto [to_begin, to_end] (map_last_coordinate in
/// quadrature_mesh.hpp on the host, DeviceQuadratureMesh::map_last_coordinate on the device):
/// one copy of the formula, so both backends move a mesh to the same bits.
///
///   t ↦ to_begin + (t − from_begin) · scale,  scale = (to_end − to_begin) / (from_end −
///   from_begin)
///
/// The end points map exactly (t = from_end gives to_end, not a rounding of it). Cell measures
/// scale by `scale`; a facet's measure by facet_scale(its normal's last component): 1 for a
/// facet orthogonal to the last axis (bottom and top faces), `scale` for one parallel to it.
#include <cmath>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"

namespace polydg {

struct LastCoordinateMap {
  double from_begin = 0, from_end = 1, to_begin = 0, to_end = 1, scale = 1;

  LastCoordinateMap() = default;
  /// Throws polydg::Error for an empty (or reversed) interval.
  LastCoordinateMap(double from_begin_, double from_end_, double to_begin_, double to_end_)
      : from_begin(from_begin_), from_end(from_end_), to_begin(to_begin_), to_end(to_end_) {
    require(from_end > from_begin && to_end > to_begin, "map_last_coordinate: empty interval [",
            from_begin, ", ", from_end, "] or [", to_begin, ", ", to_end, "]");
    scale = (to_end - to_begin) / (from_end - from_begin);
  }

  POLYDG_HD double operator()(double t) const {
    if (t == from_begin) return to_begin;
    if (t == from_end) return to_end;
#if defined(__CUDA_ARCH__)
    // Rounded as on the host (no fused multiply-add): the same bits on both backends.
    return __dadd_rn(to_begin, __dmul_rn(t - from_begin, scale));
#else
    return to_begin + (t - from_begin) * scale;
#endif
  }

  /// The factor of a facet's measure, from the last component of its unit normal (the mesh's
  /// facets are orthogonal or parallel to the last axis: check_last_axis_facets).
  POLYDG_HD double facet_scale(double normal_last) const {
    return std::fabs(normal_last) > 0.5 ? 1.0 : scale;
  }
};

}  // namespace polydg
