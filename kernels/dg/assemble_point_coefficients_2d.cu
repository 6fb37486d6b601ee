// The kernels of DeviceAssembler<2> for PointCoefficients<2> (and so for constants): the plain
// C++ path of 2D assembly (polydg/dg/device_assembler.hpp).
#include "polydg/cuda/device_assembler.cuh"

namespace polydg {
template void DeviceAssembler<2, double>::run(const PointCoefficients<2>&, bool, bool);
}  // namespace polydg
