#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# The quick loop for the assembly kernels: builds only their GPU tests and bench_assembly,
# runs the tests (they must pass, not skip), then the Table 2 setting's benchmark of
# scripts/gpu/bench.sh.
#   scripts/gpu/assembly-check.sh [table2|table5|all|none] [cells-per-side, default 502]
# POLYDG_RACECHECK=1 also runs compute-sanitizer racecheck on the small cases of the assembler
# test (and memcheck on the element-kernel test).
source "$(dirname "$0")/setup.sh"
polydg_gpu_build build.log test_cuda_assembler test_cuda_advection_assembler \
  test_cuda_coo_and_non_finite test_cuda_slab_assembler test_cuda_element_kernel test_cuda_basis \
  bench_assembly
polydg_gpu_ctest ctest-assembly.log \
  -R "test_cuda_(assembler|advection_assembler|coo_and_non_finite|slab_assembler|element_kernel|basis)"
if [ "${POLYDG_RACECHECK:-0}" = 1 ]; then
  polydg_memcheck test_cuda_element_kernel
  polydg_racecheck test_cuda_assembler "${POLYDG_RACECHECK_SECONDS:-150}"
  polydg_racecheck test_cuda_slab_assembler "${POLYDG_RACECHECK_SECONDS:-150}"
fi
[ "${1:-table2}" = none ] || "$root/scripts/gpu/bench.sh" "${1:-table2}" "${2:-502}"
