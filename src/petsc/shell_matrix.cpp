#include "polydg/petsc/shell_matrix.hpp"

#include <petscdevicetypes.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <iostream>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common_block_size.hpp"
#include "destroy_context.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/core/parallel_copy.hpp"
#include "polydg/petsc/ghost_scatter.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/placement.hpp"
#include "single_rank.hpp"

namespace polydg::petsc {

// The operator's pointers are handed PETSc's arrays as they are.
static_assert(std::is_same_v<PetscScalar, double>,
              "polydg::petsc::ShellMatrix needs a PETSc built with double-precision real scalars");

namespace {

/// The staging buffers of one product: one per vector argument.
enum StagingSlot { slot_x = 0, slot_z = 1, slot_y = 2, slot_count = 3 };

/// What the Mat owns (MatShellSetContext(); freed by MatShellSetContextDestroy() when the
/// last reference to the Mat goes, so a KSP holding the Mat never sees freed buffers).
///
/// Staging, for a Vec whose memory type differs from the operator's (buffers allocated on
/// first use, kept for the Mat's lifetime):
///   device operator, host Vec:  Vec array ─memcpy→ pinned[slot] ─cudaMemcpy→ device[slot]
///                               (and back for outputs);
///   host operator, device Vec:  Vec array ─cudaMemcpy→ pinned[slot] (the operator works there).
/// Why the extra host copy into a pinned buffer rather than one cudaMemcpy straight from the
/// Vec's (pageable) array: for pageable memory the driver itself copies through its own small
/// pinned bounce buffers, chunk by chunk on the calling thread, and usually stays well below
/// the pinned transfer rate; from pinned memory the copy engines run at full PCIe speed and our
/// host copy is parallel (parallel_copy). perf/bench_ksp times both ways ("staging pinned" and
/// "staging pageable"; docs/performance.md, "KSP through the GPU shell").
struct ShellContext {
  const LinearOperator* linear_operator = nullptr;
  std::size_t size = 0;
  std::array<device::PinnedBuffer<double>, slot_count> pinned_staging;
  std::array<device::DeviceBuffer<double>, slot_count> device_staging;
  // MatInvertBlockDiagonal()'s result: PETSc keeps the pointer, the Mat owns the values.
  std::vector<PetscScalar> inverted_blocks;
  // MatShellSetVecType()'s argument, kept for the Mat's lifetime.
  std::string vec_type;

  // Made from a RankBlockPattern: the Vecs hold the owned entries (`size` of them), the
  // operator works on local vectors of `local_size` (owned, then the ghosts'), in its memory.
  std::unique_ptr<GhostScatter> ghost_scatter;
  std::size_t local_size = 0;
  Index owned_blocks = 0;
  std::array<device::DeviceBuffer<double>, slot_count> device_local;
  std::array<std::vector<double>, slot_count> host_local;
  // The operator's product of the ghost columns, when it has one: the products then overlap
  // the ghosts' exchange (distributed_product). Its x_ghosts come from the ghosts' Vec, in
  // place or through these buffers when that Vec is in the other memory space.
  std::unique_ptr<GhostColumnProduct> ghost_product;
  device::DeviceBuffer<double> device_ghosts;
  std::vector<double> host_ghosts;

  bool distributed() const { return ghost_scatter != nullptr; }
  /// A local vector in the operator's memory space, for vector argument `slot`; zero where
  /// first allocated (the overlapped product keeps x's ghost entries zero).
  double* local(StagingSlot slot) {
    if (wants_device()) {
      if (device_local[slot].size() != local_size) {
        device_local[slot] = device::DeviceBuffer<double>(local_size);
        device_local[slot].fill_zero();
      }
      return device_local[slot].data();
    }
    host_local[slot].resize(local_size);
    return host_local[slot].data();
  }
  /// Copies `count` doubles within the operator's memory space (ordered after the products
  /// on the default stream).
  void copy(double* to, const double* from, std::size_t count) const {
    if (wants_device())
      device::copy_device_to_device(to, from, count * sizeof(double));
    else
      parallel_copy(to, from, count * sizeof(double));
  }

