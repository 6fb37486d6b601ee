#!/usr/bin/env bash
# Installs what libpolydg needs, builds it (Release, build/) and runs the main demo with no
# input files. Usage: ./scripts/demo.sh [demo options]   (try --help)
source "$(dirname "$0")/setup.sh"
polydg_install_packages
polydg_configure_and_build "$POLYDG_BUILD_DIR"
echo "== running build/bin/agglomerate $*"
"$POLYDG_BUILD_DIR/bin/agglomerate" "$@"
