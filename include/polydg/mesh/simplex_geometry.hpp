#pragma once
/// Measures and normals of simplices and their facets in R^Dim, Dim = 1..4, for host and
/// device. A k-simplex is given by its k+1 vertices; no reference map is stored anywhere.
#include <cmath>

#include "polydg/core/small_determinant.hpp"
#include "polydg/core/types.hpp"
#include "polydg/fem/affine_simplex_map.hpp"

namespace polydg {

POLYDG_HD constexpr double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }

/// Signed Dim-volume of the simplex v[0..Dim]: det[v1 − v0, …, vDim − v0] / Dim!.
/// Positive when the vertices are in the positive (counter-clockwise in 2D) orientation.
template <int Dim, class Real>
POLYDG_HD Real simplex_signed_measure(const Point<Dim, Real>* v) {
  Real m[Dim][Dim];
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j) m[i][j] = v[i + 1][j] - v[0][j];
  return small_determinant<Dim>(m) / Real(factorial(Dim));
}

/// (Dim−1)-volume of the facet simplex v[0..Dim−1] in R^Dim (Gram determinant).
template <int Dim, class Real>
POLYDG_HD Real facet_measure(const Point<Dim, Real>* v) {
  if constexpr (Dim == 1) {
    return Real(1);
  } else {
    return affine_measure_ratio<Dim - 1, Dim>(v) / Real(factorial(Dim - 1));
  }
}

/// Normal of the facet v[0..Dim−1] with length equal to the facet's measure times (Dim−1)!,
/// oriented away from `opposite` (the remaining vertex of a simplex that owns the facet).
/// Computed as the generalised cross product of the edge vectors (cofactor expansion).
template <int Dim, class Real>
POLYDG_HD Point<Dim, Real> facet_scaled_normal(const Point<Dim, Real>* v,
                                               const Point<Dim, Real>& opposite) {
  Point<Dim, Real> n{};
  if constexpr (Dim == 1) {
    n[0] = 1;
  } else {
    // n_k = (−1)^k det of the (Dim−1)×(Dim−1) minor of the edge matrix without column k.
    for (int k = 0; k < Dim; ++k) {
      Real minor[Dim - 1][Dim - 1];
      for (int i = 0; i < Dim - 1; ++i) {
        int col = 0;
        for (int j = 0; j < Dim; ++j)
          if (j != k) minor[i][col++] = v[i + 1][j] - v[0][j];
      }
      const Real d = small_determinant<Dim - 1>(minor);
      n[k] = (k % 2 == 0) ? d : -d;
    }
  }
  if (dot(n, opposite - v[0]) > 0) n *= Real(-1);
  return n;
}

}  // namespace polydg