  bool wants_device() const { return linear_operator->memory() == MemorySpace::device; }
  std::size_t bytes() const { return size * sizeof(double); }

  double* pinned(StagingSlot slot) {
    if (pinned_staging[slot].size() != size)
      pinned_staging[slot] = device::PinnedBuffer<double>(size);
    return pinned_staging[slot].data();
  }
  double* on_device(StagingSlot slot) {
    if (device_staging[slot].size() != size)
      device_staging[slot] = device::DeviceBuffer<double>(size);
    return device_staging[slot].data();
  }

  /// A buffer of `size` entries in the operator's memory space, for vector argument `slot`.
  double* staging(StagingSlot slot) { return wants_device() ? on_device(slot) : pinned(slot); }

  /// Copies a Vec's array (in the other memory space) into staging(slot) and returns that.
  /// Synchronous: cudaMemcpy from pinned memory returns when the copy is done.
  double* stage_in(StagingSlot slot, const double* vec_array) {
    double* staged = staging(slot);
    if (wants_device()) {
      double* bounce = pinned(slot);
      parallel_copy(bounce, vec_array, size * sizeof(double));
      device::copy_host_to_device(staged, bounce, bytes());
    } else {
      device::copy_device_to_host(staged, vec_array, bytes());
    }
    return staged;
  }
  /// Copies staging(slot) back into a Vec's array (in the other memory space). The
  /// device-to-host cudaMemcpy runs on the default stream after the product that wrote the
  /// staging buffer, and returns when the values have arrived.
  void stage_out(StagingSlot slot, double* vec_array) {
    if (wants_device()) {
      double* bounce = pinned(slot);
      device::copy_device_to_host(bounce, device_staging[slot].data(), bytes());
      parallel_copy(vec_array, bounce, size * sizeof(double));
    } else {
      device::copy_host_to_device(vec_array, pinned_staging[slot].data(), bytes());
    }
  }
  bool matches(PetscMemType memory) const {
    return wants_device() ? PetscMemTypeDevice(memory) : PetscMemTypeHost(memory);
  }
};

ShellContext& context_of(Mat mat) {
  void* context = nullptr;
  POLYDG_PETSC_CALL(MatShellGetContext(mat, &context));
  require(context != nullptr, "polydg::petsc::ShellMatrix: the MATSHELL has no context");
  return *static_cast<ShellContext*>(context);
}

/// A Vec's array for reading, where the operator wants it: the Vec's own array when its
/// memory type is the operator's, else a staging buffer filled from it. release() gives the
/// array back; on an error path the destructor does (and ignores a failure, since an error
/// is already on its way out).
class InputArray {
 public:
  InputArray(Vec vec, ShellContext& context, StagingSlot slot) : vec_(vec) {
    PetscMemType memory = PETSC_MEMTYPE_HOST;
    POLYDG_PETSC_CALL(VecGetArrayReadAndMemType(vec_, &array_, &memory));
    data_ = array_;
    if (context.matches(memory)) return;
    try {  // a throwing constructor runs no destructor: give the array back here
      data_ = context.stage_in(slot, array_);
    } catch (...) {
      VecRestoreArrayReadAndMemType(vec_, &array_);
      throw;
    }
  }
  ~InputArray() {
    if (array_ != nullptr) VecRestoreArrayReadAndMemType(vec_, &array_);
  }
  InputArray(const InputArray&) = delete;
  InputArray& operator=(const InputArray&) = delete;

  const double* data() const { return data_; }
  void release() {
    POLYDG_PETSC_CALL(VecRestoreArrayReadAndMemType(vec_, &array_));
    array_ = nullptr;
  }

