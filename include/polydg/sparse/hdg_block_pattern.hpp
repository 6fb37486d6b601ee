#pragma once
/// Structure generator for HDG-type face-block matrices (docs/theory.md, "Dense block format"):
/// block rows and columns are the faces of a simplicial mesh, face f is coupled to itself and to
/// every face that shares an element with it. Interior faces have n_a blocks per row (2D: 5 — the
/// face and the 4 other edges of its two triangles; 3D: 7), boundary faces fewer (3; 4). All blocks
/// are n_p n_c square: 2D n_p = p + 1, n_c = 4; 3D n_p = (p + 1)(p + 2) / 2, n_c = 5.
///
/// The mesh is the Kuhn (Freudenthal) triangulation of a box of unit cubes, 2 triangles per
/// square / 6 tetrahedra per cube, near-square (cube) cross-section, swept layer by layer along
/// x. Faces are numbered in order of first appearance in the sweep (so neighbouring faces get
/// nearby numbers) and the sweep stops once `target_face_count` faces exist: the pattern is
/// that of the first target_face_count faces, exactly — the last element's dropped faces make
/// a few more rows look like boundary faces. O(faces) time and memory.
#include <cstdint>

#include "polydg/core/types.hpp"
#include "polydg/sparse/block_matrix.hpp"
#include "polydg/sparse/block_pattern.hpp"

namespace polydg {

/// n_p n_c, the unknowns per face. Throws polydg::Error for a dimension other than 2, 3 or p < 0.
Index hdg_face_block_size(int dimension, int p);
/// n_a, the most blocks in a block row: 5 in 2D, 7 in 3D.
Index hdg_max_blocks_per_row(int dimension);

/// The face-block pattern of target_face_count (≥ 1) faces, blocks n_p n_c square.
BlockPattern make_hdg_block_pattern(int dimension, Index target_face_count, int p);

/// Fills `matrix` with deterministic pseudo-random values in [−1, 1) (a hash of `seed` and the
/// value's index: the same on every run and thread count), then sets each diagonal entry to 1 +
/// the sum of the absolute values of the rest of its row, so A is strictly diagonally dominant
/// by rows and its diagonal blocks are invertible. OpenMP-parallel.
template <class Real>
void fill_diagonally_dominant_values(BlockMatrix<Real>& matrix, std::uint64_t seed = 20240611);

extern template void fill_diagonally_dominant_values(BlockMatrix<float>&, std::uint64_t);
extern template void fill_diagonally_dominant_values(BlockMatrix<double>&, std::uint64_t);

}  // namespace polydg
