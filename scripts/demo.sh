#!/usr/bin/env bash
# Installs what libpolydg needs, builds it (Release, build/) and runs the main demo with no
# input files: build/bin/heat — the paper's parabolic problem (docs/theory.md, References
# [Dong2021]) on the oscillating-boundary
# domain agglomerated into ~1000 polygons, space-time DG P_2 on prismatic slabs, 20 steps to
# T = 1, one line per step and the errors at the end (~15 s on two cores).
# Extra arguments go to build/bin/heat (try --help). The other examples:
# build/bin/convergence (IP-DG rates on polygons), build/bin/agglomerate (mesh quality, VTU).
source "$(dirname "$0")/setup.sh"
polydg_install_packages
polydg_configure_and_build "$POLYDG_BUILD_DIR"
echo "== build/bin/heat $*"
"$POLYDG_BUILD_DIR/bin/heat" "$@"
