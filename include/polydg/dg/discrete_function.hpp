#pragma once
/// A DG function u_h ∈ S (docs/theory.md, "Basis") stored as one array of coefficients: element e
/// owns the N_e = basis_size(Dim, p_e) entries offsets[e] .. offsets[e] + N_e − 1, in element
/// order, and coefficient k multiplies the k-th bounding-box Legendre basis function of B_e. This
/// is the unknown layout of BlockPattern with block sizes N_e, so a solver's solution vector is
/// one.
///
/// Host helpers to lay such an array out and to evaluate it at a point. The checks throw
/// polydg::Error: a wrong array length (naming both lengths), a non-finite coefficient (naming
/// the element and the coefficient).
#include <cmath>
#include <span>
#include <vector>

#include "polydg/core/error.hpp"
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/fem/basis_indexing.hpp"
#include "polydg/fem/basis_space.hpp"
#include "polydg/fem/legendre_basis.hpp"

namespace polydg {

/// offsets[e] = Σ_{k<e} basis_size(Dim, degrees[k]); offsets.size() = degrees.size() + 1 and
/// offsets.back() is the length of the coefficient array.
template <int Dim>
std::vector<GlobalIndex> dg_coefficient_offsets(std::span<const int> degrees) {
  std::vector<GlobalIndex> offsets(degrees.size() + 1, 0);
  for (std::size_t e = 0; e < degrees.size(); ++e)
    offsets[e + 1] = offsets[e] + basis_size(Dim, degrees[e]);
  return offsets;
}

/// Throws unless `coefficients` has offsets.back() entries; `what` names the caller.
inline void require_coefficient_count(std::span<const double> coefficients,
                                      std::span<const GlobalIndex> offsets, const char* what) {
  require(GlobalIndex(coefficients.size()) == offsets.back(), what, ": the DG function has ",
          coefficients.size(), " coefficients, the mesh's elements and degrees need ",
          offsets.back());
}

/// Throws unless the `count` coefficients of element e are finite.
inline void require_finite_coefficients(const double* coefficients, int count, Index e,
                                        const char* what) {
  for (int k = 0; k < count; ++k)
    require(std::isfinite(coefficients[k]), what, ": coefficient ", k, " of element ", e,
            " of the DG function is not finite (", coefficients[k], ")");
}

/// u_h(x) = Σ_k c_k φ_k(x) on an element of degree p with bounding box `box`.
template <int Dim>
double evaluate_dg_function(int p, const Box<Dim>& box, const double* coefficients,
                            const Point<Dim>& x) {
  double values[basis_size(Dim, max_basis_degree)];
  evaluate_basis(p, box, x, values);
  double sum = 0;
  for (int k = 0; k < basis_size(Dim, p); ++k) sum += coefficients[k] * values[k];
  return sum;
}

/// The same in either element space (P_p or PQ_p, see fem/basis_space.hpp); callable on the
/// device too (DeviceSlabSolver reads the previous slab's solution with it).
template <int Dim>
POLYDG_HD double evaluate_dg_function(BasisSpace space, int p, const Box<Dim>& box,
                                      const double* coefficients, const Point<Dim>& x) {
  double values[max_space_basis_size(Dim)];
  evaluate_space_basis<Dim, double>(space, p, box, x, values);
  double sum = 0;
  for (int k = 0; k < space_basis_size(space, Dim, p); ++k) sum += coefficients[k] * values[k];
  return sum;
}

/// u_h(x), returned, and ∇u_h(x), written to `gradient`.
template <int Dim>
double evaluate_dg_function_gradient(int p, const Box<Dim>& box, const double* coefficients,
                                     const Point<Dim>& x, Point<Dim>& gradient) {
  double values[basis_size(Dim, max_basis_degree)];
  double gradients[basis_size(Dim, max_basis_degree)][Dim];
  evaluate_basis_gradients(p, box, x, values, gradients);
  double sum = 0;
  gradient = Point<Dim>{};
  for (int k = 0; k < basis_size(Dim, p); ++k) {
    sum += coefficients[k] * values[k];
    for (int i = 0; i < Dim; ++i) gradient[i] += coefficients[k] * gradients[k][i];
  }
  return sum;
}

}  // namespace polydg
