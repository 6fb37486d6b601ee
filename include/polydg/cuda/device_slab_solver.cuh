#pragma once
/// The template path of DeviceSlabSolver (polydg/spacetime/device_slab_solver.hpp): the data
/// as __host__ __device__ callables evaluated in the kernels, with no host evaluation or upload
/// per step. In a .cu file compiled with the polydg::cuda target's flags:
///
///   polydg::DeviceFunctorSlabSolver<decltype(data), U0> solver(spatial_mesh, conditions, data);
#include "polydg/cuda/device_assembler.cuh"
#include "polydg/spacetime/device_slab_solver.hpp"

namespace polydg {

template <class Coefficients, class Initial>
using DeviceFunctorSlabSolver = DeviceSlabSolver<Coefficients, Initial, SlabData::device_functors>;

}  // namespace polydg
