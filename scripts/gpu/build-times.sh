#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# Measures the build times docs/performance.md ("Build times") reports, with ccache off:
#   * a cold build of libpolydg alone (CUDA, sm_90, all cores);
#   * a user program that assembles on the GPU with the library's coefficient types, compiled
#     and linked (examples/heat.cpp, plain C++), and the precompiled path's test;
#   * then (optional targets as arguments) those targets, e.g. the gpu tests.
# Writes $OUT/build-times.json (or build-times.json here) and the build log.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root}
export CCACHE_DISABLE=1
build="$root/build-times"
rm -rf "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  > "$out/build-times-configure.log" 2>&1
seconds() {  # seconds COMMAND...: runs it, prints its wall time
  local start=$SECONDS
  "$@" >> "$out/build-times.log" 2>&1
  echo $((SECONDS - start))
}
library=$(seconds cmake --build "$build" -j "$(nproc)" --target polydg)
# After the library: each a single C++ file compiled and linked.
heat=$(seconds cmake --build "$build" --target heat)
point_test=$(seconds cmake --build "$build" --target test_device_point_coefficients)
others=0
if [ $# -gt 0 ]; then others=$(seconds cmake --build "$build" -j "$(nproc)" --target "$@"); fi
cat > "$out/build-times.json" <<JSON
{"commit": "${POLYDG_COMMIT:-unknown}", "cores": $(nproc), "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
 "library_cold_s": $library, "heat_compile_and_link_s": $heat,
 "point_coefficients_test_s": $point_test, "other_targets": "$*", "other_targets_s": $others}
JSON
cat "$out/build-times.json"
