#!/usr/bin/env bash
# The pack/install test (issue 18): builds the prebuilt addons and the WebAssembly backend,
# packs the package, installs the tarball into a fresh directory with cmake and every C/C++
# compiler and make absent from PATH, and runs scripts/smoke-installed.mjs there:
#   (a) with the prebuild                      -> the CPU ops on the 'native' backend
#   (b) prebuilds deleted, install script rerun -> the install still succeeds, CPU ops on 'wasm'
#   (c) the same with LAPIS_REQUIRE_NATIVE=1    -> the install script fails
# Every step must do what it says; any other outcome fails the script.
#   scripts/test-install.sh [--no-build] [lapis-x.y.z.tgz]
#     --no-build: use the prebuilds/ and build/wasm/ already there
#     a tarball: test that one (CI packs once for this and scripts/test-runtimes.sh) instead of `npm pack`
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tag="$(node -p 'process.platform + "-" + process.arch')"
step() { echo; echo "== test-install: $*"; }
die() { echo "test-install: FAIL: $*" >&2; exit 1; }

build=1
given=
for a in "$@"; do
  case $a in
    --no-build) build=0 ;;
    -*) die "unknown option $a" ;;
    *) [ -f "$a" ] || die "no tarball at $a"; given="$(cd "$(dirname "$a")" && pwd)/$(basename "$a")" ;;
  esac
done
if [ -n "$given" ]; then build=0; fi

if [ "$build" = 1 ]; then
  step "prebuilds (node scripts/prebuild.mjs --check-qemu)"
  node scripts/prebuild.mjs --check-qemu
  step "the WebAssembly backend (npm run build:wasm)"
  npm run build:wasm --silent || die "npm run build:wasm failed; part (b) needs the WebAssembly backend"
fi
[ -n "$given" ] || [ -f "prebuilds/$tag/lapis.node" ] || die "prebuilds/$tag/lapis.node is missing"

work="$(mktemp -d "${TMPDIR:-/tmp}/lapis-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [ -n "$given" ]; then
  tarball="$given"
else
  step "npm pack"
  tarball="$work/$(npm pack --silent --pack-destination "$work" | tail -n 1)"
  [ -f "$tarball" ] || die "npm pack wrote no tarball"
fi
contents="$(tar tzf "$tarball")"
for f in "package/prebuilds/$tag/lapis.node" package/dist/src/index.js package/scripts/build-native.mjs; do
  grep -qx "$f" <<<"$contents" || die "$f is not in the tarball"
done
grep -q '^package/build/wasm/' <<<"$contents" || die "the tarball holds no build/wasm/ (the WebAssembly backend); package.json \"files\" must list it"
if grep -q '^package/build/Release/' <<<"$contents"; then die "the tarball holds build/Release/ (a local build)"; fi
echo "tarball: $(basename "$tarball"), $(du -k "$tarball" | cut -f1) KiB, prebuilds: $(grep -o '^package/prebuilds/[^/]*/lapis.node' <<<"$contents" | cut -d/ -f3 | tr '\n' ' ')"

# A PATH of symlinks to every command on PATH except the build tools, so the install
# cannot build from source; checked below rather than assumed.
nobuild="$work/bin"
mkdir -p "$nobuild"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  for f in "$d"/*; do
    name="${f##*/}"
    case "$name" in
      cmake | ctest | cpack | make | gmake | ninja | c++ | g++ | gcc | cc | clang | clang++ | *-g++ | *-gcc | g++-* | gcc-* | clang-* | clang++-* | *-c++ | *-cc) continue ;;
    esac
    [ -x "$f" ] && [ ! -e "$nobuild/$name" ] && ln -s "$f" "$nobuild/$name"
  done
done
for t in cmake c++ g++ gcc cc make ninja clang++; do
  if PATH="$nobuild" command -v "$t" >/dev/null; then die "$t is still on the test PATH"; fi
