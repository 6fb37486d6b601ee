#pragma once
/// PETSc vectors for the unknowns of a BlockPattern, and copies between host arrays and Vecs.
///
///   polydg::petsc::Vector b(pattern), x(pattern);
///   polydg::petsc::copy_to_vec(rhs, b.vec());
///   ...  // KSPSolve(ksp, b.vec(), x.vec())
///   polydg::petsc::copy_from_vec(x.vec(), solution);
#include <petscvec.h>

#include <span>

#include "polydg/core/types.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg::petsc {

class Vector {
 public:
  /// An empty Vector (no Vec), as left behind by a move.
  Vector() = default;

  /// Vector - creates a Vec of `size` entries on PETSC_COMM_WORLD, values zero.
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Input parameter:
  ///   size - the global number of entries
  ///
  /// Level: beginner
  ///
  /// Notes:
  ///   VecCreate(), VecSetSizes(), VecSetFromOptions(): the type follows the options
  ///   database (-vec_type; standard by default). Throws polydg::Error when PETSC_COMM_WORLD
  ///   has more than one rank (not supported yet), when `size` does not fit in PetscInt and
  ///   for any failing PETSc call.
  ///
  /// See also: Vector(const BlockPattern&), copy_to_vec(), copy_from_vec()
  explicit Vector(GlobalIndex size);

  /// Vector - creates a Vec for the unknowns of `pattern` (pattern.dof_count() entries, in
  /// the same numbering as the rows of AijMatrix(pattern)). As Vector(GlobalIndex).
  explicit Vector(const BlockPattern& pattern) : Vector(pattern.dof_count()) {}

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
///   Writes through VecGetArrayWriteAndMemType(). Throws polydg::Error when the sizes differ
///   and when the Vec's array is in device memory: device vectors are not supported yet, and
///   polydg never copies between host and device behind the user's back.
///
/// See also: copy_from_vec(), Vector
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
///   Reads through VecGetArrayReadAndMemType(). Throws polydg::Error when the sizes differ
///   and when the Vec's array is in device memory (not supported yet).
///
/// See also: copy_to_vec(), Vector
void copy_from_vec(Vec vec, std::span<double> values);

}  // namespace polydg::petsc
