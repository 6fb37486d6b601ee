#pragma once
/// PETSc vectors for the unknowns of a BlockPattern, and copies between Vecs and host or device
/// arrays.
///
///   polydg::petsc::Vector b(pattern), x(pattern);
///   polydg::petsc::copy_to_vec(rhs, b.vec());
///   ...  // KSPSolve(ksp, b.vec(), x.vec())
///   polydg::petsc::copy_from_vec(x.vec(), solution);
///
/// On the GPU (a PETSc built with CUDA): Vecs of Placement::device are VECCUDA, and the device
/// copies move values between them and device arrays (e.g. DeviceAssembler::rhs()) without the
/// host:
///   polydg::petsc::Vector b(pattern, polydg::petsc::available(Placement::device));
///   polydg::petsc::copy_device_array_to_vec(assembler.rhs(), pattern.dof_count(), b.vec());
#include <petscvec.h>

#include <cstddef>
#include <span>
#include <string>

#include "polydg/core/types.hpp"
#include "polydg/petsc/placement.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/rank_block_pattern.hpp"

namespace polydg::petsc {

class Vector {
 public:
  /// An empty Vector (no Vec), as left behind by a move.
  Vector() = default;

  /// Vector - creates a Vec of `size` entries on PETSC_COMM_WORLD, values zero.
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Input parameters:
  ///   size           - the global number of entries
  ///   placement      - the default type: VECSTANDARD (host) or VECCUDA (device; pass
  ///                    available(Placement::device) to fall back to the host where PETSc has
  ///                    no CUDA or no device is visible)
  ///   options_prefix - prefix of the Vec's options (VecSetOptionsPrefix()), e.g. "flow_";
  ///                    empty for none
  ///
  /// Level: beginner
  ///
  /// Notes:
  ///   VecCreate(), VecSetSizes(), VecSetType(default_vec_type(placement)),
  ///   VecSetFromOptions(): -[prefix]vec_type wins over the placement. Throws polydg::Error
  ///   when PETSC_COMM_WORLD has more than one rank (not supported yet), when `size` does not
  ///   fit in PetscInt, for a device placement that is not possible
  ///   (device_placement_possible()) and for any failing PETSc call.
  ///
  /// See also: Vector(const BlockPattern&), copy_to_vec(), copy_device_array_to_vec()
  explicit Vector(GlobalIndex size, Placement placement = Placement::host,
                  const std::string& options_prefix = "");

  /// Vector - creates a Vec for the unknowns of `pattern` (pattern.dof_count() entries, in
  /// the same numbering as the rows of AijMatrix(pattern)). As Vector(GlobalIndex, ...).
  explicit Vector(const BlockPattern& pattern, Placement placement = Placement::host,
                  const std::string& options_prefix = "")
      : Vector(pattern.dof_count(), placement, options_prefix) {}

  /// Vector - creates an MPI Vec for a distributed pattern: rows.global_dof_count() entries,
  /// this rank's owned_dof_count() of them here, in the numbering of AijMatrix(rows). As
  /// Vector(GlobalIndex, ...), on any number of ranks. Its local entries are the first
  /// owned_dof_count() of a local vector on rows.local() (copy_to_vec takes them as they are).
  explicit Vector(const RankBlockPattern& rows, Placement placement = Placement::host,
                  const std::string& options_prefix = "");

  /// ~Vector - destroys the Vec (VecDestroy()).
  ~Vector();

  Vector(Vector&& other) noexcept;
  Vector& operator=(Vector&& other) noexcept;
  Vector(const Vector&) = delete;
  Vector& operator=(const Vector&) = delete;

  /// The PETSc vector; owned by this object.
  Vec vec() const { return vec_; }

 private:
  Vec vec_ = nullptr;
  void create(GlobalIndex local_size, GlobalIndex global_size, Placement placement,
              const std::string& options_prefix);
};

/// copy_to_vec - copies host values into a Vec.
///
/// Not collective.
///
/// Input parameters:
///   values - one value per locally owned entry of `vec`, in its order
///   vec    - any PETSc Vec whose local size is values.size()
///
/// Level: beginner
///
/// Notes:
///   Writes through VecGetArrayWrite(): into a VECCUDA, PETSc's host copy takes the values
///   and PETSc moves them to the device when a device operation needs them (counted in
///   -log_view's CpuToGpu column). Device values go in with copy_device_array_to_vec().
///   Throws polydg::Error when the sizes differ.
///
/// See also: copy_from_vec(), copy_device_array_to_vec(), Vector
void copy_to_vec(std::span<const double> values, Vec vec);

/// copy_from_vec - copies the values of a Vec to host memory.
///
/// Not collective.
///
/// Input parameter:
///   vec - any PETSc Vec
///
/// Output parameter:
///   values - one value per locally owned entry of `vec`, in its order
///
/// Level: beginner
///
/// Notes:
///   Reads through VecGetArrayRead(): a VECCUDA whose values are on the device is copied to
///   its host array first (by PETSc). Throws polydg::Error when the sizes differ.
///
/// See also: copy_to_vec(), copy_vec_to_device_array(), Vector
void copy_from_vec(Vec vec, std::span<double> values);

/// copy_device_array_to_vec - copies values in device memory into a Vec.
///
/// Not collective.
///
/// Input parameters:
///   device_values - `count` doubles in CUDA device memory, one per locally owned entry of
///                   `vec`, in its order
///   count         - the Vec's local size
///   vec           - any PETSc Vec
///
/// Level: intermediate
///
/// Notes:
///   A Vec whose array is in device memory (VECCUDA; VecGetArrayWriteAndMemType()) gets a
///   device-to-device copy: nothing goes through the host. Any other Vec gets one
///   device-to-host copy into its array. The values are in the Vec when this returns (the
///   device is synchronized: PETSc may read the array on a stream of its own). Throws
///   polydg::Error when count is not the Vec's local size, when libpolydg has no CUDA and for
///   any failing CUDA or PETSc call.
///
/// See also: copy_vec_to_device_array(), copy_to_vec(), Placement
void copy_device_array_to_vec(const double* device_values, std::size_t count, Vec vec);

/// copy_vec_to_device_array - copies a Vec's values into device memory.
///
/// Not collective.
///
/// Input parameters:
///   vec   - any PETSc Vec
///   count - the Vec's local size
///
/// Output parameter:
///   device_values - `count` doubles in CUDA device memory
///
/// Level: intermediate
///
/// Notes:
///   The mirror of copy_device_array_to_vec(): device-to-device from a VECCUDA whose values are
///   on the device, host-to-device from any other Vec; complete when this returns (work PETSc
///   queued on its own streams is waited for first).
///
/// See also: copy_device_array_to_vec(), copy_from_vec()
void copy_vec_to_device_array(Vec vec, std::size_t count, double* device_values);

}  // namespace polydg::petsc
