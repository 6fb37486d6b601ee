# Sourced by the scripts that run on the GPU machine (gpu-check.sh, gpu-assembly-check.sh,
# gpu-bench.sh), after `source .devdeps/activate.sh`: sets $root and $out ($OUT, or
# build-gpu/out), records the device in $out/device.txt and configures build-gpu/ (Release,
# sm_90, warnings not fatal: the host compiler differs from CI's).
#   polydg_gpu_build LOG [TARGET...]   builds build-gpu/ (the targets, or everything) into $out/LOG
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/build-gpu/out}"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"
cmake -S "$root" -B "$root/build-gpu" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DPOLYDG_WARNINGS_AS_ERRORS=OFF > "$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; exit 1; }

polydg_gpu_build() {
  local log="$1"
  shift
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake --build "$root/build-gpu" -j "$(nproc)" "${targets[@]}" > "$out/$log" 2>&1 \
    || { grep -E "error" -A5 "$out/$log" | head -60; exit 1; }
}
