#!/usr/bin/env bash
# Builds the addon and the C++ kernel tests once under AddressSanitizer +
# UndefinedBehaviorSanitizer (their own build folder, build-asan/ unless LAPIS_ASAN_BUILD says
# otherwise), runs the C++ kernel tests (native/tests, --quick sizes) and then a CPU test set
# against the addon. Node itself is not instrumented, so the ASan runtime is preloaded there;
# leak detection is off because Node leaks by design at exit. Any ASan report aborts the
# process (a failed test), as does any UBSan finding (halt_on_error=1).
#
#   bash scripts/test-sanitizers.sh            # build + the C++ tests + the default vitest set (below)
#                                              # (fast-check runs ×1 unless LAPIS_FC_RUNS_SCALE says otherwise)
#   bash scripts/test-sanitizers.sh test/core  # build + only the given test paths (no C++ tests)
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
  # -O1 for the bindings and tests too (CMakeLists.txt gives the kernels -O1 under
  # LAPIS_SANITIZE); no use-after-scope instrumentation: on the unrolled SIMD GEMM kernels it
  # cost minutes per file (kernels_avx512.cpp: 166 CPU s with it, 49 without), while stack and
  # heap overflows, use-after-free and every UBSan check stay
  node node_modules/cmake-js/bin/cmake-js compile --directory . --out "$BUILD" --config Release \
    --parallel "${LAPIS_BUILD_JOBS:-2}" --CDLAPIS_SANITIZE=address,undefined --CDLAPIS_BUILD_TESTS=ON \
    --CDCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG -fno-sanitize-address-use-after-scope"
fi
[ "$mode" = build ] && exit 0

ADDON="$PWD/$BUILD/Release/lapis.node"
[ -f "$ADDON" ] || { echo "test-sanitizers: no sanitizer build at $ADDON (run without --no-build)" >&2; exit 1; }

# verify_asan_link_order=0: the runtime comes from LD_PRELOAD, not from node's link line.
# allocator_may_return_null=1: tests that ask for absurd sizes expect Node's own "allocation
# failed" errors, which ASan would otherwise turn into an abort.
export ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0:allocator_may_return_null=1:abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

status=0
if [ $# -eq 0 ]; then
  # The C++ kernel tests, on the kernel family this machine picks, at their --quick sizes:
  # every GEMM/GEMV/TRSM/LU/QR/SVD/GDN kernel at its block edges, which the property tests
  # below then need not repeat under ASan.
  for t in "$BUILD"/test_*; do
    [ -x "$t" ] && [ -f "$t" ] || continue
    echo "== $(basename "$t") (ASan + UBSan, --quick)"
    "$t" --quick || { echo "test-sanitizers: $(basename "$t") failed" >&2; status=1; }
  done
  # The bindings and the ops without a C++ test (elementwise, reduce, special, inv, det, the
  # tiny solves, indexing), and one cheap property file each for the SVD, QR and LU bindings
  # (pinv, lstsq, svd-bidiag, equilibrate, norm); trsm, lu, qr, svd, svd-dc, matmul and
  # matmul-small are the C++ tests' kernels above.
  set -- test/core test/hardening \
    test/property/{elementwise,reduce,special,inv,inv_small,det,solve,indexing,pinv,lstsq,svd-bidiag,equilibrate,norm}.test.ts
fi

# The `ulimit -v` scenarios of test/hardening/native-safety.test.ts cannot run under ASan (it
# reserves terabytes of shadow memory): LAPIS_SANITIZER=asan makes that one describe block
# skip itself (3 tests); the regular CI run covers them.
export LAPIS_ADDON="$ADDON" LAPIS_SANITIZER=asan
# fast-check at its base run counts (the suite's default is ×3): with the fixed seed these
# runs are the first third of the default run's cases, so every op, dtype and path the
# properties reach still runs under ASan; the ×3 depth runs in the regular CI steps.
export LAPIS_FC_RUNS_SCALE="${LAPIS_FC_RUNS_SCALE:-1}"
PRELOAD="$(g++ -print-file-name=libasan.so):$(g++ -print-file-name=libubsan.so)"
# --no-cache: CI runs this beside other vitest runs, which write the same results cache.
# --no-isolate: one process for all files; a fork per file started the ASan runtime and imported
# everything again under its allocator (29 files: 95 s of imports, 10 s in one process).
LD_PRELOAD="$PRELOAD" node node_modules/vitest/vitest.mjs run --no-cache --no-isolate "$@" || status=1
exit $status
