#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, with carry [".devdeps",
# "build-pack"] after, here:
#   scripts/gpu/pack-binaries.sh heat bench_slab_march test_cuda_slab_solver ...
# Runs the heat demo on both backends (both problems; advection-diffusion also with the
# dense-block MATSHELL), the packed tests (scripts/gpu/prebuilt-check.sh), then the
# slab-march benchmark (CPU SlabSolver against DeviceSlabSolver), and packs every log into
# $OUT/logs.tar.gz (the device tool returns few files). Exit status: the tests'.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
final="${OUT:-$root/build-pack/out}"
logs="$(mktemp -d)"
cd "$root"
xz -dc build-pack/gpu-binaries.tar.xz | tar -xf -
source .devdeps/activate.sh
export LD_LIBRARY_PATH="$root/build/lib:$LD_LIBRARY_PATH"
run() {  # run NAME COMMAND...: output to $logs/NAME.txt, its last lines to the summary
  timeout "${RUN_TIMEOUT:-90}" "${@:2}" > "$logs/$1.txt" 2>&1
  { echo "== $1 (exit $?): ${*:2}"; tail -3 "$logs/$1.txt"; } | tee -a "$final/summary.txt"
  tar -czf "$final/logs.tar.gz" -C "$logs" .  # after each run: a killed call still returns them
}
ad=(--problem advection_diffusion)
shell=(--cells-per-side 40 --elements 300 --steps 5 --products dense_blocks -ksp_type gmres
  -ksp_gmres_restart 100 -pc_type pbjacobi -ksp_rtol 1e-10)
run heat_gpu build/bin/heat --backend gpu --json "$logs/heat_gpu.json"
run heat_cpu build/bin/heat --backend cpu --json "$logs/heat_cpu.json"
run heat_ad_gpu build/bin/heat --backend gpu "${ad[@]}"
run heat_ad_cpu build/bin/heat --backend cpu "${ad[@]}"
run heat_ad_shell_gpu build/bin/heat --backend gpu "${ad[@]}" "${shell[@]}"
run heat_ad_shell_cpu build/bin/heat --backend cpu "${ad[@]}" "${shell[@]}"
run heat_gpu_p3 build/bin/heat --backend gpu --p 3 --cells-per-side 100 --elements 2500 --steps 5
OUT="$logs" POLYDG_TEST_TIMEOUT=${POLYDG_TEST_TIMEOUT:-90} bash scripts/gpu/prebuilt-check.sh |
  tee -a "$final/summary.txt"
status=${PIPESTATUS[0]}
tar -czf "$final/logs.tar.gz" -C "$logs" .
RUN_TIMEOUT=150 run slab_march build/bin/bench_slab_march --steps 3 --json "$logs/slab_march.json" \
  -ksp_type preonly -pc_type jacobi
exit "$status"
