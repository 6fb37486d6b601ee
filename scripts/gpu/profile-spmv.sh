#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# Profiles one y = A x launch of the dense-block-format SpMV with Nsight Compute: builds
# bench_spmv with -lineinfo in build-profile/ and records the first launch whose kernel name
# matches KERNEL (default "multiply") in `bench_spmv --cases CASE --p P` (fp64 runs first).
#   scripts/gpu/profile-spmv.sh CASE P [KERNEL] [megabytes, default 560]
# Writes $out/profile-spmv-CASE-pP.txt (ncu's details page) and ...-sass.csv (per-SASS-line
# stall samples, for scripts/gpu/sass_hot_spots.py).
source "$(dirname "$0")/profile-setup.sh"
case="$1"
p="$2"
kernel="${3:-multiply}"
megabytes="${4:-560}"
polydg_profile_build bench_spmv
name="profile-spmv-$case-p$p"
report="$root/build-profile/$name"
ncu --clock-control none --set full --import-source yes -k "regex:$kernel" --launch-count 1 \
  -f -o "$report" "$root/build-profile/bin/bench_spmv" --cases "$case" --p "$p" \
  --megabytes "$megabytes" --repeats 1 > "$out/$name-run.log" 2>&1 \
  || { tail -30 "$out/$name-run.log"; exit 1; }
ncu --import "$report.ncu-rep" --page details > "$out/$name.txt"
ncu --import "$report.ncu-rep" --page source --print-source sass --csv > "$out/$name-sass.csv" \
  || echo "no source page from this ncu"
