#!/usr/bin/env bash
# Run here (not on the GPU machine): builds the library twice in build/ — the tree as it is (A)
# and with PATCH applied (B) — and keeps the two in build-ab/a and build-ab/b, for
# scripts/gpu/lib-ab-run.sh to time on the GPU machine without building there (a fresh machine
# spends 5-8 of a session's 30 device minutes building the library). For changes to the
# library only: the binaries linked against it are built once, from A, into build-ab/bin.
#   scripts/gpu/lib-ab.sh PATCH [TARGET...]   (the binaries to time; default bench_spmv)
# PATCH: `git diff` output. The tree is left as it was (PATCH reversed, A rebuilt). Then run
# scripts/gpu/lib-ab-run.sh there with carry [".devdeps", "build-ab"].
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
patch_file="$(realpath "$1")"
shift
[ $# -gt 0 ] || set -- bench_spmv
cd "$root"
git apply --check "$patch_file"
cmake --build build -j "$(nproc)" --target "$@" > /dev/null
rm -rf build-ab && mkdir -p build-ab/a build-ab/b build-ab/bin
cp -a build/lib/libpolydg.so* build-ab/a/
for target in "$@"; do cp "$(find build/bin -name "$target" -type f | head -1)" build-ab/bin/; done
git apply "$patch_file"
trap 'git apply -R "$patch_file"; cmake --build build -j "$(nproc)" --target polydg > /dev/null' EXIT
cmake --build build -j "$(nproc)" --target polydg > /dev/null
cp -a build/lib/libpolydg.so* build-ab/b/
echo "build-ab/{a,b} ready (B: $(basename "$patch_file")), binaries in build-ab/bin: $*"
