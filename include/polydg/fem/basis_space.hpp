#pragma once
/// The two element spaces of a space-time slab (SPEC §5), for host and device:
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
  if constexpr (Dim > 1) {
    constexpr int S = Dim - 1;
    Box<S, Real> spatial_box;
    Point<S, Real> spatial_x;
    for (int i = 0; i < S; ++i) {
      spatial_box.lower[i] = box.lower[i];
      spatial_box.upper[i] = box.upper[i];
      spatial_x[i] = x[i];
    }
    Real spatial_values[basis_size(S, max_basis_degree)];
    Real spatial_gradients[basis_size(S, max_basis_degree)][S];
    evaluate_basis_gradients<S, Real>(p, spatial_box, spatial_x, spatial_values, spatial_gradients);
    const Real extent = box.upper[S] - box.lower[S];
    const Real xi = ((x[S] - box.lower[S]) - (box.upper[S] - x[S])) / extent;
    Real time_values[max_basis_degree + 1], time_derivatives[max_basis_degree + 1];
    orthonormal_legendre_with_derivatives(p, xi, time_values, time_derivatives);
    const int n_s = basis_size(S, p);
    for (int k = 0; k <= p; ++k)
      for (int s = 0; s < n_s; ++s) {
        const int index = k * n_s + s;
        values[index] = spatial_values[s] * time_values[k];
        for (int i = 0; i < S; ++i) gradients[index][i] = spatial_gradients[s][i] * time_values[k];
        gradients[index][S] = spatial_values[s] * time_derivatives[k] * (Real(2) / extent);
      }
  }
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
