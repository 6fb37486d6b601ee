#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, with carry [".devdeps",
# "build-ab"] after scripts/gpu/lib-ab.sh here: runs one binary of build-ab/bin against the
# library of A (build-ab/a) and of B (build-ab/b), A, B, A, B (ROUNDS=1: A, B), with the same
# arguments; outputs $OUT/ab-{A,B}-{1,2}.txt.
#   scripts/gpu/lib-ab-run.sh NAME [ARGS...]   e.g. scripts/gpu/lib-ab-run.sh bench_spmv --cases slab --p 1,5
# In ARGS, @RUN@ stands for the run's name (A-1, B-1, ...).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/build-ab/out}"
mkdir -p "$out"
source "$root/.devdeps/activate.sh"
binary="$root/build-ab/bin/$1"
shift
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for variant in A B; do
    library="$root/build-ab/$(echo "$variant" | tr AB ab)"
    LD_LIBRARY_PATH="$library:$LD_LIBRARY_PATH" "$binary" "${@//@RUN@/$variant-$round}" \
      > "$out/ab-$variant-$round.txt" 2>&1 || echo "$variant round $round failed (see ab-$variant-$round.txt)"
    echo "== $variant, round $round: $out/ab-$variant-$round.txt"
  done
done
