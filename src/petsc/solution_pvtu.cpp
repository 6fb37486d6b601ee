#include "polydg/petsc/solution_pvtu.hpp"

#include "polydg/petsc/world.hpp"

namespace polydg::petsc {

namespace {

template <int Dim>
void write_pieces_and_pvtu(const std::filesystem::path& pvtu, const PolytopicMesh<Dim>& mesh,
                           std::span<const Index> elements, std::span<const double> coefficients,
                           const SolutionVtuOptions<Dim>& options) {
  const int rank = world_rank(), ranks = world_rank_count();
  on_every_rank([&] {
    write_solution_vtu_piece(solution_vtu_piece_path(pvtu, rank), mesh, elements, coefficients,
                             rank, options);
  });
  on_every_rank([&] {
    if (rank == 0) write_solution_pvtu_file(pvtu, ranks, bool(options.exact_solution));
  });
}

}  // namespace

void write_solution_pvtu(const std::filesystem::path& pvtu, const PolytopicMesh<2>& mesh,
                         std::span<const Index> elements, std::span<const double> coefficients,
                         const SolutionVtuOptions<2>& options) {
  write_pieces_and_pvtu(pvtu, mesh, elements, coefficients, options);
}

void write_solution_pvtu(const std::filesystem::path& pvtu, const PolytopicMesh<3>& mesh,
                         std::span<const Index> elements, std::span<const double> coefficients,
                         const SolutionVtuOptions<3>& options) {
  write_pieces_and_pvtu(pvtu, mesh, elements, coefficients, options);
}

}  // namespace polydg::petsc
