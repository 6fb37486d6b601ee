#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# A/B of a source change in one call, on one machine: builds TARGET from the tree as it is (A,
# build-gpu/) and from a copy of the tree with PATCH applied (B, build-gpu-b/), side by side, then
# runs A, B, A, B with the same arguments (interleaved, so a drift of the machine shows; ROUNDS=1:
# A, B only).
#   scripts/gpu/ab.sh PATCH TARGET [ARGS...]
#   e.g. scripts/gpu/ab.sh interior.patch bench_assembly --spacetime --gpu --p 4,5 --cpu-max-p 0
# PATCH: `git diff` output (applied with patch -p1). Outputs: $out/ab-{A,B}-{1,2}.txt. In ARGS,
# @RUN@ stands for the run's name (A-1, B-1, A-2, B-2), e.g. --json "$OUT/ab-@RUN@.json".
# Benchmarks' JSON: A records POLYDG_COMMIT (or git), B records POLYDG_COMMIT+PATCH's file name.
source "$(dirname "$0")/setup.sh"
patch_file="$(realpath "$1")"
target="$2"
shift 2
copy="$root/build-gpu-b/source"
rm -rf "$copy" && mkdir -p "$copy"
tar -C "$root" --exclude='./build*' --exclude=./.devdeps --exclude=./.git -cf - . | tar -C "$copy" -xf -
patch -d "$copy" -p1 < "$patch_file" > "$out/ab-patch.log" || { cat "$out/ab-patch.log"; exit 1; }
cmake -S "$copy" -B "$root/build-gpu-b/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DPOLYDG_WARNINGS_AS_ERRORS=OFF > "$out/ab-configure-b.log" 2>&1 \
  || { tail -40 "$out/ab-configure-b.log"; exit 1; }
half=$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))
cmake --build "$root/build-gpu" -j "$half" --target "$target" > "$out/ab-build-a.log" 2>&1 &
build_a=$!
cmake --build "$root/build-gpu-b/build" -j "$half" --target "$target" > "$out/ab-build-b.log" 2>&1 &
build_b=$!
status=0
wait "$build_a" || { echo "A did not build"; grep -E "error" -A5 "$out/ab-build-a.log" | head -40; status=1; }
wait "$build_b" || { echo "B did not build"; grep -E "error" -A5 "$out/ab-build-b.log" | head -40; status=1; }
[ $status = 0 ] || exit 1
for round in $(seq 1 "${ROUNDS:-2}"); do
  for variant in A B; do
    bin="$root/build-gpu/bin"
    [ $variant = B ] && bin="$root/build-gpu-b/build/bin"
    executable="$(find "$bin" -name "$target" -type f | head -1)"
    # B's JSON provenance: A's commit and the patch (its copy has no .git).
    commit="${POLYDG_COMMIT:-}"
    [ $variant = B ] && commit="${POLYDG_COMMIT:-unknown}+$(basename "$patch_file")"
    POLYDG_COMMIT="$commit" "$executable" "${@//@RUN@/$variant-$round}" > "$out/ab-$variant-$round.txt" 2>&1 \
      || echo "$variant round $round failed (see ab-$variant-$round.txt)"
    echo "== $variant, round $round: $out/ab-$variant-$round.txt"
  done
done
