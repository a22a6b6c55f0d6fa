#!/usr/bin/env node
// Builds the native addon (build/Release/lapis.node) with cmake-js. Runs on `npm install`.
// Node-API headers come from the node-api-headers package, so nothing is downloaded.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const out = join(root, 'build', 'Release', 'lapis.node');

function has(cmd, args = ['--version']) {
  const r = spawnSync(cmd, args, { stdio: 'ignore', shell: process.platform === 'win32' });
  return r.status === 0;
}

if (!force && existsSync(out) && process.env.LAPIS_REBUILD !== '1') {
  console.log(`lapis: native addon already built (${out}); npm run build:native rebuilds it`);
  process.exit(0);
}

const missing = [];
if (!has('cmake')) missing.push('cmake (Debian/Ubuntu: apt-get install cmake; macOS: brew install cmake; Windows: winget install Kitware.CMake)');
if (process.platform !== 'win32' && !has(process.env.CXX || 'c++') && !has('g++') && !has('clang++')) {
  missing.push('a C++17 compiler (Debian/Ubuntu: apt-get install g++; macOS: xcode-select --install)');
}
if (missing.length) {
  console.error('lapis: cannot build the native addon; please install:\n  - ' + missing.join('\n  - '));
  process.exit(1);
}

const cmakeJs = join(root, 'node_modules', 'cmake-js', 'bin', 'cmake-js');
const cli = existsSync(cmakeJs) ? cmakeJs : join(root, '..', 'cmake-js', 'bin', 'cmake-js');
const args = [cli, 'compile', '--directory', root, '--config', 'Release', '--parallel', String(Math.max(2, (await import('node:os')).availableParallelism?.() ?? 2))];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
if (r.status !== 0) {
  console.error('lapis: the native build failed (see the compiler output above)');
  process.exit(r.status ?? 1);
}
