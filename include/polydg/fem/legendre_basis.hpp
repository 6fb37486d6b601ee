#pragma once
/// The bounding-box Legendre basis of P_p(κ) (docs/theory.md, "Basis"), for host and
/// device: the one copy of the basis that the CPU backend and the CUDA kernels both call.
///
/// For the element's axis-aligned bounding box B = Π_i [a_i, b_i] and ξ_i = (2x_i − a_i − b_i) /
/// (b_i − a_i), the basis is φ_α(x) = Π_i L̂_{α_i}(ξ_i), |α| ≤ p, numbered as in
/// basis_indexing.hpp (hierarchical: the first basis_size(Dim, q) functions span P_q). The φ_α
/// are orthogonal on B with ∫_B φ_α φ_β = δ_αβ Π_i (b_i − a_i)/2.
///
/// Contract (not checked: device code cannot throw; host code calls require_basis_degree):
/// 0 ≤ p ≤ max_basis_degree, the box has positive extent on every axis, `values` holds
/// basis_size(Dim, p) entries and `gradients` as many rows. x may lie outside the box (the
/// polynomials are simply extended). Real is float or double.
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/fem/legendre_1d.hpp"

namespace polydg {

static_assert(max_legendre_table_degree == max_basis_degree,
              "the one-axis tables cover every degree of the basis");

/// ξ = the point x in the box's reference coordinates [−1, 1]^Dim.
template <int Dim, class Real>
POLYDG_HD inline Point<Dim, Real> box_coordinates(const Box<Dim, Real>& box,
                                                  const Point<Dim, Real>& x) {
  Point<Dim, Real> xi;
  // (2x − a − b) written as (x − a) − (b − x): the same number, but the corners map to ±1
  // exactly and points near a corner lose no digits to cancellation.
  for (int i = 0; i < Dim; ++i)
    xi[i] = ((x[i] - box.lower[i]) - (box.upper[i] - x[i])) / (box.upper[i] - box.lower[i]);
  return xi;
}

/// φ_α from the per-axis tables: Π_i table[i][α_i].
template <int Dim, class Real>
POLYDG_HD inline Real tensor_product(const Real (&table)[Dim][max_basis_degree + 1],
                                     const MultiIndex<Dim>& alpha) {
  Real value = table[0][alpha[0]];
  for (int i = 1; i < Dim; ++i) value *= table[i][alpha[i]];
  return value;
}

/// values[k] = φ_k(x) for k = 0..basis_size(Dim, p) − 1.
template <int Dim, class Real>
POLYDG_HD inline void evaluate_basis(int p, const Box<Dim, Real>& box, const Point<Dim, Real>& x,
                                     Real* values) {
  const Point<Dim, Real> xi = box_coordinates(box, x);
  Real table[Dim][max_basis_degree + 1];
  for (int i = 0; i < Dim; ++i) orthonormal_legendre(p, xi[i], table[i]);

  const int size = basis_size(Dim, p);
  MultiIndex<Dim> alpha{};
  for (int k = 0; k < size; ++k) {
    values[k] = tensor_product(table, alpha);
    advance_multi_index(alpha);
  }
}

/// 1 / (b_i − a_i) per axis. Kernels that evaluate many points of one element compute it once
/// (DeviceQuadratureMesh keeps it per element) and pass it to the overloads below, instead of
/// the 2 · Dim divisions per point of box_coordinates and the chain factors: on a GPU a double
/// division is a dependent chain of about ten instructions.
template <int Dim, class Real>
POLYDG_HD inline Point<Dim, Real> inverse_extents(const Box<Dim, Real>& box) {
  Point<Dim, Real> inverse;
  for (int i = 0; i < Dim; ++i) inverse[i] = Real(1) / (box.upper[i] - box.lower[i]);
  return inverse;
}

/// box_coordinates by the box's inverse_extents: the same numerator times 1 / (b_i − a_i), so
/// within a rounding or two of the division (a corner may miss ±1 by an ulp).
template <int Dim, class Real>
POLYDG_HD inline Point<Dim, Real> box_coordinates(const Box<Dim, Real>& box,
                                                  const Point<Dim, Real>& inverse_extent,
                                                  const Point<Dim, Real>& x) {
  Point<Dim, Real> xi;
  for (int i = 0; i < Dim; ++i)
    xi[i] = ((x[i] - box.lower[i]) - (box.upper[i] - x[i])) * inverse_extent[i];
  return xi;
}

/// The tables of evaluate_basis_tables (below) at reference coordinates xi, with the chain
/// factors dξ_i/dx_i = 2 / (b_i − a_i).
template <int Dim, class Real>
POLYDG_HD inline void evaluate_axis_tables(int p, const Point<Dim, Real>& xi,
                                           const Point<Dim, Real>& chain, Real* table,
                                           Real* derivative_table, int table_stride) {
  POLYDG_UNROLL
  for (int i = 0; i < Dim; ++i) {
    Real* values = table + i * table_stride;
    Real* derivatives = derivative_table + i * table_stride;
    orthonormal_legendre_with_derivatives(p, xi[i], values, derivatives);
    for (int k = 0; k <= p; ++k) derivatives[k] = chain[i] * derivatives[k];
  }
}

/// The per-axis tables of one point that every basis function is a product of: table[i][k] =
/// L̂_k(ξ_i) and derivative_table[i][k] = dL̂_k/dξ_i(ξ_i) · dξ_i/dx_i (the chain factor 2 / (b_i −
/// a_i) folded in, so gradients come out in physical coordinates), k = 0..p.
template <int Dim, class Real>
POLYDG_HD inline void evaluate_basis_tables(int p, const Box<Dim, Real>& box,
                                            const Point<Dim, Real>& x, Real* table,
                                            Real* derivative_table, int table_stride) {
  Point<Dim, Real> chain;
  for (int i = 0; i < Dim; ++i) chain[i] = Real(2) / (box.upper[i] - box.lower[i]);
  evaluate_axis_tables<Dim, Real>(p, box_coordinates(box, x), chain, table, derivative_table,
                                  table_stride);
}

/// The same tables from the box's inverse_extents: multiplications where the overload above
/// divides (the two agree to a rounding or two).
template <int Dim, class Real>
POLYDG_HD inline void evaluate_basis_tables(int p, const Box<Dim, Real>& box,
                                            const Point<Dim, Real>& inverse_extent,
                                            const Point<Dim, Real>& x, Real* table,
                                            Real* derivative_table, int table_stride) {
  Point<Dim, Real> chain;
  for (int i = 0; i < Dim; ++i) chain[i] = Real(2) * inverse_extent[i];
  evaluate_axis_tables<Dim, Real>(p, box_coordinates(box, inverse_extent, x), chain, table,
                                  derivative_table, table_stride);
}

/// φ_α and ∇φ_α from the tables of evaluate_basis_tables (axis i at table + i · table_stride).
/// ∂φ/∂x_i replaces factor i by its derivative: a product, not value / L̂, because L̂ may vanish.
template <int Dim, class Real>
POLYDG_HD inline void basis_function_from_tables(const Real* table, const Real* derivative_table,
                                                 int table_stride, const MultiIndex<Dim>& alpha,
                                                 Real& value, Real* gradient) {
  value = table[alpha[0]];
  for (int i = 1; i < Dim; ++i) value *= table[i * table_stride + alpha[i]];
  for (int i = 0; i < Dim; ++i) {
    Real derivative = derivative_table[i * table_stride + alpha[i]];
    for (int j = 0; j < Dim; ++j)
      if (j != i) derivative *= table[j * table_stride + alpha[j]];
    gradient[i] = derivative;
  }
}

/// values[k] = φ_k(x) and gradients[k][i] = ∂φ_k/∂x_i (x), physical coordinates.
template <int Dim, class Real>
POLYDG_HD inline void evaluate_basis_gradients(int p, const Box<Dim, Real>& box,
                                               const Point<Dim, Real>& x, Real* values,
                                               Real (*gradients)[Dim]) {
  constexpr int stride = max_basis_degree + 1;
  Real table[Dim * stride];
  Real derivative_table[Dim * stride];
  evaluate_basis_tables<Dim, Real>(p, box, x, table, derivative_table, stride);
  const int size = basis_size(Dim, p);
  MultiIndex<Dim> alpha{};
  for (int k = 0; k < size; ++k) {
    basis_function_from_tables<Dim, Real>(table, derivative_table, stride, alpha, values[k],
                                          gradients[k]);
    advance_multi_index(alpha);
  }
}

}  // namespace polydg
