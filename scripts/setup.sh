# Sourced by demo.sh and test.sh: installs the Debian packages libpolydg needs (only those
# missing), then configures and builds into $POLYDG_BUILD_DIR (default build/, Release).
# Extra CMake arguments can be passed in POLYDG_CMAKE_ARGS.
set -euo pipefail
POLYDG_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
POLYDG_BUILD_DIR="${POLYDG_BUILD_DIR:-$POLYDG_ROOT/build}"
POLYDG_JOBS="${POLYDG_JOBS:-$(nproc)}"

polydg_install_packages() {
  local wanted=(build-essential cmake pkg-config libpetsc-real-dev libmetis-dev
                libboost-test-dev ccache clang-format python3 python3-meshio "$@")
  local missing=()
  for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# polydg_configure_and_build <build dir> [cmake args...]
polydg_configure_and_build() {
  local build_dir="$1"
  shift
  echo "== configuring $build_dir"
  cmake -S "$POLYDG_ROOT" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release ${POLYDG_CMAKE_ARGS:-} "$@"
  echo "== building $build_dir ($POLYDG_JOBS jobs)"
  cmake --build "$build_dir" -j "$POLYDG_JOBS"
}

# MPI programs (PETSc) run as root on CI and the GPU host.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
