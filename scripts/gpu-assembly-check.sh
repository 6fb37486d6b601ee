#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# The quick loop for the assembly kernels: builds only their GPU tests and bench_assembly,
# runs the tests (they must pass, not skip), then the Table 2 benchmark of gpu-bench.sh.
#   scripts/gpu-assembly-check.sh [table2|table5|all|none] [cells-per-side, default 502]
# POLYDG_RACECHECK=1 also runs compute-sanitizer racecheck on the small cases of the assembler
# test (and memcheck on the element-kernel test).
source "$(dirname "$0")/gpu-setup.sh"
polydg_gpu_build build.log test_cuda_assembler test_cuda_element_kernel test_cuda_basis bench_assembly
cd "$root/build-gpu"
ctest -R "test_cuda_(assembler|element_kernel|basis)" --output-on-failure 2>&1 | tee "$out/ctest-assembly.log"
if grep -q "Skipped\|Not Run\|Failed" "$out/ctest-assembly.log"; then echo "assembly GPU tests did not all pass"; exit 1; fi
if [ "${POLYDG_RACECHECK:-0}" = 1 ]; then
  compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 3 bin/tests/test_cuda_element_kernel \
    > "$out/memcheck-element.log" 2>&1 && echo "memcheck element kernel test: clean" || { tail -20 "$out/memcheck-element.log"; exit 1; }
  status=0
  POLYDG_GPU_TEST_SMALL=1 timeout "${POLYDG_RACECHECK_SECONDS:-150}" compute-sanitizer --tool racecheck \
    --report-api-errors no --error-exitcode 3 bin/tests/test_cuda_assembler > "$out/racecheck-assembler.log" 2>&1 || status=$?
  case $status in
    0) echo "racecheck assembler test (small cases): clean" ;;
    124) echo "racecheck assembler test: did not finish in ${POLYDG_RACECHECK_SECONDS:-150} s (not a verdict)" ;;
    *) tail -20 "$out/racecheck-assembler.log"; exit 1 ;;
  esac
fi
cd "$root"
[ "${1:-table2}" = none ] || "$root/scripts/gpu-bench.sh" "${1:-table2}" "${2:-502}"
