# Sourced (not run) on the GPU machine by the scripts that run binaries packed here
# (pack-binaries.sh): sets root and out ($OUT, else build-pack/out), goes to the project root,
# sources the staged dependencies (POLYDG_DEVDEPS, default .devdeps), unpacks
# build-pack/gpu-binaries.tar.xz into build/, puts the library on the path, lets Open MPI run as
# root and writes the device's name to $out/device.txt. summary LOG: a Boost.Test log's verdict.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT:-$root/build-pack/out}"
mkdir -p "$out"
cd "$root"
source "${POLYDG_DEVDEPS:-.devdeps}/activate.sh"
xz -dc build-pack/gpu-binaries.tar.xz | tar -xf - || { echo "no build-pack/gpu-binaries.tar.xz"; exit 1; }
export LD_LIBRARY_PATH="$root/build/lib:$LD_LIBRARY_PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/device.txt"
summary() { tail -c 300 "$1" | tr -d '\033' | grep -o 'No errors detected\|[0-9]* failures\? .*\|[0-9]* assertions\? .* failed.*' | head -1; }
