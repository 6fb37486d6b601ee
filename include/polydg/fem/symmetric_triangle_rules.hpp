#pragma once
/// Fully symmetric triangle rules with fewer points than the collapsed Gauss–Jacobi ones
/// (docs/theory.md, "Quadrature degrees"): Dunavant's rules of degree 2, 4, 5, 6, 8, 10
/// and 12 (D. A. Dunavant, IJNME 21 (1985) 1129–1148), all with positive weights and interior
/// points — 3, 6, 7, 12, 16, 25 and 33 points against the collapsed rule's ⌈(q+1)/2⌉².
/// The published 15-digit orbit parameters are refined once per process by Gauss–Newton on the
/// moment equations written in the orthonormal Dubiner basis, in long double (the monomial
/// equations are too ill-conditioned: refined on them, the degree-12 rule erred by 3e-11 on
/// orthonormal products), so the rules are exact to rounding.
#include <optional>

#include "polydg/fem/quadrature_rule.hpp"

namespace polydg {

/// The symmetric rule on the reference triangle conv{0, e_1, e_2} of the lowest tabulated
/// degree ≥ `degree`, when it has fewer points than the collapsed rule of `degree`; otherwise
/// none (degrees 0, 1, 3, 7, 9 and above 12). The rule's `degree` is the requested one.
std::optional<QuadratureRule<2>> make_symmetric_triangle_rule(int degree);

}  // namespace polydg
