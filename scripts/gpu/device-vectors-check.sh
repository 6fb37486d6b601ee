#!/usr/bin/env bash
# Run on the GPU machine from the project root, carry [".devdeps-cuda", "build-pack"], after
# here: scripts/gpu/configure-petsc-cuda.sh, then
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh \
#     test_device_vectors test_cuda_petsc_shell test_device_point_coefficients bench_ksp heat \
#     solve_saved_system bench_multigrid
# Stages (STAGES, default "tests ksp steps cpu"), outputs in $OUT:
#   tests  every packed test (prebuilt-check.sh; memcheck on POLYDG_MEMCHECK)
#   ksp    bench_ksp: GMRES per iteration, host and device Vecs → ksp.{json,txt}
#   steps  heat on the GPU, whole slab steps (assembly + solve to rtol 1e-8) at P_1..P_3 with
#          ≥ 2 M DoFs, one run per preconditioner in PCS → step-p<P>-<pc>.json, steps.txt
#          (an entry may carry options of its own after commas: PCS="mg mg,-pc_mg_cycle_type,v")
#   cpu    the P_2 step's system (heat --save-system) solved by PETSc alone on CPU_RANKS ranks,
#          one run per CPU_SOLVERS entry, each stopped after CPU_TIMEOUT s → cpu-*.json, cpu.txt
#   multigrid  bench_multigrid on the host (agglomeration MG, GAMG, ILU; MULTIGRID_CELLS cells
#          per side) → multigrid.{json,txt} (not in the default STAGES: it runs on the CPU)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/build-pack/out}"
mkdir -p "$out"
cd "$root"
export POLYDG_DEVDEPS=.devdeps-cuda
stages="${STAGES:-tests ksp steps cpu}"
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
if [[ " $stages " == *" ksp "* ]]; then
  "$bin/bench_ksp" --json "$out/ksp.json" > "$out/ksp.txt" 2>&1 || status=1
  tail -25 "$out/ksp.txt"
fi
# Table 2's slab (~3 triangles per polygon) with >= 2 M DoFs: P_1 4, P_2 10, P_3 20 DoFs per
# element (total degree in (x, y, t)); Δt = 0.05 as in the heat demo.
declare -A cells=([1]=870 [2]=550 [3]=390)
pcs="${PCS:-jacobi pbjacobi gamg}"
# The library's Krylov default (GMRES(100), classical Gram-Schmidt refined where needed, right
# preconditioning). PETSc's own GMRES default (-ksp_type gmres: no refinement) lost
# orthogonality on device Vecs after ~65 iterations of the P_2 slab and stopped with
# DIVERGED_BREAKDOWN ("residual norm computed by GMRES recursion formula is far from the
# computed residual norm at restart").
read -ra krylov <<< "${KRYLOV:--ksp_rtol 1e-8 -ksp_max_it 5000}"
# GAMG's Galerkin products of the 2 M-DoF slab exceed cuSPARSE's SpGEMM
# (CUSPARSE_STATUS_INSUFFICIENT_RESOURCES): they are formed on the host, the solve stays on the GPU.
gamg_options=(-matptap_backend_cpu -matmatmult_backend_cpu)
# PETSc alone (solve_saved_system) gets the library's GMRES spelled out (PETSc 3.26 names).
cpu_krylov=(-ksp_type gmres -ksp_gmres_restart 100 -ksp_orthogonalization_cgs_refinement_type refine_ifneeded
            -ksp_pc_side right "${krylov[@]}")
if [[ " $stages " == *" steps "* ]]; then
  for p in ${P_LIST:-1 2 3}; do
    n=${cells[$p]}
    elements=$((2 * n * n / 3))
    for entry in $pcs; do
      # An entry is a PC type, then options of its own after commas: mg,-pc_mg_cycle_type,v
      IFS=',' read -ra extra <<< "$entry"
      pc="${extra[0]}"
      extra=("${extra[@]:1}")
      name="$(echo "$entry" | tr ',' '_' | tr -d '-')"
      save=()
      [ "$p" = 2 ] && [ "$entry" = "${pcs%% *}" ] && save=(--save-system "$root/build/slab-p2.bin")
      echo "== heat P_$p, $entry" | tee -a "$out/steps.txt"
      [ "$pc" = gamg ] && extra+=("${gamg_options[@]}")
      timeout "${STEP_TIMEOUT:-150}" "$bin/heat" --backend gpu --cells-per-side "$n" \
        --elements "$elements" --p "$p" --steps "${STEPS:-3}" --T "$(awk "BEGIN { print 0.05 * ${STEPS:-3} }")" \
        --json "$out/step-p$p-$name.json" "${save[@]}" "${krylov[@]}" -pc_type "$pc" "${extra[@]}" \
        >> "$out/steps.txt" 2>&1 || { echo "heat P_$p $entry: exit $?" | tee -a "$out/steps.txt"; status=1; }
      tail -6 "$out/steps.txt"
    done
  done
fi
if [[ " $stages " == *" cpu "* ]] && [ -f build/slab-p2.bin ]; then
  ranks="${CPU_RANKS:-16}"
  IFS=';' read -ra solvers <<< "${CPU_SOLVERS:--pc_type gamg;-pc_type bjacobi -sub_pc_type ilu;-pc_type asm -sub_pc_type ilu}"
  k=0
  for solver in "${solvers[@]}"; do
    k=$((k + 1))
    echo "== $ranks ranks: $solver" | tee -a "$out/cpu.txt"
    # shellcheck disable=SC2086
    timeout "${CPU_TIMEOUT:-120}" mpiexec --allow-run-as-root --oversubscribe -n "$ranks" \
      --bind-to core "$bin/solve_saved_system" --system build/slab-p2.bin \
      --json "$out/cpu-$k.json" "${cpu_krylov[@]}" $solver >> "$out/cpu.txt" 2>&1
    code=$?
    [ $code = 124 ] && echo "stopped after ${CPU_TIMEOUT:-120} s" >> "$out/cpu.txt"
    tail -2 "$out/cpu.txt"
  done
fi
if [[ " $stages " == *" multigrid "* ]]; then
  "$bin/bench_multigrid" --cells-per-side "${MULTIGRID_CELLS:-256}" --json "$out/multigrid.json" \
    > "$out/multigrid.txt" 2>&1 || status=1
  tail -20 "$out/multigrid.txt"
fi
exit "$status"
