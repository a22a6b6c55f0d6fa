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

# Each test's families run side by side (qemu emulates at about one core per process), their
# outputs printed in order afterwards.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0
for t in "$build"/test_*; do
  [ -x "$t" ] && [ -f "$t" ] || continue
  families=(default portable)
  # the thread pool runs no kernels; GDN and the divide-and-conquer SVD reach the kernel
  # families only through the GEMM/QR/TRSM kernels, whose portable variants test_gemm and
  # test_blocking run here, and test-native.sh runs test_gdn and test_svd_dc with the portable
  # family natively (their long double references are software quad under qemu: ~30 s for
  # test_gdn, ~4 min for test_svd_dc's --quick cases): one family is enough for them
  case "$(basename "$t")" in test_pool | test_gdn | test_svd_dc) families=(default) ;; esac
  pids=()
  for kernels in "${families[@]}"; do
    if [ "$kernels" = portable ]; then
      LAPIS_KERNELS=portable qemu-aarch64 -L /usr/aarch64-linux-gnu "$t" --quick >"$logs/$kernels" 2>&1 &
    else
      qemu-aarch64 -L /usr/aarch64-linux-gnu "$t" --quick >"$logs/$kernels" 2>&1 &
    fi
    pids+=("$!")
  done
  for i in "${!families[@]}"; do
    rc=0
    wait "${pids[$i]}" || rc=$?
    echo "== $(basename "$t") (aarch64, kernels: ${families[$i]})"
    cat "$logs/${families[$i]}"
    if [ "$rc" != 0 ]; then echo "test-native-aarch64: $(basename "$t") (kernels: ${families[$i]}) exited with $rc" >&2; status=1; fi
  done
done
exit $status
