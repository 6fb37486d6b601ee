#pragma once
/// Writing points and tensors to streams, for error messages: "(0.5, 0.25)".
#include <ostream>

#include "polydg/core/types.hpp"

namespace polydg {

template <int Dim, class Real>
std::ostream& operator<<(std::ostream& out, const Point<Dim, Real>& p) {
  out << '(';
  for (int i = 0; i < Dim; ++i) out << (i ? ", " : "") << p[i];
  return out << ')';
}

/// "[[1, 0], [0, 2]]".
template <int Dim, class Real>
std::ostream& operator<<(std::ostream& out, const Tensor<Dim, Real>& a) {
  out << '[';
  for (int i = 0; i < Dim; ++i) {
    out << (i ? ", [" : "[");
    for (int j = 0; j < Dim; ++j) out << (j ? ", " : "") << a[i][j];
    out << ']';
  }
  return out << ']';
}

}  // namespace polydg
