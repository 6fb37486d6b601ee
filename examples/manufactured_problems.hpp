#pragma once
// Manufactured solutions for the convergence study (examples/convergence.cpp) and the
// convergence tests: for each problem the coefficients of problem (1) (docs/theory.md, "The
// model problem"), the exact solution u and its
// gradient, and f = −∇·(A∇u) + b·∇u + c u computed from them — so the data always match.
//
//   poisson          A = I, b = 0, c = 0, u = sin(πx) sin(πy)                 (problem a)
//   advection_diffusion_reaction
//                    A(x) anisotropic and varying, b(x), c(x) varying,
//                    u = e^x sin(πy) + x y                                       (problem b)
//   pure_advection   A = 0, b = (1 + y/2, 1/2 + x/4), c = 1, u = sin(2x + y) + x²  (problem c)
//   mixed_boundary   A(x) varying, u = cos(πx) e^y, Dirichlet on tags 1, 3 (bottom, top) and
//                    Neumann g_N = n·A∇u on tags 2, 4 (right, left)           (problem d)
// The coefficients are plain lambdas of x (capture nothing), so they could run on a device.
#include <cmath>
#include <numbers>
#include <string>

#include "polydg/dg/boundary_conditions.hpp"
#include "polydg/dg/coefficients.hpp"

namespace polydg::examples {

inline constexpr double pi = std::numbers::pi;

/// f = −∇·(A∇u) + b·∇u + c u from A, its divergence (column-wise: (∇·A)_j = Σ_i ∂_i A_ij),
/// the gradient and Hessian of u, b and c.
inline double manufactured_source(const Tensor<2>& a, const Point<2>& divergence_a,
                                  const Point<2>& grad_u, const Tensor<2>& hessian_u,
                                  const Point<2>& b, double c, double u) {
  double div_a_grad_u = dot(divergence_a, grad_u);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) div_a_grad_u += a[i][j] * hessian_u[i][j];
  return -div_a_grad_u + dot(b, grad_u) + c * u;
}

// ---- (a) Poisson -------------------------------------------------------------------------
struct Poisson {
  static constexpr int dim = 2;
  static constexpr const char* name = "poisson";
  static double u(const Point<2>& x) { return std::sin(pi * x[0]) * std::sin(pi * x[1]); }
  static Point<2> grad_u(const Point<2>& x) {
    return {{pi * std::cos(pi * x[0]) * std::sin(pi * x[1]),
             pi * std::sin(pi * x[0]) * std::cos(pi * x[1])}};
  }
  static auto coefficients() {
    return make_coefficients<2>()
        .with_diffusion(1.0)
        .with_source([](const Point<2>& x) { return 2 * pi * pi * u(x); })
        .with_dirichlet([](const Point<2>& x) { return u(x); });
  }
  static BoundaryConditions boundary_conditions() { return BoundaryConditions::all_dirichlet(); }
};

// ---- (b) diffusion-dominated advection-diffusion-reaction ------------------------------------
struct AdvectionDiffusionReaction {
  static constexpr int dim = 2;
  static constexpr const char* name = "advection_diffusion_reaction";
  static Tensor<2> a(const Point<2>& x) {
    return {{{2 + x[0], 0.5 * x[0] * x[1]}, {0.5 * x[0] * x[1], 1 + x[1] * x[1]}}};
  }
  static Point<2> divergence_a(const Point<2>& x) {
    // (∂_x A_11 + ∂_y A_21, ∂_x A_12 + ∂_y A_22)
    return {{1 + 0.5 * x[0], 0.5 * x[1] + 2 * x[1]}};
  }
  static Point<2> b(const Point<2>& x) { return {{0.5 + 0.25 * x[1], -0.25 * x[0]}}; }
  static double c(const Point<2>& x) { return 1 + x[0] * x[1]; }
  static double u(const Point<2>& x) { return std::exp(x[0]) * std::sin(pi * x[1]) + x[0] * x[1]; }
  static Point<2> grad_u(const Point<2>& x) {
    return {{std::exp(x[0]) * std::sin(pi * x[1]) + x[1],
             pi * std::exp(x[0]) * std::cos(pi * x[1]) + x[0]}};
  }
  static Tensor<2> hessian_u(const Point<2>& x) {
    const double e = std::exp(x[0]), s = std::sin(pi * x[1]), co = std::cos(pi * x[1]);
    return {{{e * s, pi * e * co + 1}, {pi * e * co + 1, -pi * pi * e * s}}};
  }
  static auto coefficients() {
    return make_coefficients<2>()
        .with_diffusion([](const Point<2>& x) { return a(x); })
        .with_advection([](const Point<2>& x) { return b(x); })
        .with_reaction([](const Point<2>& x) { return c(x); })
        .with_source([](const Point<2>& x) {
          return manufactured_source(a(x), divergence_a(x), grad_u(x), hessian_u(x), b(x), c(x),
                                     u(x));
        })
        .with_dirichlet([](const Point<2>& x) { return u(x); });
  }
  static BoundaryConditions boundary_conditions() { return BoundaryConditions::all_dirichlet(); }
};

