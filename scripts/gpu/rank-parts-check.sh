#!/usr/bin/env bash
# Run on the GPU machine from the project root, carry [".devdeps-cuda", "build-pack"], after
# here:
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh \
#     test_cuda_distributed_explicit test_distributed_explicit test_distributed_assembly \
#     test_rank_part_file euler bench_rank_parts
# Rank part files, the distributed read (docs/performance.md, "Reading rank parts"):
#  * tests: the part files (test_rank_part_file); the halo's collective construction on the GPU
#    (test_cuda_distributed_explicit, 1-3 ranks sharing the GPU); parts read back in the
#    explicit and the implicit path under PETSc 3.26 (test_distributed_{explicit,assembly},
#    1-3 ranks);
#  * euler --backend gpu: the double Mach reflection read from 3 part files on 3 ranks against
#    one GPU's run of the whole mesh (JSON to 1e-10);
#  * heat (stage heat; pack heat and test_cuda_slab_solver): DeviceSlabSolver on 3 parts read
#    from their files against the CPU's one-rank errors (1e-6), and the wall time of a 4-rank
#    GPU march with every rank building the whole mesh against reading its part;
#  * bench_rank_parts at LEVEL (default 5: 1.18 M triangles) on RANK_COUNTS (default 2 4 8):
#    every rank building the whole mesh against every rank reading its part, all runs in
#    $out/rank_parts_level<LEVEL>.json (perf/results/rank-parts/).
# STAGES (default "tests bench"; also "heat") picks the parts. Each rank runs on nproc / R OpenMP threads.
# Outputs in $OUT.
set -uo pipefail
POLYDG_DEVDEPS=.devdeps-cuda source "$(dirname "${BASH_SOURCE[0]}")/prebuilt-setup.sh"
level="${LEVEL:-5}"
status=0
stages="${STAGES:-tests bench}"
parts="$(mktemp -d)"
tests=build/bin/tests
if [[ " $stages " == *" tests "* ]]; then
"$tests/test_rank_part_file" > "$out/rank_part_file.log" 2>&1 || status=1
echo "test_rank_part_file: $(summary "$out/rank_part_file.log")"
for t in test_cuda_distributed_explicit test_distributed_explicit test_distributed_assembly; do
  for n in 1 2 3; do
    timeout 300 mpiexec -n "$n" --oversubscribe "$tests/$t" > "$out/${t}_$n.log" 2>&1 || status=1
    echo "$t, $n ranks: $(grep -c 'No errors' "$out/${t}_$n.log") of $n ranks without errors"
  done
done
euler=build/bin/euler
"$euler" --case double_mach --level 0 --write-parts "$parts/dmr0" --ranks 3 || status=1
"$euler" --case double_mach --level 0 --backend gpu --json "$out/dmr0_gpu_1.json" > /dev/null \
  || status=1
python3 tests/examples/check_program.py --check euler --compare "$out/dmr0_gpu_1.json" \
  --relative-tolerance 1e-10 -- mpiexec -n 3 --oversubscribe "$euler" --case double_mach \
  --level 0 --backend gpu --read-parts "$parts/dmr0" --json "$out/dmr0_gpu_read_3.json" \
  > "$out/dmr0_gpu_read_3.txt" 2>&1 || status=1
echo "double Mach level 0, GPU, 3 ranks reading parts against 1 GPU: $(tail -1 "$out/dmr0_gpu_read_3.txt")"
fi
if [[ " $stages " == *" heat "* ]]; then
  build/bin/tests/test_cuda_slab_solver > "$out/cuda_slab_solver.log" 2>&1 || status=1
  echo "test_cuda_slab_solver: $(summary "$out/cuda_slab_solver.log")"
  heat=build/bin/heat
  small=(--cells-per-side 24 --elements 100)
  "$heat" --backend cpu "${small[@]}" --steps 4 --p 1 --json "$out/heat_cpu.json" > /dev/null \
    || status=1
  "$heat" "${small[@]}" --write-parts "$parts/heat" --ranks 3 > /dev/null || status=1
  python3 tests/examples/check_program.py --check heat --compare "$out/heat_cpu.json" \
    --relative-tolerance 1e-6 -- mpiexec -n 3 --oversubscribe "$heat" --backend gpu \
    "${small[@]}" --steps 4 --p 1 --read-parts "$parts/heat" --json "$out/heat_gpu_read_3.json" \
    -ksp_type gmres -pc_type bjacobi -sub_pc_type lu -ksp_rtol 1e-12 > "$out/heat_gpu_read_3.txt" \
    2>&1 || status=1
  echo "heat, GPU, 3 ranks reading parts against the CPU: $(tail -1 "$out/heat_gpu_read_3.txt")"
  large=(--cells-per-side 300 --elements 30000)
  march=(--backend gpu --steps 2 --p 2 -ksp_type gmres -pc_type bjacobi -ksp_rtol 1e-8)
  "$heat" "${large[@]}" --write-parts "$parts/heat_large" --ranks 4 || status=1
  for read in "" "--read-parts $parts/heat_large"; do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    mpiexec -n 4 --oversubscribe "$heat" "${large[@]}" "${march[@]}" $read > "$out/heat_large.txt" \
      2>&1 || status=1
    echo "heat ${large[*]}, 4 ranks${read:+ reading parts}: $(python3 -c "import time,sys; print(f'{time.time() - float(sys.argv[1]):.2f}')" "$start") s wall; $(grep -o 'set-up [0-9.]* s' "$out/heat_large.txt"); $(grep 'errors:' "$out/heat_large.txt")"
  done
fi
if [[ " $stages " == *" bench "* ]]; then
bench=build/bin/bench_rank_parts
mkdir -p "$parts/json"
for r in ${RANK_COUNTS:-2 4 8}; do
  export OMP_NUM_THREADS=$(( $(nproc) / r > 0 ? $(nproc) / r : 1 ))
  OMP_NUM_THREADS="$(nproc)" "$bench" --mode write --level "$level" --parts "$r" \
    --folder "$parts/l$level-$r" \
    --json "$parts/json/write_$r.json" || status=1
  mpiexec -n "$r" --oversubscribe "$bench" --mode whole --level "$level" \
    --json "$parts/json/whole_$r.json" || status=1
  mpiexec -n "$r" --oversubscribe "$bench" --mode read --level "$level" \
    --folder "$parts/l$level-$r" --json "$parts/json/read_$r.json" || status=1
done
python3 -c 'import json,sys; print(json.dumps({"runs": [json.load(open(f)) for f in sys.argv[1:]]}, indent=1))' \
  "$parts"/json/*.json > "$out/rank_parts_level$level.json" || status=1
fi
rm -rf "$parts"
exit "$status"
