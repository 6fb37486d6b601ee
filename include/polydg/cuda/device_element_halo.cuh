#pragma once
/// DeviceElementHalo: ElementHalo's exchange for a vector in device memory (the device explicit
/// solvers on a partitioned mesh, DistributedDeviceExplicitDG). The owned values that other ranks
/// hold as ghosts are gathered by a kernel straight into pinned host memory, exchanged by
/// ElementHalo::exchange_packed (host MPI: the library asks for no CUDA-aware MPI), and
/// scattered into the ghosts' entries by a kernel reading pinned host memory: no copy calls,
/// two small kernels per exchange (pinned memory is device-accessible under unified addressing).
///
///   const ElementHalo halo(partition, rank);
///   const DeviceElementHalo device_halo(halo, values_per_element);
///   device_halo.start(u.data());        // the gather, after the work that wrote u
///   ...                                 // device work that needs no ghost: overlaps the exchange
///   device_halo.finish(u.data());       // MPI, then the scatter
///
/// start and finish are asynchronous on the default stream but for finish's wait for the
/// gather (an event: not for the work launched between them). Work launched after finish sees
/// the new ghosts. exchange = start + finish. CUDA builds only (kernels/hyperbolic/).
#include <cstddef>

#include "polydg/core/device_buffer.hpp"
#include "polydg/detail/core/device_event.cuh"
#include "polydg/hyperbolic/element_halo.hpp"

namespace polydg::hyperbolic {

class DeviceElementHalo {
 public:
  /// `halo` must outlive this object. Throws polydg::Error as the device allocations do.
  DeviceElementHalo(const ElementHalo& halo, std::size_t values_per_element);

  /// Collective over the rank's neighbours (ElementHalo::exchange on device memory): the ghosts'
  /// entries of u (device, local_count() · values_per_element() values) from their owners.
  void exchange(double* u) const {
    start(u);
    finish(u);
  }
  /// Launches the gather of the sent values of u; u's owned entries must not change before
  /// finish.
  void start(const double* u) const;
  /// Collective over the neighbours: waits for the gather, exchanges, launches the scatter into
  /// u's ghost entries.
  void finish(double* u) const;

  std::size_t values_per_element() const { return values_per_element_; }
  const ElementHalo& halo() const { return halo_; }
  /// Values sent and received per exchange.
  std::size_t send_count() const { return send_positions_.size(); }
  std::size_t receive_count() const { return receive_positions_.size(); }

 private:
  const ElementHalo& halo_;
  std::size_t values_per_element_;
  device::DeviceBuffer<std::size_t> send_positions_, receive_positions_;
  mutable device::PinnedBuffer<double> send_host_, receive_host_;
  device::DeviceEvent gathered_;
};

}  // namespace polydg::hyperbolic