 private:
  Vec vec_;
  const PetscScalar* array_ = nullptr;
  const double* data_ = nullptr;
};

/// A Vec's array for writing (or, with `read_too`, for reading and writing), where the
/// operator wants it. release() copies staged values back into the Vec and gives the array
/// back.
class OutputArray {
 public:
  OutputArray(Vec vec, ShellContext& context, StagingSlot slot, bool read_too = false)
      : vec_(vec), context_(context), read_too_(read_too), slot_(slot) {
    PetscMemType memory = PETSC_MEMTYPE_HOST;
    if (read_too_)
      POLYDG_PETSC_CALL(VecGetArrayAndMemType(vec_, &array_, &memory));
    else
      POLYDG_PETSC_CALL(VecGetArrayWriteAndMemType(vec_, &array_, &memory));
    data_ = array_;
    if (context.matches(memory)) return;
    try {  // a throwing constructor runs no destructor: give the array back here
      data_ = read_too_ ? context.stage_in(slot, array_) : context.staging(slot);
    } catch (...) {
      restore_quietly();
      throw;
    }
  }
  ~OutputArray() {
    if (array_ != nullptr) restore_quietly();
  }
  OutputArray(const OutputArray&) = delete;
  OutputArray& operator=(const OutputArray&) = delete;

  double* data() const { return data_; }
  void release() {
    if (data_ != array_)
      context_.stage_out(slot_, array_);
    else if (context_.wants_device())
      // A device array used in place: the product was only enqueued on the default stream,
      // and PETSc may go on with the Vec on its own (non-blocking) stream.
      device::synchronize();
    if (read_too_)
      POLYDG_PETSC_CALL(VecRestoreArrayAndMemType(vec_, &array_));
    else
      POLYDG_PETSC_CALL(VecRestoreArrayWriteAndMemType(vec_, &array_));
    array_ = nullptr;
  }

 private:
  void restore_quietly() {
    if (read_too_)
      VecRestoreArrayAndMemType(vec_, &array_);
    else
      VecRestoreArrayWriteAndMemType(vec_, &array_);
  }

  Vec vec_;
  ShellContext& context_;
  bool read_too_;
  StagingSlot slot_;
  PetscScalar* array_ = nullptr;
  double* data_ = nullptr;
};

/// Runs `body` for the PETSc callback `function`: an exception must not unwind through PETSc's
/// C frames, so it becomes a PETSc error carrying its text (PETSC_ERROR_INITIAL, so that
/// PetscErrorMessage() — and with it polydg::Error at the outer POLYDG_PETSC_CALL — reports it).
template <class Body>
PetscErrorCode guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const std::bad_alloc&) {
    return PetscError(PETSC_COMM_SELF, __LINE__, function, __FILE__, PETSC_ERR_MEM,
                      PETSC_ERROR_INITIAL, "polydg::petsc::ShellMatrix: out of memory");
  } catch (const std::exception& error) {
    return PetscError(PETSC_COMM_SELF, __LINE__, function, __FILE__, PETSC_ERR_LIB,
                      PETSC_ERROR_INITIAL, "%s", error.what());
  } catch (...) {
    return PetscError(PETSC_COMM_SELF, __LINE__, function, __FILE__, PETSC_ERR_LIB,
                      PETSC_ERROR_INITIAL,
                      "polydg::petsc::ShellMatrix: unknown exception from the operator");
  }
}

