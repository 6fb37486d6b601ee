#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# The quick loop for the dense-block-format SpMV: builds its GPU tests and bench_spmv, runs the
# tests (they must pass, not skip) and memcheck on the DBF test, then the benchmark.
#   scripts/gpu-spmv-check.sh [bench_spmv options...]   (default: --megabytes 560 --repeats 9)
# The table goes to $out/spmv.txt (METIS's notes filtered out), the JSON to $out/spmv.json.
source "$(dirname "$0")/gpu-setup.sh"
polydg_gpu_build spmv-build.log test_cuda_dense_block_matrix test_cuda_petsc_shell bench_spmv
cd "$root/build-gpu"
ctest -R "test_cuda_(dense_block_matrix|petsc_shell)" --output-on-failure 2>&1 | tee "$out/ctest-spmv.log"
if grep -q "Skipped\|Not Run\|Failed" "$out/ctest-spmv.log"; then echo "SpMV GPU tests did not all pass"; exit 1; fi
compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 3 bin/tests/test_cuda_dense_block_matrix \
  > "$out/memcheck-dense-block-matrix.log" 2>&1 && echo "memcheck DBF test: clean" \
  || { tail -20 "$out/memcheck-dense-block-matrix.log"; exit 1; }
[ $# -gt 0 ] || set -- --megabytes 560 --repeats 9
bin/bench_spmv "$@" --json "$out/spmv.json" 2>&1 | grep -v "Cannot bisect\|too many parts" | tee "$out/spmv.txt"
