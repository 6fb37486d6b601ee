// The kernels of DeviceAssembler<3> on 2D+1 slabs for SpaceTimePointCoefficients (and so for
// space-time constants), and the coupling term from per-point values and from the previous
// slab's solution: the plain C++ path of the slab solvers (polydg/dg/device_assembler.hpp).
#include "polydg/cuda/device_assembler.cuh"
#include "polydg/spacetime/previous_slab_values.hpp"

namespace polydg {

PreviousSlabValues previous_slab_values(const DeviceAssembler<3>& assembler,
                                        const double* coefficients, double begin, double end) {
  const DeviceQuadratureMeshView<3> mesh = assembler.device_mesh().view();
  return {mesh.space,   mesh.degrees, mesh.boxes, assembler.pattern().view().dof_offsets,
          coefficients, begin,        end};
}

template void DeviceAssembler<3, double>::run(const SpaceTimePointCoefficients&, bool, bool);
template void DeviceAssembler<3, double>::add_previous_slab_term(const PointValues<double>&);
template void DeviceAssembler<3, double>::add_previous_slab_term(const PreviousSlabValues&);

}  // namespace polydg
