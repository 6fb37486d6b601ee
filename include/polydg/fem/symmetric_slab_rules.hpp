#pragma once
/// Rules of a total degree on the pieces of a space-time slab: the reference prism
/// conv{0, e_1, e_2} × [0, 1] and the unit square (a lateral rectangle F × I_n). Most are
/// Witherden and Vincent's fully symmetric rules (F. D. Witherden, P. E. Vincent, "On the
/// identification of symmetric quadrature rules for finite element methods", Comput. Math.
/// Appl. 69 (2015) 1232–1241; prism rules of degree 11 and 12 from the same authors' later
/// tables); the square's degree 2 and 4 rules (3 and 6 points, the fewest possible) are
/// symmetric about one axis only (Stroud's; one found here, symmetric_slab_rules.cpp). All have
/// positive weights and interior points, as 20-digit orbit parameters.
///
/// A rule exact to total degree q integrates what a tensor rule of degree q in space and q in
/// time does whenever the integrand's total degree is at most q: the products of a P_p space
/// (total degree p in space-time) have degree 2p. At q = 4 / 6 / 8 / 10 / 12 the prism rules
/// have 11 / 28 / 46 / 85 / 128 points against the tensor rules' 18 / 48 / 80 / 150 / 231; at
/// q = 2 / 4 / 6 / 8 / 10 / 12 the square rules 3 / 6 / 12 / 20 / 28 / 37 against 4 / 9 / 16 /
/// 25 / 36 / 49. A PQ_p space (degree p in space times degree p in time) has products of total
/// degree up to 4p: it keeps the tensor rules (quadrature_mesh.hpp, SlabRules).
#include <optional>

#include "polydg/fem/quadrature_rule.hpp"

namespace polydg {

/// The symmetric rule on the reference prism of the lowest tabulated degree ≥ `degree` (4..12),
/// when it has fewer points than make_prism_rule<3>(degree, degree); otherwise none. The rule's
/// `degree` is the requested one, its domain ReferenceDomain::prism.
std::optional<QuadratureRule<3>> make_symmetric_prism_rule(int degree);

/// The tabulated rule on [0, 1]² of the lowest degree ≥ `degree` (2..13), when it has
/// fewer points than make_cube_rule<2>(degree); otherwise none. Domain ReferenceDomain::unit_cube.
std::optional<QuadratureRule<2>> make_symmetric_square_rule(int degree);

}  // namespace polydg
