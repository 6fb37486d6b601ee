#pragma once
/// Quadrature degrees of the assembly (docs/theory.md, "Quadrature degrees"): exact for the
/// polynomial part of the integrand (2p) plus `extra` for the coefficients' assumed degree
/// (user-settable).
namespace polydg {

struct QuadratureDegrees {
  /// Added to 2p on elements and faces; covers coefficients and data of about this degree.
  int extra = 2;

  int element(int degree) const { return 2 * degree + extra; }
  /// Faces use the larger degree of their two elements.
  int face(int degree_first, int degree_second) const {
    return 2 * (degree_first > degree_second ? degree_first : degree_second) + extra;
  }
};

}  // namespace polydg
