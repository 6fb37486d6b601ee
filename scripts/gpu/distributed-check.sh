#!/usr/bin/env bash
# Run on a GPU machine with two or more GPUs (device tool kind nvidia-h200-x2 or larger) from
# the project root, carry [".devdeps-cuda", "build-pack"], after here:
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh \
#     test_distributed_assembly bench_distributed
# The distributed assembly (docs/performance.md, "Distributed assembly"): the distributed tests
# under mpiexec -n 2 and 3 (CPU; TESTS=0 skips them), then bench_distributed for each
# RANKS:CELLS[:AIJ] of RUNS (default "1:800 2:800 1:566"; AIJ yes or no, bench_distributed's
# --aij), one GPU per rank, its JSON in $OUT as distributed_<RANKS>_<CELLS>.json. P (default 3)
# sets the degree: 800 cells per side are 8.3 M DoFs at P_3, 566 half of them (the weak
# scaling's one GPU), 1600 four times (33 M). AGGLOMERATION (kway, the default, or greedy) is
# bench_distributed's --agglomeration: METIS takes 80 s per rank at 800 cells, greedy growth
# under a second (the large runs). Pack test_cuda_dense_block_matrix and heat too for the GPU
# checks below.
set -uo pipefail
POLYDG_DEVDEPS=.devdeps-cuda source "$(dirname "${BASH_SOURCE[0]}")/prebuilt-setup.sh"
# NVLink multicast stays off (the device tool's rule for machines of several GPUs).
export NCCL_NVLS_ENABLE=0
status=0
if [ "${TESTS:-1}" = 1 ]; then
  for ranks in 2 3; do
    timeout 300 mpiexec -n "$ranks" --oversubscribe build/bin/tests/test_distributed_assembly \
      > "$out/test_distributed_assembly_$ranks.log" 2>&1 || status=1
    echo "test_distributed_assembly, $ranks ranks: $(grep -c 'No errors' "$out/test_distributed_assembly_$ranks.log") of $ranks ranks without errors"
  done
  # Where they were packed: the device ghost column product (with memcheck), and the heat march
  # on the GPU under mpiexec -n 2 (DeviceSlabSolver, dense-block shell products) against one
  # rank's on the CPU. On a machine of one GPU both ranks share it: a check of the results.
  if [ -x build/bin/tests/test_cuda_dense_block_matrix ]; then
    build/bin/tests/test_cuda_dense_block_matrix > "$out/test_cuda_dense_block_matrix.log" 2>&1 || status=1
    compute-sanitizer --tool memcheck --error-exitcode 1 build/bin/tests/test_cuda_dense_block_matrix \
      --run_test=ghost_columns_on_the_device_are_the_hosts > "$out/memcheck_ghost_columns.log" 2>&1 || status=1
    echo "test_cuda_dense_block_matrix: $(summary "$out/test_cuda_dense_block_matrix.log")"
    echo "memcheck (ghost columns): $(grep -o 'ERROR SUMMARY: [0-9]* errors' "$out/memcheck_ghost_columns.log")"
  fi
  if [ -x build/bin/heat ]; then
    heat_case=(--cells-per-side 24 --elements 100 --steps 4 --p 1)
    build/bin/heat --backend cpu "${heat_case[@]}" --json "$out/heat_cpu.json" > "$out/heat_cpu.txt" 2>&1 || status=1
    python3 tests/examples/check_program.py --check heat --compare "$out/heat_cpu.json" \
      --relative-tolerance 1e-6 -- mpiexec -n 2 --oversubscribe build/bin/heat --backend gpu \
      "${heat_case[@]}" --products dense_blocks --json "$out/heat_gpu_mpi_2.json" \
      -ksp_type gmres -pc_type bjacobi -sub_pc_type lu -ksp_rtol 1e-12 \
      > "$out/heat_gpu_mpi_2.txt" 2>&1 || status=1
    echo "heat on the GPU, mpiexec -n 2, dense-block shell: $(tail -1 "$out/heat_gpu_mpi_2.txt")"
    # The multigrid's levels over the ranks on the GPU (DeviceSlabSolver, Galerkin levels on
    # MPIAIJCUSPARSE) against one rank's direct solve on the CPU.
    multigrid_case=(--cells-per-side 40 --elements 800 --steps 3 --p 1)
    build/bin/heat --backend cpu "${multigrid_case[@]}" --json "$out/heat_multigrid_lu.json" \
      > "$out/heat_multigrid_lu.txt" 2>&1 || status=1
    python3 tests/examples/check_program.py --check heat --compare "$out/heat_multigrid_lu.json" \
      --relative-tolerance 1e-6 -- mpiexec -n 2 --oversubscribe build/bin/heat --backend gpu \
      "${multigrid_case[@]}" --json "$out/heat_gpu_multigrid_mpi_2.json" \
      -ksp_type gmres -pc_type mg -ksp_rtol 1e-12 > "$out/heat_gpu_multigrid_mpi_2.txt" 2>&1 || status=1
    echo "heat on the GPU, mpiexec -n 2, -pc_type mg: $(tail -1 "$out/heat_gpu_multigrid_mpi_2.txt")"
  fi
fi
for run in ${RUNS:-1:800 2:800 1:566}; do
  IFS=: read -r n cells aij <<< "$run"
  # Each rank's OpenMP threads share the host's cores.
  OMP_NUM_THREADS=$(($(nproc) / n)) timeout 580 mpiexec -n "$n" --bind-to none \
    build/bin/bench_distributed --cells-per-side "$cells" --p "${P:-3}" --aij "${aij:-yes}" \
    --agglomeration "${AGGLOMERATION:-kway}" --json "$out/distributed_${n}_$cells.json" \
    > "$out/distributed_${n}_$cells.txt" 2>&1 || status=1
  grep -v "Cannot bisect\|too many parts" "$out/distributed_${n}_$cells.txt" | tail -8
done
exit "$status"
