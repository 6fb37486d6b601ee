#pragma once
/// The data of problem (1) of docs/theory.md, "The model problem":
/// −∇·(A∇u) + b·∇u + c u = f, u = g_D on ∂Ω_D ∪ ∂Ω−,
/// n·(A∇u) = g_N on ∂Ω_N.
///
/// Each coefficient is a callable object — a lambda, a functor or Constant — called as
///   diffusion(x) → Tensor<Dim>   A(x), symmetric positive semidefinite
///   advection(x) → Point<Dim>    b(x)
///   reaction(x)  → double        c(x)
///   source(x)    → double        f(x)
///   dirichlet(x) → double        g_D(x): Dirichlet data, also the inflow data on ∂Ω−
///   neumann(x, n) → double       g_N(x) = n·(A∇u) at x with outward unit normal n
/// with x a Point<Dim>. The types are template parameters (no virtual calls, no std::function),
/// so the same callables can run in CUDA kernels when they are POLYDG_HD / __device__ lambdas.
/// Build one with make_coefficients<Dim>() (everything zero) and the with_* setters, each of
/// which returns a new Coefficients with that member replaced:
///
///   auto data = polydg::make_coefficients<2>()
///                   .with_diffusion(1.0)                       // A = I
///                   .with_source([](const polydg::Point<2>& x) { return f(x); })
///                   .with_dirichlet([](const polydg::Point<2>& x) { return u(x); });
#include <utility>

#include "polydg/core/types.hpp"

namespace polydg {

/// A coefficient with the same value everywhere; callable with any arguments.
template <class T>
struct Constant {
  T value;
  template <class... Arguments>
  POLYDG_HD constexpr T operator()(const Arguments&...) const {
    return value;
  }
  /// What every call returns (ConstantCoefficient).
  POLYDG_HD constexpr T constant_value() const { return value; }
};

/// A coefficient known at compile time to be the same everywhere: Constant, or a wrapper of one
/// that says so with constant_value(), which returns what every call returns. The assembly skips
/// work such a coefficient settles in advance: the penalty's diffusion ranges
/// (diffusion_ranges.hpp) are the constant itself, with no pass over the quadrature points.
template <class F>
concept ConstantCoefficient = requires(const F& f) {
  f.constant_value();
};

template <int Dim, class Diffusion, class Advection, class Reaction, class Source, class Dirichlet,
          class Neumann>
struct Coefficients {
  static constexpr int dimension = Dim;
  Diffusion diffusion;
  Advection advection;
  Reaction reaction;
  Source source;
  Dirichlet dirichlet;
  Neumann neumann;

  template <class F>
  auto with_diffusion(F f) const {
    return Coefficients<Dim, F, Advection, Reaction, Source, Dirichlet, Neumann>{
        f, advection, reaction, source, dirichlet, neumann};
  }
  /// A = a·I.
  auto with_diffusion(double a) const {
    return with_diffusion(Constant<Tensor<Dim>>{Tensor<Dim>::identity(a)});
  }
  auto with_diffusion(const Tensor<Dim>& a) const {
    return with_diffusion(Constant<Tensor<Dim>>{a});
  }
  template <class F>
  auto with_advection(F f) const {
    return Coefficients<Dim, Diffusion, F, Reaction, Source, Dirichlet, Neumann>{
        diffusion, f, reaction, source, dirichlet, neumann};
  }
  auto with_advection(const Point<Dim>& b) const { return with_advection(Constant<Point<Dim>>{b}); }
  template <class F>
  auto with_reaction(F f) const {
    return Coefficients<Dim, Diffusion, Advection, F, Source, Dirichlet, Neumann>{
        diffusion, advection, f, source, dirichlet, neumann};
  }
  auto with_reaction(double c) const { return with_reaction(Constant<double>{c}); }
  template <class F>
  auto with_source(F f) const {
    return Coefficients<Dim, Diffusion, Advection, Reaction, F, Dirichlet, Neumann>{
        diffusion, advection, reaction, f, dirichlet, neumann};
  }
  auto with_source(double f) const { return with_source(Constant<double>{f}); }
  template <class F>
  auto with_dirichlet(F f) const {
    return Coefficients<Dim, Diffusion, Advection, Reaction, Source, F, Neumann>{
        diffusion, advection, reaction, source, f, neumann};
  }
  auto with_dirichlet(double g) const { return with_dirichlet(Constant<double>{g}); }
  template <class F>
  auto with_neumann(F f) const {
    return Coefficients<Dim, Diffusion, Advection, Reaction, Source, Dirichlet, F>{
        diffusion, advection, reaction, source, dirichlet, f};
  }
  auto with_neumann(double g) const { return with_neumann(Constant<double>{g}); }
};

/// All coefficients and data zero; set them with the with_* members.
template <int Dim>
auto make_coefficients() {
  return Coefficients<Dim, Constant<Tensor<Dim>>, Constant<Point<Dim>>, Constant<double>,
                      Constant<double>, Constant<double>, Constant<double>>{
      {Tensor<Dim>{}}, {Point<Dim>{}}, {0.0}, {0.0}, {0.0}, {0.0}};
}

}  // namespace polydg
