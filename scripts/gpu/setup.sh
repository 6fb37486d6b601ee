# shellcheck shell=bash
# Sourced by the scripts in scripts/gpu/ that build on the GPU machine (check.sh,
# assembly-check.sh, spmv-check.sh, slab-check.sh, bench.sh, ab.sh), after
# `source .devdeps/activate.sh`: sets $root and $out ($OUT, or build-gpu/out), records the device
# in $out/device.txt and configures build-gpu/ (Release, sm_90, warnings not fatal: the host
# compiler differs from CI's). The device tool brings back at most 8 files from $OUT: a call that
# must return its JSON should leave few others.
# The tree here is a copy whose .git may be an older base commit: give the benchmarks' JSON the
# right commit with POLYDG_COMMIT=<hash> in the device command (perf/README.md, "Provenance").
#   polydg_gpu_build LOG [TARGET...]   builds build-gpu/ (the targets, or everything) into $out/LOG
#   polydg_gpu_ctest, polydg_memcheck, polydg_racecheck   (below) the tests' runs on the device
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/build-gpu/out}"
mkdir -p "$out"
[ -n "${POLYDG_COMMIT:-}" ] ||
  echo "note: POLYDG_COMMIT is not set: the benchmarks record this copy's git commit (perhaps an older base)" >&2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"
cmake -S "$root" -B "$root/build-gpu" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DPOLYDG_GPU_PROGRAMS=ON \
  -DPOLYDG_WARNINGS_AS_ERRORS=OFF > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }

#   Several targets are built side by side once the library is: CMake's Makefiles build the goals
#   of one `--target a b c` one after another (.NOTPARALLEL), and three CUDA tests built so took
#   over 550 s on a 16-core GPU host, where the whole project takes 170 s.
polydg_gpu_build() {
  local log="$1"
  shift
  local status=0
  if [ $# -le 1 ]; then
    local targets=()
    [ $# -gt 0 ] && targets=(--target "$1")
    cmake --build "$root/build-gpu" -j "$(nproc)" "${targets[@]}" > "$out/$log" 2>&1 || status=1
  else
    cmake --build "$root/build-gpu" -j "$(nproc)" --target polydg > "$out/$log" 2>&1 || status=1
    if [ $status = 0 ]; then
      local pids=() target target_dir
      # target/fast skips the target's depend step, which is where CMake's Makefiles read the
      # compiler's header lists (*.d) into compiler_depend.make: without it, after a fresh build a
      # changed header rebuilds nothing. So each target's depend step runs first, one at a time.
      for target in "$@"; do
        target_dir="$(cd "$root/build-gpu" && find . -type d -name "$target.dir" | head -1)"
        target_dir="${target_dir#./}"
        [ -n "$target_dir" ] || { echo "polydg_gpu_build: no target $target in build-gpu"; exit 1; }
        make -C "$root/build-gpu" -s -f "$target_dir/build.make" "$target_dir/depend" >> "$out/$log" 2>&1 \
          || status=1
      done
      for target in "$@"; do  # target/fast: without re-checking the library, so no two makes write it
        cmake --build "$root/build-gpu" -j "$(nproc)" --target "$target/fast" \
          > "$out/$log.$target" 2>&1 &
        pids+=($!)
      done
      for pid in "${pids[@]}"; do wait "$pid" || status=1; done
      for target in "$@"; do cat "$out/$log.$target" >> "$out/$log" && rm -f "$out/$log.$target"; done
    fi
  fi
  [ $status = 0 ] || { grep -E "error|No rule" -A5 "$out/$log" | head -60; exit 1; }
}

# polydg_gpu_ctest LOG [CTEST_ARGS...]   runs ctest in build-gpu/ into $out/LOG; on this machine
#                                        a GPU test that skips or fails is a failure
polydg_gpu_ctest() {
  local log="$1"
  shift
  (cd "$root/build-gpu" && ctest "$@" --output-on-failure 2>&1) | tee "$out/$log"
  if grep -q "Skipped\|Not Run\|Failed" "$out/$log"; then echo "GPU tests did not all pass ($log)"; exit 1; fi
}

# polydg_memcheck TEST   compute-sanitizer memcheck of build-gpu/bin/tests/TEST (API errors not
#                        reported: the smoke test provokes a failed cudaMalloc): must be clean
polydg_memcheck() {
  local name="$1"
  (cd "$root/build-gpu" && compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 3 \
    "bin/tests/$name") > "$out/memcheck-$name.log" 2>&1 \
    && echo "compute-sanitizer memcheck $name: clean" \
    || { echo "compute-sanitizer memcheck $name: FAILED"; tail -30 "$out/memcheck-$name.log"; exit 1; }
}

# polydg_racecheck TEST SECONDS   racecheck of TEST's small cases (POLYDG_GPU_TEST_SMALL=1; it is
#                                 slow on kernels with much shared memory): a run that does not
#                                 finish in SECONDS is reported, not failed
polydg_racecheck() {
  local name="$1" seconds="$2" status=0
  (cd "$root/build-gpu" && POLYDG_GPU_TEST_SMALL=1 timeout "$seconds" compute-sanitizer --tool racecheck \
    --report-api-errors no --error-exitcode 3 "bin/tests/$name") > "$out/racecheck-$name.log" 2>&1 || status=$?
  case $status in
    0) echo "compute-sanitizer racecheck $name (small cases): clean" ;;
    124) echo "compute-sanitizer racecheck $name: did not finish in $seconds s (not a verdict)" ;;
    *) echo "compute-sanitizer racecheck $name: FAILED"; tail -30 "$out/racecheck-$name.log"; exit 1 ;;
  esac
}
