#!/usr/bin/env bash
# Configures, builds and runs the C++ kernel tests (native/tests, no Node) for this
# machine: once with the kernels the CPU dispatch picks, then with each narrower family
# forced (LAPIS_KERNELS=avx2 on x86-64, where AVX-512 would otherwise win; and
# LAPIS_KERNELS=portable). Usage: scripts/test-native.sh [build-dir]
# A build-dir that is the addon's cmake-js tree (build/ after `npm ci`) gets the tests added
# to it: they link the kernel objects the addon was built from, so nothing is compiled twice.
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

if grep -qs '^CMAKE_JS_VERSION:' "$build/CMakeCache.txt"; then
  echo "test-native: adding the tests to the addon's build tree $build (its kernel objects are reused)"
  cmake -S "$root" -B "$build" -DLAPIS_BUILD_TESTS=ON >/dev/null
  # switched off again on exit, so that the next `npm run build:native` builds the addon alone
  trap 'cmake -S "$root" -B "$build" -DLAPIS_BUILD_TESTS=OFF >/dev/null' EXIT
else
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLAPIS_KERNELS_ONLY=ON -DLAPIS_BUILD_TESTS=ON >/dev/null
fi
cmake --build "$build" --target lapis_tests --parallel "$(nproc)"

status=0
for t in "$build"/test_*; do
  [ -x "$t" ] && [ -f "$t" ] || continue
  families=(default portable)
  case "$(uname -m)" in x86_64|amd64) families=(default avx2 portable) ;; esac
  # the thread pool runs no kernels (and its timed phases take seconds): one family is enough
  [ "$(basename "$t")" = test_pool ] && families=(default)
  for k in "${families[@]}"; do
    echo "== $(basename "$t") (native, kernels: $k)"
    if [ "$k" = default ]; then "$t" || status=1; else LAPIS_KERNELS=$k "$t" || status=1; fi
  done
done
exit $status
