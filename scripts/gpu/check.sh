#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# Builds build-gpu/ for sm_90 (warnings not fatal here: the host compiler differs from CI's),
# runs the gpu-labelled tests (they must pass there, not skip),
# runs compute-sanitizer memcheck and racecheck on them (API errors not reported: the smoke
# test provokes a failed cudaMalloc on purpose), and copies logs to $OUT (if set).
source "$(dirname "$0")/setup.sh"
polydg_gpu_build build.log
echo "build warnings: $(grep -c "warning" "$out/build.log" || true)"
polydg_gpu_ctest ctest-gpu.log -L gpu
# POLYDG_SANITIZE=0: stop here (a quick correctness run while developing kernels).
if [ "${POLYDG_SANITIZE:-1}" = 0 ]; then exit 0; fi
# memcheck must finish clean; racecheck runs the small cases with 180 s per test (the element
# kernel's full test did not finish in 7 minutes on an H200).
for test_binary in "$root"/build-gpu/bin/tests/test_cuda_*; do
  name=$(basename "$test_binary")
  polydg_memcheck "$name"
  polydg_racecheck "$name" 180
done
cd "$root/build-gpu"
ctest -L cpu -j 8 2>&1 | tee "$out/ctest-cpu.log" | grep -E "tests passed|Failed"
