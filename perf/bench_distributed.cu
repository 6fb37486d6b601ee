// Distributed GPU assembly under `mpiexec -n R`, one GPU per rank (docs/performance.md,
// "Distributed assembly"): the paper's Table 2 slab (the oscillating domain, ~3 triangles per
// polygon, prisms K × I_n, the heat slab problem of heat_slab_problem.hpp) split by
// partition_mesh into R parts; each rank builds its part's quadrature mesh and a DeviceAssembler
// on its GPU (device = local rank mod device count, petsc::Session), and its rows of an
// MPIAIJ[CUSPARSE] matrix (AijMatrix(RankBlockPattern)). Seed 004's Table 6 layout per rank count:
//   index manipulation  the host set-up: partition, the rank's quadrature mesh, pattern,
//                       device upload (DeviceAssembler construction), max over ranks
//   quadrature          the first assembly (matrix + rhs), then the values re-assembly
//                       (median of --repeats), each from a barrier to the slowest rank's end
//   total               index manipulation + first assembly
// and the MatMult (median of 20, device Vecs where PETSc has CUDA) of the MPIAIJ and of the
// dense-block MATSHELL (ShellMatrix(operator, rows): the local DBF product overlapping the
// ghosts' scatter, their columns added after; checked against the MPIAIJ's), of the same shell
// with the ghosts gathered before the product, and of the local product alone; the DoFs, the owned
// and ghost elements per rank, and the halo interfaces. Run it with R = 1 and R = 2 for the
// scaling (scripts/gpu/distributed-check.sh does both and the JSON).
//
//   mpiexec -n 2 build/bin/bench_distributed [--cells-per-side 800] [--p 3] [--repeats 5]
//                                            [--json FILE]
#include <cuda_runtime.h>
#include <mpi.h>
#include <petscmat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_provenance.hpp"
#include "cuda_event_timing.hpp"
#include "heat_slab_problem.hpp"
#include "polydg/core/command_line.hpp"
#include "polydg/core/device_buffer.hpp"
#include "polydg/core/error.hpp"
#include "polydg/cuda/device_assembler.cuh"
#include "polydg/dg/partition_numbering.hpp"
#include "polydg/mesh/agglomeration.hpp"
#include "polydg/mesh/mesh_partition.hpp"
#include "polydg/mesh/oscillating_domain.hpp"
#include "polydg/petsc/aij_matrix.hpp"
#include "polydg/petsc/device_dense_block_operator.hpp"
#include "polydg/petsc/petsc_error.hpp"
#include "polydg/petsc/petsc_vector.hpp"
#include "polydg/petsc/placement.hpp"
#include "polydg/petsc/session.hpp"
#include "polydg/petsc/shell_matrix.hpp"
#include "polydg/petsc/world.hpp"
#include "polydg/spacetime/slab_assembly_options.hpp"
#include "polydg/spacetime/slab_mesh.hpp"
#include "polydg/sparse/dense_block_matrix.hpp"
#include "polydg/sparse/device_dense_block_matrix.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Seconds from a barrier until the slowest rank has finished `work` on its device.
template <class Work>
double timed_on_all_ranks(Work&& work) {
  MPI_Barrier(PETSC_COMM_WORLD);
  const auto start = Clock::now();
  work();
  POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
  return polydg::petsc::max_over_ranks(seconds_since(start));
}

