#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root. The SpMV check without a build
# there: the binaries come from this machine's build/ (Release, sm_90; Debian's PETSc, METIS
# and Boost, the same libraries .devdeps stages), which saves the 5-8 minutes of device time a
# fresh machine spends building the library. Build here first:
#   cmake --build build --target polydg bench_spmv test_cuda_dense_block_matrix test_cuda_petsc_shell
# then run with carry [".devdeps", "build/lib", "build/bin/bench_spmv",
#   "build/bin/tests/test_cuda_dense_block_matrix", "build/bin/tests/test_cuda_petsc_shell"]:
#   bash scripts/gpu-spmv-prebuilt.sh [bench_spmv options...]  (default: --megabytes 560 --repeats 9)
# Runs both SpMV GPU tests (they must pass), compute-sanitizer memcheck of the DBF test, then
# bench_spmv: $OUT/spmv.txt and $OUT/spmv.json. An A/B of a library change: scripts/lib-ab.sh
# here, scripts/gpu-lib-ab.sh there.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/build/gpu-out}"
mkdir -p "$out"
source "$root/.devdeps/activate.sh"
export LD_LIBRARY_PATH="$root/build/lib:$LD_LIBRARY_PATH"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"
status=0
for test in test_cuda_dense_block_matrix test_cuda_petsc_shell; do
  "$root/build/bin/tests/$test" > "$out/$test.log" 2>&1 || status=1
  echo "$test: $(tail -1 "$out/$test.log")"
done
compute-sanitizer --tool memcheck --error-exitcode 1 "$root/build/bin/tests/test_cuda_dense_block_matrix" \
  > "$out/memcheck-test_cuda_dense_block_matrix.log" 2>&1 || status=1
echo "memcheck: $(tail -1 "$out/memcheck-test_cuda_dense_block_matrix.log")"
[ $# -gt 0 ] || set -- --megabytes 560 --repeats 9
"$root/build/bin/bench_spmv" "$@" --json "$out/spmv.json" 2>&1 \
  | grep -v "Cannot bisect\|too many parts" | tee "$out/spmv.txt"
exit "$status"
