#!/usr/bin/env bash
# Run here (not on the GPU machine): builds the library twice in build/ — the tree as it is (A)
# and with PATCH applied (B) — and keeps the two in build-ab/a and build-ab/b, for
# scripts/gpu-lib-ab.sh to time on the GPU machine without building there (a fresh machine
# spends 5-8 of a session's 30 device minutes building the library). For changes to the
# library only: the binaries linked against it are built once, from A.
#   scripts/lib-ab.sh PATCH [TARGET...]   (TARGETs: the binaries to carry, default bench_spmv)
# PATCH: `git diff` output. The tree is left as it was (PATCH reversed, A rebuilt).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
patch_file="$(realpath "$1")"
shift
[ $# -gt 0 ] || set -- bench_spmv
cd "$root"
git apply --check "$patch_file"
cmake --build build -j "$(nproc)" --target "$@" > /dev/null
rm -rf build-ab && mkdir -p build-ab/a build-ab/b
cp -a build/lib/libpolydg.so* build-ab/a/
git apply "$patch_file"
trap 'git apply -R "$patch_file"; cmake --build build -j "$(nproc)" --target polydg > /dev/null' EXIT
cmake --build build -j "$(nproc)" --target polydg > /dev/null
cp -a build/lib/libpolydg.so* build-ab/b/
echo "build-ab/a (A) and build-ab/b (B, $(basename "$patch_file")) ready; carry them with"
echo "  .devdeps, build-ab and $(printf 'build/bin/%s ' "$@")(tests: build/bin/tests/NAME)"