// y = A x or y = Aᵀ x: `product` is the LinearOperator member that computes it.
using Product = void (LinearOperator::*)(const double*, double*) const;
/// The local vector of x (owned entries, then the ghosts' from their owners) in the
/// operator's memory: the scatter runs while the owned entries are copied.
const double* gather_local(ShellContext& context, Vec x, StagingSlot slot) {
  double* local = context.local(slot);
  const GhostScatter& scatter = *context.ghost_scatter;
  scatter.begin(x);
  InputArray input(x, context, slot);
  context.copy(local, input.data(), context.size);
  input.release();
  scatter.end(x);
  const PetscScalar* ghosts = nullptr;
  PetscMemType memory = PETSC_MEMTYPE_HOST;
  POLYDG_PETSC_CALL(VecGetArrayReadAndMemType(scatter.ghosts(), &ghosts, &memory));
  const std::size_t bytes = std::size_t(scatter.ghost_count()) * sizeof(double);
  try {
    double* to = local + context.size;
    if (context.matches(memory))
      context.copy(to, ghosts, std::size_t(scatter.ghost_count()));
    else if (context.wants_device())
      device::copy_host_to_device(to, ghosts, bytes);
    else
      device::copy_device_to_host(to, ghosts, bytes);
  } catch (...) {
    VecRestoreArrayReadAndMemType(scatter.ghosts(), &ghosts);
    throw;
  }
  POLYDG_PETSC_CALL(VecRestoreArrayReadAndMemType(scatter.ghosts(), &ghosts));
  return local;
}

/// The owned entries of x in the local vector of slot_x, whose ghost entries stay zero.
const double* owned_local(ShellContext& context, Vec x) {
  double* local = context.local(slot_x);
  InputArray input(x, context, slot_x);
  context.copy(local, input.data(), context.size);
  input.release();
  return local;
}

/// y_local += (owned rows, ghost columns) × the ghosts' x, which the scatter has delivered.
void add_ghost_columns(ShellContext& context, double* y_local) {
  const GhostScatter& scatter = *context.ghost_scatter;
  const std::size_t count = std::size_t(scatter.ghost_count());
  const PetscScalar* ghosts = nullptr;
  PetscMemType memory = PETSC_MEMTYPE_HOST;
  POLYDG_PETSC_CALL(VecGetArrayReadAndMemType(scatter.ghosts(), &ghosts, &memory));
  try {
    const double* x_ghosts = ghosts;
    if (!context.matches(memory) && context.wants_device()) {
      if (context.device_ghosts.size() != count)
        context.device_ghosts = device::DeviceBuffer<double>(count);
      device::copy_host_to_device(context.device_ghosts.data(), ghosts, count * sizeof(double));
      x_ghosts = context.device_ghosts.data();
    } else if (!context.matches(memory)) {
      context.host_ghosts.resize(count);
      device::copy_device_to_host(context.host_ghosts.data(), ghosts, count * sizeof(double));
      x_ghosts = context.host_ghosts.data();
    }
    // On the device this is only enqueued; the ghosts' Vec is next written by the next
    // product's scatter, after this product's output has been copied out (which waits for it).
    context.ghost_product->multiply_add(x_ghosts, y_local);
  } catch (...) {
    VecRestoreArrayReadAndMemType(scatter.ghosts(), &ghosts);
    throw;
  }
  POLYDG_PETSC_CALL(VecRestoreArrayReadAndMemType(scatter.ghosts(), &ghosts));
}

/// y = A x (+ z) on a rank's rows: the product on the local vectors, the owned rows kept.
/// With the operator's ghost column product, the product runs while the ghosts are exchanged
/// (x's ghost entries zero), and their columns are added when they arrive; without, the ghosts
/// are gathered first.
void distributed_product(ShellContext& context, Vec x, Vec z, Vec y) {
  const bool overlapped = context.ghost_product != nullptr;
  if (overlapped) context.ghost_scatter->begin(x);
  const double* x_local = overlapped ? owned_local(context, x) : gather_local(context, x, slot_x);
  double* y_local = context.local(slot_y);
  if (z == nullptr) {
    context.linear_operator->multiply(x_local, y_local);
  } else {
    // The ghost rows of z_local are never read back: only the owned prefix is filled.
    double* z_local = context.local(slot_z);
    InputArray addend(z, context, slot_z);
    context.copy(z_local, addend.data(), context.size);
    addend.release();
    context.linear_operator->multiply_add(x_local, z_local, y_local);
  }
  if (overlapped) {
    context.ghost_scatter->end(x);
    add_ghost_columns(context, y_local);
  }
  OutputArray output(y, context, slot_y);
  context.copy(output.data(), y_local, context.size);
  output.release();
}