template <class Work>
double median_on_all_ranks(int repeats, Work&& work) {
  std::vector<double> times;
  for (int k = 0; k < repeats; ++k) times.push_back(timed_on_all_ranks(work));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

constexpr const char* usage = R"(Usage: bench_distributed [options] [PETSc options]
Distributed GPU assembly of the Table 2 slab under mpiexec -n R, one GPU per rank.
  --cells-per-side N   the oscillating domain's cells per side (default 800: 8.3 M DoFs at P_3)
  --p P                the degree (default 3)
  --repeats N          re-assemblies timed (median; default 5)
  --json FILE          also write the numbers as JSON (rank 0)
  --help               this text
)";

}  // namespace

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  polydg::OscillatingDomain domain;
  domain.cells_per_side = 800;
  int p = 3, repeats = 5;
  std::string json_path;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string flag = argv[i];
      if (flag == "--help" || flag == "-h") {
        std::fputs(usage, stdout);
        return 0;
      }
      if (flag.rfind("--", 0) != 0) continue;  // a PETSc option or its value
      polydg::require(i + 1 < argc, "option ", flag, " needs a value (see --help)");
      const std::string value = argv[++i];
      if (flag == "--cells-per-side")
        domain.cells_per_side = polydg::parse_integer(flag, value);
      else if (flag == "--p")
        p = polydg::parse_integer(flag, value);
      else if (flag == "--repeats")
        repeats = polydg::parse_integer(flag, value);
      else if (flag == "--json")
        json_path = value;
      else
        polydg::raise("unknown option ", flag, " (see --help)");
    }
    polydg::require(repeats >= 1, "--repeats must be >= 1");
  } catch (const polydg::Error& error) {
    std::cerr << "bench_distributed: " << error.what() << "\n";
    return 1;
  }
  // The Session makes this rank's GPU current (local rank mod devices; session.hpp).
  polydg::petsc::Session session(argc, argv);
  const int rank = polydg::petsc::world_rank(), ranks = polydg::petsc::world_rank_count();
  if (polydg::device::device_count() == 0) {
    std::cerr << "bench_distributed: no CUDA device\n";
    return 1;
  }
  int device = 0;
  POLYDG_CUDA_CHECK(cudaGetDevice(&device));

  try {
    // Every rank builds the whole fine mesh and slab (as a user's program does today).
    auto start = Clock::now();
    const auto fine =
        std::make_shared<const polydg::SimplexMesh<2>>(polydg::oscillating_domain_mesh(domain));
    const polydg::Agglomeration parts = polydg::agglomerate_by_cell_count(*fine, 3);
    const polydg::PolytopicMesh<2> mesh(fine, parts.element_of_cell, p);
    const polydg::PolytopicMesh<3> slab = polydg::make_slab_mesh(mesh);
    const double mesh_s = polydg::petsc::max_over_ranks(seconds_since(start));

    // Index manipulation: the partition and this rank's part, up to the device upload.
    const polydg::AssemblyOptions assembly = [] {
      polydg::AssemblyOptions o = polydg::slab_assembly_options();
      o.quadrature.extra = 0;  // exact for the constant coefficients (as the Table 2 rows)
      return o;
    }();
    MPI_Barrier(PETSC_COMM_WORLD);
    start = Clock::now();
    const polydg::MeshPartition partition = polydg::partition_mesh(slab, ranks);
    const double partition_s = polydg::petsc::max_over_ranks(seconds_since(start));
    start = Clock::now();
    polydg::DeviceAssembler<3> assembler(
        polydg::QuadratureMesh<3>(slab, polydg::bench::heat_slab_conditions(), assembly.pieces,
                                  partition, rank),
        assembly);
    POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
    const double setup_s = polydg::petsc::max_over_ranks(seconds_since(start));
    const polydg::RankBlockPattern rows = polydg::make_rank_block_pattern(
        assembler.host_pattern(), partition, rank,
        polydg::partition_dof_offsets(slab, partition, assembly.space));

    // Quadrature: the first assembly, then values re-assemblies.
    const auto coefficients = polydg::bench::heat_slab_coefficients();
    const double first_s = timed_on_all_ranks([&] {
      assembler.assemble(coefficients);
      assembler.add_previous_slab_term(polydg::bench::PreviousSlabValue{});
    });
    const double values_s =
        median_on_all_ranks(repeats, [&] { assembler.assemble_matrix(coefficients); });

    // The MPIAIJ matrix on the device where PETSc has CUDA, and its product.
    const polydg::petsc::Placement placement =
        polydg::petsc::available(polydg::petsc::Placement::device);
    polydg::petsc::AijMatrix aij(rows, "", placement);
    const double update_s = timed_on_all_ranks([&] { aij.update_from_device(assembler.values()); });
    polydg::petsc::Vector x(rows, placement), y(rows, placement);
    POLYDG_PETSC_CALL(VecSet(x.vec(), 1.0));
    POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec()));  // warm-up
    const double matmult_s =
        median_on_all_ranks(20, [&] { POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec())); });
    MatType type = nullptr;
    POLYDG_PETSC_CALL(MatGetType(aij.mat(), &type));

    // The dense-block MATSHELL of the same rows: its product against the MPIAIJ's, and timed.
    start = Clock::now();
    polydg::BlockMatrix<double> host_matrix = assembler.make_host_matrix();
    assembler.copy_to_host(host_matrix);
    const polydg::DenseBlockMatrix<double> dense(host_matrix);
    const polydg::DeviceDenseBlockMatrix<double> device_dense(dense);
    const polydg::petsc::DeviceDenseBlockOperator op(device_dense, host_matrix.shared_pattern());
    polydg::petsc::ShellMatrix shell(op, rows);
    const double shell_setup_s = polydg::petsc::max_over_ranks(seconds_since(start));
    polydg::petsc::Vector y_shell(rows, placement);
    POLYDG_PETSC_CALL(VecSetRandom(x.vec(), nullptr));
    POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec()));
    POLYDG_PETSC_CALL(MatMult(shell.mat(), x.vec(), y_shell.vec()));
    PetscReal y_norm = 0, difference_norm = 0;
    POLYDG_PETSC_CALL(VecNorm(y.vec(), NORM_INFINITY, &y_norm));
    POLYDG_PETSC_CALL(VecAXPY(y_shell.vec(), -1.0, y.vec()));
    POLYDG_PETSC_CALL(VecNorm(y_shell.vec(), NORM_INFINITY, &difference_norm));
    const double shell_difference = double(difference_norm / y_norm);
    const double shell_matmult_s = median_on_all_ranks(
        20, [&] { POLYDG_PETSC_CALL(MatMult(shell.mat(), x.vec(), y_shell.vec())); });
    // The same shell with the ghosts gathered before the product (no overlap), and the local
    // product alone (no exchange, no copies): what the overlap gains, and the floor.
    POLYDG_PETSC_CALL(PetscOptionsSetValue(nullptr, "-gathered_shell_overlap_ghosts", "false"));
    polydg::petsc::ShellMatrix gathered_shell(op, rows, "gathered_");
    const double gathered_matmult_s = median_on_all_ranks(
        20, [&] { POLYDG_PETSC_CALL(MatMult(gathered_shell.mat(), x.vec(), y_shell.vec())); });
    const polydg::device::DeviceBuffer<double> x_local(std::size_t(rows.local().dof_count()));
    polydg::device::DeviceBuffer<double> y_local(x_local.size());
    const double local_product_s = median_on_all_ranks(20, [&] {
      device_dense.multiply(x_local.data(), y_local.data());
      POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
    });

    const double dofs = double(rows.global_dof_count());
    const double owned = double(rows.owned_block_rows());
    const double ghosts = double(partition.ghost_count(rank));
    const double halo = double(partition.halo_interface_counts[rank]);
    const double values = polydg::petsc::sum_over_ranks(double(rows.owned_value_count()));
    const double max_owned_dofs = polydg::petsc::max_over_ranks(double(rows.owned_dof_count()));
    const double max_ghosts = polydg::petsc::max_over_ranks(ghosts);
    const double max_halo = polydg::petsc::max_over_ranks(halo);
    const double max_owned = polydg::petsc::max_over_ranks(owned);
    const double total_s = setup_s + partition_s + first_s;

    if (rank == 0) {
      std::printf(
          "%s; %d rank(s), GPU %d each; Table 2 slab, %d cells per side, P_%d: %lld elements, "
          "%.0f DoFs, %.0f nonzeros, load imbalance %.3f\n",
          polydg::bench::device_name().c_str(), ranks, device, domain.cells_per_side, p,
          (long long)slab.element_count(), dofs, values, partition.load_imbalance());
      std::printf(
          "per rank (max): %.0f owned elements, %.0f ghosts, %.0f halo interfaces, "
          "%.0f owned DoFs\n",
          max_owned, max_ghosts, max_halo, max_owned_dofs);
      std::printf(
          "mesh (every rank) %.3f s; index manipulation: partition %.3f s + rank set-up "
          "%.3f s; quadrature: first assembly %.4f s, re-assembly %.5f s (%.5f s/MDoF); "
          "total %.3f s\n",
          mesh_s, partition_s, setup_s, first_s, values_s, values_s / (dofs * 1e-6), total_s);
      std::printf(
          "%s: update_from_device %.4f s, MatMult %.5f s (%.1f GB/s of values at 12 B "
          "per nonzero)\n",
          type, update_s, matmult_s, values * 12 / matmult_s * 1e-9);
      std::printf(
          "dense-block shell: set-up %.3f s, MatMult %.5f s (%.1f GB/s of values at 8 B "
          "per nonzero), |shell - AIJ| / |AIJ| = %.2e; ghosts gathered first (no overlap) "
          "%.5f s; the local product alone %.5f s\n",
          shell_setup_s, shell_matmult_s, values * 8 / shell_matmult_s * 1e-9, shell_difference,
          gathered_matmult_s, local_product_s);
      if (!json_path.empty()) {
        std::ofstream json(json_path);
        json << "{"
             << polydg::bench::provenance_json(argc, argv, started, polydg::bench::device_json())
             << ", \"ranks\": " << ranks << ", \"cells_per_side\": " << domain.cells_per_side
             << ", \"p\": " << p << ", \"elements\": " << slab.element_count()
             << ", \"dofs\": " << dofs << ", \"nonzeros\": " << values
             << ", \"load_imbalance\": " << partition.load_imbalance()
             << ", \"max_owned_elements\": " << max_owned << ", \"max_ghosts\": " << max_ghosts
             << ", \"max_halo_interfaces\": " << max_halo << ", \"mesh_seconds\": " << mesh_s
             << ", \"partition_seconds\": " << partition_s
             << ", \"rank_setup_seconds\": " << setup_s
             << ", \"first_assembly_seconds\": " << first_s
             << ", \"reassembly_seconds\": " << values_s << ", \"total_seconds\": " << total_s
             << ", \"mat_type\": " << polydg::bench::json_string(type)
             << ", \"update_from_device_seconds\": " << update_s
             << ", \"matmult_seconds\": " << matmult_s
             << ", \"shell_setup_seconds\": " << shell_setup_s
             << ", \"shell_matmult_seconds\": " << shell_matmult_s
             << ", \"shell_gathered_matmult_seconds\": " << gathered_matmult_s
             << ", \"local_product_seconds\": " << local_product_s
             << ", \"shell_relative_difference\": " << shell_difference << "}\n";
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "bench_distributed (rank " << rank << "): " << error.what() << "\n";
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  return 0;
}
