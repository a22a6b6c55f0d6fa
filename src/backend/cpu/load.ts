// Node only: finds and loads the CPU backend's raw functions. The browser bundle replaces
// this module (it has no file system and no Node addons).
import { createRequire } from 'node:module';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceError } from '../../core/errors.js';
import type { RawFunction } from './binding.js';
import { loadWasmBackend } from '../wasm/node.js';

/** The CPU backends: the native addon, or the WebAssembly build of the same kernels. */
export type CpuBackendName = 'native' | 'wasm';

export interface LoadedCpuBackend {
  name: CpuBackendName;
  /** The exported functions, each with its declared option names (`fn.options`). */
  raw: Record<string, RawFunction>;
  /** Where it came from (a path), for messages. */
  where: string;
}

/** The package root: the nearest ancestor with lapis's package.json (src/backend/cpu under vitest, dist/src/backend/cpu once compiled). */
function packageRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'lapis') return dir;
      } catch {
        // an unreadable package.json is not ours: keep walking up
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** The C library on Linux: the prebuilds link glibc, and a glibc .so loaded under musl can crash later rather than fail to load. */
function linuxLibc(): 'glibc' | 'musl' | 'unknown' {
  // ldd's text first (detect-libc's order): process.report.getReport() costs 50-100 ms.
  try {
    const ldd = readFileSync('/usr/bin/ldd', 'utf8');
    if (ldd.includes('musl')) return 'musl';
    if (ldd.includes('GLIBC') || ldd.includes('GNU C Library')) return 'glibc';
  } catch {
    // no ldd (a slim container): ask the runtime below
  }
  try {
    // Node, Bun and Deno fill header.glibcVersionRuntime when this process runs on glibc.
    const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
    if (header) return header.glibcVersionRuntime ? 'glibc' : 'musl';
  } catch {
    // no process.report in this runtime: the load attempt decides
  }
  return 'unknown';
}

const ELF_MACHINES: Record<number, string> = { 0x03: 'ia32', 0x28: 'arm', 0x3e: 'x64', 0xb7: 'arm64' };

/** "built for arm64" when an ELF file's machine is not this process's arch: glibc's dlopen then only says "cannot open shared object file". */
function archMismatch(file: string): string {
  try {
    const head = Buffer.alloc(20);
    const fd = openSync(file, 'r');
    let got: number;
    try {
      got = readSync(fd, head, 0, 20, 0);
    } finally {
      closeSync(fd);
    }
    if (got < 20 || head.readUInt32BE(0) !== 0x7f454c46) return '';
    const arch = ELF_MACHINES[head.readUInt16LE(18)] ?? `ELF machine ${head.readUInt16LE(18)}`;
    return arch === process.arch ? '' : ` (it is built for ${arch}, this process is ${process.arch})`;
  } catch {
    return '';
  }
}

/** The prebuild directory name for this process (node-gyp-build's `<platform>-<arch>`), or why none applies. */
function prebuildTag(): { tag: string } | { skip: string } {
  const tag = `${process.platform}-${process.arch}`;
  if (process.platform === 'linux' && linuxLibc() === 'musl') {
    return { skip: `prebuilds/${tag}/lapis.node is built against glibc and this system uses musl` };
  }
  return { tag };
}

/**
 * The native addon's path: LAPIS_ADDON when set (used as is), else the first of
 * build/Release/lapis.node (a build made on this machine, by `npm run build:native` or the
 * install script when no prebuild fits) and prebuilds/<platform>-<arch>/lapis.node that
 * loads. A candidate that exists but does not load (wrong glibc, wrong arch) is passed
 * over and its reason kept for the error. Candidates are loaded here, so the caller's
 * require() of the returned path is answered from Node's module cache.
 */
function findAddon(): string {
  if (process.env.LAPIS_ADDON) return process.env.LAPIS_ADDON;
  const root = packageRoot();
  if (!root) {
    throw new DeviceError(`lapis: cannot find lapis's package.json above ${dirname(fileURLToPath(import.meta.url))}`);
  }
  const candidates: Array<() => string | { skip: string }> = [
    () => join(root, 'build', 'Release', 'lapis.node'),
    () => {
      const pre = prebuildTag();
      return 'tag' in pre ? join(root, 'prebuilds', pre.tag, 'lapis.node') : pre;
    },
  ];
  const reasons: string[] = [];
  const require = createRequire(import.meta.url);
  for (const candidate of candidates) {
    const p = candidate();
    if (typeof p !== 'string') {
      reasons.push(p.skip);
      continue;
    }
    if (!existsSync(p)) {
      reasons.push(`${relative(root, p)} does not exist`);
      continue;
    }
    try {
      require(p);
      return p;
    } catch (e) {
      const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
      reasons.push(`${relative(root, p)} does not load: ${msg}${archMismatch(p)}`);
    }
  }
  throw new DeviceError(
    `lapis: no native addon loads (${reasons.join('; ')}); \`npm run build:native\` builds one (needs cmake and a C++17 compiler)`,
  );
}

/**
 * The CPU backend for this process, loaded once by native() in ./binding.ts.
 * LAPIS_CPU_BACKEND=wasm: the WebAssembly build (docs/wasm.md); =native: the addon, an
 * error if none loads; unset: the addon if one loads, else the WebAssembly build with one
 * line on stderr saying so and how to get the addon.
 */
export function loadCpuBackend(): LoadedCpuBackend {
  const choice = process.env.LAPIS_CPU_BACKEND ?? '';
  if (choice !== '' && choice !== 'native' && choice !== 'wasm') {
    throw new DeviceError(`lapis: LAPIS_CPU_BACKEND must be "native" or "wasm", got ${JSON.stringify(choice)}`);
  }
  if (choice === 'wasm') return { name: 'wasm', ...loadWasmBackend() };
  const require = createRequire(import.meta.url);
  let native: LoadedCpuBackend;
  try {
    const where = findAddon();
    try {
      native = { name: 'native', raw: require(where) as Record<string, RawFunction>, where };
    } catch (e) {
      // findAddon tried its own candidates; this is LAPIS_ADDON's path, used as given
      const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
      throw new DeviceError(`lapis: the native addon ${where} does not load (${msg})`);
    }
  } catch (e) {
    if (choice === 'native') throw e;
    let wasm: ReturnType<typeof loadWasmBackend>;
    try {
      wasm = loadWasmBackend();
    } catch (w) {
      throw new DeviceError(`${(e as Error).message}; and ${(w as Error).message.replace(/^lapis: /, '')}`);
    }
    const reason = (e as Error).message.replace(/^lapis: /, '').replace(/; `npm run build:native`.*$/, '');
    process.stderr.write(
      `lapis: ${reason}; the CPU ops run on the WebAssembly backend (slower): \`npm run build:native\` builds the addon (needs cmake and a C++17 compiler)\n`,
    );
    return { name: 'wasm', ...wasm };
  }
  return native;
}
