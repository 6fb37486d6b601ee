#pragma once
// The 3D manufactured problems of the convergence study (examples/convergence.cpp --dim 3) and
// the 3D convergence tests, on the unit cube (tags 1/2: x = 0/1, 3/4: y = 0/1, 5/6: z = 0/1,
// as unit_cube_mesh gives them). The same four kinds as the 2D ones
// (manufactured_problems.hpp), under the same names, so --problem means the same in 2D and 3D:
//
//   poisson          A = I, b = 0, c = 0, u = sin(πx) sin(πy) sin(πz)
//   advection_diffusion_reaction
//                    A(x) anisotropic, full and varying, b(x), c(x) varying,
//                    u = e^x sin(πy) sin(πz) + xyz
//   pure_advection   A = 0, b = (1 + y/2, 1/2 + z/4, 3/4 + x/4), c = 1, u = sin(2x + y − z) + x²
//   mixed_boundary   A(x) varying (∇·A = 0), u = cos(πx) e^(y + z/2), Dirichlet on tags 1, 3, 5
//                    and Neumann g_N = n·A∇u on tags 2, 4, 6
// f = −∇·(A∇u) + b·∇u + c u is computed from the data, so the data always match.
#include <cmath>

#include "manufactured_problems.hpp"

namespace polydg::examples {

/// f = −∇·(A∇u) + b·∇u + c u in 3D (manufactured_source's 3D twin): A, its column-wise
/// divergence (∇·A)_j = Σ_i ∂_i A_ij, ∇u and the Hessian of u, b and c.
inline double manufactured_source(const Tensor<3>& a, const Point<3>& divergence_a,
                                  const Point<3>& grad_u, const Tensor<3>& hessian_u,
                                  const Point<3>& b, double c, double u) {
  double div_a_grad_u = dot(divergence_a, grad_u);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) div_a_grad_u += a[i][j] * hessian_u[i][j];
  return -div_a_grad_u + dot(b, grad_u) + c * u;
}

// ---- (a) Poisson -------------------------------------------------------------------------
struct Poisson3D {
  static constexpr int dim = 3;
  static constexpr const char* name = "poisson";
  static double u(const Point<3>& x) {
    return std::sin(pi * x[0]) * std::sin(pi * x[1]) * std::sin(pi * x[2]);
  }
  static Point<3> grad_u(const Point<3>& x) {
    const double sx = std::sin(pi * x[0]), sy = std::sin(pi * x[1]), sz = std::sin(pi * x[2]);
    return {{pi * std::cos(pi * x[0]) * sy * sz, pi * sx * std::cos(pi * x[1]) * sz,
             pi * sx * sy * std::cos(pi * x[2])}};
  }
  static auto coefficients() {
    return make_coefficients<3>()
        .with_diffusion(1.0)
        .with_source([](const Point<3>& x) { return 3 * pi * pi * u(x); })
        .with_dirichlet([](const Point<3>& x) { return u(x); });
  }
  static BoundaryConditions boundary_conditions() { return BoundaryConditions::all_dirichlet(); }
};

// ---- (b) diffusion-dominated advection-diffusion-reaction ------------------------------------
struct AdvectionDiffusionReaction3D {
  static constexpr int dim = 3;
  static constexpr const char* name = "advection_diffusion_reaction";
  /// Symmetric and strictly diagonally dominant on the unit cube, so positive definite.
  static Tensor<3> a(const Point<3>& x) {
    return {{{2 + x[0], 0.5 * x[0] * x[1], 0.0},
             {0.5 * x[0] * x[1], 1 + x[1] * x[1], 0.25 * x[2]},
             {0.0, 0.25 * x[2], 1.5 + 0.5 * x[0] * x[2]}}};
  }
  static Point<3> divergence_a(const Point<3>& x) {
    // (∂_x A_00 + ∂_y A_10 + ∂_z A_20, ∂_x A_01 + ∂_y A_11 + ∂_z A_21, ∂_x A_02 + ∂_y A_12 + ∂_z
    // A_22)
    return {{1 + 0.5 * x[0], 2.5 * x[1] + 0.25, 0.5 * x[0]}};
  }
  static Point<3> b(const Point<3>& x) {
    return {{0.5 + 0.25 * x[1], -0.25 * x[0], 0.25 + 0.1 * x[2]}};
  }
  static double c(const Point<3>& x) { return 1 + x[0] * x[1] * x[2]; }
  static double u(const Point<3>& x) {
    return std::exp(x[0]) * std::sin(pi * x[1]) * std::sin(pi * x[2]) + x[0] * x[1] * x[2];
  }
  static Point<3> grad_u(const Point<3>& x) {
    const double e = std::exp(x[0]), sy = std::sin(pi * x[1]), cy = std::cos(pi * x[1]),
                 sz = std::sin(pi * x[2]), cz = std::cos(pi * x[2]);
    return {{e * sy * sz + x[1] * x[2], pi * e * cy * sz + x[0] * x[2],
             pi * e * sy * cz + x[0] * x[1]}};
  }
  static Tensor<3> hessian_u(const Point<3>& x) {
    const double e = std::exp(x[0]), sy = std::sin(pi * x[1]), cy = std::cos(pi * x[1]),
                 sz = std::sin(pi * x[2]), cz = std::cos(pi * x[2]);
    const double xy = pi * e * cy * sz + x[2], xz = pi * e * sy * cz + x[1],
                 yz = pi * pi * e * cy * cz + x[0];
    return {{{e * sy * sz, xy, xz},
             {xy, -pi * pi * e * sy * sz, yz},
             {xz, yz, -pi * pi * e * sy * sz}}};
  }
  static auto coefficients() {
    return make_coefficients<3>()
        .with_diffusion([](const Point<3>& x) { return a(x); })
        .with_advection([](const Point<3>& x) { return b(x); })
        .with_reaction([](const Point<3>& x) { return c(x); })
        .with_source([](const Point<3>& x) {
          return manufactured_source(a(x), divergence_a(x), grad_u(x), hessian_u(x), b(x), c(x),
                                     u(x));
        })
        .with_dirichlet([](const Point<3>& x) { return u(x); });
  }
  static BoundaryConditions boundary_conditions() { return BoundaryConditions::all_dirichlet(); }
};

