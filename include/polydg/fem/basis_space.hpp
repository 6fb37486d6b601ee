#pragma once
/// The two element spaces of a space-time slab (docs/theory.md, "Space-time slabs, as
/// built"), for host and device:
///
///   total_degree            P_p(κ × I_n): total degree p in (x, t) — the bounding-box Legendre
///                           basis of legendre_basis.hpp in Dim dimensions;
///   total_degree_times_last PQ_p: total degree p in the first Dim − 1 coordinates tensor
///                           degree p in the last (time): φ_(β, k)(x, t) = φ_β(x) L̂_k(ξ_t).
///
/// PQ_p functions are numbered time-major: index k · N_s + s, where s is the spatial index of
/// basis_indexing.hpp in Dim − 1 dimensions and N_s = basis_size(Dim − 1, p). For a steady
/// problem (no time axis) only total_degree makes sense.
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/fem/legendre_1d.hpp"
#include "polydg/fem/legendre_basis.hpp"

namespace polydg {

enum class BasisSpace { total_degree, total_degree_times_last };

/// Number of basis functions of degree p in `space`, dimension Dim.
POLYDG_HD constexpr int space_basis_size(BasisSpace space, int dim, int p) {
  return space == BasisSpace::total_degree ? basis_size(dim, p) : basis_size(dim - 1, p) * (p + 1);
}

/// The largest space_basis_size over both spaces and p ≤ max_basis_degree: array capacity.
POLYDG_HD constexpr int max_space_basis_size(int dim) {
  const int total = basis_size(dim, max_basis_degree);
  const int tensor = dim > 1 ? basis_size(dim - 1, max_basis_degree) * (max_basis_degree + 1) : 0;
  return total > tensor ? total : tensor;
}

/// The multi-index of function k of `space`: a product of per-axis Legendre polynomials in both
/// spaces (for PQ_p, (β, k_t) with index k_t · N_s + s, β the spatial multi-index of s).
template <int Dim>
POLYDG_HD inline MultiIndex<Dim> space_multi_index(BasisSpace space, int p, int k) {
  if constexpr (Dim > 1) {
    if (space == BasisSpace::total_degree_times_last) {
      const int n_s = basis_size(Dim - 1, p);
      const MultiIndex<Dim - 1> beta = basis_multi_index<Dim - 1>(k % n_s);
      MultiIndex<Dim> alpha{};
      for (int i = 0; i + 1 < Dim; ++i) alpha[i] = beta[i];
      alpha[Dim - 1] = k / n_s;
      return alpha;
    }
  }
  return basis_multi_index<Dim>(k);
}

/// Values and gradients (physical coordinates) of all functions of `space` at x.
template <int Dim, class Real>
POLYDG_HD inline void evaluate_space_basis_gradients(BasisSpace space, int p,
                                                     const Box<Dim, Real>& box,
                                                     const Point<Dim, Real>& x, Real* values,
                                                     Real (*gradients)[Dim]) {
  if (space == BasisSpace::total_degree || Dim == 1) {
    evaluate_basis_gradients<Dim, Real>(p, box, x, values, gradients);
    return;
  }
  constexpr int stride = max_basis_degree + 1;
  Real table[Dim * stride];
  Real derivative_table[Dim * stride];
  evaluate_basis_tables<Dim, Real>(p, box, x, table, derivative_table, stride);
  const int size = space_basis_size(space, Dim, p);
  for (int k = 0; k < size; ++k)
    basis_function_from_tables<Dim, Real>(table, derivative_table, stride,
                                          space_multi_index<Dim>(space, p, k), values[k],
                                          gradients[k]);
}

/// Values only.
template <int Dim, class Real>
POLYDG_HD inline void evaluate_space_basis(BasisSpace space, int p, const Box<Dim, Real>& box,
                                           const Point<Dim, Real>& x, Real* values) {
  if (space == BasisSpace::total_degree) {
    evaluate_basis<Dim, Real>(p, box, x, values);
    return;
  }
  Real gradients[max_space_basis_size(Dim)][Dim];
  evaluate_space_basis_gradients<Dim, Real>(space, p, box, x, values, gradients);
}

}  // namespace polydg
