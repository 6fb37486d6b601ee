#!/usr/bin/env bash
# Installs what libpolydg needs, builds it (Release, build/) and runs the main demo with no
# input files: the polytopic IP-DG convergence study (problems (a)-(d), p = 1..4, ~15 s on two
# cores), after a look at the agglomerated mesh it works on (build/bin/agglomerate, writes
# agglomerated.vtu). Extra arguments go to build/bin/convergence (try --help).
source "$(dirname "$0")/setup.sh"
polydg_install_packages
polydg_configure_and_build "$POLYDG_BUILD_DIR"
echo "== build/bin/agglomerate: seed 004's oscillating-boundary mesh into ~1000 polygons"
"$POLYDG_BUILD_DIR/bin/agglomerate"
echo "== build/bin/convergence $*"
"$POLYDG_BUILD_DIR/bin/convergence" "$@"
