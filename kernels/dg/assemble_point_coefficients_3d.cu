// The kernels of DeviceAssembler<3> for PointCoefficients<3> (and so for constants): the plain
// C++ path of 3D assembly (polydg/dg/device_assembler.hpp).
#include "polydg/cuda/device_assembler.cuh"

namespace polydg {
template void DeviceAssembler<3, double>::run(const PointCoefficients<3>&, bool, bool);
}  // namespace polydg
