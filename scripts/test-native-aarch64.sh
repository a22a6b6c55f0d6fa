#!/usr/bin/env bash
# Cross-compiles the C++ kernel tests (native/tests) for aarch64 and runs them under
# qemu-aarch64, so the NEON kernels are tested on an x86-64 machine. Needs Debian's
# g++-aarch64-linux-gnu and qemu-user (installed here when missing and running as root).
#   scripts/test-native-aarch64.sh [build-dir]         # CI: the NEON family, --quick sizes
#   scripts/test-native-aarch64.sh --all [build-dir]   # every test, NEON and portable families
# CI runs the tests on the NEON family only: the portable family is the same C++ that
# scripts/test-native.sh runs natively at full size, and test_svd_dc is left out (it reaches
# NEON only through the GEMM/QR/TRSM kernels that test_gemm, test_blocking and test_trsm run
# here, and its long double references are software quad under qemu: ~235 CPU s).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
all=0
if [ "${1:-}" = --all ]; then all=1; shift; fi
build="${1:-$root/build-native-aarch64}"

need=()
command -v aarch64-linux-gnu-g++ >/dev/null || need+=(g++-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
command -v cmake >/dev/null || need+=(cmake)
if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test-native-aarch64: installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "test-native-aarch64: missing ${need[*]} (Debian: apt-get install ${need[*]})" >&2
    exit 1
  fi
fi

# The kernels only: the Node addon is not cross-compiled.
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/scripts/aarch64-toolchain.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DLAPIS_KERNELS_ONLY=ON -DLAPIS_BUILD_TESTS=ON >/dev/null
# only the tests that will run (in CI, test_svd_dc is not compiled)
targets=()
for src in "$root"/native/tests/test_*.cpp; do
  t=$(basename "$src" .cpp)
  if [ "$all" = 1 ] || [ "$t" != test_svd_dc ]; then targets+=("$t"); fi
done
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"

# The (test, family) runs go through a pool of $(nproc) slots (qemu emulates at about one core
# per process), the longest first (under qemu: test_svd_bidiag ~40 s, test_gemm ~30 s,
# test_gdn ~25 s), so that none is left to run alone at the end; their outputs are printed
# afterwards in test order.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
runs=()
for t in "${targets[@]}"; do
  t="$build/$t"
  [ -x "$t" ] && [ -f "$t" ] || { echo "test-native-aarch64: $t was not built" >&2; exit 1; }
  families=(default)
  # --all: the portable family too, but not for the thread pool (it runs no kernels), GDN and
  # the divide-and-conquer SVD (they reach the kernel families only through GEMM/QR/TRSM)
  if [ "$all" = 1 ]; then
    case "$(basename "$t")" in test_pool | test_gdn | test_svd_dc) ;; *) families=(default portable) ;; esac
  fi
  for kernels in "${families[@]}"; do runs+=("$kernels $t"); done
done
order=()
slow_tests=(test_svd_dc test_svd_bidiag test_gemm test_gdn)
for slow in "${slow_tests[@]}"; do
  for r in "${runs[@]}"; do [ "$(basename "${r#* }")" = "$slow" ] && order+=("$r"); done
done
for r in "${runs[@]}"; do
  case " ${slow_tests[*]} " in *" $(basename "${r#* }") "*) ;; *) order+=("$r") ;; esac
done
declare -A pid_of=() rc_of=()
slots=$(nproc) running=0
reap() {
  local done_pid rc=0
  wait -n -p done_pid || rc=$?
  rc_of[$done_pid]=$rc
  running=$((running - 1))
}
for r in "${order[@]}"; do
  if [ "$running" -ge "$slots" ]; then reap; fi
  kernels=${r%% *} t=${r#* }
  if [ "$kernels" = portable ]; then
    LAPIS_KERNELS=portable qemu-aarch64 -L /usr/aarch64-linux-gnu "$t" --quick >"$logs/$(basename "$t").$kernels" 2>&1 &
  else
    qemu-aarch64 -L /usr/aarch64-linux-gnu "$t" --quick >"$logs/$(basename "$t").$kernels" 2>&1 &
  fi
  pid_of[$r]=$!
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do reap; done
status=0
for r in "${runs[@]}"; do
  kernels=${r%% *} t=${r#* }
  echo "== $(basename "$t") (aarch64, kernels: $kernels)"
  cat "$logs/$(basename "$t").$kernels"
  rc=${rc_of[${pid_of[$r]}]}
  if [ "$rc" != 0 ]; then echo "test-native-aarch64: $(basename "$t") (kernels: $kernels) exited with $rc" >&2; status=1; fi
done
exit $status
