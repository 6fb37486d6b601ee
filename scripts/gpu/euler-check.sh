#!/usr/bin/env bash
# Run on the GPU machine from the project root, carry [".devdeps-cuda", "build-pack"], after
# here:
#   POLYDG_PACK_BUILD=build-pc POLYDG_DEVDEPS=.devdeps-cuda scripts/gpu/pack-binaries.sh euler
# examples/euler --backend gpu as the example tests run it (examples/CMakeLists.txt,
# example_euler_*_gpu): the hill against the CPU run (tests/examples/check_program.py
# --compare, 1e-9), a GPU stop / save / resume that must end bit for bit as the uninterrupted
# GPU run (tolerance 0), the vortex and the double Mach reflection with euler's checks, then
# the double Mach reflection at level 4 (294,912 triangles). Outputs in $OUT/e.
set -u
source .devdeps-cuda/activate.sh
xz -dc build-pack/gpu-binaries.tar.xz | tar -xf -
export LD_LIBRARY_PATH=$PWD/build/lib:$LD_LIBRARY_PATH
out="${OUT:-build-pack/out}/e"
mkdir -p "$out"
euler=build/bin/euler
check() { python3 tests/examples/check_program.py --check euler "$@"; }
"$euler" --case rotating_hill --p 1 --level 0 --json "$out/hill.json" | tail -1
check --compare "$out/hill.json" --relative-tolerance 1e-9 -- "$euler" --case rotating_hill \
  --p 1 --level 0 --backend gpu --json "$out/hill_gpu.json"
echo "hill, GPU against CPU: $?"
check -- "$euler" --case rotating_hill --p 1 --level 0 --backend gpu --stop-after-steps 150 \
  --save-restart "$out/hill.restart" --json "$out/stopped.json"
echo "stop and save: $?"
check --compare "$out/hill_gpu.json" --relative-tolerance 0 -- "$euler" --case rotating_hill \
  --p 1 --level 0 --backend gpu --restart "$out/hill.restart" --json "$out/resumed.json"
echo "resume, bit for bit: $?"
check -- "$euler" --case supersonic_vortex --p 1 --level 0 --backend gpu --progress 1000 \
  --json "$out/vortex_gpu.json"
echo "vortex: $?"
check -- "$euler" --case double_mach --level 0 --backend gpu --vtk "$out/dmr" --vtk-every 1000 \
  --json "$out/dmr0.json"
echo "double Mach, level 0: $?"
rm -rf "$out/dmr"
"$euler" --case double_mach --level 4 --backend gpu --progress 5000 --json "$out/dmr4.json"
echo "double Mach, level 4: $?"
