#pragma once
/// AijMatrix: a PETSc AIJ matrix with the sparsity of a BlockPattern, preallocated once with
/// MatSetPreallocationCOO() and filled from a BlockMatrix after every assembly: written straight
/// into a MATSEQAIJ's value array (a per-block-row reordering, several threads), or through
/// MatSetValuesCOO() for other Mat types.
///
///   polydg::petsc::AijMatrix aij(pattern);  // preallocates once
///   for (...) {
///     assemble(matrix);                      // BlockMatrix<double> on `pattern`
///     aij.update(matrix);                    // values only, no allocation
///     KSPSetOperators(ksp, aij.mat(), aij.mat());
///   }
#include <petscmat.h>

#include <memory>
#include <span>
#include <string>

#include "polydg/core/device_buffer.hpp"
#include "polydg/core/types.hpp"
#include "polydg/petsc/placement.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"
#include "polydg/sparse/rank_block_pattern.hpp"

namespace polydg::petsc {

namespace detail {
class CsrValueOrder;
}

class AijMatrix {
 public:
  /// An empty AijMatrix (no Mat), as left behind by a move.
  AijMatrix();

  /// AijMatrix - creates an AIJ Mat on PETSC_COMM_WORLD with the sparsity of `pattern`.
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Input parameters:
  ///   pattern        - the block sparsity; its dof_count() is the number of rows and columns
  ///   options_prefix - prefix of the Mat's options (MatSetOptionsPrefix()), e.g. "flow_" so
  ///                    that -flow_mat_view applies to this matrix; empty for none
  ///   placement      - the default type: MATAIJ (host) or MATAIJCUSPARSE (device; pass
  ///                    available(Placement::device) to fall back to the host where PETSc has
  ///                    no CUDA or no device is visible)
  ///
  /// Level: beginner
  ///
  /// Example:
  ///   polydg::petsc::AijMatrix aij(matrix.pattern());
  ///   aij.update(matrix);
  ///
  /// Notes:
  ///   The Mat is default_aij_type(placement) (MATAIJ is MATSEQAIJ on one rank) unless
  ///   -[prefix]mat_type says otherwise (e.g. aijcusparse, with a PETSc built with CUDA: see
  ///   update_from_device()). Its rows and
  ///   columns are the pattern's unknowns in global numbering (dof_offset(e) + i), and its
  ///   stored entries are exactly the pattern's — MatSetPreallocationCOO() is called once
  ///   here with BlockPattern::coo_indices(), so later updates neither allocate nor add
  ///   nonzeros. The values are zero until the first update(); the COO index arrays are freed
  ///   before the constructor returns. The element blocks are the Mat's variable block sizes
  ///   (MatSetVariableBlockSizes()), so -pc_type vpbjacobi inverts them, as on a ShellMatrix.
  ///
  ///   Throws polydg::Error when PETSC_COMM_WORLD has more than one rank (distributed export
  ///   is not supported yet), when dof_count() does not fit in PetscInt (32-bit PetscInt
  ///   builds of PETSc; reconfigure PETSc with --with-64-bit-indices) and for any failing
  ///   PETSc call.
  ///
  /// See also: update(), MatSetPreallocationCOO(), BlockPattern::coo_indices()
  explicit AijMatrix(const BlockPattern& pattern, const std::string& options_prefix = "",
                     Placement placement = Placement::host);

  /// AijMatrix - creates an MPIAIJ Mat on PETSC_COMM_WORLD with this rank's rows of a
  /// distributed pattern.
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Input parameters:
  ///   rows           - this rank's share (RankBlockPattern; partition_numbering.hpp): the Mat
  ///                    has rows.global_dof_count() rows and columns, owned_dof_count() here
  ///   options_prefix - as above
  ///   placement      - MATAIJ or MATAIJCUSPARSE as above (MATMPIAIJ[CUSPARSE] on several ranks)
  ///
  /// Level: intermediate
  ///
  /// Example:
  ///   polydg::petsc::AijMatrix aij(rows);   // rows = make_rank_block_pattern(...)
  ///   aij.update(matrix);                   // matrix: a BlockMatrix on rows.local()
  ///
  /// Notes:
  ///   Each rank preallocates its owned rows' entries once (MatSetPreallocationCOO() with
  ///   RankBlockPattern::coo_indices(), global indices); update() and update_from_device() then
  ///   take a BlockMatrix's values on the local pattern and pass the owned prefix as it is: no
  ///   communication but PETSc's own assembly, which moves nothing between ranks (every entry is
  ///   set by its owner). The ghost rows are left out. The Mat's block size is the element
  ///   block size where all elements on all ranks share it; the owned element blocks are its
  ///   variable block sizes. The symmetry of the values is not checked across ranks: the Mat's
  ///   MAT_SYMMETRIC stays unknown. Throws polydg::Error as above (one rank is fine too).
  ///
  /// See also: RankBlockPattern, make_rank_block_pattern(), Vector(const RankBlockPattern&)
  explicit AijMatrix(const RankBlockPattern& rows, const std::string& options_prefix = "",
                     Placement placement = Placement::host);

  /// ~AijMatrix - destroys the Mat (MatDestroy()); other references taken with
  /// PetscObjectReference() (e.g. by a KSP) keep it alive.
  ~AijMatrix();

  AijMatrix(AijMatrix&& other) noexcept;
  AijMatrix& operator=(AijMatrix&& other) noexcept;
  AijMatrix(const AijMatrix&) = delete;
  AijMatrix& operator=(const AijMatrix&) = delete;

