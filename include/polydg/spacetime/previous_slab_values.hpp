#pragma once
/// PreviousSlabValues: the previous slab's solution read at a slab's bottom points, the data of
/// the coupling term (DeviceAssembler::add_previous_slab_term) from the second step on — on
/// the device, from the solution's coefficients in device memory. libpolydg compiles the
/// coupling term's kernels for it, so DeviceSlabSolver needs no nvcc.
#include "polydg/core/macros.hpp"
#include "polydg/core/types.hpp"
#include "polydg/dg/device_assembler.hpp"
#include "polydg/dg/discrete_function.hpp"
#include "polydg/fem/basis_space.hpp"

namespace polydg {

struct PreviousSlabValues {
  BasisSpace space = BasisSpace::total_degree;
  const int* degrees = nullptr;              ///< per element, device memory
  const Box<3>* boxes = nullptr;             ///< per element (the current slab's), device memory
  const GlobalIndex* dof_offsets = nullptr;  ///< the pattern's, device memory
  const double* coefficients = nullptr;      ///< the previous solution, device memory
  double begin = 0, end = 0;                 ///< the previous slab's interval

  /// The previous solution on element e, evaluated on its own box (the element's spatial box ×
  /// the previous interval) at x.
  POLYDG_HD double operator()(Index e, const Point<3>& x) const {
    Box<3> box = boxes[e];
    box.lower[2] = begin;
    box.upper[2] = end;
    return evaluate_dg_function<3>(space, degrees[e], box, coefficients + dof_offsets[e], x);
  }
};

/// The previous slab's solution `coefficients` (device memory, the layout of assembler's
/// pattern) on the interval [begin, end], read on assembler's current slab.
PreviousSlabValues previous_slab_values(const DeviceAssembler<3>& assembler,
                                        const double* coefficients, double begin, double end);

extern template void DeviceAssembler<3, double>::add_previous_slab_term(const PreviousSlabValues&);

}  // namespace polydg
