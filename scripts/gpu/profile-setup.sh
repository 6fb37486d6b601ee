# shellcheck shell=bash
# Sourced by the profiling scripts (profile-assembly.sh, profile-spmv.sh) on the GPU machine:
# sets $root and $out ($OUT, or build-profile/out) and configures build-profile/ (Release,
# sm_90, -lineinfo so Nsight Compute maps SASS to source lines).
#   polydg_profile_build TARGET   builds TARGET in build-profile/ (log: $out/profile-build.log)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/build-profile/out}"
mkdir -p "$out"
cmake -S "$root" -B "$root/build-profile" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DPOLYDG_WARNINGS_AS_ERRORS=OFF -DCMAKE_CUDA_FLAGS=-lineinfo > "$out/profile-configure.log" 2>&1 \
  || { tail -40 "$out/profile-configure.log"; exit 1; }

polydg_profile_build() {
  cmake --build "$root/build-profile" -j "$(nproc)" --target "$1" > "$out/profile-build.log" 2>&1 \
    || { grep -E "error" -A5 "$out/profile-build.log" | head -60; exit 1; }
}
