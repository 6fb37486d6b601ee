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
// The AIJ matrix and the assembler are freed before the shell is built; the GPU memory in use
// with each is reported. With the AIJ matrix 8.3 M DoFs take 34 GiB of one GPU: --aij no leaves
// it out (no AIJ product, no check of the shell's), so that one H200 holds 32 M, the
// strong-scaling baseline of the large runs.
//
//   mpiexec -n 2 build/bin/bench_distributed [--cells-per-side 800] [--p 3] [--repeats 5]
//                                            [--agglomeration kway|greedy] [--aij yes|no]
//                                            [--json FILE]
#include <cuda_runtime.h>
#include <mpi.h>
#include <petscmat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
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
#include "wall_time.hpp"

namespace {

using Clock = polydg::bench::WallClock;
using polydg::bench::seconds_since;

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

/// GiB of this rank's GPU in use (by any process), the largest over the ranks.
double max_device_gib_in_use() {
  std::size_t free_bytes = 0, total_bytes = 0;
  POLYDG_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return polydg::petsc::max_over_ranks(double(total_bytes - free_bytes) / (1 << 30));
}

/// Every rank's GPU, "0,1,…" in rank order (on rank 0).
std::string device_list(int device, int ranks) {
  std::vector<int> devices(std::size_t(ranks), 0);
  MPI_Gather(&device, 1, MPI_INT, devices.data(), 1, MPI_INT, 0, PETSC_COMM_WORLD);
  std::string list;
  for (const int d : devices) list += (list.empty() ? "" : ",") + std::to_string(d);
  return list;
}

constexpr const char* usage = R"(Usage: bench_distributed [options] [PETSc options]
Distributed GPU assembly of the Table 2 slab under mpiexec -n R, one GPU per rank.
  --cells-per-side N   the oscillating domain's cells per side (default 800: 8.3 M DoFs at P_3)
  --p P                the degree (default 3)
  --repeats N          re-assemblies timed (median; default 5)
  --agglomeration M    kway (default: METIS, the paper's; minutes at millions of triangles) or
                       greedy (greedy growth, under a second: for the large scaling runs)
  --aij yes|no         build the MPIAIJ matrix, time its product and check the shell's against
                       it (default yes); no: the shell alone, for slabs one GPU holds only so
  --json FILE          also write the numbers as JSON (rank 0)
  --help               this text
)";

}  // namespace

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  polydg::OscillatingDomain domain;
  domain.cells_per_side = 800;
  int p = 3, repeats = 5;
  std::string json_path, agglomeration_name = "kway";
  bool with_aij = true;
  polydg::AgglomerationOptions agglomeration;
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
      else if (flag == "--aij") {
        polydg::require(value == "yes" || value == "no", "--aij must be yes or no, not '", value,
                        "'");
        with_aij = value == "yes";
      } else if (flag == "--agglomeration") {
        polydg::require(value == "kway" || value == "greedy",
                        "--agglomeration must be kway or greedy, not '", value, "'");
        agglomeration_name = value;
        agglomeration.method = value == "kway" ? polydg::PartitionMethod::kway
                                               : polydg::PartitionMethod::greedy_growth;
      } else
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
    const polydg::Agglomeration parts = polydg::agglomerate_by_cell_count(*fine, 3, agglomeration);
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
    std::optional<polydg::DeviceAssembler<3>> assembler;
    assembler.emplace(polydg::QuadratureMesh<3>(slab, polydg::bench::heat_slab_conditions(),
                                                assembly.pieces, partition, rank),
                      assembly);
    POLYDG_CUDA_CHECK(cudaDeviceSynchronize());
    const double setup_s = polydg::petsc::max_over_ranks(seconds_since(start));
    const polydg::RankBlockPattern rows = polydg::make_rank_block_pattern(
        assembler->host_pattern(), partition, rank,
        polydg::partition_dof_offsets(slab, partition, assembly.space));

    // Quadrature: the first assembly, then values re-assemblies.
    const auto coefficients = polydg::bench::heat_slab_coefficients();
    const double first_s = timed_on_all_ranks([&] {
      assembler->assemble(coefficients);
      assembler->add_previous_slab_term(polydg::bench::PreviousSlabValue{});
    });
    const double values_s =
        median_on_all_ranks(repeats, [&] { assembler->assemble_matrix(coefficients); });

    // The MPIAIJ matrix on the device where PETSc has CUDA, and its product.
    const polydg::petsc::Placement placement =
        polydg::petsc::available(polydg::petsc::Placement::device);
    polydg::petsc::Vector x(rows, placement), y(rows, placement);
    double update_s = 0, matmult_s = 0, assembler_and_aij_gib = 0;
    std::string type;
    if (with_aij) {  // freed at the brace, before the shell is built
      polydg::petsc::AijMatrix aij(rows, "", placement);
      update_s = timed_on_all_ranks([&] { aij.update_from_device(assembler->values()); });
      POLYDG_PETSC_CALL(VecSet(x.vec(), 1.0));
      POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec()));  // warm-up
      matmult_s =
          median_on_all_ranks(20, [&] { POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec())); });
      MatType type_name = nullptr;
      POLYDG_PETSC_CALL(MatGetType(aij.mat(), &type_name));
      type = type_name;
      assembler_and_aij_gib = max_device_gib_in_use();
      // The reference product for the shell's check.
      POLYDG_PETSC_CALL(VecSetRandom(x.vec(), nullptr));
      POLYDG_PETSC_CALL(MatMult(aij.mat(), x.vec(), y.vec()));
    } else {
      assembler_and_aij_gib = max_device_gib_in_use();
      POLYDG_PETSC_CALL(VecSetRandom(x.vec(), nullptr));
    }

    // The dense-block MATSHELL of the same rows: its product against the MPIAIJ's, and timed.
    start = Clock::now();
    // Its set-up in stages, each the slowest rank's seconds: the values copied to the host,
    // the host dense blocks, their upload, the operator and Mat.
    std::vector<double> shell_stage_s;
    auto stage_start = Clock::now();
    const auto end_stage = [&] {
      shell_stage_s.push_back(polydg::petsc::max_over_ranks(seconds_since(stage_start)));
      stage_start = Clock::now();
    };
    polydg::BlockMatrix<double> host_matrix = assembler->make_host_matrix();
    assembler->copy_to_host(host_matrix);
    assembler.reset();
    end_stage();
    const polydg::DenseBlockMatrix<double> dense(host_matrix);
    end_stage();
    const polydg::DeviceDenseBlockMatrix<double> device_dense(dense);
    end_stage();
    const polydg::petsc::DeviceDenseBlockOperator op(device_dense, host_matrix.shared_pattern());
    polydg::petsc::ShellMatrix shell(op, rows);
    end_stage();
    const double shell_setup_s = polydg::petsc::max_over_ranks(seconds_since(start));
    const double shell_gib = max_device_gib_in_use();
    polydg::petsc::Vector y_shell(rows, placement);
    POLYDG_PETSC_CALL(MatMult(shell.mat(), x.vec(), y_shell.vec()));
    double shell_difference = 0;
    if (with_aij) {
      PetscReal y_norm = 0, difference_norm = 0;
      POLYDG_PETSC_CALL(VecNorm(y.vec(), NORM_INFINITY, &y_norm));
      POLYDG_PETSC_CALL(VecAXPY(y_shell.vec(), -1.0, y.vec()));
      POLYDG_PETSC_CALL(VecNorm(y_shell.vec(), NORM_INFINITY, &difference_norm));
      shell_difference = double(difference_norm / y_norm);
    }
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
    const std::string devices = device_list(device, ranks);

    if (rank == 0) {
      std::printf(
          "%s; %d rank(s) on GPUs %s; Table 2 slab, %d cells per side (%s), P_%d: %lld "
          "elements, %.0f DoFs, %.0f nonzeros, load imbalance %.3f\n",
          polydg::bench::device_name().c_str(), ranks, devices.c_str(), domain.cells_per_side,
          agglomeration_name.c_str(), p, (long long)slab.element_count(), dofs, values,
          partition.load_imbalance());
      std::printf(
          "per rank (max): %.0f owned elements, %.0f ghosts, %.0f halo interfaces, "
          "%.0f owned DoFs; GPU memory in use %.1f GiB (assembler + AIJ), %.1f GiB (shell)\n",
          max_owned, max_ghosts, max_halo, max_owned_dofs, assembler_and_aij_gib, shell_gib);
      std::printf(
          "mesh (every rank) %.3f s; index manipulation: partition %.3f s + rank set-up "
          "%.3f s; quadrature: first assembly %.4f s, re-assembly %.5f s (%.5f s/MDoF); "
          "total %.3f s\n",
          mesh_s, partition_s, setup_s, first_s, values_s, values_s / (dofs * 1e-6), total_s);
      if (with_aij)
        std::printf(
            "%s: update_from_device %.4f s, MatMult %.5f s (%.1f GB/s of values at 12 B "
            "per nonzero); |shell - AIJ| / |AIJ| = %.2e\n",
            type.c_str(), update_s, matmult_s, values * 12 / matmult_s * 1e-9, shell_difference);
      std::printf(
          "dense-block shell: set-up %.3f s (values to the host %.3f, dense blocks %.3f, "
          "upload %.3f, operator and Mat %.3f), MatMult %.5f s (%.1f GB/s of values at 8 B "
          "per nonzero); ghosts gathered first (no overlap) %.5f s; the local product alone "
          "%.5f s\n",
          shell_setup_s, shell_stage_s[0], shell_stage_s[1], shell_stage_s[2], shell_stage_s[3],
          shell_matmult_s, values * 8 / shell_matmult_s * 1e-9, gathered_matmult_s,
          local_product_s);
      if (!json_path.empty()) {
        std::ofstream json(json_path);
        json << "{"
             << polydg::bench::provenance_json(argc, argv, started, polydg::bench::device_json())
             << ", \"ranks\": " << ranks << ", \"gpus\": [" << devices << "]"
             << ", \"cells_per_side\": " << domain.cells_per_side
             << ", \"agglomeration\": " << polydg::bench::json_string(agglomeration_name)
             << ", \"p\": " << p << ", \"elements\": " << slab.element_count()
             << ", \"dofs\": " << dofs << ", \"nonzeros\": " << values
             << ", \"load_imbalance\": " << partition.load_imbalance()
             << ", \"max_owned_elements\": " << max_owned << ", \"max_ghosts\": " << max_ghosts
             << ", \"max_halo_interfaces\": " << max_halo
             << ", \"aij\": " << (with_aij ? "true" : "false")
             << ", \"max_gpu_gib_assembler_and_aij\": " << assembler_and_aij_gib
             << ", \"max_gpu_gib_shell\": " << shell_gib << ", \"mesh_seconds\": " << mesh_s
             << ", \"partition_seconds\": " << partition_s
             << ", \"rank_setup_seconds\": " << setup_s
             << ", \"first_assembly_seconds\": " << first_s
             << ", \"reassembly_seconds\": " << values_s << ", \"total_seconds\": " << total_s
             << ", \"shell_setup_seconds\": " << shell_setup_s
             << ", \"shell_setup_stage_seconds\": {\"values_to_host\": " << shell_stage_s[0]
             << ", \"dense_blocks\": " << shell_stage_s[1] << ", \"upload\": " << shell_stage_s[2]
             << ", \"operator_and_mat\": " << shell_stage_s[3] << "}"
             << ", \"shell_matmult_seconds\": " << shell_matmult_s
             << ", \"shell_gathered_matmult_seconds\": " << gathered_matmult_s
             << ", \"local_product_seconds\": " << local_product_s;
        if (with_aij)
          json << ", \"mat_type\": " << polydg::bench::json_string(type)
               << ", \"update_from_device_seconds\": " << update_s
               << ", \"matmult_seconds\": " << matmult_s
               << ", \"shell_relative_difference\": " << shell_difference;
        json << "}\n";
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "bench_distributed (rank " << rank << "): " << error.what() << "\n";
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  return 0;
}
