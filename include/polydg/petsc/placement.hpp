#pragma once
/// Placement: where the PETSc objects polydg creates keep their values unless the options
/// database says otherwise — on the GPU (VECCUDA, MATAIJCUSPARSE) for solvers whose assembly and
/// products run there, on the host (VECSTANDARD, MATAIJ) for the others.
///
///   const auto where = polydg::petsc::available(polydg::petsc::Placement::device);
///   polydg::petsc::Vector b(pattern, where, "flow_");      // VECCUDA unless -flow_vec_type
///   polydg::petsc::AijMatrix aij(pattern, "flow_", where);  // MATAIJCUSPARSE unless
///   -flow_mat_type
///
/// A device placement needs a PETSc built with CUDA and a visible CUDA device; available()
/// falls back to the host otherwise (Debian's PETSc, a machine without a GPU), so the same code
/// runs everywhere. -[prefix]vec_type and -[prefix]mat_type win over the placement either way.
#include <petscsys.h>

#include <string>

namespace polydg::petsc {

enum class Placement {
  host,    ///< PETSc's host types: VECSTANDARD, MATAIJ
  device,  ///< PETSc's CUDA types: VECCUDA, MATAIJCUSPARSE
};

/// Whether this PETSc has CUDA types (PETSC_HAVE_CUDA), libpolydg was built with CUDA and the
/// process sees a CUDA device: what a device placement needs.
bool device_placement_possible();

/// `wanted`, or Placement::host when it is Placement::device and device_placement_possible()
/// is false.
Placement available(Placement wanted);

/// The Vec type of a placement: VECCUDA for device (throws polydg::Error when
/// device_placement_possible() is false), VECSTANDARD for host.
const char* default_vec_type(Placement placement);

/// The AIJ Mat type of a placement: MATAIJCUSPARSE for device (throws as default_vec_type()),
/// MATAIJ for host.
const char* default_aij_type(Placement placement);

/// The host↔device copies so far in this process and the bytes they moved: PETSc's (its CpuToGpu
/// and GpuToCpu counts and sizes, what -log_view reports; 0 where PETSc has no CUDA) plus the
/// library's (device::transfer_counts()). Two readings around a solve tell whether it stayed on
/// the device: a Krylov iteration on device Vecs still sends a few scalars (GMRES's
/// orthogonalization coefficients to VecMAXPY), so "no vector crossed" means fewer bytes per
/// iteration than one vector has.
struct HostDeviceTraffic {
  double copies = 0;
  double bytes = 0;
};
HostDeviceTraffic host_device_traffic();

/// The Vec type a Vector(size, placement, options_prefix) gets: -[options_prefix]vec_type from
/// the options database when given, else default_vec_type(placement). For objects that name a
/// Vec type without creating a Vec (MatShellSetVecType()).
std::string vec_type_from_options(Placement placement, const std::string& options_prefix);

}  // namespace polydg::petsc
