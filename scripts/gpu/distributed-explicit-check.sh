#!/usr/bin/env bash
# Run on the GPU machine from the project root, carry [".devdeps-cuda", "build-pack"], after
# here:
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh \
#     test_cuda_distributed_explicit test_cuda_explicit_triangles test_cuda_explicit_polygons euler \
#     bench_distributed_explicit bench_explicit
# The device explicit solvers on several ranks (DistributedDeviceExplicitDG; docs/performance.md,
# "Explicit solver on several ranks"), one GPU per rank where there are enough, else sharing:
#  * test_cuda_distributed_explicit on 1 to 4 ranks, and under compute-sanitizer memcheck
#    on 2; the one-GPU explicit tests (their wave-speed kernels count owned elements now);
#  * euler --backend gpu under mpiexec -n 2 against the CPU (hill) and one GPU (double Mach);
#  * bench_explicit p = 1, 2 (the facet kernels take a selection now: the one-GPU speed);
#  * the double Mach reflection at level 2 on 1 and 2 ranks: how far rounding drifts;
#  * bench_distributed_explicit, double Mach at LEVEL (default 5: 1.18 M triangles) and the hill
#    one level finer (524 k), on 1 and RANKS (default 2) ranks, with MPS where the ranks share a
#    GPU (bench_{case}_{ranks}.json), and the double Mach reflection with two ghost layers.
# Outputs in $OUT.
set -uo pipefail
POLYDG_DEVDEPS=.devdeps-cuda source "$(dirname "${BASH_SOURCE[0]}")/prebuilt-setup.sh"
gpus="$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)"
ranks="${RANKS:-2}"
level="${LEVEL:-5}"
status=0
tests=build/bin/tests
"$tests/test_cuda_distributed_explicit" > "$out/distributed_1.log" 2>&1 || status=1
echo "test_cuda_distributed_explicit, 1 rank: $(summary "$out/distributed_1.log")"
for n in 2 3 4; do
  timeout 300 mpiexec -n "$n" --oversubscribe "$tests/test_cuda_distributed_explicit" \
    > "$out/distributed_$n.log" 2>&1 || status=1
  echo "test_cuda_distributed_explicit, $n ranks: $(grep -c 'No errors' "$out/distributed_$n.log") of $n ranks without errors"
done
timeout 300 mpiexec -n 2 --oversubscribe compute-sanitizer --tool memcheck --error-exitcode 1 \
  "$tests/test_cuda_distributed_explicit" > "$out/memcheck_distributed_2.log" 2>&1 || status=1
echo "memcheck, 2 ranks: $(grep -o 'ERROR SUMMARY: [0-9]* errors' "$out/memcheck_distributed_2.log" | sort | uniq -c | tr '\n' ' ')"
for t in test_cuda_explicit_triangles test_cuda_explicit_polygons; do
  "$tests/$t" > "$out/$t.log" 2>&1 || status=1
  echo "$t: $(summary "$out/$t.log")"
done
euler=build/bin/euler
check() { python3 tests/examples/check_program.py --check euler "$@"; }
"$euler" --case rotating_hill --p 1 --level 0 --json "$out/hill_cpu.json" > /dev/null || status=1
check --compare "$out/hill_cpu.json" --relative-tolerance 1e-9 -- mpiexec -n 2 --oversubscribe \
  "$euler" --case rotating_hill --p 1 --level 0 --backend gpu --json "$out/hill_gpu_2.json" \
  > "$out/hill_gpu_2.txt" 2>&1 || status=1
echo "hill, GPU on 2 ranks against the CPU: $(tail -1 "$out/hill_gpu_2.txt")"
"$euler" --case double_mach --level 0 --backend gpu --json "$out/dmr0_gpu_1.json" > /dev/null || status=1
check --compare "$out/dmr0_gpu_1.json" --relative-tolerance 1e-10 -- mpiexec -n 2 --oversubscribe \
  "$euler" --case double_mach --level 0 --backend gpu --json "$out/dmr0_gpu_2.json" \
  > "$out/dmr0_gpu_2.txt" 2>&1 || status=1
echo "double Mach level 0, GPU on 2 ranks against 1: $(tail -1 "$out/dmr0_gpu_2.txt")"
# The one-GPU explicit step after the facet kernels' selection argument: bench_explicit's RK4
# table, p = 1, 2 (docs/performance.md, "Explicit DG steps", has the reference).
if [ -x build/bin/bench_explicit ]; then
  build/bin/bench_explicit --p 1,2 --cpu-steps 0 > "$out/bench_explicit.txt" 2>&1 || status=1
  grep -i "euler\|advection" "$out/bench_explicit.txt" | head -8
fi
# Rounding over many steps: the double Mach reflection at level 2 on 1 and 2 ranks (limiter
# switches amplify differences of the last bit; compare with the CPU's 1 against 2 ranks).
"$euler" --case double_mach --level 2 --backend gpu --json "$out/dmr2_gpu_1.json" > /dev/null || status=1
mpiexec -n 2 --oversubscribe "$euler" --case double_mach --level 2 --backend gpu \
  --json "$out/dmr2_gpu_2.json" > /dev/null 2>&1 || status=1
python3 -c "import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); print('double Mach level 2, GPU 1 vs 2 ranks:', {k:(a[k],b[k]) for k in ('steps','min_density','min_pressure')})" "$out/dmr2_gpu_1.json" "$out/dmr2_gpu_2.json"
# Timing (bench_distributed_explicit): one rank, then RANKS ranks (MPS where they share a GPU).
bench=build/bin/bench_distributed_explicit
# The hill one level finer: its 2 (8 · 2^L)² triangles are fewer than the double Mach's.
levels=(double_mach "$level" hill "$((level + 1))")
for i in 0 2; do
  c="${levels[$i]}"
  "$bench" --case "$c" --level "${levels[$((i + 1))]}" --steps 300 \
    --json "$out/bench_${c}_1.json" 2>&1 | tail -2
done
if [ "$gpus" -lt "$ranks" ]; then
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
  mkdir -p /tmp/mps /tmp/mps-log
  nvidia-cuda-mps-control -d && echo "MPS on: $ranks ranks share $gpus GPU(s)"
fi
for i in 0 2; do
  c="${levels[$i]}"
  mpiexec -n "$ranks" --oversubscribe "$bench" --case "$c" --level "${levels[$((i + 1))]}" \
    --steps 300 --json "$out/bench_${c}_$ranks.json" 2>&1 | tail -1
done
# Two ghost layers: no exchange before the double Mach reflection's limiter.
mpiexec -n "$ranks" --oversubscribe "$bench" --case double_mach --level "$level" --ghost-layers 2 \
  --steps 300 --json "$out/bench_double_mach_2_layers_$ranks.json" 2>&1 | tail -1
if [ "$gpus" -lt "$ranks" ]; then echo quit | nvidia-cuda-mps-control; fi
exit "$status"
