#!/usr/bin/env bash
# The GPU run on a real GPU machine (the H200 of the device tool) in one command: the GPU
# test suite with the adapter's limits and with WebGPU's default limits, then the benchmark
# suites linalg-gpu and matmul-gpu beside torch, then any extra (tuning) steps. Each step
# has its own time limit, a failing step does not stop the others, and every step's
# elapsed time and exit status go to $OUT/summary.txt.
#
# Usage, from the repository root on the GPU machine (no network there):
#   bash scripts/h200-run.sh [TREE]
# TREE is the project tree to run in: a built copy holding dist/ (npx tsc -p .) and
# build/Release/lapis.node (default: build-h200tree if it exists, else the repository root,
# whose dist/ and build/Release must then be carried); `--prepare` below makes one.
# Its node_modules may be missing or a symbolic link that does not resolve there: the
# bundle of ../shared/tools/gpu-bundle.sh --full (.gpu-bundle/, carried beside the tree)
# lays the node_modules it packed in its place and puts its node on PATH.
#
# Environment:
#   OUT                    where results go (the device tool's folder that comes back;
#                          default /tmp/h200-out). At most 8 plain files end up there, no
#                          folders (the tool returns 8 files, 2 folders deep).
#   LAPIS_H200_STEPS       steps to run, comma-separated, in this order (default: all):
#                          test, test-default, linalg, matmul, extra
#   LAPIS_H200_DEADLINE    seconds the whole script may take (default 570: the tool stops
#                          a command at 600 s); a step gets min(its limit, what is left − 15)
#   LAPIS_H200_TESTS       what vitest runs in both test steps (default test/gpu)
#   LAPIS_H200_DEFAULT_LIMIT  seconds for the default-limits test step (default 150)
#   LAPIS_H200_TEST_ARGS   more vitest arguments (-t "name", --reporter=verbose)
#   LAPIS_H200_BENCH_ARGS  more bench arguments (--quick, --filter=text) for the bench steps
#   LAPIS_H200_BUNDLE      the bundle folder (default: TREE/.gpu-bundle, else the
#                          repository's); 'none' uses the node and node_modules at hand
#   LAPIS_H200_EXTRA       extra steps, one per line: "name|seconds|command"
#   LAPIS_BENCH_HOST       the host name in the result files (default h200)
set -u -o pipefail

t_start=$(date +%s)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# ---- --prepare: build the tree here, before the device call -------------------------------
# bash scripts/h200-run.sh --prepare [TREE]   (default TREE: build-h200tree)
# Copies the tracked files as they are in the working tree (untracked ones stay out),
# compiles dist/ there, copies build/Release/lapis.node and links node_modules (the link
# does not resolve on the device; the bundle replaces it). Then, through the device tool:
#   carry [".gpu-bundle", "build-h200tree"], command "bash scripts/h200-run.sh build-h200tree"
if [ "${1:-}" = --prepare ]; then
  ptree=${2:-$repo/build-h200tree}
  mkdir -p "$ptree"
  ptree=$(cd "$ptree" && pwd)
  # clear only a tree made here before (the marker) or a copy of this project without a .git
  is_copy() { [ ! -e "$ptree/.git" ] && grep -qs '"name": "lapis"' "$ptree/package.json"; }
  if [ "$ptree" = "$repo" ] || { [ -n "$(ls -A "$ptree")" ] && [ ! -f "$ptree/.h200-tree" ] && ! is_copy; }; then
    echo "h200-run --prepare: $ptree is not empty and is not a tree made by --prepare; not touching it" >&2
    exit 2
  fi
  find "$ptree" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  # tracked files as they are in the working tree; untracked ones (scratch tests) stay out
  (cd "$repo" && git ls-files -z --cached |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    xargs -0 cp --parents -t "$ptree")
  left=$(cd "$repo" && git ls-files --others --exclude-standard | tr '\n' ' ')
  [ -n "$left" ] && echo "h200-run --prepare: untracked files left out (git add them to include them): $left" >&2
  # where the tree came from, for the run's summary (the device copy has no .git)
  echo "$(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" status --porcelain --untracked-files=no | grep -q . && echo ' + uncommitted changes'), prepared $(date -u '+%Y-%m-%d %H:%M') UTC" >"$ptree/.h200-tree"
  ln -s "$repo/node_modules" "$ptree/node_modules"
  (cd "$ptree" && node node_modules/typescript/bin/tsc -p tsconfig.json) || echo "h200-run --prepare: tsc reported errors (dist/ is written all the same)" >&2
  mkdir -p "$ptree/build/Release" && cp "$repo/build/Release/lapis.node" "$ptree/build/Release/"
  echo "prepared $ptree ($(du -sh "$ptree" | cut -f1), from $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" status --porcelain --untracked-files=no | grep -q . && echo ' + uncommitted changes'))"
  exit 0
