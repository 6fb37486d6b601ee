#include "polydg/petsc/placement.hpp"

#include <petsclog.h>
#include <petscmat.h>
#include <petscvec.h>

#include <optional>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "string_option.hpp"

namespace polydg::petsc {

bool device_placement_possible() {
#if defined(PETSC_HAVE_CUDA)
  return device::compiled_with_cuda() && device::device_count() > 0;
#else
  return false;
#endif
}

Placement available(Placement wanted) {
  return wanted == Placement::device && !device_placement_possible() ? Placement::host : wanted;
}

namespace {
void require_possible(Placement placement, const char* who) {
  require(placement == Placement::host || device_placement_possible(), who,
          ": a device placement needs a PETSc built with CUDA, libpolydg built with CUDA and a "
          "visible CUDA device (PETSC_HAVE_CUDA: ",
#if defined(PETSC_HAVE_CUDA)
          "yes",
#else
          "no",
#endif
          ", libpolydg with CUDA: ", device::compiled_with_cuda() ? "yes" : "no",
          ", devices: ", device::device_count(), "); use polydg::petsc::available()");
}
}  // namespace

const char* default_vec_type(Placement placement) {
  require_possible(placement, "polydg::petsc::default_vec_type");
  return placement == Placement::device ? VECCUDA : VECSTANDARD;
}

const char* default_aij_type(Placement placement) {
  require_possible(placement, "polydg::petsc::default_aij_type");
  return placement == Placement::device ? MATAIJCUSPARSE : MATAIJ;
}

HostDeviceTraffic host_device_traffic() {
  const device::TransferCounts ours = device::transfer_counts();
  HostDeviceTraffic traffic{double(ours.host_to_device + ours.device_to_host), double(ours.bytes)};
#if defined(PETSC_USE_LOG) && defined(PETSC_HAVE_DEVICE)
  traffic.copies += petsc_ctog_ct + petsc_gtoc_ct;
  traffic.bytes += petsc_ctog_sz + petsc_gtoc_sz;
#endif
  return traffic;
}

std::string vec_type_from_options(Placement placement, const std::string& options_prefix) {
  const std::optional<std::string> given =
      detail::string_option(options_prefix.c_str(), "-vec_type");
  return given ? *given : std::string(default_vec_type(placement));
}

}  // namespace polydg::petsc
