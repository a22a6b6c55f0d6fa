#!/usr/bin/env bash
# Cross-compiles the C++ kernel tests (native/tests) for aarch64 and runs them under
# qemu-aarch64, so the NEON kernels are tested on an x86-64 machine; then once more with
# the portable kernels forced. Needs Debian's g++-aarch64-linux-gnu and qemu-user (installed
# here when missing and running as root). Usage: scripts/test-native-aarch64.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
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
cmake --build "$build" --parallel "$(nproc)"

# The (test, family) runs go through a pool of $(nproc) slots (qemu emulates at about one core
# per process), the longest first (measured under qemu: test_svd_dc ~4 min, test_svd_bidiag
# ~40 s per family, test_gemm ~30 s), so that none is left to run alone at the end; their
# outputs are printed afterwards in test order.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
runs=()
for t in "$build"/test_*; do
  [ -x "$t" ] && [ -f "$t" ] || continue
  families=(default portable)
  # the thread pool runs no kernels; GDN and the divide-and-conquer SVD reach the kernel
  # families only through the GEMM/QR/TRSM kernels, whose portable variants test_gemm and
  # test_blocking run here, and test-native.sh runs test_gdn and test_svd_dc with the portable
  # family natively (their long double references are software quad under qemu: ~30 s for
  # test_gdn, ~4 min for test_svd_dc's --quick cases): one family is enough for them
  case "$(basename "$t")" in test_pool | test_gdn | test_svd_dc) families=(default) ;; esac
  for kernels in "${families[@]}"; do runs+=("$kernels $t"); done
done
order=()
for slow in test_svd_dc test_svd_bidiag test_gemm; do
  for r in "${runs[@]}"; do [ "$(basename "${r#* }")" = "$slow" ] && order+=("$r"); done
done
for r in "${runs[@]}"; do
  case "$(basename "${r#* }")" in test_svd_dc | test_svd_bidiag | test_gemm) ;; *) order+=("$r") ;; esac
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
