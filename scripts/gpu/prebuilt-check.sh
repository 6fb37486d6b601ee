#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, with carry [".devdeps",
# "build-pack"] after scripts/gpu/pack-binaries.sh here: unpacks the binaries into build/,
# runs every packed test (each must pass: exit 0; 77 means it found no GPU or, for the device-Vec
# tests, a PETSc without CUDA), then
# compute-sanitizer memcheck on the tests named in POLYDG_MEMCHECK (comma-separated, e.g.
# test_cuda_dense_block_matrix), then the command given, if any, with the library on the path:
#   bash scripts/gpu/prebuilt-check.sh [build/bin/bench_spmv --megabytes 560 --json $OUT/spmv.json]
# Logs go to $OUT. Exit status: 1 if a test failed or memcheck found errors.
set -uo pipefail
# POLYDG_DEVDEPS=.devdeps-cuda for binaries built against PETSc with CUDA (pack-binaries.sh).
source "$(dirname "${BASH_SOURCE[0]}")/prebuilt-setup.sh"
status=0
for test in build/bin/tests/test_*; do
  [ -x "$test" ] || continue
  name=$(basename "$test")
  start=$(date +%s%N)
  timeout "${POLYDG_TEST_TIMEOUT:-600}" "$test" > "$out/$name.log" 2>&1
  code=$?
  verdict=passed
  [ $code = 0 ] || { verdict="FAILED ($code)"; status=1; }
  [ $code = 77 ] && verdict="SKIPPED (77): $(tail -1 "$out/$name.log")"
  elapsed=$((($(date +%s%N) - start) / 1000000))
  printf '%-34s %s %d.%03d s\n' "$name" "$verdict" $((elapsed / 1000)) $((elapsed % 1000))
done
memcheck_tests="${POLYDG_MEMCHECK:-}"
for name in ${memcheck_tests//,/ }; do
  compute-sanitizer --tool memcheck --error-exitcode 1 "build/bin/tests/$name" \
    > "$out/memcheck-$name.log" 2>&1 || status=1
  echo "memcheck $name: $(tail -1 "$out/memcheck-$name.log")"
done
[ $# -eq 0 ] || "$@"
exit "$status"