  /// update - copies the values of `matrix` into the Mat (INSERT_VALUES).
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Input parameter:
  ///   matrix - a BlockMatrix whose pattern is the one this AijMatrix was created with
  ///
  /// Level: beginner
  ///
  /// Notes:
  ///   A MATSEQAIJ (the default on one rank) gets the values written into its value array in
  ///   its CSR order (MatSeqAIJGetArrayWrite(); the order was checked against the Mat's
  ///   MatGetRowIJ() at construction), by the OpenMP threads, where MatSetValuesCOO() gathers
  ///   on one core. Other types get
  ///   MatSetValuesCOO() with the values array as it is.
  ///   The Mat is assembled afterwards; its nonzero structure is unchanged and its object
  ///   state increases, so a KSP using it sets its preconditioner up again on the next solve.
  ///
  ///   Symmetry: the values are checked (is_symmetric() with symmetry_tolerance, O(values),
  ///   stopping at the first block pair that differs) and the Mat gets MatSetOption(MAT_SYMMETRIC,
  ///   PETSC_TRUE or PETSC_FALSE) with MAT_SYMMETRY_ETERNAL false: the flag holds for these
  ///   values, and the next update() sets it again. The library's SIPG matrices are symmetric
  ///   when there is no advection and A is symmetric; then MatIsSymmetricKnown() says so, PETSc
  ///   picks PCICC as its own default preconditioner, and LinearSolver does not warn about
  ///   -ksp_type cg. Positive definiteness is not checked (it is not an O(values) property,
  ///   and SIPG is coercive only for c ≥ 0, a large enough penalty and a Dirichlet part of the
  ///   boundary or c > 0 somewhere): a caller who knows it sets MatSetOption(mat(), MAT_SPD,
  ///   PETSC_TRUE) after each update(), or once with MAT_SPD_ETERNAL: as at every PETSc
  ///   assembly, update() forgets a MAT_SPD that is not eternal. Values that are not symmetric
  ///   clear MAT_SPD, eternal or not, with a polydg::warn naming the Mat.
  ///   Throws polydg::Error when `matrix` has not the number of rows and values of the
  ///   pattern (a different pattern with the same counts cannot be detected).
  ///
  /// See also: AijMatrix(), MatSetValuesCOO(), is_symmetric(), MatIsSymmetricKnown()
  void update(const BlockMatrix<double>& matrix);

  /// update_from_device - copies values held in device memory (a BlockMatrix's values on the
  /// same pattern, in its order, e.g. DeviceAssembler::values()) into the Mat.
  ///
  /// Collective on PETSC_COMM_WORLD.
  ///
  /// Input parameter:
  ///   device_values - value_count() doubles in device memory
  ///
  /// Level: intermediate
  ///
  /// Notes:
  ///   Where the Mat's values live on the device (values_on_device(): -mat_type aijcusparse,
  ///   aijhipsparse or aijkokkos, a PETSc built with CUDA / HIP / Kokkos), MatSetValuesCOO()
  ///   reads them in place: no copy through the host. Otherwise they come to the host in one
  ///   staged copy, into a pinned buffer this object keeps (value_count() doubles, allocated on the
  ///   first call), and go into the Mat as in update(), MAT_SYMMETRIC included. A device Mat
  ///   takes the values without a look at them: its symmetry is unknown afterwards (PETSc's
  ///   assembly resets the flag). Throws polydg::Error when the library has no CUDA (no
  ///   device memory to read) and for any failing CUDA or PETSc call.
  ///
  /// See also: update(), values_on_device(), MatSetValuesCOO()
  void update_from_device(const double* device_values);

  /// Whether the Mat keeps its values on a device (its type is one of PETSc's CUSPARSE,
  /// HIPSPARSE or Kokkos AIJ types).
  bool values_on_device() const;

  /// The PETSc matrix, for KSPSetOperators() and the like; owned by this object (take a
  /// reference with PetscObjectReference() to keep it beyond this object's lifetime).
  Mat mat() const { return mat_; }
  /// Number of rows and columns (the pattern's dof_count(); global on several ranks).
  GlobalIndex row_count() const { return row_count_; }
  /// Number of stored entries on this rank (the pattern's value_count(), or the owned values
  /// of a RankBlockPattern).
  GlobalIndex value_count() const { return value_count_; }

 private:
  Mat mat_ = nullptr;
  GlobalIndex row_count_ = 0;
  GlobalIndex value_count_ = 0;
  /// The unknowns and values of the BlockMatrix that update() takes: the pattern's, or the
  /// local pattern's of a RankBlockPattern (owned and ghost rows).
  GlobalIndex source_row_count_ = 0;
  GlobalIndex source_value_count_ = 0;
  /// Made from a RankBlockPattern: no CSR shortcut, no symmetry check.
  bool distributed_ = false;
  /// update_from_device()'s host copy (host Mats only), pinned: the copy engines write it at
  /// full speed, where pageable memory goes through the driver's bounce buffers.
  device::PinnedBuffer<double> staging_;
  /// Where the values go in a MATSEQAIJ's value array, checked against the Mat; null for other
  /// Mat types, which take MatSetValuesCOO().
  std::unique_ptr<detail::CsrValueOrder> csr_order_;
  /// The block sparsity, to check the symmetry of values that come without a BlockMatrix
  /// (update_from_device() through the host); O(blocks), not O(values).
  BlockPattern pattern_;

  void set_values(std::span<const double> values);
  /// MAT_SYMMETRIC (and MAT_SPD) for the values just set.
  void set_symmetry_flags(std::span<const double> values);
};

}  // namespace polydg::petsc
