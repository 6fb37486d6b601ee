#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# Profiles the assembly kernels with Nsight Compute: builds bench_assembly with -lineinfo in
# build-profile/, runs it on a mesh of the Table 2 setting (docs/performance.md) at one degree,
# and records the first `count` launches of the quadrature kernels (element, interior, boundary
# of the double-precision assembly; KERNELS, default "tiled_point|thread_item", is the regular expression of their names).
#   scripts/gpu/profile-assembly.sh [p, default 1] [cells-per-side, default 300] [count, default 3]
# Writes $out/profile-p<p>.txt (ncu's details page) and $out/profile-p<p>-sass.csv (per-SASS-line
# stall samples of those launches, for scripts/gpu/sass_hot_spots.py).
source "$(dirname "$0")/profile-setup.sh"
p="${1:-1}"
cells="${2:-300}"
count="${3:-3}"
polydg_profile_build bench_assembly
report="$root/build-profile/profile-p$p"
ncu --clock-control none --set full --import-source yes -k "regex:${KERNELS:-tiled_point|thread_item}" --launch-count "$count" \
  -f -o "$report" "$root/build-profile/bin/bench_assembly" --spacetime --gpu --cells-per-side "$cells" \
  --cells-per-element 3 --p "$p" --cpu-max-p 0 --quadrature-extra 0 --repeats 1 \
  > "$out/profile-run-p$p.log" 2>&1 || { tail -30 "$out/profile-run-p$p.log"; exit 1; }
ncu --import "$report.ncu-rep" --page details > "$out/profile-p$p.txt"
ncu --import "$report.ncu-rep" --page source --print-source sass --csv > "$out/profile-p$p-sass.csv" \
  || echo "no source page from this ncu"