// ---- (c) pure advection --------------------------------------------------------------------
struct PureAdvection3D {
  static constexpr int dim = 3;
  static constexpr const char* name = "pure_advection";
  static Point<3> b(const Point<3>& x) {
    return {{1 + 0.5 * x[1], 0.5 + 0.25 * x[2], 0.75 + 0.25 * x[0]}};
  }
  static double u(const Point<3>& x) { return std::sin(2 * x[0] + x[1] - x[2]) + x[0] * x[0]; }
  static Point<3> grad_u(const Point<3>& x) {
    const double c = std::cos(2 * x[0] + x[1] - x[2]);
    return {{2 * c + 2 * x[0], c, -c}};
  }
  static auto coefficients() {
    return make_coefficients<3>()
        .with_advection([](const Point<3>& x) { return b(x); })
        .with_reaction(1.0)
        .with_source([](const Point<3>& x) { return dot(b(x), grad_u(x)) + u(x); })
        .with_dirichlet([](const Point<3>& x) { return u(x); });
  }
  static BoundaryConditions boundary_conditions() { return BoundaryConditions::all_dirichlet(); }
};

// ---- (d) mixed Dirichlet / Neumann ---------------------------------------------------------
struct MixedBoundary3D {
  static constexpr int dim = 3;
  static constexpr const char* name = "mixed_boundary";
  /// A_ij does not depend on x_i, so ∇·A = 0; diagonally dominant, so positive definite.
  static Tensor<3> a(const Point<3>& x) {
    return {{{1 + 0.5 * x[1], 0.25, 0.0},
             {0.25, 1 + 0.5 * x[0], 0.0},
             {0.0, 0.0, 1 + 0.25 * (x[0] + x[1])}}};
  }
  static Point<3> divergence_a(const Point<3>&) { return {{0.0, 0.0, 0.0}}; }
  static double u(const Point<3>& x) { return std::cos(pi * x[0]) * std::exp(x[1] + 0.5 * x[2]); }
  static Point<3> grad_u(const Point<3>& x) {
    const double e = std::exp(x[1] + 0.5 * x[2]), s = std::sin(pi * x[0]), c = std::cos(pi * x[0]);
    return {{-pi * s * e, c * e, 0.5 * c * e}};
  }
  static Tensor<3> hessian_u(const Point<3>& x) {
    const double e = std::exp(x[1] + 0.5 * x[2]), s = std::sin(pi * x[0]), c = std::cos(pi * x[0]);
    return {{{-pi * pi * c * e, -pi * s * e, -0.5 * pi * s * e},
             {-pi * s * e, c * e, 0.5 * c * e},
             {-0.5 * pi * s * e, 0.5 * c * e, 0.25 * c * e}}};
  }
  static auto coefficients() {
    return make_coefficients<3>()
        .with_diffusion([](const Point<3>& x) { return a(x); })
        .with_source([](const Point<3>& x) {
          return manufactured_source(a(x), divergence_a(x), grad_u(x), hessian_u(x), Point<3>{},
                                     0.0, u(x));
        })
        .with_dirichlet([](const Point<3>& x) { return u(x); })
        .with_neumann(
            [](const Point<3>& x, const Point<3>& n) { return dot(n, a(x) * grad_u(x)); });
  }
  static BoundaryConditions boundary_conditions() {
    return BoundaryConditions()
        .set(1, BoundaryKind::dirichlet)
        .set(3, BoundaryKind::dirichlet)
        .set(5, BoundaryKind::dirichlet)
        .set(2, BoundaryKind::neumann)
        .set(4, BoundaryKind::neumann)
        .set(6, BoundaryKind::neumann);
  }
};

}  // namespace polydg::examples