PetscErrorCode shell_product(Mat mat, Vec x, Vec y, const char* function, Product product) {
  return guarded(function, [&] {
    ShellContext& context = context_of(mat);
    if (context.distributed()) {
      require(product == &LinearOperator::multiply,
              "polydg::petsc::ShellMatrix: the transpose product of a distributed shell is not "
              "implemented");
      distributed_product(context, x, nullptr, y);
      return;
    }
    InputArray input(x, context, slot_x);
    OutputArray output(y, context, slot_y);
    (context.linear_operator->*product)(input.data(), output.data());
    output.release();
    input.release();
  });
}

PetscErrorCode shell_mult(Mat mat, Vec x, Vec y) {
  return shell_product(mat, x, y, "polydg::petsc::ShellMatrix MatMult", &LinearOperator::multiply);
}

PetscErrorCode shell_mult_transpose(Mat mat, Vec x, Vec y) {
  return shell_product(mat, x, y, "polydg::petsc::ShellMatrix MatMultTranspose",
                       &LinearOperator::multiply_transpose);
}

// MatMultAdd(mat, x, z, y): y = A x + z, where z may be y (MatMultAdd() has checked x ≠ y).
PetscErrorCode shell_mult_add(Mat mat, Vec x, Vec z, Vec y) {
  return guarded("polydg::petsc::ShellMatrix MatMultAdd", [&] {
    ShellContext& context = context_of(mat);
    if (context.distributed()) {
      distributed_product(context, x, z, y);
      return;
    }
    InputArray input(x, context, slot_x);
    if (z == y) {
      OutputArray output(y, context, slot_y, /*read_too=*/true);
      context.linear_operator->multiply_add(input.data(), output.data(), output.data());
      output.release();
    } else {
      InputArray addend(z, context, slot_z);
      OutputArray output(y, context, slot_y);
      context.linear_operator->multiply_add(input.data(), addend.data(), output.data());
      output.release();
      addend.release();
    }
    input.release();
  });
}

// The operator writes the diagonal to host memory: a device Vec gets it through host staging.
PetscErrorCode shell_get_diagonal(Mat mat, Vec d) {
  return guarded("polydg::petsc::ShellMatrix MatGetDiagonal", [&] {
    ShellContext& context = context_of(mat);
    PetscScalar* array = nullptr;
    PetscMemType memory = PETSC_MEMTYPE_HOST;
    POLYDG_PETSC_CALL(VecGetArrayWriteAndMemType(d, &array, &memory));
    try {
      if (context.distributed()) {
        std::vector<double> local(context.local_size);
        context.linear_operator->diagonal(local.data());
        if (PetscMemTypeHost(memory))
          std::copy(local.begin(), local.begin() + std::ptrdiff_t(context.size), array);
        else
          device::copy_host_to_device(array, local.data(), context.bytes());
      } else if (PetscMemTypeHost(memory)) {
        context.linear_operator->diagonal(array);
      } else {
        double* staged = context.pinned(slot_y);
        context.linear_operator->diagonal(staged);
        device::copy_host_to_device(array, staged, context.bytes());
      }
    } catch (...) {
      VecRestoreArrayWriteAndMemType(d, &array);
      throw;
    }
    POLYDG_PETSC_CALL(VecRestoreArrayWriteAndMemType(d, &array));
  });
}

/// The Mat's block rows: the operator's, or a rank's owned ones.
Index matrix_block_rows(const ShellContext& context) {
  return context.distributed() ? context.owned_blocks
                               : context.linear_operator->pattern().block_row_count();
}

