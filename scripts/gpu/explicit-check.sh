#!/usr/bin/env bash
# Run on the GPU machine from the project root, carry [".devdeps-cuda", "build-pack"], after
# here:
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh \
#     test_cuda_explicit_triangles bench_explicit explicit_accuracy
# The explicit path on the GPU (docs/performance.md, "Explicit DG steps"; docs/theory.md,
# "Accuracy of the explicit path"). STAGES (default "tests bench double_mach"), outputs in $OUT:
#   tests        test_cuda_explicit_triangles (GPU = CPU, the stage limiters), memcheck with
#                POLYDG_MEMCHECK=test_cuda_explicit_triangles
#   bench        bench_explicit, RK4 and SSP-RK3 → bench_{rk4,ssp_rk3}.{json,txt}
#   double_mach  bench_explicit --case double_mach (963,272 triangles to t = 0.2; target 30 s)
#   accuracy     explicit_accuracy, vortex levels 0..3 and hill levels 0..5 (~3 minutes)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/build-pack/out}"
mkdir -p "$out"
cd "$root"
export POLYDG_DEVDEPS=.devdeps-cuda
stages="${STAGES:-tests bench double_mach}"
status=0
if [[ " $stages " == *" tests "* ]]; then
  bash scripts/gpu/prebuilt-check.sh || status=1
else
  source .devdeps-cuda/activate.sh
  xz -dc build-pack/gpu-binaries.tar.xz | tar -xf -
fi
source .devdeps-cuda/activate.sh
export LD_LIBRARY_PATH="$root/build/lib:$LD_LIBRARY_PATH"
bin=build/bin
if [[ " $stages " == *" bench "* ]]; then
  "$bin/bench_explicit" --json "$out/bench_rk4.json" > "$out/bench_rk4.txt" 2>&1 || status=1
  "$bin/bench_explicit" --scheme ssp_rk3 --cpu-steps 0 --json "$out/bench_ssp_rk3.json" \
    > "$out/bench_ssp_rk3.txt" 2>&1 || status=1
  tail -12 "$out/bench_rk4.txt" "$out/bench_ssp_rk3.txt"
fi
if [[ " $stages " == *" double_mach "* ]]; then
  "$bin/bench_explicit" --case double_mach --max-seconds 120 --json "$out/double_mach.json" \
    > "$out/double_mach.txt" 2>&1 || status=1
  tail -5 "$out/double_mach.txt"
fi
if [[ " $stages " == *" accuracy "* ]]; then
  timeout 120 "$bin/explicit_accuracy" --case supersonic_vortex --p 1,2,3,4 --levels 0..3 \
    --max-seconds 40 --json "$out/accuracy_vortex.json" > "$out/accuracy_vortex.txt" 2>&1 || status=1
  timeout 120 "$bin/explicit_accuracy" --case rotating_hill --p 1,2,3,4 --levels 0..5 \
    --max-seconds 40 --json "$out/accuracy_hill.json" > "$out/accuracy_hill.txt" 2>&1 || status=1
  tail -25 "$out/accuracy_vortex.txt" "$out/accuracy_hill.txt"
fi
exit "$status"
