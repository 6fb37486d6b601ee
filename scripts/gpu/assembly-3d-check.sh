#!/usr/bin/env bash
# Run on the GPU machine from the project root, carry [".devdeps-cuda", "build-pack"], after
# here:
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh \
#     test_device_point_coefficients bench_assembly_3d convergence
# 3D polyhedra on the GPU (docs/performance.md, "Assembly: seed 004's Table 6 setting").
# STAGES (default "tests table6"), outputs in $OUT:
#   tests        test_device_point_coefficients (3D polyhedra GPU = CPU), memcheck with
#                POLYDG_MEMCHECK=test_device_point_coefficients
#   table6       bench_assembly_3d: 6.37 M tetrahedra into 1.59 M polyhedra at p = 1, 2 (CPU at
#                p = 1), and 796 k tetrahedra into 199 k polyhedra at p = 3 (the seed's p = 3 row)
#   study        convergence --dim 3, Poisson p = 1, n = 8 .. 64 on the host's cores (the p = 1
#                rate on polyhedra past the sizes CI can solve; docs/theory.md). The n = 64
#                level (1.57 M DoFs) did not finish in 250 s: run it alone in a call.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/build-pack/out}"
mkdir -p "$out"
cd "$root"
export POLYDG_DEVDEPS=.devdeps-cuda
stages="${STAGES:-tests table6}"
status=0
if [[ " $stages " == *" tests "* ]]; then
  bash scripts/gpu/prebuilt-check.sh || status=1
else
  source .devdeps-cuda/activate.sh
  xz -dc build-pack/gpu-binaries.tar.xz | tar -xf -
fi
source .devdeps-cuda/activate.sh
export LD_LIBRARY_PATH="$root/build/lib:$LD_LIBRARY_PATH"
bin=build/bin
if [[ " $stages " == *" table6 "* ]]; then
  "$bin/bench_assembly_3d" --cells-per-side 102 --p 1,2 --cpu-max-p 1 \
    --json "$out/table6.json" > "$out/table6.txt" 2>&1 || status=1
  "$bin/bench_assembly_3d" --cells-per-side 51 --p 3 --cpu-max-p 3 \
    --json "$out/table6_p3.json" > "$out/table6_p3.txt" 2>&1 || status=1
  "$bin/bench_assembly_3d" --cells-per-side 102 --p 1 --cpu-max-p -1 --coefficients points \
    --json "$out/table6_points.json" > "$out/table6_points.txt" 2>&1 || status=1
  # Rules of degree 2p, as the 2D+1 slab's reference numbers are taken (the re-assembly target
  # compares s per MDoF with them).
  "$bin/bench_assembly_3d" --cells-per-side 102 --p 1,2 --cpu-max-p -1 --quadrature-extra 0 \
    --json "$out/table6_extra0.json" > "$out/table6_extra0.txt" 2>&1 || status=1
  "$bin/bench_assembly_3d" --cells-per-side 51 --p 3 --cpu-max-p -1 --quadrature-extra 0 \
    --json "$out/table6_p3_extra0.json" > "$out/table6_p3_extra0.txt" 2>&1 || status=1
  cat "$out"/table6*.txt
fi
if [[ " $stages " == *" study "* ]]; then
  timeout 550 "$bin/convergence" --dim 3 --problem poisson --p 1 --start 8 --levels 4 \
    --json "$out/convergence_3d_p1.json" -ksp_type cg -pc_type mg -ksp_rtol 1e-10 \
    > "$out/convergence_3d_p1.txt" 2>&1 || status=1
  cat "$out/convergence_3d_p1.txt"
fi
exit "$status"
