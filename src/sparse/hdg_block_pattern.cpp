#include "polydg/sparse/hdg_block_pattern.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "polydg/core/error.hpp"

namespace polydg {

namespace {

void check_dimension(const char* where, int dimension) {
  require(dimension == 2 || dimension == 3, where, ": dimension ", dimension,
          " (HDG face patterns exist for 2 and 3)");
}

// A face of a Kuhn simplex is named by its lowest vertex (the base) and the axis masks of its
// other vertices relative to the base: an edge by one mask (3 per vertex in 2D), a triangle by
// a chain S1 ⊊ S2 (12 per vertex in 3D). face_type maps those masks to 0 .. types − 1.
struct FaceTypes {
  int count = 0;
  std::array<std::array<int, 8>, 8> of{};  // of[S1][S2]; 2D uses of[0][S]
  explicit FaceTypes(int dimension) {
    for (auto& row : of) row.fill(-1);
    const int full = (1 << dimension) - 1;
    if (dimension == 2) {
      for (int s = 1; s <= full; ++s) of[0][s] = count++;
    } else {
      for (int s2 = 1; s2 <= full; ++s2)
        for (int s1 = 1; s1 <= full; ++s1)
          if ((s1 & ~s2) == 0 && s1 != s2) of[s1][s2] = count++;
    }
  }
};

std::uint64_t split_mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

Index hdg_face_block_size(int dimension, int p) {
  check_dimension("hdg_face_block_size", dimension);
  require(p >= 0, "hdg_face_block_size: degree p = ", p, " < 0");
  return dimension == 2 ? (p + 1) * 4 : (p + 1) * (p + 2) / 2 * 5;
}

Index hdg_max_blocks_per_row(int dimension) {
  check_dimension("hdg_max_blocks_per_row", dimension);
  return dimension == 2 ? 5 : 7;
}

BlockPattern make_hdg_block_pattern(int dimension, Index target_face_count, int p) {
  const Index block_size = hdg_face_block_size(dimension, p);
  require(target_face_count >= 1, "make_hdg_block_pattern: ", target_face_count, " faces");
  const FaceTypes types(dimension);

  // Cross-section: ~3 faces per square, ~12 per cube; the length is whatever the count needs.
  const double cells = dimension == 2 ? target_face_count / 3.0 : target_face_count / 12.0;
  const Index side = std::max<Index>(1, Index(std::lround(std::pow(cells, 1.0 / dimension))));
  const Index ny = side, nz = dimension == 3 ? side : 0;
  const std::size_t layer_vertices = std::size_t(ny + 1) * (nz + 1);

  // The axis orders of the simplices of a cell: 2 in 2D, 6 in 3D.
  std::vector<std::array<int, 3>> orders;
  std::array<int, 3> axes = {0, 1, 2};
  do {
    orders.push_back(axes);
  } while (std::next_permutation(axes.begin(), axes.begin() + dimension));

  std::vector<Index> face_ids;  // by (base vertex, type); −1 until the face first appears
  std::vector<std::array<Index, 2>> interfaces;
  interfaces.reserve(std::size_t(target_face_count) * (dimension == 2 ? 2 : 3));
  Index face_count = 0;
  for (Index i = 0; face_count < target_face_count; ++i) {
    // Faces based in layers i and i + 1 of vertices.
    face_ids.resize(std::size_t(types.count) * layer_vertices * std::size_t(i + 2), -1);
    for (Index j = 0; j < ny && face_count < target_face_count; ++j)
      for (Index k = 0; k < std::max<Index>(nz, 1) && face_count < target_face_count; ++k)
        for (const auto& order : orders) {
          if (face_count >= target_face_count) break;
          std::array<int, 4> masks{};  // the simplex's vertices: cell corner + chain of axes
          for (int s = 1; s <= dimension; ++s) masks[s] = masks[s - 1] | (1 << order[s - 1]);
          std::array<Index, 4> faces{};
          for (int omitted = 0; omitted <= dimension; ++omitted) {
            std::array<int, 3> rest{};
            for (int s = 0, t = 0; s <= dimension; ++s)
              if (s != omitted) rest[t++] = masks[s];
            const int base = rest[0];
            const int type = dimension == 2 ? types.of[0][rest[1] ^ base]
                                            : types.of[rest[1] ^ base][rest[2] ^ base];
            const std::size_t vertex =
                (std::size_t(i + (base & 1)) * (ny + 1) + (j + ((base >> 1) & 1))) * (nz + 1) +
                (k + ((base >> 2) & 1));
            Index& id = face_ids[vertex * types.count + type];
            if (id < 0 && face_count < target_face_count) id = face_count++;
            faces[omitted] = id;  // −1: dropped, past the target count
          }
          for (int a = 0; a <= dimension; ++a)
            for (int b = a + 1; b <= dimension; ++b)
              if (faces[a] >= 0 && faces[b] >= 0) interfaces.push_back({faces[a], faces[b]});
        }
  }
  return BlockPattern(std::vector<Index>(target_face_count, block_size), interfaces);
}

template <class Real>
void fill_diagonally_dominant_values(BlockMatrix<Real>& matrix, std::uint64_t seed) {
  const BlockPattern& p = matrix.pattern();
  const std::span<Real> values = matrix.values();
  const std::uint64_t key = split_mix(seed);
#pragma omp parallel for schedule(static)
  for (GlobalIndex v = 0; v < GlobalIndex(values.size()); ++v) {
    // 53 random bits → [0, 1) → [−1, 1).
    const double unit = double(split_mix(key ^ std::uint64_t(v)) >> 11) * 0x1.0p-53;
    values[v] = Real(2 * unit - 1);
  }
#pragma omp parallel for schedule(dynamic, 64)
  for (Index r = 0; r < p.block_row_count(); ++r) {
    const Index rows = p.block_size(r);
    Real* diagonal = values.data() + p.block_value_offset(p.diagonal_block(r));
    for (Index i = 0; i < rows; ++i) {
      double off_diagonal = 0;
      for (Index block = p.block_row_begin(r); block < p.block_row_begin(r + 1); ++block) {
        const Index columns = p.block_size(p.block_column(block));
        const Real* row = values.data() + p.block_value_offset(block) + GlobalIndex(i) * columns;
        for (Index j = 0; j < columns; ++j)
          if (block != p.diagonal_block(r) || j != i) off_diagonal += std::abs(double(row[j]));
      }
      diagonal[GlobalIndex(i) * rows + i] = Real(1 + off_diagonal);
    }
  }
}

template void fill_diagonally_dominant_values(BlockMatrix<float>&, std::uint64_t);
template void fill_diagonally_dominant_values(BlockMatrix<double>&, std::uint64_t);

}  // namespace polydg
