#!/usr/bin/env bash
# Installs what libpolydg needs, builds it (Release, warnings as errors, build/) and runs every
# test this machine can run (gpu tests report "Skipped" without a CUDA device). Then checks
# formatting and runs the CPU tests once more under AddressSanitizer + UBSan (build-sanitize/;
# without the benchmarks and the tests labelled study or long, to keep CI's run short).
# Set POLYDG_SKIP_SANITIZE=1 to skip the sanitizer pass.
source "$(dirname "$0")/setup.sh"
polydg_install_packages
cd "$POLYDG_ROOT"
started=$SECONDS

echo "== checking formatting (clang-format)"
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  sources=$(git ls-files '*.hpp' '*.cpp' '*.cu' '*.cuh')
else
  sources=$(find include src kernels examples tests perf -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh')
fi
unformatted=$(echo "$sources" | xargs clang-format --dry-run 2>&1 | grep "warning:" || true)
if [ -n "$unformatted" ]; then
  echo "$unformatted" | head -20
  echo "clang-format: these files need formatting (clang-format -i FILE)"
  exit 1
fi

polydg_configure_and_build "$POLYDG_BUILD_DIR" -DPOLYDG_WARNINGS_AS_ERRORS=ON
echo "== ctest ($POLYDG_BUILD_DIR)"
(cd "$POLYDG_BUILD_DIR" && ctest --output-on-failure -j "$POLYDG_JOBS")

if [ "${POLYDG_SKIP_SANITIZE:-0}" != "1" ]; then
  sanitize_dir="$POLYDG_ROOT/build-sanitize"
  polydg_configure_and_build "$sanitize_dir" -DCMAKE_BUILD_TYPE=Debug -DPOLYDG_SANITIZE=ON \
    -DPOLYDG_CUDA=OFF -DPOLYDG_EXAMPLES=OFF -DPOLYDG_BENCHMARKS=OFF -DPOLYDG_WARNINGS_AS_ERRORS=ON
  echo "== ctest under AddressSanitizer + UBSan ($sanitize_dir)"
  (cd "$sanitize_dir" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest --output-on-failure -j "$POLYDG_JOBS" -L cpu -LE 'install|study|long')
fi
echo "== all tests done in $((SECONDS - started)) s"
