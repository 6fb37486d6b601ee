#include "polydg/mesh/element_order.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "polydg/core/error.hpp"

namespace polydg {

template <int Dim>
std::uint64_t hilbert_index(std::array<std::uint32_t, Dim> x) {
  // Skilling's AxestoTranspose: turns the coordinates into the "transposed" Hilbert index,
  // whose bits, read across the coordinates from the highest bit down, are the index.
  constexpr std::uint32_t highest = std::uint32_t(1) << (hilbert_bits - 1);
  for (std::uint32_t q = highest; q > 1; q >>= 1) {  // inverse undo
    const std::uint32_t p = q - 1;
    for (int i = 0; i < Dim; ++i) {
      if (x[i] & q) {
        x[0] ^= p;
      } else {
        const std::uint32_t t = (x[0] ^ x[i]) & p;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  for (int i = 1; i < Dim; ++i) x[i] ^= x[i - 1];  // Gray encode
  std::uint32_t t = 0;
  for (std::uint32_t q = highest; q > 1; q >>= 1)
    if (x[Dim - 1] & q) t ^= q - 1;
  for (int i = 0; i < Dim; ++i) x[i] ^= t;

  std::uint64_t index = 0;
  for (int bit = hilbert_bits - 1; bit >= 0; --bit)
    for (int i = 0; i < Dim; ++i) index = (index << 1) | ((x[i] >> bit) & 1u);
  return index;
}

template <int Dim>
std::vector<Index> hilbert_element_order(const SimplexMesh<Dim>& mesh,
                                         std::span<const Index> element_of_cell,
                                         Index element_count) {
  const Index n_cells = mesh.cell_count();
  require(Index(element_of_cell.size()) == n_cells,
          "hilbert_element_order: ", element_of_cell.size(), " labels given for ", n_cells,
          " cells");
  require(element_count >= 0, "hilbert_element_order: negative element count ", element_count);
  std::vector<Point<Dim>> centre(std::size_t(element_count), Point<Dim>{});
  std::vector<Index> cells(std::size_t(element_count), 0);
  Point<Dim> lower, upper;
  for (int i = 0; i < Dim; ++i) {
    lower[i] = std::numeric_limits<double>::infinity();
    upper[i] = -std::numeric_limits<double>::infinity();
  }
  for (Index c = 0; c < n_cells; ++c) {
    const Index e = element_of_cell[c];
    require(e >= 0 && e < element_count, "hilbert_element_order: cell ", c, " has label ", e,
            "; need 0 <= label < ", element_count);
    Point<Dim> sum{};
    for (const Point<Dim>& vertex : mesh.cell_points(c)) sum = sum + vertex;
    centre[e] = centre[e] + (1.0 / (Dim + 1)) * sum;
    ++cells[e];
    for (const Point<Dim>& vertex : mesh.cell_points(c))
      for (int i = 0; i < Dim; ++i) {
        lower[i] = std::min(lower[i], vertex[i]);
        upper[i] = std::max(upper[i], vertex[i]);
      }
  }

  constexpr double cells_per_side = double(std::uint32_t(1) << hilbert_bits);
  std::vector<std::uint64_t> key(std::size_t(element_count), 0);
  for (Index e = 0; e < element_count; ++e) {
    require(cells[e] > 0, "hilbert_element_order: element ", e, " has no cells");
    std::array<std::uint32_t, Dim> grid{};
    for (int i = 0; i < Dim; ++i) {
      const double extent = upper[i] - lower[i];
      const double s = extent > 0 ? (centre[e][i] / double(cells[e]) - lower[i]) / extent : 0.0;
      grid[i] = std::uint32_t(std::clamp(s * cells_per_side, 0.0, cells_per_side - 1));
    }
    key[e] = hilbert_index<Dim>(grid);
  }
  std::vector<Index> by_position(static_cast<std::size_t>(element_count));
  std::iota(by_position.begin(), by_position.end(), Index(0));
  std::stable_sort(by_position.begin(), by_position.end(),
                   [&](Index a, Index b) { return key[a] < key[b]; });
  std::vector<Index> new_number(static_cast<std::size_t>(element_count));
  for (Index k = 0; k < element_count; ++k) new_number[by_position[k]] = k;
  return new_number;
}

template <int Dim>
void order_elements_along_hilbert_curve(const SimplexMesh<Dim>& mesh,
                                        Agglomeration& agglomeration) {
  const std::vector<Index> new_number =
      hilbert_element_order(mesh, agglomeration.element_of_cell, agglomeration.element_count);
  for (Index& e : agglomeration.element_of_cell) e = new_number[e];
}

template std::uint64_t hilbert_index<2>(std::array<std::uint32_t, 2>);
template std::uint64_t hilbert_index<3>(std::array<std::uint32_t, 3>);
template std::vector<Index> hilbert_element_order(const SimplexMesh<2>&, std::span<const Index>,
                                                  Index);
template std::vector<Index> hilbert_element_order(const SimplexMesh<3>&, std::span<const Index>,
                                                  Index);
template void order_elements_along_hilbert_curve(const SimplexMesh<2>&, Agglomeration&);
template void order_elements_along_hilbert_curve(const SimplexMesh<3>&, Agglomeration&);

}  // namespace polydg