/// The operator's inverted diagonal blocks (row-major) written column-major into `inverted`,
/// as PETSc's point-block Jacobi preconditioners read them: MatInvertBlockDiagonal_SeqAIJ and
/// MatInvertVariableBlockDiagonal_SeqAIJ invert each block read row-major by MatGetValues()
/// and then transpose it (PetscKernel_A_gets_transpose_A_*), and PCApply_PBJacobi_N /
/// PCApply_VPBJacobi compute y_i = Σ_j diag[i + j N] x_j.
void write_inverted_blocks_column_major(const ShellContext& context, PetscScalar* inverted) {
  const BlockPattern& pattern = context.linear_operator->pattern();
  const std::vector<double> row_major =
      context.linear_operator->inverted_block_diagonal(matrix_block_rows(context));
  std::size_t expected = 0;
  for (Index e = 0; e < matrix_block_rows(context); ++e)
    expected += std::size_t(pattern.block_size(e)) * std::size_t(pattern.block_size(e));
  require(row_major.size() == expected,
          "polydg::petsc::ShellMatrix: the operator's inverted_block_diagonal() returned ",
          row_major.size(), " values, the pattern's diagonal blocks have ", expected);
  // A rank's rows: its owned elements' blocks, which come first.
  std::size_t offset = 0;
  for (Index e = 0; e < matrix_block_rows(context); ++e) {
    const std::size_t n = std::size_t(pattern.block_size(e));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        inverted[offset + i + j * n] = PetscScalar(row_major[offset + i * n + j]);
    offset += n * n;
  }
}

PetscErrorCode shell_invert_block_diagonal(Mat mat, const PetscScalar** values) {
  return guarded("polydg::petsc::ShellMatrix MatInvertBlockDiagonal", [&] {
    ShellContext& context = context_of(mat);
    const BlockPattern& pattern = context.linear_operator->pattern();
    const std::size_t n = std::size_t(pattern.block_row_count() > 0 ? pattern.block_size(0) : 0);
    context.inverted_blocks.resize(std::size_t(matrix_block_rows(context)) * n * n);
    write_inverted_blocks_column_major(context, context.inverted_blocks.data());
    *values = context.inverted_blocks.data();
  });
}

// `sizes` are the Mat's own variable block sizes (PCVPBJACOBI passes MatGetVariableBlockSizes())
// unless a caller of MatInvertVariableBlockDiagonal() passes others: those are refused.
PetscErrorCode shell_invert_variable_block_diagonal(Mat mat, PetscInt block_count,
                                                    const PetscInt* sizes, PetscScalar* values) {
  return guarded("polydg::petsc::ShellMatrix MatInvertVariableBlockDiagonal", [&] {
    ShellContext& context = context_of(mat);
    const BlockPattern& pattern = context.linear_operator->pattern();
    require(block_count == PetscInt(matrix_block_rows(context)),
            "polydg::petsc::ShellMatrix: MatInvertVariableBlockDiagonal asked for ", block_count,
            " blocks; the operator's diagonal blocks are its ", matrix_block_rows(context),
            " elements");
    for (Index e = 0; e < matrix_block_rows(context); ++e)
      require(sizes[e] == PetscInt(pattern.block_size(e)),
              "polydg::petsc::ShellMatrix: MatInvertVariableBlockDiagonal asked for block ", e,
              " of size ", sizes[e], "; element ", e, " has ", pattern.block_size(e), " unknowns");
    write_inverted_blocks_column_major(context, values);
  });
}

void destroy(Mat& mat) {
  if (mat == nullptr) return;
  PetscBool finalized = PETSC_FALSE;
  PetscFinalized(&finalized);
  // After PetscFinalize() the Mat is gone with the rest of PETSc's memory.
  if (!finalized && MatDestroy(&mat) != 0)
    std::cerr << "polydg::petsc::ShellMatrix: MatDestroy failed\n";
  mat = nullptr;
}

template <class Function>
void set_operation(Mat mat, MatOperation operation, Function function) {
  POLYDG_PETSC_CALL(
      MatShellSetOperation(mat, operation, reinterpret_cast<void (*)(void)>(function)));
}

