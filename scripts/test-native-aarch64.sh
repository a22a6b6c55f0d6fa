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

status=0
for t in "$build"/test_*; do
  [ -x "$t" ] && [ -f "$t" ] || continue
  families=(default portable)
  # the thread pool runs no kernels; GDN reaches the kernel families only through gemm, whose
  # portable kernels test_gemm runs here and test_gdn runs natively (its long double
  # references are ~30 s of software quad under qemu): one family is enough for both
  case "$(basename "$t")" in test_pool | test_gdn) families=(default) ;; esac
  for kernels in "${families[@]}"; do
    echo "== $(basename "$t") (aarch64, kernels: $kernels)"
    if [ "$kernels" = portable ]; then
      LAPIS_KERNELS=portable qemu-aarch64 -L /usr/aarch64-linux-gnu "$t" --quick || status=1
    else
      qemu-aarch64 -L /usr/aarch64-linux-gnu "$t" --quick || status=1
    fi
  done
done
exit $status
