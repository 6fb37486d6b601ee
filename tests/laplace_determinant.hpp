#pragma once
// A determinant by Laplace (cofactor) expansion along the first row: a route independent of the
// library's elimination (small_determinant), for tests that need exact reference values.

namespace polydg::test {

template <int N>
double laplace_determinant(const double (&m)[N][N]) {
  if constexpr (N == 1) {
    return m[0][0];
  } else {
    double det = 0;
    for (int col = 0; col < N; ++col) {
      double minor[N - 1][N - 1];
      for (int i = 1; i < N; ++i)
        for (int j = 0, c = 0; j < N; ++j)
          if (j != col) minor[i - 1][c++] = m[i][j];
      det += (col % 2 == 0 ? 1 : -1) * m[0][col] * laplace_determinant<N - 1>(minor);
    }
    return det;
  }
}

}  // namespace polydg::test
