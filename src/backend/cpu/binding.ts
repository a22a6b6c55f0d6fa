import { createRequire } from 'node:module';
import { checkArg, opt } from '../../core/options.js';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceError } from '../../core/errors.js';

/**
 * The native addon, loaded once. Every function takes (dtypeCode, typed arrays, dims…);
 * see native/binding/*.cpp for each signature. `LAPIS_ADDON` overrides the path (used to
 * test another build, e.g. one with the portable kernels).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Addon = Record<string, (...args: any[]) => any>;

let addon: Addon | undefined;

function findAddon(): string {
  if (process.env.LAPIS_ADDON) return process.env.LAPIS_ADDON;
  // src/backend/cpu (vitest) or dist/src/backend/cpu (compiled): walk up to the package root.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const p = join(dir, 'build', 'Release', 'lapis.node');
    if (existsSync(p)) return p;
    dir = dirname(dir);
  }
  throw new DeviceError(
    'lapis: the native addon build/Release/lapis.node is missing; run `npm run build:native` (needs cmake and a C++17 compiler)',
  );
}

export function native(): Addon {
  if (!addon) {
    const require = createRequire(import.meta.url);
    addon = require(findAddon()) as Addon;
  }
  return addon;
}

/** Threads the native kernels use (LAPIS_NUM_THREADS at start-up, or the core count). */
export function numThreads(): number {
  return native().numThreads() as number;
}

export function setNumThreads(n: number): number {
  checkArg('setNumThreads', 'n', n, opt.int(1, 256));
  return native().numThreads(n) as number;
}

/** The active GEMM micro-kernel family: "avx512", "avx2", "neon" or "portable". */
export function gemmKernel(): string {
  return native().gemmKernel() as string;
}
