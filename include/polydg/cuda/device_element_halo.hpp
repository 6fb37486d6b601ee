#pragma once
/// DeviceElementHalo: ElementHalo's exchange for a vector in device memory (the device explicit
/// solvers on a partitioned mesh, DistributedDeviceExplicitDG). The owned values that other ranks
/// hold as ghosts are gathered on the device into one packed buffer, copied to pinned host
/// memory, exchanged by ElementHalo::exchange_packed (host MPI: the library asks for no
/// CUDA-aware MPI), copied back and scattered into the ghosts' entries.
///
///   const ElementHalo halo(partition, rank);
///   const DeviceElementHalo device_halo(halo, values_per_element);
///   device_halo.exchange(u.data());     // u: local_count() · values_per_element, device
///
/// exchange waits for the device's earlier work on the default stream (the gathered values must
/// be final) and returns with the scatter launched, not finished: work launched after it on the
/// default stream sees the new ghosts. CUDA builds only (the kernels are in kernels/hyperbolic/).
#include <cstddef>

#include "polydg/core/device_buffer.hpp"
#include "polydg/hyperbolic/element_halo.hpp"

namespace polydg::hyperbolic {

class DeviceElementHalo {
 public:
  /// `halo` must outlive this object. Throws polydg::Error as the device allocations do.
  DeviceElementHalo(const ElementHalo& halo, std::size_t values_per_element);

  /// Collective over the rank's neighbours (ElementHalo::exchange on device memory): the ghosts'
  /// entries of u (device, local_count() · values_per_element() values) from their owners.
  void exchange(double* u) const;

  std::size_t values_per_element() const { return values_per_element_; }
  const ElementHalo& halo() const { return halo_; }
  /// Values sent and received per exchange.
  std::size_t send_count() const { return send_positions_.size(); }
  std::size_t receive_count() const { return receive_positions_.size(); }

 private:
  const ElementHalo& halo_;
  std::size_t values_per_element_;
  device::DeviceBuffer<std::size_t> send_positions_, receive_positions_;
  mutable device::DeviceBuffer<double> send_, receive_;
  mutable device::PinnedBuffer<double> send_host_, receive_host_;
};

}  // namespace polydg::hyperbolic
