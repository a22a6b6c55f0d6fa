// Node only: loads the WebAssembly CPU backend from the package, synchronously, so native()
// in src/backend/cpu/binding.ts stays synchronous: build/wasm/lapis-mt.wasm (threaded, `npm
// run build:wasm -- --threads`) when it is there, else build/wasm/lapis.wasm (`npm run
// build:wasm`). LAPIS_WASM names another build (the --no-simd one, say). The threaded
// build's pool threads run on worker_threads, unref'd so that they never keep the process alive.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { instantiateWasmBackendSync, type PoolWorker, type WasmRawFunction, type WasmThreadOptions } from './instantiate.js';

/** The environment variables the kernels read, passed into the module (it has no other view of the process). */
const KERNEL_ENV = ['LAPIS_KERNELS', 'LAPIS_NUM_THREADS'];

/** The wasm artifact's path: LAPIS_WASM if set, else build/wasm/lapis-mt.wasm or lapis.wasm under the nearest ancestor that has one. */
export function wasmArtifactPath(): string | null {
  if (process.env.LAPIS_WASM) return process.env.LAPIS_WASM;
  const names = typeof SharedArrayBuffer === 'undefined' ? ['lapis.wasm'] : ['lapis-mt.wasm', 'lapis.wasm'];
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'package.json'))) {
      for (const name of names) {
        const p = join(dir, 'build', 'wasm', name);
        if (existsSync(p)) return p;
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

function spawnNodeWorker(source: string): PoolWorker {
  const w = new Worker(source, { eval: true });
  w.unref();
  return {
    post: (m) => w.postMessage(m),
    onMessage: (h) => {
      w.on('message', h);
      w.unref();  // a 'message' listener refs the worker again
    },
    terminate: () => {
      void w.terminate();
    },
  };
}

/** How the threaded build starts its pool threads in Node. */
export const nodeThreadOptions: WasmThreadOptions = {
  spawn: spawnNodeWorker,
  canBlock: true,
  startsWhileBlocked: true,
  hardwareConcurrency: typeof availableParallelism === 'function' ? availableParallelism() : cpus().length,
};

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
  return { raw: instantiateWasmBackendSync(readFileSync(where), { env, threads: nodeThreadOptions }), where };
}