/// The MATSHELL over `context` (which the Mat then owns): `local_rows` of `global_rows` on this
/// rank, the given element blocks (the Mat's variable block sizes; its block size where every
/// element on every rank has the same).
Mat create_shell(std::unique_ptr<ShellContext> context, GlobalIndex local_rows,
                 GlobalIndex global_rows, const std::vector<PetscInt>& block_sizes,
                 const std::string& options_prefix) {
  require(global_rows <= GlobalIndex(std::numeric_limits<PetscInt>::max()),
          "polydg::petsc::ShellMatrix: the operator has ", global_rows,
          " unknowns, more than PetscInt (", sizeof(PetscInt) * 8,
          " bits) can index; use a PETSc configured with --with-64-bit-indices");
  const PetscInt block_size = detail::common_block_size(block_sizes, "polydg::petsc::ShellMatrix");

  Mat mat = nullptr;
  const MemorySpace memory = context->linear_operator->memory();
  POLYDG_PETSC_CALL(MatCreateShell(PETSC_COMM_WORLD, PetscInt(local_rows), PetscInt(local_rows),
                                   PetscInt(global_rows), PetscInt(global_rows), context.get(),
                                   &mat));
  try {
    // From here the Mat owns the context and frees it with its last reference.
    POLYDG_PETSC_CALL(MatShellSetContextDestroy(mat, detail::destroy_context<ShellContext>));
    ShellContext& shell_context = *context.release();
    // Before the operations: PETSc then calls ours directly instead of wrapping them in its
    // scaling and shift handling, which would not reach the inverted diagonal blocks.
    POLYDG_PETSC_CALL(MatShellSetManageScalingShifts(mat));
    set_operation(mat, MATOP_MULT, shell_mult);
    set_operation(mat, MATOP_MULT_TRANSPOSE, shell_mult_transpose);
    set_operation(mat, MATOP_MULT_ADD, shell_mult_add);
    set_operation(mat, MATOP_GET_DIAGONAL, shell_get_diagonal);
    set_operation(mat, MATOP_INVERT_VBLOCK_DIAGONAL, shell_invert_variable_block_diagonal);
    POLYDG_PETSC_CALL(MatSetVariableBlockSizes(mat, PetscInt(block_sizes.size()),
                                               const_cast<PetscInt*>(block_sizes.data())));
    // PCPBJACOBI reads the block size from the Mat: only meaningful when every element has it.
    if (block_size > 0) {
      POLYDG_PETSC_CALL(MatSetBlockSize(mat, block_size));
      set_operation(mat, MATOP_INVERT_BLOCK_DIAGONAL, shell_invert_block_diagonal);
    }

    // MatCreateVecs() (a KSP's work vectors) gives Vecs of the operator's memory where
    // PETSc can: device Vecs are then used in place. -[prefix]vec_type wins, as for Vector.
    const Placement placement =
        available(memory == MemorySpace::device ? Placement::device : Placement::host);
    shell_context.vec_type = vec_type_from_options(placement, options_prefix);
    POLYDG_PETSC_CALL(MatShellSetVecType(mat, shell_context.vec_type.c_str()));

    if (!options_prefix.empty())
      POLYDG_PETSC_CALL(MatSetOptionsPrefix(mat, options_prefix.c_str()));
    POLYDG_PETSC_CALL(MatSetFromOptions(mat));
    PetscBool still_shell = PETSC_FALSE;
    POLYDG_PETSC_CALL(
        PetscObjectTypeCompare(reinterpret_cast<PetscObject>(mat), MATSHELL, &still_shell));
    require(still_shell == PETSC_TRUE, "polydg::petsc::ShellMatrix: -", options_prefix,
            "mat_type changed the type of the MATSHELL; a ShellMatrix must stay a shell");
  } catch (...) {
    destroy(mat);
    throw;
  }
  return mat;
}

}  // namespace

