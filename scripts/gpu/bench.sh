#!/usr/bin/env bash
# Run on the GPU machine (device tool) from the project root, after
#   source .devdeps/activate.sh
# Builds build-gpu/ (sm_90) if needed and runs the GPU assembly benchmark: the paper's Table 2
# setting (2D+1 slab, ~3 triangles per polygon, p = 1..5) and its Table 5 setting (a
# 504k-triangle oscillating mesh agglomerated into ~8k and ~126k elements and not agglomerated,
# p = 1..3; docs/performance.md, "Assembly: the paper's Table 2 setting" and "... Table 5
# setting"). Tables go to stdout, JSON to $OUT (or build-gpu/out).
#   scripts/gpu/bench.sh [table2|table5|all] [cells-per-side for table 2, default 502]
# QUADRATURE_EXTRA (default 0): rules of degree 2p + extra. The benchmark's coefficients are
# constant, so 0 integrates its matrix exactly (the default total-degree slab rules; the targets'
# FLOP model, docs/performance.md, "Where the GPU targets stand", assumed (p+1)^3-point tensor
# rules); 2 is the library's default. CPU_MAX_P (default 2): the CPU backend's rows.
# P_LIST (default 1,2,3,4,5): the Table 2 setting's degrees — all five take about 180 s on an
# H100, which with a cold build does not fit one 600 s device call; 3,4,5 take about 120 s.
which="${1:-all}"
cells="${2:-502}"
source "$(dirname "$0")/setup.sh"
polydg_gpu_build build-bench.log bench_assembly
bench="$root/build-gpu/bin/bench_assembly"
if [ "$which" = table2 ] || [ "$which" = all ]; then
  "$bench" --spacetime --gpu --cells-per-side "$cells" --cells-per-element 3 --p "${P_LIST:-1,2,3,4,5}" \
    --cpu-max-p "${CPU_MAX_P:-2}" --quadrature-extra "${QUADRATURE_EXTRA:-0}" --repeats 3 --json "$out/assembly_gpu_table2.json" | tee "$out/assembly_gpu_table2.txt"
fi
if [ "$which" = table5 ] || [ "$which" = all ]; then
  for per_element in 63 4 1; do
    "$bench" --spacetime --gpu --cells-per-side 502 --cells-per-element "$per_element" --p 1,2,3 \
      --cpu-max-p 0 --quadrature-extra "${QUADRATURE_EXTRA:-0}" --repeats 3 --json "$out/assembly_gpu_table5_$per_element.json" \
      | tee "$out/assembly_gpu_table5_$per_element.txt"
  done
fi
