// What a PETSc user on CPUs runs on one of our slab systems: the matrix and rhs saved by
// `heat --save-system FILE` (PETSc's binary format) loaded with MatLoad / VecLoad and solved
// by KSP as the options database says, on as many MPI ranks as it is started with. The time
// per slab step of the GPU path (heat --json) is compared with this (docs/performance.md,
// "The slab step on the GPU").
//
//   mpiexec -n 16 build/bin/solve_saved_system --system FILE [--json FILE]
//       -ksp_type gmres -ksp_gmres_restart 100 -ksp_rtol 1e-8 -pc_type gamg
//
// Prints and writes: ranks, rows, nonzeros, load / set-up / solve seconds, iterations, the
// converged reason, the true relative residual ‖b − A x‖ / ‖b‖. The initial guess is zero (the
// slab march starts from the previous slab's solution: at most the same iterations there).
#include <petscksp.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "bench_provenance.hpp"

namespace {

constexpr const char* usage =
    R"(Usage: solve_saved_system --system FILE [--json FILE] [PETSc options]
Loads a matrix and a rhs (PETSc binary, heat --save-system) and solves with KSP from the options
database (-ksp_type, -pc_type, -ksp_rtol, ...; -mat_type / -vec_type for the loaded objects), on
the ranks of mpiexec. Prints load, set-up and solve times, iterations and the true residual.
  --system FILE   the saved system (required)
  --json FILE     also write the numbers as JSON (rank 0)
  --help          this text
)";

double seconds_since(double start) { return MPI_Wtime() - start; }

}  // namespace

int main(int argc, char** argv) {
  const std::string started = polydg::bench::utc_now();
  std::string system_path, json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help") {
      std::fputs(usage, stdout);
      return 0;
    }
    if (flag.rfind("--", 0) != 0) continue;  // PETSc's
    if (i + 1 >= argc) {
      std::fprintf(stderr, "solve_saved_system: option %s needs a value (see --help)\n",
                   flag.c_str());
      return 1;
    }
    if (flag == "--system") {
      system_path = argv[++i];
    } else if (flag == "--json") {
      json_path = argv[++i];
    } else {
      std::fprintf(stderr, "solve_saved_system: unknown option %s (see --help)\n", flag.c_str());
      return 1;
    }
  }
  if (system_path.empty()) {
    std::fputs("solve_saved_system: --system FILE is required (see --help)\n", stderr);
    return 1;
  }
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  PetscMPIInt ranks = 0, rank = 0;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &ranks));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));

  Mat matrix = nullptr;
  Vec b = nullptr, x = nullptr, residual = nullptr;
  PetscViewer viewer = nullptr;
  double start = MPI_Wtime();
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, system_path.c_str(), FILE_MODE_READ, &viewer));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &matrix));
  PetscCall(MatSetFromOptions(matrix));
  PetscCall(MatLoad(matrix, viewer));
  // The rhs takes the matrix's row layout: loaded on its own it would be split without the
  // matrix's block size (the .info file's -matload_block_size) and the ranks' rows would differ.
  PetscCall(MatCreateVecs(matrix, nullptr, &b));
  PetscCall(VecLoad(b, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  const double load_s = seconds_since(start);
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &residual));
  PetscInt rows = 0;
  MatInfo info;
  PetscCall(MatGetSize(matrix, &rows, nullptr));
  PetscCall(MatGetInfo(matrix, MAT_GLOBAL_SUM, &info));

  KSP ksp = nullptr;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, matrix, matrix));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  start = MPI_Wtime();
  PetscCall(KSPSetUp(ksp));
  const double setup_s = seconds_since(start);
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  start = MPI_Wtime();
  PetscCall(KSPSolve(ksp, b, x));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  const double solve_s = seconds_since(start);
  PetscInt iterations = 0;
  KSPConvergedReason reason;
  PetscCall(KSPGetIterationNumber(ksp, &iterations));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  KSPType ksp_type = nullptr;
  PCType pc_type = nullptr;
  PC pc = nullptr;
  PetscCall(KSPGetType(ksp, &ksp_type));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &pc_type));
  PetscReal b_norm = 0, residual_norm = 0;
  PetscCall(MatMult(matrix, x, residual));
  PetscCall(VecAYPX(residual, -1.0, b));
  PetscCall(VecNorm(residual, NORM_2, &residual_norm));
  PetscCall(VecNorm(b, NORM_2, &b_norm));
  const double relative_residual = b_norm > 0 ? residual_norm / b_norm : residual_norm;

  if (rank == 0) {
    std::printf(
        "solve_saved_system: %s, %d ranks, %lld rows, %.0f nonzeros; %s + %s: load %.3f s, "
        "set-up %.3f s, solve %.3f s, %lld iterations, %s, |b - Ax| / |b| = %.2e\n",
        system_path.c_str(), int(ranks), (long long)rows, info.nz_used, ksp_type, pc_type, load_s,
        setup_s, solve_s, (long long)iterations, KSPConvergedReasons[reason], relative_residual);
    if (!json_path.empty()) {
      std::ofstream json(json_path);
      json << "{" << polydg::bench::provenance_json(argc, argv, started)
           << ", \"system\": " << polydg::bench::json_string(system_path)
           << ", \"ranks\": " << ranks << ", \"rows\": " << rows
           << ", \"nonzeros\": " << info.nz_used << ", \"ksp_type\": \"" << ksp_type
           << "\", \"pc_type\": \"" << pc_type << "\", \"load_s\": " << load_s
           << ", \"setup_s\": " << setup_s << ", \"solve_s\": " << solve_s
           << ", \"iterations\": " << iterations << ", \"reason\": \""
           << KSPConvergedReasons[reason] << "\", \"relative_residual\": " << relative_residual
           << "}\n";
      if (!json) std::fprintf(stderr, "solve_saved_system: cannot write %s\n", json_path.c_str());
    }
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&residual));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&matrix));
  PetscCall(PetscFinalize());
  return reason > 0 ? 0 : 2;
}
