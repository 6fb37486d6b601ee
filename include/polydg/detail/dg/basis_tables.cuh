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

/// The tables' stride: FixedStride where it is known at compile time (> 0), else `stride`.
POLYDG_HD constexpr int table_stride(int fixed_stride, int stride) {
  return fixed_stride > 0 ? fixed_stride : stride;
}

/// condition ? a : b, as a PTX selp that the compiler cannot turn back into an indexed load: from
/// `c ? x[1] : x[0]` nvcc made a load at a computed index, which put x in local memory.
template <class Real>
POLYDG_HD inline Real select_value(bool condition, Real a, Real b) {
#ifdef __CUDA_ARCH__
  Real result;
  if constexpr (sizeof(Real) == 8)
    asm("{ .reg .pred p; setp.ne.s32 p, %3, 0; selp.f64 %0, %1, %2, p; }"
        : "=d"(result)
        : "d"(a), "d"(b), "r"(int(condition)));
  else
    asm("{ .reg .pred p; setp.ne.s32 p, %3, 0; selp.f32 %0, %1, %2, p; }"
        : "=f"(result)
        : "f"(a), "f"(b), "r"(int(condition)));
  return result;
#else
  return condition ? a : b;
#endif
}

/// φ and ∇φ of the function with `code` from the tables (stride: table_stride(FixedStride,
/// stride)). With a FixedStride each factor is chosen by selects among the axis's entries
/// instead of an index computed from the code: with every index fixed at compile time, a record
/// in registers stays there (thread_item_kernel.cuh); an index known only at run time puts the
/// array in local memory. The same products in the same order either way: the same bits.
template <int Dim, class Real, int FixedStride = 0>
POLYDG_HD inline void basis_function_at(const Real* tables, int stride, int code, Real& value,
                                        Real* gradient) {
  MultiIndex<Dim> alpha;
  for (int i = 0; i < Dim; ++i) alpha[i] = (code >> (4 * i)) & 15;
  if constexpr (FixedStride > 0) {
    // Axis i's entry α_i, gathered: each entry at a fixed place, chosen by select_value.
    Real factors[Dim], derivatives[Dim];
#pragma unroll
    for (int i = 0; i < Dim; ++i) {
      factors[i] = tables[i * FixedStride];
      derivatives[i] = tables[(Dim + i) * FixedStride];
#pragma unroll
      for (int k = 1; k < FixedStride; ++k) {
        factors[i] = select_value(alpha[i] == k, tables[i * FixedStride + k], factors[i]);
        derivatives[i] =
            select_value(alpha[i] == k, tables[(Dim + i) * FixedStride + k], derivatives[i]);
      }
    }
    basis_function_from_tables<Dim, Real>(factors, derivatives, 1, MultiIndex<Dim>{}, value,
                                          gradient);
  } else {
    basis_function_from_tables<Dim, Real>(tables, tables + Dim * stride, stride, alpha, value,
                                          gradient);
  }
}

}  // namespace polydg::device::detail
