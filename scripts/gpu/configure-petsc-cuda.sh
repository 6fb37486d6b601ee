#!/usr/bin/env bash
# Run here (not on the GPU machine): configures build-pc/ against PETSc 3.26.1 built with CUDA
# (../shared/device/petsc-3.26.1-cuda-sm90.tar.xz, unpacked once into /opt/petsc-cuda), for GPU
# binaries that use device Vecs and MATAIJCUSPARSE. This machine has no GPU: the binaries run
# there, packed with pack-binaries.sh:
#   scripts/gpu/configure-petsc-cuda.sh
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh \
#       polydg test_device_vectors bench_ksp ...
#   (device call, carry [".devdeps-cuda", "build-pack"])
#   POLYDG_DEVDEPS=.devdeps-cuda bash scripts/gpu/prebuilt-check.sh [COMMAND]
# .devdeps-cuda/ comes from bash ../shared/device/stage-deps-cuda.sh (23 MB; with the pack
# under the device tool's 64 MiB). The CPU tests run here against this PETSc too (build-pc has
# POLYDG_GPU_PROGRAMS=ON; OFF for a CPU-only pass); the install test finds it through
#   PKG_CONFIG_PATH=/opt/petsc-cuda/pc LD_LIBRARY_PATH=/opt/petsc-cuda/lib ctest -L cpu
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
archive="$root/../shared/device/petsc-3.26.1-cuda-sm90.tar.xz"
prefix=/opt/petsc-cuda
if [ ! -f "$prefix/lib/libpetsc.so" ]; then
  mkdir -p "$prefix"
  xz -dc "$archive" | tar -C "$prefix" -xf -
fi
# The archive's PETSc.pc names the prefix it was built in.
mkdir -p "$prefix/pc"
sed "s|^prefix=.*|prefix=$prefix|" "$prefix/lib/pkgconfig/PETSc.pc" > "$prefix/pc/PETSc.pc"
PKG_CONFIG_PATH="$prefix/pc" cmake -S "$root" -B "$root/build-pc" -DCMAKE_BUILD_TYPE=Release \
  -DPOLYDG_WARNINGS_AS_ERRORS=ON -DPOLYDG_GPU_PROGRAMS=ON -DCMAKE_CUDA_ARCHITECTURES=90
