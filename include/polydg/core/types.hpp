#pragma once
/// Scalar and index types, and the small fixed-size point type used by geometry, basis and
/// quadrature code in any dimension (1 to 4: 2D, 3D, 2D+1 and 3D+1 space-time).
#include <cstddef>
#include <cstdint>

#include "polydg/core/macros.hpp"

namespace polydg {

/// Index of a vertex, cell, facet or element: 32 bits (2^31 fine cells is far beyond one GPU).
using Index = std::int32_t;
/// Index of a matrix entry or degree of freedom, which may exceed 2^31.
using GlobalIndex = std::int64_t;

/// A point or vector in R^Dim with plain arithmetic, usable on host and device.
template <int Dim, class Real = double>
struct Point {
  static_assert(Dim >= 1 && Dim <= 4, "polydg supports dimensions 1 to 4");
  Real x[Dim];

  POLYDG_HD constexpr Real& operator[](int i) { return x[i]; }
  POLYDG_HD constexpr const Real& operator[](int i) const { return x[i]; }

  POLYDG_HD constexpr Point& operator+=(const Point& other) {
    for (int i = 0; i < Dim; ++i) x[i] += other.x[i];
    return *this;
  }
  POLYDG_HD constexpr Point& operator-=(const Point& other) {
    for (int i = 0; i < Dim; ++i) x[i] -= other.x[i];
    return *this;
  }
  POLYDG_HD constexpr Point& operator*=(Real scale) {
    for (int i = 0; i < Dim; ++i) x[i] *= scale;
    return *this;
  }
  POLYDG_HD friend constexpr Point operator+(Point a, const Point& b) { return a += b; }
  POLYDG_HD friend constexpr Point operator-(Point a, const Point& b) { return a -= b; }
  POLYDG_HD friend constexpr Point operator*(Real s, Point a) { return a *= s; }
  POLYDG_HD friend constexpr Point operator*(Point a, Real s) { return a *= s; }
  POLYDG_HD friend constexpr bool operator==(const Point& a, const Point& b) {
    for (int i = 0; i < Dim; ++i)
      if (a.x[i] != b.x[i]) return false;
    return true;
  }
};

template <int Dim, class Real>
POLYDG_HD constexpr Real dot(const Point<Dim, Real>& a, const Point<Dim, Real>& b) {
  Real s = 0;
  for (int i = 0; i < Dim; ++i) s += a[i] * b[i];
  return s;
}

/// A Dim×Dim matrix (the diffusion tensor A(x) is a symmetric one), usable on host and device.
template <int Dim, class Real = double>
struct Tensor {
  Real m[Dim][Dim];

  POLYDG_HD constexpr Real* operator[](int i) { return m[i]; }
  POLYDG_HD constexpr const Real* operator[](int i) const { return m[i]; }
  /// s·I.
  POLYDG_HD static constexpr Tensor identity(Real s = Real(1)) {
    Tensor t{};
    for (int i = 0; i < Dim; ++i) t.m[i][i] = s;
    return t;
  }
};

/// A v.
template <int Dim, class Real>
POLYDG_HD constexpr Point<Dim, Real> operator*(const Tensor<Dim, Real>& a,
                                               const Point<Dim, Real>& v) {
  Point<Dim, Real> r{};
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j) r[i] += a.m[i][j] * v[j];
  return r;
}

/// Axis-aligned box Π_i [lower_i, upper_i]: the bounding box B_κ of an element
/// (docs/theory.md, "Basis").
template <int Dim, class Real = double>
struct Box {
  Point<Dim, Real> lower;
  Point<Dim, Real> upper;

  POLYDG_HD constexpr Real extent(int i) const { return upper[i] - lower[i]; }
  POLYDG_HD constexpr Real measure() const {
    Real m = 1;
    for (int i = 0; i < Dim; ++i) m *= extent(i);
    return m;
  }
};

/// The same point, tensor or box in another precision (e.g. the single-precision assembly).
template <class To, int Dim, class From>
POLYDG_HD constexpr Point<Dim, To> convert(const Point<Dim, From>& x) {
  Point<Dim, To> y{};
  for (int i = 0; i < Dim; ++i) y[i] = To(x[i]);
  return y;
}
template <class To, int Dim, class From>
POLYDG_HD constexpr Tensor<Dim, To> convert(const Tensor<Dim, From>& a) {
  Tensor<Dim, To> b{};
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j) b[i][j] = To(a[i][j]);
  return b;
}
template <class To, int Dim, class From>
POLYDG_HD constexpr Box<Dim, To> convert(const Box<Dim, From>& box) {
  return {convert<To>(box.lower), convert<To>(box.upper)};
}

}  // namespace polydg
