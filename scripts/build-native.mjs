#!/usr/bin/env node
// Builds the native addon (build/Release/lapis.node) with cmake-js; runs on `npm install`,
// where it first looks for a prebuilt addon that loads here (prebuilds/<platform>-<arch>,
// scripts/prebuild.mjs) and builds nothing if one does. When none fits and the build cannot
// run or fails, the install still succeeds with one line saying so: the CPU ops then run on
// the WebAssembly backend and the GPU ops on WebGPU (src/backend/cpu/load.ts).
// Node-API headers come from the node-api-headers package (package.json "binary" asks
// cmake-js for Node-API), so the build downloads nothing. Missing tools are named with
// the command that installs them, before cmake gets a chance to fail obscurely.
//
//   node scripts/build-native.mjs           build unless build/Release/lapis.node exists
//   node scripts/build-native.mjs --force   rebuild (npm run build:native)
//   LAPIS_REBUILD=1                          same as --force (e.g. under npm install)
//   LAPIS_REQUIRE_NATIVE=1                   a missing tool or failed build fails the install (CI)
//
// --force and LAPIS_REBUILD ask for a build explicitly, so their failures exit non-zero too.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force') || process.env.LAPIS_REBUILD === '1';
const requireNative = process.env.LAPIS_REQUIRE_NATIVE === '1';
const out = join(root, 'build', 'Release', 'lapis.node');
const win = process.platform === 'win32';
const mac = process.platform === 'darwin';

function run(cmd, args = ['--version']) {
  return spawnSync(cmd, args, { stdio: 'ignore', shell: win });
}
const has = (cmd, args) => {
  const r = run(cmd, args);
  return !r.error && r.status === 0;
};

function hint(debian, brew, windows) {
  return win ? windows : mac ? brew : debian;
}

/** Ends the install without a native addon: one line, exit 0, unless a native build was asked for. */
function noNative(reason, status = 1) {
  if (force || requireNative) process.exit(status || 1);
  console.warn(
    `lapis: no native addon (${[prebuildWhy, reason].filter(Boolean).join('; ')}): the CPU ops run on the WebAssembly backend and the GPU ops on WebGPU. ` +
      'For the native CPU backend install cmake and a C++17 compiler, then run `npm run build:native` in the lapis package directory.',
  );
  process.exit(0);
}

/** musl libc (Alpine): the linux prebuilds link glibc. ldd's text first, then the runtime's report (src/backend/cpu/load.ts does the same). */
function isMusl() {
  try {
    const ldd = readFileSync('/usr/bin/ldd', 'utf8');
    if (ldd.includes('musl')) return true;
    if (ldd.includes('GLIBC') || ldd.includes('GNU C Library')) return false;
  } catch {
    // no ldd: ask the report
  }
  try {
    const header = process.report?.getReport()?.header;
    return header ? !header.glibcVersionRuntime : false;
  } catch {
    return false;
  }
}

/** " (built for arm64, …)" when an ELF file's machine is not this process's: glibc's dlopen then only says "cannot open shared object file". */
function archMismatch(file) {
  try {
    const head = Buffer.alloc(20);
    const fd = openSync(file, 'r');
    try {
      if (readSync(fd, head, 0, 20, 0) < 20 || head.readUInt32BE(0) !== 0x7f454c46) return '';
    } finally {
      closeSync(fd);
    }
    const m = head.readUInt16LE(18);
    const arch = { 0x03: 'ia32', 0x28: 'arm', 0x3e: 'x64', 0xb7: 'arm64' }[m] ?? `ELF machine ${m}`;
    return arch === process.arch ? '' : ` (it is built for ${arch}, this is ${process.arch})`;
  } catch {
    return '';
  }
}

