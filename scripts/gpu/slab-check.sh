#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# The time-step workflow on the GPU: builds the AIJ-from-device and DeviceSlabSolver tests and
# bench_slab_march, runs the tests (they must pass, not skip), memcheck of the slab solver test,
# then the benchmark: a matrix step's pieces only (`pieces`, about a minute), or also both
# marches (`march`, about 4 minutes: the host LU of the P_2 slab takes 25 s a step).
#   scripts/gpu/slab-check.sh [pieces|march|none]
# Outputs: $out/slab_march.{txt,json} (or slab_march_pieces.*), ctest-slab.log.
source "$(dirname "$0")/setup.sh"
polydg_gpu_build build.log test_cuda_petsc_shell test_cuda_slab_solver bench_slab_march
polydg_gpu_ctest ctest-slab.log -R "test_cuda_(petsc_shell|slab_solver)"
polydg_memcheck test_cuda_slab_solver
case "${1:-pieces}" in
  pieces) "$root/build-gpu/bin/bench_slab_march" --march 0 --json "$out/slab_march_pieces.json" \
            | tee "$out/slab_march_pieces.txt" ;;
  march) "$root/build-gpu/bin/bench_slab_march" --steps 3 --json "$out/slab_march.json" \
           | tee "$out/slab_march.txt" ;;
  none) ;;
  *) echo "scripts/gpu/slab-check.sh: unknown mode '$1' (pieces, march or none)"; exit 1 ;;
esac
