#pragma once
// The basis at a quadrature point as the tiled kernels (tiled_point_schedule.cuh) hold it: in a
// point's record, the per-axis tables of evaluate_basis_tables (2 · Dim · stride Reals, stride
// = the launch's degree + 1), and per basis function a code, its packed multi-index, from which
// any thread forms φ and ∇φ with basis_function_from_tables — the same product as the CPU's.
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/fem/legendre_basis.hpp"

namespace polydg::device::detail {

/// Reals of one element's tables in a record.
template <int Dim>
POLYDG_HD constexpr int basis_tables_size(int stride) {
  return 2 * Dim * stride;
}

/// The tables of the degree-p basis of the element with bounding box `box` (and its
/// inverse_extents, DeviceQuadratureMeshView::box_inverse_extents) at x (p < stride).
template <int Dim, class Real>
POLYDG_HD inline void write_basis_tables(int p, const Box<Dim>& box,
                                         const Point<Dim>& inverse_extent, const Point<Dim>& x,
                                         Real* tables, int stride) {
  evaluate_basis_tables<Dim, Real>(p, convert<Real>(box), convert<Real>(inverse_extent),
                                   convert<Real>(x), tables, tables + Dim * stride, stride);
}

/// The code of function k of the degree-p basis of `space`: 4 bits per axis (p ≤ 10 < 16).
template <int Dim>
POLYDG_HD inline int basis_function_code(BasisSpace space, int p, int k) {
  static_assert(Dim <= 7, "4 bits per axis in an int");
  const MultiIndex<Dim> alpha = space_multi_index<Dim>(space, p, k);
  int code = 0;
  for (int i = 0; i < Dim; ++i) code |= alpha[i] << (4 * i);
  return code;
}

/// φ and ∇φ of the function with `code` from the tables.
template <int Dim, class Real>
POLYDG_HD inline void basis_function_at(const Real* tables, int stride, int code, Real& value,
                                        Real* gradient) {
  MultiIndex<Dim> alpha;
  for (int i = 0; i < Dim; ++i) alpha[i] = (code >> (4 * i)) & 15;
  basis_function_from_tables<Dim, Real>(tables, tables + Dim * stride, stride, alpha, value,
                                        gradient);
}

}  // namespace polydg::device::detail
