// Node only: loads the WebAssembly CPU backend from the package (build/wasm/lapis.wasm,
// made by `npm run build:wasm`), synchronously, so native() in src/backend/cpu/binding.ts
// stays synchronous. LAPIS_WASM names another build (the --no-simd one, say).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instantiateWasmBackendSync, type WasmRawFunction } from './instantiate.js';

/** The environment variables the kernels read, passed into the module (it has no other view of the process). */
const KERNEL_ENV = ['LAPIS_KERNELS', 'LAPIS_NUM_THREADS'];

/** The wasm artifact's path: LAPIS_WASM if set, else build/wasm/lapis.wasm under the nearest ancestor that has it. */
export function wasmArtifactPath(): string | null {
  if (process.env.LAPIS_WASM) return process.env.LAPIS_WASM;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const p = join(dir, 'build', 'wasm', 'lapis.wasm');
    if (existsSync(p) && existsSync(join(dir, 'package.json'))) return p;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** The wasm backend's raw functions and where they came from; throws an Error saying how to build it when there is none. */
export function loadWasmBackend(): { raw: Record<string, WasmRawFunction>; where: string } {
  const where = wasmArtifactPath();
  if (!where || !existsSync(where)) {
    throw new Error(
      `lapis: the WebAssembly CPU backend is not built (${where ?? 'no build/wasm/lapis.wasm above this package'}); \`npm run build:wasm\` builds it (needs Emscripten)`,
    );
  }
  const env: Record<string, string> = {};
  for (const k of KERNEL_ENV) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  return { raw: instantiateWasmBackendSync(readFileSync(where), { env }), where };
}