fi
tree=${1:-}
if [ -z "$tree" ]; then
  if [ -d "$repo/build-h200tree" ]; then tree="$repo/build-h200tree"; else tree="$repo"; fi
fi
tree=$(cd "$tree" && pwd) || { echo "h200-run: no tree at ${1:-}" >&2; exit 2; }
OUT=${OUT:-/tmp/h200-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
deadline=${LAPIS_H200_DEADLINE:-570}
steps=${LAPIS_H200_STEPS:-test,test-default,linalg,matmul,extra}
export LAPIS_BENCH_HOST=${LAPIS_BENCH_HOST:-h200}
# plain logs (vitest colours its output otherwise), so the summary can grep them
export NO_COLOR=1 FORCE_COLOR=0
summary="$OUT/summary.txt"
bench_tmp=$(mktemp -d /tmp/lapis-h200-bench.XXXXXX)

# ---- extra steps: other helpers' tuning commands ----------------------------------------
# One entry per step, "name|seconds|command", run from the tree after the steps above when
# LAPIS_H200_STEPS includes 'extra' (the default). Output goes to bench.log; $BENCH_OUT is a
# scratch folder for LAPIS_BENCH_OUT, and LAPIS_BENCH_HOST is h200-<name> in an extra step,
# so its result JSON does not replace the main run's (extra results come back packed in
# extra.tar.gz). Examples (the block-size sweeps of bench/gpu-*-tune.mjs, GEMM tiles):
#   "lu-tune|120|node bench/gpu-lu-blocked-tune.mjs --cases=4096,8192,c2048,b1024x128"
#   "trsm-tune|120|TRSM_TUNE_CASES=4096x64,8192x64 node bench/gpu-trsm-blocked-tune.mjs"
#   "qr-tune|150|QR_TUNE_CASES=1024,4096 node bench/gpu-qr-tune.mjs"
#   "gemm-tiles|90|LAPIS_BENCH_TUNE=1 LAPIS_BENCH_OUT=\$BENCH_OUT node dist/bench/run.js matmul-gpu --no-torch"
EXTRA_STEPS=(
)
if [ -n "${LAPIS_H200_EXTRA:-}" ]; then
  while IFS= read -r line; do [ -n "$line" ] && EXTRA_STEPS+=("$line"); done <<<"$LAPIS_H200_EXTRA"
fi
# -----------------------------------------------------------------------------------------

say() { echo "$*" | tee -a "$summary"; }
elapsed() { echo $(($(date +%s) - t_start)); }

want() { case ",$steps," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

# run_step NAME LIMIT LOG COMMAND [HOST]: the command in the tree under `timeout` (bench
# results named for HOST), its output to LOG and to stdout; one summary line with the exit
# status and the elapsed time; result JSON copied to $OUT.
run_step() {
  local name=$1 limit=$2 log=$3 cmd=$4 host=${5:-$LAPIS_BENCH_HOST}
  local left=$((deadline - $(elapsed) - 15))
  if [ "$left" -lt 20 ]; then
    say "step $name: not run (deadline: $(elapsed) s of $deadline s used)"
    return
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  {
    echo
    echo "## $name ($(date -u +%H:%M:%S) UTC, limit ${limit} s)"
    echo "\$ $cmd"
  } | tee -a "$log"
  local t0 rc
  t0=$(date +%s)
  : >"$OUT/.step"
  (cd "$tree" && BENCH_OUT="$bench_tmp" LAPIS_BENCH_HOST="$host" timeout -k 10 "$limit" bash -c "$cmd") 2>&1 | tee -a "$log" "$OUT/.step"
  rc=${PIPESTATUS[0]}
  for f in "$bench_tmp"/bench/results/*.json; do [ -f "$f" ] && cp "$f" "$OUT/"; done
  local dt=$(($(date +%s) - t0))
  local what="rc $rc"
  [ "$rc" = 124 ] || [ "$rc" = 137 ] && what="TIMED OUT after ${limit} s (rc $rc)"
  say "step $name: $what, ${dt} s"
  # the step's headline results into the summary: vitest's totals and failures, bench tables
  {
    grep -E '^ +(Test Files|Tests) ' "$OUT/.step"
    grep -E '^ *FAIL ' "$OUT/.step" | sort -u | head -40
    grep -B1 -E '^    (gpu|torch|lapis): ' "$OUT/.step" | grep -v '^--$' | head -40
    grep -E '^BEST ' "$OUT/.step" | head -40  # the tuning scripts' winners (bench/gpu-*-tune.mjs)
    awk '/^[A-Za-z0-9_-]+ on [A-Za-z0-9._-]+$/ { p = 1 } p { print } p && /^$/ { p = 0 }' "$OUT/.step"
  } | sed 's/^/    /' | tee -a "$summary"
  rm -f "$OUT/.step"
}

: >"$summary"
say "# scripts/h200-run.sh: tree $tree, steps $steps, deadline $deadline s, $(date -u '+%Y-%m-%d %H:%M:%S') UTC"
if [ -s "$tree/.h200-tree" ]; then
  say "# tree from $(cat "$tree/.h200-tree")"
elif git -C "$repo" rev-parse --short HEAD >/dev/null 2>&1; then
  say "# repository HEAD $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo ' (with uncommitted changes)')"
fi

# ---- the runtime: node, Vulkan loader, node_modules --------------------------------------
bundle=${LAPIS_H200_BUNDLE:-}
if [ -z "$bundle" ]; then
  for b in "$tree/.gpu-bundle" "$repo/.gpu-bundle"; do [ -f "$b/enter.sh" ] && { bundle=$b; break; }; done
fi
cd "$tree" || exit 2
if [ "$bundle" != none ] && [ -n "$bundle" ]; then
  # a node_modules link that does not resolve here: drop the link, the bundle lays its own
  if [ -L node_modules ] && [ ! -e node_modules/webgpu/index.js ]; then rm node_modules; fi
  # sourced here (not in a pipeline) so that its PATH and driver settings stay
  # shellcheck disable=SC1091
  source "$bundle/enter.sh" >"$OUT/.enter" 2>&1
  tee -a "$summary" <"$OUT/.enter"; rm -f "$OUT/.enter"
elif [ "$bundle" != none ]; then
  say "# no .gpu-bundle found: using the node and node_modules at hand"
fi
say "# node $(node --version 2>&1), Vulkan driver ${VK_DRIVER_FILES:-default search}, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
for need in dist/bench/run.js build/Release/lapis.node node_modules/vitest/vitest.mjs node_modules/webgpu/index.js; do
  [ -e "$tree/$need" ] || say "# WARNING: $tree/$need is missing"
done
say "# setup done at $(elapsed) s"

# ---- the steps ---------------------------------------------------------------------------
test_args=${LAPIS_H200_TEST_ARGS:-}
bench_args=${LAPIS_H200_BENCH_ARGS:-}
vitest="node node_modules/vitest/vitest.mjs run ${LAPIS_H200_TESTS:-test/gpu} $test_args"
bench="LAPIS_BENCH_OUT=\$BENCH_OUT node --expose-gc dist/bench/run.js"

want test && run_step test 200 "$OUT/test-gpu.log" "$vitest"
want test-default && run_step test-default "${LAPIS_H200_DEFAULT_LIMIT:-150}" "$OUT/test-gpu-default.log" "LAPIS_GPU_LIMITS=default $vitest"

want linalg && run_step linalg-gpu 270 "$OUT/bench.log" "$bench linalg-gpu $bench_args"
want matmul && run_step matmul-gpu 150 "$OUT/bench.log" "$bench matmul-gpu $bench_args"
if want extra; then
  for e in "${EXTRA_STEPS[@]}"; do
    IFS='|' read -r ename elimit ecmd <<<"$e"
    run_step "$ename" "$elimit" "$OUT/bench.log" "$ecmd" "$LAPIS_BENCH_HOST-$ename"
  done
fi

# ---- results back: flat, at most 8 files ----------------------------------------------------
rm -rf "$bench_tmp"
# The tool returns at most 8 plain files with plain names: the main ones stay, anything
# else (extra steps' results, files a step left) is packed into extra.tar.gz.
main="summary.txt test-gpu.log test-gpu-default.log bench.log extra.tar.gz linalg-gpu-$LAPIS_BENCH_HOST.json matmul-gpu-$LAPIS_BENCH_HOST.json"
others=()
for f in "$OUT"/* "$OUT"/.[!.]*; do
  [ -e "$f" ] || [ -L "$f" ] || continue
  case " $main " in *" $(basename "$f") "*) [ -f "$f" ] && [ ! -L "$f" ] && continue ;; esac
  others+=("$(basename "$f")")
done
if [ "${#others[@]}" -gt 0 ]; then
  tar -C "$OUT" -czf "$OUT/extra.tar.gz" -- "${others[@]}" && (cd "$OUT" && rm -rf -- "${others[@]}")
  say "# packed into extra.tar.gz: ${others[*]}"
fi
say "# done in $(elapsed) s; in $OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
echo
echo "==== summary ===="
cat "$summary"
