#!/usr/bin/env bash
# Bun and Deno smoke tests (issue 18): installs the packed tarball the way each runtime's
# users do and runs scripts/smoke-installed.mjs (solve, inv, svd with residual checks, and
# cpuBackend()) under that runtime:
#   bun:  install without trusting lapis (no install script: the prebuild serves) -> 'native';
#         with "trustedDependencies": ["lapis"] (the install script takes the prebuild) -> 'native';
#         prebuilds deleted -> 'wasm'
#   deno: node_modules from npm without scripts, deno.json "nodeModulesDir": "manual",
#         deno run --allow-read --allow-env --allow-ffi -> 'native'; prebuilds deleted -> 'wasm'
# bun and deno come from PATH, else npm installs the pinned versions into a temp directory.
#   scripts/test-runtimes.sh [lapis-x.y.z.tgz]   (default: npm pack of this checkout)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUN_VERSION=1.4.5
DENO_VERSION=2.9.6
step() { echo; echo "== test-runtimes: $*"; }
die() { echo "test-runtimes: FAIL: $*" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/lapis-runtimes.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ -n "${1:-}" ]; then
  tarball="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
else
  step "npm pack"
  tarball="$work/$(cd "$root" && npm pack --silent --pack-destination "$work" | tail -n 1)"
fi
[ -f "$tarball" ] || die "no tarball at $tarball"
tag="$(node -p 'process.platform + "-" + process.arch')"
contents="$(tar tzf "$tarball")"
grep -qx "package/prebuilds/$tag/lapis.node" <<<"$contents" || die "the tarball holds no prebuilds/$tag/lapis.node"

if ! command -v bun >/dev/null || ! command -v deno >/dev/null; then
  step "npm install bun@$BUN_VERSION deno@$DENO_VERSION (their platform binaries are optional dependencies)"
  npm install --prefix "$work/rt" --no-audit --no-fund --silent "bun@$BUN_VERSION" "deno@$DENO_VERSION"
  export PATH="$work/rt/node_modules/.bin:$PATH"
fi
echo "bun $(bun --version), $(deno --version | head -n 1)"

app() { # a fresh project directory holding the smoke test and a package.json that depends on the tarball
  local dir="$work/$1"
  mkdir -p "$dir"
  cp "$root/scripts/smoke-installed.mjs" "$dir/smoke.mjs"
  node -e 'const [f, tgz, trusted] = process.argv.slice(1); const p = { name: "lapis-runtime-test", private: true, type: "module", dependencies: { lapis: "file:" + tgz } }; if (trusted === "1") p.trustedDependencies = ["lapis"]; require("fs").writeFileSync(f, JSON.stringify(p, null, 2));' \
    "$dir/package.json" "$tarball" "${2:-0}"
  echo "$dir"
}

step "bun: install without trusting lapis (its install script does not run)"
dir="$(app bun-untrusted)"
(cd "$dir" && bun install 2>&1 | tail -n 3)
[ ! -e "$dir/node_modules/lapis/build/Release/lapis.node" ] || die "bun ran lapis's install script although lapis is not trusted"
(cd "$dir" && bun smoke.mjs native) || die "bun with the prebuild, no install script"

step "bun: \"trustedDependencies\": [\"lapis\"] (the install script runs)"
dir="$(app bun-trusted 1)"
# --verbose: bun shows a lifecycle script's output only then
(cd "$dir" && bun install --verbose >"$work/bun-install.log" 2>&1) || { tail -n 20 "$work/bun-install.log"; die "bun install failed"; }
grep "^lapis: " "$work/bun-install.log" || true
grep -q "lapis: using the prebuilt native addon" "$work/bun-install.log" || die "bun did not run lapis's install script, or it did not take the prebuild"
(cd "$dir" && bun smoke.mjs native) || die "bun with the prebuild, install script run"
rm -rf "$dir/node_modules/lapis/prebuilds"
(cd "$dir" && bun smoke.mjs wasm) || die "bun without prebuilds: the WebAssembly fallback"

step "deno: node_modules without install scripts, \"nodeModulesDir\": \"manual\""
dir="$(app deno)"
echo '{ "nodeModulesDir": "manual" }' >"$dir/deno.json"
(cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --prefer-offline --silent)
(cd "$dir" && deno run --allow-read --allow-env --allow-ffi smoke.mjs native) || die "deno with the prebuild"
rm -rf "$dir/node_modules/lapis/prebuilds"
(cd "$dir" && deno run --allow-read --allow-env --allow-ffi smoke.mjs wasm) || die "deno without prebuilds: the WebAssembly fallback"

echo
echo "test-runtimes: all passed (bun $(bun --version): native untrusted and trusted, wasm; deno $(deno --version | head -n 1 | cut -d' ' -f2): native, wasm)"
