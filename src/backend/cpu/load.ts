// Node only: finds and loads the CPU backend's raw functions. The browser bundle replaces
// this module (it has no file system and no Node addons).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceError } from '../../core/errors.js';
import type { RawFunction } from './binding.js';

/** The CPU backends: the native addon, or the WebAssembly build of the same kernels. */
export type CpuBackendName = 'native' | 'wasm';

export interface LoadedCpuBackend {
  name: CpuBackendName;
  /** The exported functions, each with its declared option names (`fn.options`). */
  raw: Record<string, RawFunction>;
  /** Where it came from (a path), for messages. */
  where: string;
}

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

/** The CPU backend for this process, loaded once by native() in ./binding.ts. */
export function loadCpuBackend(): LoadedCpuBackend {
  const where = findAddon();
  const require = createRequire(import.meta.url);
  return { name: 'native', raw: require(where) as Record<string, RawFunction>, where };
}
