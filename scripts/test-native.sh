#!/usr/bin/env bash
# Configures, builds and runs the C++ kernel tests (native/tests, no Node) for this
# machine, once with the kernels the CPU dispatch picks and once with the portable
# kernels forced (LAPIS_KERNELS=portable). Usage: scripts/test-native.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build-native-tests}"

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v c++ >/dev/null || command -v g++ >/dev/null || need+=(g++)
if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "test-native: missing ${need[*]} (Debian: apt-get install ${need[*]})" >&2
    exit 1
  fi
fi

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLAPIS_KERNELS_ONLY=ON -DLAPIS_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --parallel "$(nproc)"

status=0
for t in "$build"/test_*; do
  [ -x "$t" ] && [ -f "$t" ] || continue
  echo "== $(basename "$t") (native, kernels: default)"
  "$t" || status=1
  echo "== $(basename "$t") (native, kernels: portable)"
  LAPIS_KERNELS=portable "$t" || status=1
done
exit $status
