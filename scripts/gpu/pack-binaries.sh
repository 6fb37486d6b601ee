#!/usr/bin/env bash
# Run here (not on the GPU machine): builds TARGETs in build/ and packs them with the library
# into build-pack/gpu-binaries.tar.xz, for scripts/gpu/prebuilt-check.sh to run on the GPU
# machine without building there (a fresh machine spends 5-8 of a session's 30 device minutes
# building). This machine's build/ links Debian's PETSc, METIS and Boost, the libraries
# .devdeps stages there. The pack and .devdeps must fit the device tool's 64 MiB of carried
# paths together with the working tree: all 11 gpu tests and bench_spmv pack to about 25 MB,
# .devdeps is 41 MB and the tree 4 MB, which is over: name the targets a run needs (the
# slab assembler test alone packs to 11 MB).
#   scripts/gpu/pack-binaries.sh [TARGET...]   (default: every test_cuda_* test and bench_spmv)
# then run with carry [".devdeps", "build-pack"]: bash scripts/gpu/prebuilt-check.sh ...
# With PETSc 3.26 built with CUDA (device Vecs, AIJCUSPARSE): configure build-pc/ against it
# (scripts/gpu/configure-petsc-cuda.sh) and pack from there with its staged dependencies:
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh ...
# then carry [".devdeps-cuda", "build-pack"] (prebuilt-check.sh takes POLYDG_DEVDEPS too).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
build="${POLYDG_PACK_BUILD:-build}"
devdeps="${POLYDG_DEVDEPS:-.devdeps}"
if [ $# -eq 0 ]; then
  mapfile -t tests < <(cd "$build" && ctest -L gpu -N | sed -n 's/.*Test *#[0-9]*: \(test_cuda_[a-z_]*\).*/\1/p')
  set -- "${tests[@]}" bench_spmv
fi
cmake --build "$build" -j "$(nproc)" --target polydg "$@" > /dev/null
# Packed as build/...: prebuilt-check.sh unpacks into build/ whichever tree they come from.
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/build"
cp -a "$build/lib" "$staging/build/"
files=(build/lib)
for target in "$@"; do
  binary="$(cd "$build" && find bin -name "$target" -type f | head -1)"
  [ -n "$binary" ] || { echo "no binary for $target in $build/bin" >&2; exit 1; }
  mkdir -p "$staging/build/$(dirname "$binary")"
  cp -a "$build/$binary" "$staging/build/$binary"
  files+=("build/$binary")
done
mkdir -p build-pack
tar -C "$staging" -cf - "${files[@]}" | xz -9e -T "$(nproc)" > build-pack/gpu-binaries.tar.xz
pack=$(stat -c %s build-pack/gpu-binaries.tar.xz)
deps=$(du -sb "$devdeps" | cut -f1)
tree=$(git ls-files -z --cached --others --exclude-standard | du -cb --files0-from=- | tail -1 | cut -f1)
echo "build-pack/gpu-binaries.tar.xz: $# binaries from $build, $((pack / 1048576)) MiB (+ $devdeps $((deps / 1048576)) MiB, tree $((tree / 1048576)) MiB)"
[ $((pack + deps + tree)) -lt $((64 * 1048576)) ] || {
  echo "over the device tool's 64 MiB of carried paths and tree: name fewer targets" >&2
  exit 1
}
