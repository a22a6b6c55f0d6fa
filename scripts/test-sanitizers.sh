#!/usr/bin/env bash
# Builds the addon once under AddressSanitizer + UndefinedBehaviorSanitizer (its own build
# folder, build-asan/ unless LAPIS_ASAN_BUILD says otherwise) and runs the CPU test suite
# against it. Node itself is not instrumented, so the ASan runtime is preloaded; leak
# detection is off because Node leaks by design at exit. Any ASan report aborts the
# process (a failed test), as does any UBSan finding (halt_on_error=1).
#
#   bash scripts/test-sanitizers.sh            # build + test/property test/core test/hardening
#                                              # (fast-check runs ×1 unless LAPIS_FC_RUNS_SCALE says otherwise)
#   bash scripts/test-sanitizers.sh test/core  # build + only the given test paths
#   bash scripts/test-sanitizers.sh --build-only   # the build alone (CI builds it early, niced)
#   bash scripts/test-sanitizers.sh --no-build ... # the tests on the build already there
set -euo pipefail
cd "$(dirname "$0")/.."

mode=all
case "${1:-}" in
  --build-only) mode=build; shift ;;
  --no-build) mode=test; shift ;;
esac

BUILD=${LAPIS_ASAN_BUILD:-build-asan}
if [ "$mode" != test ]; then
  node node_modules/cmake-js/bin/cmake-js compile --directory . --out "$BUILD" --config Release \
    --parallel "${LAPIS_BUILD_JOBS:-2}" --CDLAPIS_SANITIZE=address,undefined
fi
[ "$mode" = build ] && exit 0

ADDON="$PWD/$BUILD/Release/lapis.node"
[ -f "$ADDON" ] || { echo "test-sanitizers: no sanitizer build at $ADDON (run without --no-build)" >&2; exit 1; }
PRELOAD="$(g++ -print-file-name=libasan.so):$(g++ -print-file-name=libubsan.so)"
if [ $# -eq 0 ]; then set -- test/property test/core test/hardening; fi

# verify_asan_link_order=0: the runtime comes from LD_PRELOAD, not from node's link line.
# allocator_may_return_null=1: tests that ask for absurd sizes expect Node's own "allocation
# failed" errors, which ASan would otherwise turn into an abort. The `ulimit -v` scenarios
# of test/hardening/native-safety.test.ts cannot run under ASan (it reserves terabytes of
# shadow memory): LAPIS_SANITIZER=asan makes that one describe block skip itself (3 tests);
# the regular CI run covers them.
export LAPIS_ADDON="$ADDON" LAPIS_SANITIZER=asan
# fast-check at its base run counts (the suite's default is ×3): with the fixed seed these
# runs are the first third of the default run's cases, so every op, dtype and path the
# properties reach still runs under ASan; the ×3 depth runs in the regular CI steps.
export LAPIS_FC_RUNS_SCALE="${LAPIS_FC_RUNS_SCALE:-1}"
export LD_PRELOAD="$PRELOAD"
export ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0:allocator_may_return_null=1:abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# --no-cache: CI runs this beside other vitest runs, which write the same results cache
exec node node_modules/vitest/vitest.mjs run --no-cache "$@"