// ---- (c) pure advection --------------------------------------------------------------------
struct PureAdvection {
  static constexpr int dim = 2;
  static constexpr const char* name = "pure_advection";
  static Point<2> b(const Point<2>& x) { return {{1 + 0.5 * x[1], 0.5 + 0.25 * x[0]}}; }
  static double u(const Point<2>& x) { return std::sin(2 * x[0] + x[1]) + x[0] * x[0]; }
  static Point<2> grad_u(const Point<2>& x) {
    const double c = std::cos(2 * x[0] + x[1]);
    return {{2 * c + 2 * x[0], c}};
  }
  static auto coefficients() {
    return make_coefficients<2>()
        .with_advection([](const Point<2>& x) { return b(x); })
        .with_reaction(1.0)
        .with_source([](const Point<2>& x) { return dot(b(x), grad_u(x)) + u(x); })
        .with_dirichlet([](const Point<2>& x) { return u(x); });
  }
  static BoundaryConditions boundary_conditions() { return BoundaryConditions::all_dirichlet(); }
};

// ---- (d) mixed Dirichlet / Neumann ---------------------------------------------------------
struct MixedBoundary {
  static constexpr int dim = 2;
  static constexpr const char* name = "mixed_boundary";
  static Tensor<2> a(const Point<2>& x) {
    return {{{1 + 0.5 * x[1], 0.25}, {0.25, 1 + 0.5 * x[0]}}};
  }
  static Point<2> divergence_a(const Point<2>&) { return {{0.0, 0.0}}; }
  static double u(const Point<2>& x) { return std::cos(pi * x[0]) * std::exp(x[1]); }
  static Point<2> grad_u(const Point<2>& x) {
    return {{-pi * std::sin(pi * x[0]) * std::exp(x[1]), std::cos(pi * x[0]) * std::exp(x[1])}};
  }
  static Tensor<2> hessian_u(const Point<2>& x) {
    const double e = std::exp(x[1]), s = std::sin(pi * x[0]), co = std::cos(pi * x[0]);
    return {{{-pi * pi * co * e, -pi * s * e}, {-pi * s * e, co * e}}};
  }
  static auto coefficients() {
    return make_coefficients<2>()
        .with_diffusion([](const Point<2>& x) { return a(x); })
        .with_source([](const Point<2>& x) {
          return manufactured_source(a(x), divergence_a(x), grad_u(x), hessian_u(x), Point<2>{},
                                     0.0, u(x));
        })
        .with_dirichlet([](const Point<2>& x) { return u(x); })
        .with_neumann(
            [](const Point<2>& x, const Point<2>& n) { return dot(n, a(x) * grad_u(x)); });
  }
  static BoundaryConditions boundary_conditions() {
    return BoundaryConditions()
        .set(1, BoundaryKind::dirichlet)
        .set(3, BoundaryKind::dirichlet)
        .set(2, BoundaryKind::neumann)
        .set(4, BoundaryKind::neumann);
  }
};

}  // namespace polydg::examples