ShellMatrix::ShellMatrix(const LinearOperator& linear_operator, const std::string& options_prefix)
    : row_count_(linear_operator.pattern().dof_count()) {
  detail::require_single_rank(
      "polydg::petsc::ShellMatrix(LinearOperator)",
      "; give each rank its RankBlockPattern (ShellMatrix(operator, rows)) instead");
  const BlockPattern& pattern = linear_operator.pattern();
  auto context = std::make_unique<ShellContext>();
  context->linear_operator = &linear_operator;
  context->size = std::size_t(row_count_);
  std::vector<PetscInt> block_sizes(std::size_t(pattern.block_row_count()));
  for (Index e = 0; e < pattern.block_row_count(); ++e) block_sizes[e] = pattern.block_size(e);
  mat_ = create_shell(std::move(context), row_count_, row_count_, block_sizes, options_prefix);
}

ShellMatrix::ShellMatrix(const LinearOperator& linear_operator, const RankBlockPattern& rows,
                         const std::string& options_prefix)
    : row_count_(rows.global_dof_count()) {
  const BlockPattern& pattern = linear_operator.pattern();
  require(pattern.dof_count() == rows.local().dof_count() &&
              pattern.block_row_count() == rows.local().block_row_count(),
          "polydg::petsc::ShellMatrix: the operator has ", pattern.dof_count(), " unknowns in ",
          pattern.block_row_count(), " elements, the rank's local pattern ",
          rows.local().dof_count(), " in ", rows.local().block_row_count());
  auto context = std::make_unique<ShellContext>();
  context->linear_operator = &linear_operator;
  context->size = std::size_t(rows.owned_dof_count());
  context->local_size = std::size_t(pattern.dof_count());
  context->owned_blocks = rows.owned_block_rows();
  context->ghost_scatter = std::make_unique<GhostScatter>(
      rows, available(linear_operator.memory() == MemorySpace::device ? Placement::device
                                                                      : Placement::host));
  PetscBool overlap = PETSC_TRUE;
  POLYDG_PETSC_CALL(PetscOptionsGetBool(nullptr,
                                        options_prefix.empty() ? nullptr : options_prefix.c_str(),
                                        "-shell_overlap_ghosts", &overlap, nullptr));
  if (overlap == PETSC_TRUE)
    context->ghost_product = linear_operator.ghost_column_product(rows.owned_block_rows());
  std::vector<PetscInt> block_sizes(std::size_t(rows.owned_block_rows()));
  for (Index e = 0; e < rows.owned_block_rows(); ++e) block_sizes[e] = pattern.block_size(e);
  mat_ = create_shell(std::move(context), rows.owned_dof_count(), row_count_, block_sizes,
                      options_prefix);
}

ShellMatrix::~ShellMatrix() { destroy(mat_); }

ShellMatrix::ShellMatrix(ShellMatrix&& other) noexcept
    : mat_(std::exchange(other.mat_, nullptr)), row_count_(std::exchange(other.row_count_, 0)) {}

ShellMatrix& ShellMatrix::operator=(ShellMatrix&& other) noexcept {
  if (this != &other) {
    destroy(mat_);
    mat_ = std::exchange(other.mat_, nullptr);
    row_count_ = std::exchange(other.row_count_, 0);
  }
  return *this;
}

void ShellMatrix::values_changed() {
  require(mat_ != nullptr, "polydg::petsc::ShellMatrix::values_changed: the ShellMatrix is empty");
  // The public way to raise a Mat's object state (PetscObjectStateIncrease() is private in
  // PETSc 3.18); a shell has nothing to assemble.
  POLYDG_PETSC_CALL(MatAssemblyBegin(mat_, MAT_FINAL_ASSEMBLY));
  POLYDG_PETSC_CALL(MatAssemblyEnd(mat_, MAT_FINAL_ASSEMBLY));
}

}  // namespace polydg::petsc