done
PATH="$nobuild" command -v node >/dev/null || die "node is not on the test PATH"

app="$work/app"
mkdir -p "$app"
cp scripts/smoke-installed.mjs "$app/smoke.mjs"
cd "$app"
echo '{ "name": "lapis-install-test", "version": "1.0.0", "private": true, "type": "module" }' >package.json

step "(a) npm install <tarball> without cmake, a compiler or make"
PATH="$nobuild" npm install --no-audit --no-fund --prefer-offline --foreground-scripts "$tarball" 2>&1 | tee "$work/install-a.log"
grep -q "using the prebuilt native addon" "$work/install-a.log" || die "(a) the install script did not take the prebuild"
[ ! -e node_modules/lapis/build/Release/lapis.node ] || die "(a) the install built an addon although a prebuild fits"
PATH="$nobuild" node smoke.mjs native || die "(a) the smoke test on the prebuild failed"

step "(a2) a build/Release/lapis.node that does not load is passed over for the prebuild"
mkdir -p node_modules/lapis/build/Release
echo 'not an ELF file' >node_modules/lapis/build/Release/lapis.node
PATH="$nobuild" node smoke.mjs native || die "(a2) a broken build/Release/lapis.node hid the prebuild"
rm -rf node_modules/lapis/build/Release

step "(b) prebuilds deleted from the installed copy, install script rerun (npm rebuild lapis)"
rm -rf node_modules/lapis/prebuilds
PATH="$nobuild" npm rebuild lapis --foreground-scripts 2>&1 | tee "$work/install-b.log" || die "(b) npm rebuild failed without prebuilds"
grep -q "lapis: no native addon" "$work/install-b.log" || die "(b) the install script did not print its no-native-addon line"
[ ! -e node_modules/lapis/build/Release/lapis.node ] || die "(b) an addon was built with no compiler on PATH"
PATH="$nobuild" node smoke.mjs wasm || die "(b) the smoke test on the WebAssembly backend failed"

if [ "$tag" = linux-x64 ] && [ -f "$root/prebuilds/linux-arm64/lapis.node" ]; then
  step "(b2) a prebuild of the wrong architecture (linux-arm64's in linux-x64/): install succeeds, CPU ops on 'wasm'"
  mkdir -p node_modules/lapis/prebuilds/linux-x64
  cp "$root/prebuilds/linux-arm64/lapis.node" node_modules/lapis/prebuilds/linux-x64/lapis.node
  PATH="$nobuild" npm rebuild lapis --foreground-scripts 2>&1 | tee "$work/install-b2.log" || die "(b2) npm rebuild failed"
  grep -q "does not load here.*built for arm64" "$work/install-b2.log" || die "(b2) the install script did not say why the prebuild was passed over"
  status=0
  PATH="$nobuild" node smoke.mjs wasm 2>"$work/smoke-b2.err" || status=$?
  cat "$work/smoke-b2.err" >&2
  [ "$status" = 0 ] || die "(b2) the smoke test on the WebAssembly backend failed"
  grep -q "prebuilds/linux-x64/lapis.node does not load.*built for arm64" "$work/smoke-b2.err" ||
    die "(b2) the runtime's message does not say why the prebuild was passed over"
  rm -rf node_modules/lapis/prebuilds
fi

step "(c) the same with LAPIS_REQUIRE_NATIVE=1 must fail"
if (cd node_modules/lapis && PATH="$nobuild" LAPIS_REQUIRE_NATIVE=1 node scripts/build-native.mjs); then
  die "(c) LAPIS_REQUIRE_NATIVE=1 did not fail the install script without a compiler"
fi
echo "(c) failed as required"

echo
echo "test-install: all passed: (a) native prebuild, (a2) broken local build passed over, (b) wasm fallback, (b2) wrong-arch prebuild passed over (linux-x64 hosts), (c) LAPIS_REQUIRE_NATIVE"
