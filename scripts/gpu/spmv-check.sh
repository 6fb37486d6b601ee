#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# The quick loop for the dense-block-format SpMV: builds its GPU tests and bench_spmv, runs the
# tests (they must pass, not skip) and memcheck on the DBF test, then the benchmark.
#   scripts/gpu/spmv-check.sh [bench_spmv options...]   (default: --megabytes 560 --repeats 9)
# The table goes to $out/spmv.txt (METIS's notes filtered out), the JSON to $out/spmv.json.
source "$(dirname "$0")/setup.sh"
polydg_gpu_build spmv-build.log test_cuda_dense_block_matrix test_cuda_petsc_shell bench_spmv
polydg_gpu_ctest ctest-spmv.log -R "test_cuda_(dense_block_matrix|petsc_shell)"
polydg_memcheck test_cuda_dense_block_matrix
[ $# -gt 0 ] || set -- --megabytes 560 --repeats 9
"$root/build-gpu/bin/bench_spmv" "$@" --json "$out/spmv.json" 2>&1 | grep -v "Cannot bisect\|too many parts" | tee "$out/spmv.txt"
