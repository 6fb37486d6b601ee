#pragma once
/// Inversion of a sequence of small dense square blocks on the host: the diagonal blocks of a
/// block matrix, as DenseBlockMatrix::inverted_block_diagonal() and the GPU operators (which
/// gather the blocks on the device and invert them here) hand them to PETSc's point-block
/// Jacobi preconditioners.
#include <span>
#include <string_view>
#include <vector>

#include "polydg/core/types.hpp"

namespace polydg {

/// Inverts each block of `blocks` in place and returns them. Block e is N_e × N_e with
/// N_e = block_sizes[e], row-major, starting at Σ_{e' < e} N_{e'}² ("element after element").
/// LU with partial pivoting in double precision, OpenMP-parallel over blocks (each block by one
/// thread: the result does not depend on the thread count). A block whose pivot falls below
/// N ε max|A_ee| (or that holds a NaN / infinity) is singular: throws polydg::Error
/// "<caller>: the diagonal block of element e (N × N) is singular" for the smallest such e.
/// Also throws when blocks.size() is not Σ N_e².
std::vector<double> invert_diagonal_blocks(std::span<const Index> block_sizes,
                                           std::vector<double> blocks,
                                           std::string_view caller = "invert_diagonal_blocks");

}  // namespace polydg