/** A prebuilt addon for this platform that loads in a child Node (a crash there cannot end the install), or why none does. */
function fittingPrebuild() {
  const tag = `${process.platform}-${process.arch}`;
  const file = join(root, 'prebuilds', tag, 'lapis.node');
  if (!existsSync(file)) return { why: `no prebuild for ${tag}` };
  if (process.platform === 'linux' && isMusl()) return { why: `prebuilds/${tag} is built for glibc and this system uses musl` };
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(file)})`], { encoding: 'utf8' });
  if (r.status === 0) return { file };
  const err = (r.stderr || '').split('\n').find((l) => /Error/.test(l)) || r.error?.message || `exit ${r.status ?? r.signal}`;
  return { why: `prebuilds/${tag}/lapis.node does not load here: ${err.trim().replace(/^Error: /, '')}${archMismatch(file)}` };
}

let prebuildWhy = '';
if (!force && existsSync(out)) {
  console.log(`lapis: native addon already built (${out}); \`npm run build:native\` rebuilds it`);
  process.exit(0);
}
if (!force) {
  const pre = fittingPrebuild();
  if (pre.file) {
    console.log(`lapis: using the prebuilt native addon ${pre.file}; \`npm run build:native\` builds one from source instead`);
    process.exit(0);
  }
  prebuildWhy = pre.why;
}

const missing = [];
if (!has('cmake')) {
  missing.push(`cmake ≥ 3.15 (${hint('Debian/Ubuntu: apt-get install cmake', 'macOS: brew install cmake', 'Windows: winget install Kitware.CMake')})`);
}
if (!win) {
  // cmake takes $CXX when it is set, so that is the one to check.
  const cands = process.env.CXX ? [process.env.CXX] : ['c++', 'g++', 'clang++'];
  const cxx = cands.find((c) => has(c));
  if (!cxx && process.env.CXX) {
    missing.push(`the C++ compiler CXX=${process.env.CXX} (it does not run; unset CXX or install it)`);
  } else if (!cxx) {
    missing.push(`a C++17 compiler (${hint('Debian/Ubuntu: apt-get install g++', 'macOS: xcode-select --install', '')})`);
  } else {
    // A compiler that is present but cannot build C++17 with its standard library
    // (no libstdc++ headers, too old) fails later with pages of errors: try it now.
    const dir = mkdtempSync(join(os.tmpdir(), 'lapis-cxx-'));
    try {
      const src = join(dir, 't.cpp');
      writeFileSync(src, '#include <vector>\n#include <thread>\n#include <optional>\nint main() { std::optional<std::vector<int>> v; return v ? 1 : 0; }\n');
      const r = spawnSync(cxx, ['-std=c++17', '-c', src, '-o', join(dir, 't.o')], { encoding: 'utf8' });
      if (r.status !== 0) {
        missing.push(
          `a working C++17 compiler: \`${cxx} -std=c++17\` failed (${(r.stderr || '').trim().split('\n')[0] || 'no output'}); ` +
            hint('Debian/Ubuntu: apt-get install g++', 'macOS: xcode-select --install', ''),
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!has('make') && !has('ninja')) {
    missing.push(`a build tool for cmake: make or ninja (${hint('Debian/Ubuntu: apt-get install make', 'macOS: xcode-select --install', '')})`);
  }
}
if (missing.length) {
  if (force || requireNative) console.error('lapis: cannot build the native addon; please install:\n  - ' + missing.join('\n  - '));
  if (win && (force || requireNative)) console.error('  (Windows also needs Visual Studio 2019+ or its Build Tools with the "Desktop development with C++" workload)');
  noNative(`cannot build one: missing ${missing.map((m) => m.split(' (')[0]).join(', ')}`);
}

const cmakeJs = [join(root, 'node_modules', 'cmake-js', 'bin', 'cmake-js'), join(root, '..', 'cmake-js', 'bin', 'cmake-js')].find(existsSync);
if (!cmakeJs) {
  if (force || requireNative) console.error('lapis: cmake-js is missing from node_modules; run `npm install` (or `npm ci`) first');
  noNative('cmake-js is missing from node_modules');
}
const jobs = String(Math.max(2, os.availableParallelism?.() ?? os.cpus().length));
const args = [cmakeJs, 'compile', '--directory', root, '--config', 'Release', '--parallel', jobs];
console.log(`lapis: building the native addon (cmake-js, ${jobs} jobs)`);
const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
if (r.status !== 0 || !existsSync(out)) {
  console.error(
    `lapis: the native build failed (see the output above)${r.status === 0 ? `: ${out} was not produced` : ''}.\n` +
      '  It needs cmake ≥ 3.15 and a C++17 compiler (g++ ≥ 8, clang ≥ 7 or MSVC 2019); nothing is downloaded.',
  );
  noNative('the build from source failed, output above', r.status);
}
console.log(`lapis: built ${out}`);
